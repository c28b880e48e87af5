/// What the indexer remembers about an image file to skip it next time: size and
/// modification time (cheap to check), and the content hash under which its
/// fingerprint is cached.
struct FileState: Sendable, Hashable {
    var path: String
    var size: Int64
    /// Modification time in nanoseconds since 1970 (as precise as the file system gives).
    var mtimeNanoseconds: Int64
    var contentHash: ContentHash
}
