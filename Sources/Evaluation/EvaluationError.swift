/// Why an evaluation could not run or could not finish.
public enum EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A transformation could not be applied to an image (JPEG encode/decode failed).
    case transformationFailed(ImageTransformation, image: String, reason: String)
    /// A folder could not be listed (path, reason).
    case unreadableFolder(String, reason: String)
    /// A folder holds no PNG or JPEG image (path).
    case noImages(String)
    /// An image could not be decoded (path, reason).
    case decodeFailed(String, reason: String)
    /// The catalog could not be indexed into the temporary store (path, reason).
    case indexingFailed(String, reason: String)
    /// An existing catalog given to search cannot be used: it cannot be opened, or it lacks
    /// an image of the evaluated folder (path, reason).
    case unusableCatalog(String, reason: String)
    /// The query API failed for a query (image path, transformation, reason).
    case queryFailed(String, transformation: String, reason: String)
    /// An exported query could not be written (path, reason).
    case writeFailed(String, reason: String)

    /// One line naming the file or setting and the reason.
    public var description: String {
        switch self {
        case .transformationFailed(let t, let image, let reason): "\(image): transformation \(t) failed: \(reason)"
        case .unreadableFolder(let path, let reason): "\(path): cannot list folder: \(reason)"
        case .noImages(let path): "\(path): no PNG or JPEG images found"
        case .decodeFailed(let path, let reason): "\(path): cannot decode: \(reason)"
        case .indexingFailed(let path, let reason): "\(path): indexing failed: \(reason)"
        case .unusableCatalog(let path, let reason): "\(path): cannot evaluate against this catalog: \(reason)"
        case .queryFailed(let path, let t, let reason): "\(path) (\(t)): query failed: \(reason)"
        case .writeFailed(let path, let reason): "\(path): cannot write: \(reason)"
        }
    }
}
