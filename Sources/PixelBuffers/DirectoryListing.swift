#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entries of one folder, read with `opendir`/`readdir` so that names that are not
/// UTF-8 are kept (as ``FileSystemPath`` strings) rather than dropped, and typed with
/// `lstat`/`stat` without opening anything (a FIFO is listed, never opened).
public struct DirectoryListing: Sendable, Hashable {
    /// What an entry is, links followed (``Entry/isSymbolicLink`` tells links apart).
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case regularFile
        /// A folder.
        case folder
        /// Anything else (FIFO, socket, device), or a link that leads nowhere; the reason
        /// says which.
        case other(reason: String)
    }

    /// One entry of the folder.
    public struct Entry: Sendable, Hashable {
        /// The entry's name (a ``FileSystemPath`` string: raw bytes kept).
        public var name: String
        /// The folder's path joined with the name.
        public var path: String
        /// What it is, symbolic links followed.
        public var kind: Kind
        /// Whether the entry itself is a symbolic link.
        public var isSymbolicLink: Bool
    }

    /// The entries, sorted by name (byte order of the UTF-8 text), `.` and `..` left out.
    public var entries: [Entry]

    /// Lists `folder`. O(entries) system calls.
    ///
    /// - Throws: ``FileAccessFailure`` with the system's reason when the folder cannot be
    ///   opened or read (permission, not a folder…).
    public init(folder: String) throws(FileAccessFailure) {
        guard let directory = FileSystemPath.withFileSystemRepresentation(folder, { opendir($0) }) else {
            throw FileAccessFailure(String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var found: [Entry] = []
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw FileAccessFailure(String(cString: strerror(errno))) }
                break
            }
            let nameBytes: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if nameBytes == [0x2E] || nameBytes == [0x2E, 0x2E] { continue }
            let name = FileSystemPath.string(fromFileSystemBytes: nameBytes)
            let path = prefix + name
            var linkStatus = stat()
            var status = stat()
            let isLink = FileSystemPath.withFileSystemRepresentation(path) { lstat($0, &linkStatus) } == 0
                && (linkStatus.st_mode & S_IFMT) == S_IFLNK
            let kind: Kind
            if FileSystemPath.withFileSystemRepresentation(path, { stat($0, &status) }) != 0 {
                kind = .other(reason: isLink ? "a symbolic link to nothing (\(String(cString: strerror(errno))))"
                                             : String(cString: strerror(errno)))
            } else {
                switch status.st_mode & S_IFMT {
                case S_IFREG: kind = .regularFile
                case S_IFDIR: kind = .folder
                default: kind = .other(reason: FileBytes.nonRegularKind(status.st_mode) ?? "not a regular file")
                }
            }
            found.append(Entry(name: name, path: path, kind: kind, isSymbolicLink: isLink))
        }
        entries = found.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// Whether `path` is a folder (links followed). Never opens it. O(1).
    public static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return FileSystemPath.withFileSystemRepresentation(path) { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether something exists at `path` (links followed). O(1).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return FileSystemPath.withFileSystemRepresentation(path) { stat($0, &status) } == 0
    }
}
