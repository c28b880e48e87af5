import Fingerprints

/// One reference photo of a landmark: where the file is and, once indexed, its fingerprint.
public struct ReferenceImage: Sendable, Hashable {
    /// Absolute path of the image file.
    public var path: String
    /// The image's fingerprint, or `nil` when it has not been (or could not be) indexed.
    public var fingerprint: Fingerprint?

    /// Creates a reference image.
    public init(path: String, fingerprint: Fingerprint? = nil) {
        self.path = path
        self.fingerprint = fingerprint
    }
}
