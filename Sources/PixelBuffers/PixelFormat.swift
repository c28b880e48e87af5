/// The memory layout of one pixel in a ``PixelBuffer``.
///
/// Glimpse keeps only two layouts: every decoder converts to one of them, so the
/// kernels downstream never branch on exotic formats.
public enum PixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Four 8-bit channels in the order red, green, blue, alpha; alpha 255 is opaque.
    case rgba8
    /// One 8-bit luminance channel.
    case gray8

    /// Bytes one pixel occupies: 4 for ``rgba8``, 1 for ``gray8``.
    @inlinable
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .gray8: 1
        }
    }
}
