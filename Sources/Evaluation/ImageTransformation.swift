import Foundation
import Fingerprints
import PixelBuffers
import SyntheticData

/// One way the evaluation alters a catalog image to make a query, modelled on what
/// happens to photos in the wild: re-compression, resizing, cropping, screenshots,
/// edits and overlays. Every transformation is deterministic for a given seed.
public enum ImageTransformation: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// Re-encoded as JPEG at quality 20 (heavy blocking), then decoded.
    case jpegQ20 = "jpeg-q20"
    /// Re-encoded as JPEG at quality 75 (a typical web/messaging quality), then decoded.
    case jpegQ75 = "jpeg-q75"
    /// Downscaled to 25 % of the width and height by area averaging.
    case downscale25 = "downscale-25"
    /// 10 % of the width and height cut from every border (the central 80 % kept).
    case borderCrop10 = "crop-border-10"
    /// A 75 %×75 % window (25 % of each side cut away) placed off-centre: on each axis its
    /// offset lies in the first or last fifth of the free range (seeded).
    case offCentreCrop25 = "crop-offcentre-25"
    /// Pasted into a phone-screenshot-like canvas, then selected with 2–5 % (seeded) of
    /// UI margin on every side.
    case screenshot = "screenshot"
    /// Brightness ±15…30 levels and contrast ×0.8 or ×1.2…1.3 (seeded).
    case brightnessContrast = "brightness-contrast"
    /// Gamma 0.6…0.7 or 1.5…1.7 (seeded).
    case gamma = "gamma"
    /// Rotated 3° clockwise or counter-clockwise (seeded), same size, black corners.
    case rotate3 = "rotate-3"
    /// Gaussian blur with σ = 0.5 % of the long side (at least 1 pixel).
    case blur = "blur"
    /// Mirrored left to right.
    case flipHorizontal = "flip-horizontal"
    /// A caption in blocky letters drawn over the top or bottom (seeded) of the image.
    case textOverlay = "text-overlay"
    /// Stretched to 1.2× the width, height unchanged.
    case stretch = "stretch-1.2"
    /// Converted to gray (BT.601 luma in R, G and B).
    case grayscale = "grayscale"
    /// A window of half the image's area (each side ×√½, so the aspect is kept) placed
    /// off-centre as ``offCentreCrop25`` places its window.
    case halfAreaCrop = "crop-half-area"
    /// Rotated 90° counter-clockwise.
    case rotate90 = "rotate-90"
    /// Rotated 180°.
    case rotate180 = "rotate-180"
    /// Rotated 270° counter-clockwise (90° clockwise).
    case rotate270 = "rotate-270"
    /// Mirrored top to bottom.
    case flipVertical = "flip-vertical"
    /// Mirrored about the main diagonal (transposed).
    case transpose = "transpose"
    /// Mirrored about the anti-diagonal (transverse).
    case transverse = "transverse"
    /// ``flipHorizontal``, then ``offCentreCrop25``'s window.
    case flipHorizontalCrop = "flip-horizontal-crop"
    /// ``rotate90``, then ``offCentreCrop25``'s window.
    case rotate90Crop = "rotate-90-crop"
    /// ``rotate180``, then ``offCentreCrop25``'s window.
    case rotate180Crop = "rotate-180-crop"
    /// ``rotate270``, then ``offCentreCrop25``'s window.
    case rotate270Crop = "rotate-270-crop"
    /// ``flipVertical``, then ``offCentreCrop25``'s window.
    case flipVerticalCrop = "flip-vertical-crop"
    /// ``transpose``, then ``offCentreCrop25``'s window.
    case transposeCrop = "transpose-crop"
    /// ``transverse``, then ``offCentreCrop25``'s window.
    case transverseCrop = "transverse-crop"
    /// ``flipHorizontal``, then shown in a ``screenshot``.
    case flipHorizontalScreenshot = "flip-horizontal-screenshot"
    /// ``rotate90``, then shown in a ``screenshot``.
    case rotate90Screenshot = "rotate-90-screenshot"
    /// ``rotate180``, then shown in a ``screenshot``.
    case rotate180Screenshot = "rotate-180-screenshot"
    /// ``rotate270``, then shown in a ``screenshot``.
    case rotate270Screenshot = "rotate-270-screenshot"
    /// ``flipVertical``, then shown in a ``screenshot``.
    case flipVerticalScreenshot = "flip-vertical-screenshot"
    /// ``transpose``, then shown in a ``screenshot``.
    case transposeScreenshot = "transpose-screenshot"
    /// ``transverse``, then shown in a ``screenshot``.
    case transverseScreenshot = "transverse-screenshot"
    /// A print or screen photographed with the camera tilted 10° away from facing it (a
    /// keystone), in a seeded direction (any azimuth: an edge, a corner or anything between
    /// leaning away), selected with a seeded margin of 1–8 % of the longer side of plain
    /// background around it, slightly out of focus (σ 0.15 % of the longer side, at least
    /// 0.6 px) and exposed differently (gamma 0.8–1.25). Moiré is not modelled.
    case keystone10 = "keystone-10"
    /// ``keystone10`` at 20°.
    case keystone20 = "keystone-20"
    /// A "vintage" filter: sepia toning (80–100 %), blacks faded to 10–30 and a vignette
    /// taking 30–50 % of the brightness at the corners (seeded).
    case sepiaVignette = "sepia-vignette"
    /// A strong white-balance shift: warm (red ×1.15–1.3, blue ×0.7–0.85) or cool (the
    /// opposite), seeded.
    case whiteBalance = "white-balance"

    /// The transformations of the first evaluation (issue 4), before orientations and the
    /// half-area crop were added: the families every older report has.
    public static let upright: [ImageTransformation] = [
        .jpegQ20, .jpegQ75, .downscale25, .borderCrop10, .offCentreCrop25, .screenshot, .brightnessContrast, .gamma,
        .rotate3, .blur, .flipHorizontal, .textOverlay, .stretch, .grayscale,
    ]

    /// The symmetry of the picture this transformation applies (before any crop or
    /// screenshot), ``Dihedral/original`` for the others.
    public var orientation: Dihedral {
        switch self {
        case .flipHorizontal, .flipHorizontalCrop, .flipHorizontalScreenshot: .flipY
        case .rotate90, .rotate90Crop, .rotate90Screenshot: .rotate90
        case .rotate180, .rotate180Crop, .rotate180Screenshot: .rotate180
        case .rotate270, .rotate270Crop, .rotate270Screenshot: .rotate270
        case .flipVertical, .flipVerticalCrop, .flipVerticalScreenshot: .flipX
        case .transpose, .transposeCrop, .transposeScreenshot: .flipPlus1
        case .transverse, .transverseCrop, .transverseScreenshot: .flipMinus1
        default: .original
        }
    }

    /// What follows the orientation in a composite transformation (crop or screenshot).
    private var afterOrientation: ImageTransformation? {
        switch self {
        case .flipHorizontalCrop, .rotate90Crop, .rotate180Crop, .rotate270Crop, .flipVerticalCrop, .transposeCrop, .transverseCrop:
            .offCentreCrop25
        case .flipHorizontalScreenshot, .rotate90Screenshot, .rotate180Screenshot, .rotate270Screenshot, .flipVerticalScreenshot,
             .transposeScreenshot, .transverseScreenshot:
            .screenshot
        default: nil
        }
    }

    /// The short name used in reports and on the command line (the raw value).
    public var description: String { rawValue }

    /// Applies the transformation. The result is RGBA8 (or a zero-copy region of an RGBA8
    /// canvas for ``screenshot``). Cost: O(pixels) for most; blur O(pixels × σ); JPEG
    /// cases encode and decode once.
    ///
    /// - Parameters:
    ///   - image: the source pixels (RGBA8 or Gray8).
    ///   - seed: drives every random choice; the same seed gives the same pixels.
    /// - Throws: ``EvaluationError/transformationFailed(_:image:reason:)`` if JPEG
    ///   encoding or decoding fails, naming `name`.
    public func apply(to image: PixelBuffer, seed: UInt64, name: String = "<image>") throws(EvaluationError) -> PixelBuffer {
        var random = SeededGenerator(seed: seed ^ saltValue)
        let source = RGBAImage(image)
        if orientation != .original {
            let turned = Self.oriented(source, orientation)
            guard let next = afterOrientation else { return turned.pixelBuffer }
            return try next.apply(to: turned.pixelBuffer, seed: seed, name: name)
        }
        switch self {
        case .jpegQ20, .jpegQ75:
            return try JPEGRoundTrip.apply(source.pixelBuffer, quality: self == .jpegQ20 ? 20 : 75, name: name)
        case .downscale25:
            return Resampling.areaAverage(source, width: max(1, (source.width + 2) / 4),
                                          height: max(1, (source.height + 2) / 4)).pixelBuffer
        case .borderCrop10:
            let dx = source.width / 10, dy = source.height / 10
            return Self.region(source.pixelBuffer, PixelRect(x: dx, y: dy, width: source.width - 2 * dx, height: source.height - 2 * dy))
        case .offCentreCrop25, .halfAreaCrop:
            let side = self == .halfAreaCrop ? 0.5.squareRoot() : 0.75
            let w = max(1, Int(Double(source.width) * side)), h = max(1, Int(Double(source.height) * side))
            let x = Self.offCentre(slack: source.width - w, &random)
            let y = Self.offCentre(slack: source.height - h, &random)
            return Self.region(source.pixelBuffer, PixelRect(x: x, y: y, width: w, height: h))
        case .screenshot:
            let (canvas, photo) = ScreenshotCanvas.compose(source)
            let mx = Int((Double(photo.width) * random.unit(in: 0.02...0.05)).rounded())
            let my = Int((Double(photo.height) * random.unit(in: 0.02...0.05)).rounded())
            let x0 = max(0, photo.x - mx), y0 = max(0, photo.y - my)
            let x1 = min(canvas.width, photo.x + photo.width + mx), y1 = min(canvas.height, photo.y + photo.height + my)
            return Self.region(canvas.pixelBuffer, PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        case .brightnessContrast:
            let brightness = random.unit(in: 15...30) * (random.coin() ? 1 : -1)
            let contrast = random.coin() ? random.unit(in: 1.2...1.3) : random.unit(in: 0.75...0.85)
            return ToneAdjustments.brightnessContrast(source, brightness: brightness, contrast: contrast).pixelBuffer
        case .gamma:
            let gamma = random.coin() ? random.unit(in: 0.6...0.7) : random.unit(in: 1.5...1.7)
            return ToneAdjustments.gamma(source, gamma).pixelBuffer
        case .rotate3:
            return Resampling.rotated(source, degrees: random.coin() ? 3 : -3, fill: (0, 0, 0)).pixelBuffer
        case .blur:
            return GaussianBlur.blurred(source, sigma: max(1, 0.005 * Double(max(source.width, source.height)))).pixelBuffer
        case .textOverlay:
            let caption = TextOverlay.captions[Int(random.next() % UInt64(TextOverlay.captions.count))]
            let widest = TextOverlay.width(of: caption, cell: 1)
            let cell = max(1, min(source.height / 35, source.width * 85 / 100 / widest))
            let textWidth = TextOverlay.width(of: caption, cell: cell), textHeight = BlockFont.glyphHeight * cell
            let x = (source.width - textWidth) / 2
            let band = max(0, source.height / 12)
            let y = random.coin() ? band : source.height - band - textHeight
            var out = source
            TextOverlay.draw(caption, on: &out, x: x, y: y, cell: cell)
            return out.pixelBuffer
        case .stretch:
            return Resampling.bilinear(source, width: max(1, Int((Double(source.width) * 1.2).rounded())), height: source.height).pixelBuffer
        case .grayscale:
            return ToneAdjustments.grayscale(source).pixelBuffer
        case .keystone10, .keystone20:
            let angle = self == .keystone10 ? 10.0 : 20.0
            let azimuth = random.unit(in: 0...(2 * Double.pi))
            let grey = random.unit(in: 50...200)
            let background = (UInt8(grey), UInt8(grey * 0.95), UInt8(grey * 0.88))
            let margin = random.unit(in: 0.01...0.08)
            let tilted = Resampling.tilted(source, tiltDown: angle * cos(azimuth), tiltRight: angle * sin(azimuth), margin: margin,
                                           fill: background)
            let focus = GaussianBlur.blurred(tilted, sigma: max(0.6, 0.0015 * Double(max(tilted.width, tilted.height))))
            return ToneAdjustments.gamma(focus, random.coin() ? random.unit(in: 0.8...0.95) : random.unit(in: 1.05...1.25)).pixelBuffer
        case .sepiaVignette:
            return ColourFilters.sepiaVignette(source, strength: random.unit(in: 0.8...1), fade: random.unit(in: 10...30),
                                               vignette: random.unit(in: 0.3...0.5)).pixelBuffer
        case .whiteBalance:
            let up = random.unit(in: 1.15...1.3), down = random.unit(in: 0.7...0.85)
            let gains = random.coin() ? (red: up, green: 1.0, blue: down) : (red: down, green: 1.0, blue: up)
            return ColourFilters.whiteBalance(source, gains: gains).pixelBuffer
        default:
            preconditionFailure("\(self) is an orientation, handled above")
        }
    }

    /// `image` in orientation `transform`: pixel (row r, column c) of the result is the
    /// source pixel ``Dihedral/sourceCell(row:column:rows:columns:)`` names. O(pixels).
    static func oriented(_ image: RGBAImage, _ transform: Dihedral) -> RGBAImage {
        let (w, h) = transform.swapsAxes ? (image.height, image.width) : (image.width, image.height)
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        for r in 0..<h {
            for c in 0..<w {
                let s = transform.sourceCell(row: r, column: c, rows: image.height, columns: image.width)
                let from = (s.row * image.width + s.column) * 4, to = (r * w + c) * 4
                for k in 0..<4 { out[to + k] = image.pixels[from + k] }
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }

    /// An offset in `0...slack` away from the centre: within the first or the last fifth of
    /// the slack (seeded), so the window sits towards one side without being flush with it.
    static func offCentre(slack: Int, _ random: inout SeededGenerator) -> Int {
        let fraction = random.unit(in: 0...0.2)
        let offset = Int((Double(slack) * fraction).rounded())
        return random.coin() ? offset : slack - offset
    }

    /// A zero-copy view; the rectangles above always fit, so failure is a programming error.
    private static func region(_ buffer: PixelBuffer, _ rect: PixelRect) -> PixelBuffer {
        do {
            return try buffer.region(rect)
        } catch {
            preconditionFailure("transformation region \(rect) must fit \(buffer.width)x\(buffer.height): \(error)")
        }
    }

    /// Mixed into the seed so each transformation draws its own numbers for an image.
    private var saltValue: UInt64 {
        SeededGenerator.seed(for: rawValue, salt: 0x5EED)
    }
}
