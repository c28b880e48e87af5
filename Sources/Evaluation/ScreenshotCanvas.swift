import PixelBuffers

/// A phone-screenshot-like canvas (720×1480, light theme) with a photo shown in a feed
/// post: status bar, app bar, author row, the photo with side margins, action icons,
/// caption lines, the next post and a navigation bar — what a person screenshots
/// before selecting the photo.
enum ScreenshotCanvas {
    /// Canvas width in pixels.
    static let width = 720
    /// Canvas height in pixels.
    static let height = 1480
    /// Horizontal margin between the screen edge and the photo.
    static let sideMargin = 24
    /// Top of the photo.
    static let photoTop = 220
    /// Lowest row the photo may reach (leaves room for the actions and the nav bar).
    static let photoBottomLimit = 1480 - 260

    /// Draws the canvas with `photo` scaled (bilinear) to the content width, or to the
    /// available height if it is tall. Returns the canvas and where the photo lies in it.
    static func compose(_ photo: RGBAImage) -> (canvas: RGBAImage, photo: PixelRect) {
        var canvas = RGBAImage(width: width, height: height, fill: (250, 250, 250))
        let dark: (UInt8, UInt8, UInt8) = (32, 33, 36), mid: (UInt8, UInt8, UInt8) = (95, 99, 104)
        let rule: (UInt8, UInt8, UInt8) = (218, 220, 224)
        // Status bar: time, signal, battery.
        canvas.fill(x: 0, y: 0, width: width, height: 48, dark)
        TextOverlay.draw("9:41", on: &canvas, x: 24, y: 14, cell: 3, color: (255, 255, 255), shadow: dark)
        for i in 0..<4 { canvas.fill(x: 560 + i * 10, y: 34 - i * 6, width: 6, height: 2 + i * 6, (255, 255, 255)) }
        canvas.fill(x: 620, y: 16, width: 48, height: 18, (255, 255, 255))
        canvas.fill(x: 623, y: 19, width: 42, height: 12, dark)
        canvas.fill(x: 625, y: 21, width: 30, height: 8, (255, 255, 255))
        // App bar with back arrow, title blocks and a menu.
        canvas.fill(x: 0, y: 48, width: width, height: 84, (255, 255, 255))
        for i in 0..<12 { canvas.fill(x: 30 + i, y: 88 - i, width: 4, height: 4, dark); canvas.fill(x: 30 + i, y: 88 + i, width: 4, height: 4, dark) }
        TextOverlay.draw("PHOTOS", on: &canvas, x: 80, y: 76, cell: 4, color: dark, shadow: (255, 255, 255))
        for i in 0..<3 { canvas.fill(x: 684, y: 74 + i * 14, width: 8, height: 8, dark) }
        canvas.fill(x: 0, y: 131, width: width, height: 2, rule)
        // Author row.
        canvas.fill(x: 24, y: 152, width: 48, height: 48, (26, 115, 232))
        canvas.fill(x: 88, y: 158, width: 140, height: 16, dark)
        canvas.fill(x: 88, y: 184, width: 210, height: 12, mid)
        // The photo.
        let contentWidth = width - 2 * sideMargin
        var shownWidth = contentWidth
        var shownHeight = max(1, (photo.height * contentWidth + photo.width / 2) / photo.width)
        if shownHeight > photoBottomLimit - photoTop {
            shownHeight = photoBottomLimit - photoTop
            shownWidth = max(1, (photo.width * shownHeight + photo.height / 2) / photo.height)
        }
        let photoX = (width - shownWidth) / 2
        canvas.paste(Resampling.bilinear(photo, width: shownWidth, height: shownHeight), x: photoX, y: photoTop)
        // Actions, caption and the start of the next post.
        var y = photoTop + shownHeight + 20
        for i in 0..<3 { canvas.fill(x: 24 + i * 60, y: y, width: 34, height: 34, mid); canvas.fill(x: 28 + i * 60, y: y + 4, width: 26, height: 26, (250, 250, 250)) }
        y += 56
        for (i, lineWidth) in [150, 560, 430, 260].enumerated() where y + i * 32 + 16 < height - 140 {
            canvas.fill(x: 24, y: y + i * 32, width: lineWidth, height: 16, i == 3 ? mid : dark)
        }
        y += 4 * 32 + 24
        if y + 80 < height - 120 {
            canvas.fill(x: 0, y: y, width: width, height: 2, rule)
            canvas.fill(x: 24, y: y + 20, width: 48, height: 48, (234, 67, 53))
            canvas.fill(x: 88, y: y + 26, width: 180, height: 16, dark)
            // A tall (portrait) photo leaves less than 8 rows here: no gradient then.
            for row in (y + 88)..<max(y + 88, height - 120) {
                let t = Double(row - y - 88) / Double(max(1, height - 120 - y - 88))
                canvas.fill(x: sideMargin, y: row, width: contentWidth, height: 1,
                            (UInt8(90 + 80 * t), UInt8(140 + 60 * t), UInt8(200 - 40 * t)))
            }
        }
        // Navigation bar and gesture handle.
        canvas.fill(x: 0, y: height - 120, width: width, height: 120, (255, 255, 255))
        canvas.fill(x: 0, y: height - 120, width: width, height: 2, rule)
        for i in 0..<5 { canvas.fill(x: 54 + i * 144, y: height - 98, width: 36, height: 36, mid); canvas.fill(x: 57 + i * 144, y: height - 95, width: 30, height: 30, (255, 255, 255)) }
        canvas.fill(x: width / 2 - 70, y: height - 24, width: 140, height: 8, dark)
        return (canvas, PixelRect(x: photoX, y: photoTop, width: shownWidth, height: shownHeight))
    }
}
