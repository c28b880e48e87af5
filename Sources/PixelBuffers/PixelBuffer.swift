/// A read-only, immutable rectangle of pixels in contiguous rows.
///
/// Storage is a copy-on-write byte array shared between a buffer and every region
/// view made from it, so ``region(_:)`` costs O(1) and copies nothing. Rows may be
/// padded: row `y` starts at byte `y * bytesPerRow` of ``withUnsafeBytes(_:)``.
///
/// A `PixelBuffer` is `Sendable` and safe to share across threads.
public struct PixelBuffer: Sendable, Hashable {
    /// Layout of each pixel.
    public let format: PixelFormat
    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// Distance in bytes from the start of one row to the start of the next
    /// (≥ `width * format.bytesPerPixel`).
    public let bytesPerRow: Int

    @usableFromInline let storage: [UInt8]
    /// Byte offset of pixel (0, 0) inside `storage`.
    @usableFromInline let origin: Int

    /// Wraps existing bytes without copying them.
    ///
    /// - Throws: ``PixelBufferError/invalidLayout(_:)`` when the sizes are not positive,
    ///   `bytesPerRow` is too small, or `bytes` is too short to hold every row.
    public init(format: PixelFormat, width: Int, height: Int, bytesPerRow: Int? = nil, bytes: [UInt8]) throws(PixelBufferError) {
        let minimumRow = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let stride = bytesPerRow ?? minimumRow.partialValue
        guard width > 0, height > 0, !minimumRow.overflow else {
            throw .invalidLayout("size \(width)x\(height) must be positive")
        }
        guard stride >= minimumRow.partialValue else {
            throw .invalidLayout("bytesPerRow \(stride) is less than width × \(format.bytesPerPixel) = \(minimumRow.partialValue)")
        }
        let needed = (height - 1).multipliedReportingOverflow(by: stride)
        guard !needed.overflow, needed.partialValue <= Int.max - minimumRow.partialValue,
              bytes.count >= needed.partialValue + minimumRow.partialValue else {
            throw .invalidLayout("\(bytes.count) bytes cannot hold \(height) rows of \(stride) bytes")
        }
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.storage = bytes
        self.origin = 0
    }

    @usableFromInline
    init(unchecked format: PixelFormat, width: Int, height: Int, bytesPerRow: Int, storage: [UInt8], origin: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.storage = storage
        self.origin = origin
    }

    /// Number of pixels, `width * height`.
    @inlinable public var pixelCount: Int { width * height }

    /// Bytes of pixel data in one row, without padding.
    @inlinable public var rowByteCount: Int { width * format.bytesPerPixel }

    /// Whether rows follow each other with no padding, so the pixels form one
    /// contiguous run of `height * rowByteCount` bytes.
    @inlinable public var isContiguous: Bool { bytesPerRow == rowByteCount }

    /// A zero-copy view of a rectangle of this buffer. O(1).
    ///
    /// - Throws: ``PixelBufferError/regionOutside(_:width:height:)`` when the
    ///   rectangle is empty or does not lie wholly inside the buffer.
    public func region(_ rect: PixelRect) throws(PixelBufferError) -> PixelBuffer {
        guard !rect.isEmpty, rect.fits(width: width, height: height) else {
            throw .regionOutside(rect, width: width, height: height)
        }
        return PixelBuffer(
            unchecked: format, width: rect.width, height: rect.height, bytesPerRow: bytesPerRow,
            storage: storage, origin: origin + rect.y * bytesPerRow + rect.x * format.bytesPerPixel)
    }

    /// Calls `body` with the bytes of row `y` (exactly ``rowByteCount`` bytes).
    ///
    /// - Precondition: `0 <= y < height`; an out-of-range row is a programming error.
    @inlinable
    public func withRow<R>(_ y: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        return try storage.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[(origin + y * bytesPerRow)..<(origin + y * bytesPerRow + rowByteCount)]))
        }
    }

    /// The bytes of row `y`, copied into a new array, or `nil` when `y` is out of range.
    public func row(_ y: Int) -> [UInt8]? {
        guard y >= 0 && y < height else { return nil }
        return withRow(y) { Array($0) }
    }

    /// Calls `body` with a pointer to pixel (0, 0); row `y` starts `y * bytesPerRow` bytes later
    /// and the last row is ``rowByteCount`` bytes long. This is the hot-path accessor: no copy.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { all in
            let length = (height - 1) * bytesPerRow + rowByteCount
            return try body(UnsafeRawBufferPointer(rebasing: all[origin..<(origin + length)]))
        }
    }

    /// The pixels as one tightly packed array (`height * rowByteCount` bytes). Copies
    /// unless the buffer already is a contiguous, unshifted whole. O(pixels).
    public func packedBytes() -> [UInt8] {
        if origin == 0 && isContiguous && storage.count == height * rowByteCount { return storage }
        var out = [UInt8]()
        out.reserveCapacity(height * rowByteCount)
        for y in 0..<height { withRow(y) { out.append(contentsOf: $0) } }
        return out
    }

    /// Two buffers are equal when they have the same format, size and pixel values
    /// (padding and sharing are ignored).
    public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
        guard lhs.format == rhs.format, lhs.width == rhs.width, lhs.height == rhs.height else { return false }
        for y in 0..<lhs.height where lhs.withRow(y, { a in rhs.withRow(y) { b in !a.elementsEqual(b) } }) {
            return false
        }
        return true
    }

    /// Hashes format, size and the first row; consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(format)
        hasher.combine(width)
        hasher.combine(height)
        withRow(0) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// Why a ``PixelBuffer`` could not be made or viewed.
public enum PixelBufferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sizes given do not describe a valid buffer (message says which).
    case invalidLayout(String)
    /// A region is empty or reaches outside the buffer.
    case regionOutside(PixelRect, width: Int, height: Int)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .invalidLayout(let why): "invalid pixel buffer layout: \(why)"
        case .regionOutside(let r, let w, let h):
            r.isEmpty ? "region \(r) is empty" : "region \(r) lies outside the \(w)x\(h) image"
        }
    }
}
