#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a person selected, ready for search: the pixels of the selected region plus
/// labels and where the pixels came from. Mirrors App Intents'
/// `SemanticContentDescriptor` (`pixelBuffer` + `labels`).
///
/// Made from a file path or in-memory bytes plus an optional region (decoded with
/// ``ImageDecoder``), or directly from a ``PixelBuffer``. A value type, `Sendable`.
public struct SemanticContentDescriptor: Sendable, Hashable {
    /// Where the pixels came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// Decoded from the file at this path.
        case file(path: String)
        /// Decoded from these in-memory encoded bytes, named `name` in messages.
        case data(Data, name: String)
        /// Handed over as raw pixels; nothing was decoded.
        case pixels

        /// The path, the in-memory name, or `"<pixels>"`.
        public var description: String {
            switch self {
            case .file(let path): path
            case .data(_, let name): name
            case .pixels: "<pixels>"
            }
        }
    }

    /// The selected pixels, or `nil` when the descriptor carries only labels.
    public var pixelBuffer: PixelBuffer?
    /// Words describing the content (for example from a classifier or the user), in order.
    public var labels: [String]
    /// Where the pixels came from.
    public var source: Source
    /// The region that was selected, as requested (`nil`: the whole image).
    public var region: DecodeOptions.Region?
    /// Header and decode details when the pixels were decoded here, else `nil`.
    public var decoded: DecodedImageSummary?

    /// Wraps raw pixels (or none) and labels; nothing is decoded. O(1).
    public init(pixelBuffer: PixelBuffer?, labels: [String] = []) {
        self.pixelBuffer = pixelBuffer
        self.labels = labels
        self.source = .pixels
        self.region = nil
        self.decoded = nil
    }

    /// Decodes `region` (default: whole image) of the file at `path` and wraps it.
    ///
    /// `options.region` is replaced by `region`. Costs one decode of that region.
    public init(contentsOfFile path: String, region: DecodeOptions.Region? = nil, labels: [String] = [],
                options: DecodeOptions = DecodeOptions(), decoder: ImageDecoder = ImageDecoder()) throws(DecodeError) {
        var options = options
        options.region = region
        let image = try decoder.decode(file: path, options: options)
        self.init(image: image, source: .file(path: path), region: region, labels: labels)
    }

    /// Decodes `region` (default: whole image) of in-memory PNG or JPEG bytes and wraps it;
    /// `name` identifies the bytes in errors. Costs one decode of that region.
    public init(data: Data, name: String = "<memory>", region: DecodeOptions.Region? = nil, labels: [String] = [],
                options: DecodeOptions = DecodeOptions(), decoder: ImageDecoder = ImageDecoder()) throws(DecodeError) {
        var options = options
        options.region = region
        let image = try decoder.decode(data, source: name, options: options)
        self.init(image: image, source: .data(data, name: name), region: region, labels: labels)
    }

    private init(image: DecodedImage, source: Source, region: DecodeOptions.Region?, labels: [String]) {
        self.pixelBuffer = image.pixels
        self.labels = labels
        self.source = source
        self.region = region
        self.decoded = DecodedImageSummary(image)
    }
}

/// The facts about a decode that a descriptor keeps (everything but the pixels).
public struct DecodedImageSummary: Sendable, Hashable {
    /// What the header declared.
    public let info: ImageInfo
    /// The DCT scale used.
    public let scale: DCTScale
    /// The orientation applied to the pixels.
    public let appliedOrientation: ExifOrientation
    /// The region in full-resolution coordinates of the output orientation.
    public let region: PixelRect

    /// The summary of `image`.
    public init(_ image: DecodedImage) {
        info = image.info
        scale = image.scale
        appliedOrientation = image.appliedOrientation
        region = image.region
    }
}
