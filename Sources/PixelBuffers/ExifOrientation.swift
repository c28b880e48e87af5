/// The EXIF `Orientation` tag (0x0112): how the stored pixels must be turned to show
/// the picture upright.
///
/// Raw values are the tag's values 1…8. A missing or invalid tag is ``up``.
public enum ExifOrientation: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left-right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top-bottom.
    case downMirrored = 4
    /// 5: transposed (mirrored along the main diagonal).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to view.
    case right = 6
    /// 7: transversed (mirrored along the anti-diagonal).
    case rightMirrored = 7
    /// 8: must be rotated 90° counter-clockwise to view.
    case left = 8

    /// Creates the orientation for a tag value; values outside 1…8 give ``up``.
    public init(tag: Int) { self = ExifOrientation(rawValue: tag) ?? .up }

    /// Whether the upright picture's width is the stored height (orientations 5–8).
    @inlinable public var swapsAxes: Bool { rawValue >= 5 }

    /// The upright size of a stored `width`×`height` image.
    @inlinable public func orientedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// The stored pixel shown at upright position (`x`, `y`), for a stored image of
    /// `storedWidth`×`storedHeight`. O(1).
    @inlinable
    public func storedPoint(x: Int, y: Int, storedWidth w: Int, storedHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (w - 1 - x, y)
        case .down: (w - 1 - x, h - 1 - y)
        case .downMirrored: (x, h - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, h - 1 - x)
        case .rightMirrored: (w - 1 - y, h - 1 - x)
        case .left: (w - 1 - y, x)
        }
    }

    /// The stored rectangle that holds an upright rectangle's pixels. The rectangle must
    /// lie inside the upright image; the result then lies inside the stored one. O(1).
    public func storedRect(for rect: PixelRect, storedWidth w: Int, storedHeight h: Int) -> PixelRect {
        let a = storedPoint(x: rect.x, y: rect.y, storedWidth: w, storedHeight: h)
        let b = storedPoint(x: rect.x + rect.width - 1, y: rect.y + rect.height - 1, storedWidth: w, storedHeight: h)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }

    /// `"1 (up)"`, `"6 (rotate 90° CW)"`, …
    public var description: String {
        switch self {
        case .up: "1 (upright)"
        case .upMirrored: "2 (mirrored horizontally)"
        case .down: "3 (rotated 180°)"
        case .downMirrored: "4 (mirrored vertically)"
        case .leftMirrored: "5 (transposed)"
        case .right: "6 (rotate 90° clockwise to view)"
        case .rightMirrored: "7 (transversed)"
        case .left: "8 (rotate 90° counter-clockwise to view)"
        }
    }
}

extension PixelBuffer {
    /// This buffer, taken as stored pixels, turned upright according to `orientation`.
    /// Returns `self` unchanged for ``ExifOrientation/up``; otherwise copies every pixel
    /// once into a new contiguous buffer. O(pixels).
    public func oriented(_ orientation: ExifOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let (ow, oh) = orientation.orientedSize(width: width, height: height)
        let bpp = format.bytesPerPixel
        let stride = bytesPerRow
        let (w, h) = (width, height)
        // Step, in source bytes, between neighbouring output pixels along x, and the source
        // offset of each output row's first pixel: every orientation is an affine walk.
        let first = { (y: Int) -> Int in
            let p = orientation.storedPoint(x: 0, y: y, storedWidth: w, storedHeight: h)
            return p.y * stride + p.x * bpp
        }
        let p0 = orientation.storedPoint(x: 0, y: 0, storedWidth: w, storedHeight: h)
        let p1 = orientation.storedPoint(x: min(1, ow - 1), y: 0, storedWidth: w, storedHeight: h)
        let step = ow > 1 ? (p1.y - p0.y) * stride + (p1.x - p0.x) * bpp : 0
        let bytes = [UInt8](unsafeUninitializedCapacity: ow * oh * bpp) { out, count in
            withUnsafeBytes { src in
                guard let base = src.baseAddress, let dst = out.baseAddress else { return }
                for y in 0..<oh {
                    var s = first(y)
                    var d = y * ow * bpp
                    if bpp == 4 {
                        for _ in 0..<ow {
                            UnsafeMutableRawPointer(dst + d).storeBytes(
                                of: base.loadUnaligned(fromByteOffset: s, as: UInt32.self), as: UInt32.self)
                            s += step
                            d += 4
                        }
                    } else {
                        for _ in 0..<ow {
                            dst[d] = base.load(fromByteOffset: s, as: UInt8.self)
                            s += step
                            d += 1
                        }
                    }
                }
            }
            count = ow * oh * bpp
        }
        return PixelBuffer(unchecked: format, width: ow, height: oh, bytesPerRow: ow * bpp, storage: bytes, origin: 0)
    }
}
