/// The result of ``ImageDecoder/decode(file:options:)``: pixels plus how they were made.
public struct DecodedImage: Sendable, Hashable {
    /// What the header declared.
    public let info: ImageInfo
    /// The decoded pixels: the region, scaled, turned upright when asked.
    public let pixels: PixelBuffer
    /// The DCT scale used (always ``DCTScale/full`` for PNG).
    public let scale: DCTScale
    /// The orientation applied to the pixels: ``ImageInfo/orientation``, or
    /// ``ExifOrientation/up`` when the stored orientation was kept.
    public let appliedOrientation: ExifOrientation
    /// The requested region in full-resolution coordinates of the output orientation
    /// (the whole image when no region was given).
    public let region: PixelRect
    /// The same region in full-resolution stored coordinates.
    public let storedRegion: PixelRect
    /// What the codec actually decoded, in stored coordinates of the *scaled* image
    /// (edges rounded outward when scaling).
    public let decodedRegion: PixelRect
    /// When ``DecodeOptions/allowDamaged`` was set and the data was damaged, the codec's
    /// first complaint; otherwise `nil`.
    public let damage: String?

    /// Creates a result (normally made by ``ImageDecoder``).
    public init(info: ImageInfo, pixels: PixelBuffer, scale: DCTScale, appliedOrientation: ExifOrientation,
                region: PixelRect, storedRegion: PixelRect, decodedRegion: PixelRect, damage: String?) {
        self.info = info
        self.pixels = pixels
        self.scale = scale
        self.appliedOrientation = appliedOrientation
        self.region = region
        self.storedRegion = storedRegion
        self.decodedRegion = decodedRegion
        self.damage = damage
    }
}
