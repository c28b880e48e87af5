/// What the indexer remembers about an image file to skip it next time: size and
/// modification time (cheap to check), and the content hash under which its
/// fingerprint is cached.
public struct FileState: Sendable, Hashable {
    /// The image file's path as the catalog source names it.
    public var path: String
    /// Size in bytes.
    public var size: Int64
    /// Modification time in nanoseconds since 1970 (as precise as the file system gives).
    public var mtimeNanoseconds: Int64
    /// The hash of the bytes that were fingerprinted.
    public var contentHash: ContentHash

    /// Creates a file state.
    public init(path: String, size: Int64, mtimeNanoseconds: Int64, contentHash: ContentHash) {
        self.path = path
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.contentHash = contentHash
    }
}
