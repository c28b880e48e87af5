/// Draws a caption in ``BlockFont`` onto an image, as meme generators and photo apps do:
/// white glyphs with a dark drop shadow. O(caption area).
enum TextOverlay {
    /// Captions the evaluation chooses from (seeded).
    static let captions = ["GREETINGS FROM HERE", "SUMMER 2024", "MY HOLIDAY!", "LOOK AT THIS", "BEST DAY EVER", "WISH YOU WERE HERE"]

    /// Draws `text` with its top-left corner at (x, y), each font cell `cell`×`cell` pixels.
    /// Parts that fall outside the image are clipped.
    static func draw(_ text: String, on image: inout RGBAImage, x: Int, y: Int, cell: Int,
                     color: (UInt8, UInt8, UInt8) = (255, 255, 255), shadow: (UInt8, UInt8, UInt8) = (20, 20, 20)) {
        let shadowOffset = max(1, cell / 2)
        for pass in 0..<2 {
            let (dx, dy, rgb) = pass == 0 ? (shadowOffset, shadowOffset, shadow) : (0, 0, color)
            for (i, character) in text.enumerated() {
                let left = x + i * BlockFont.advance * cell
                for row in 0..<BlockFont.glyphHeight {
                    for column in 0..<BlockFont.glyphWidth where BlockFont.isSet(character, column: column, row: row) {
                        image.fill(x: left + column * cell + dx, y: y + row * cell + dy, width: cell, height: cell, rgb)
                    }
                }
            }
        }
    }

    /// Width in pixels of `text` drawn with cells of `cell` pixels (without the shadow).
    static func width(of text: String, cell: Int) -> Int {
        text.isEmpty ? 0 : ((text.count - 1) * BlockFont.advance + BlockFont.glyphWidth) * cell
    }
}
