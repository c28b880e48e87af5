#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file memory-mapped read-only, the way the index files are opened: without
/// blocking on a FIFO or device (refused), and only when at least a header long.
enum ReadOnlyMapping {
    /// What ``map(_:minimumSize:)`` found.
    enum Outcome {
        /// Mapped: the start and the length (the caller owns the mapping: `munmap` it).
        case mapped(UnsafeMutableRawPointer, Int)
        /// No file, or it could not be opened.
        case missing
        /// A file that cannot be used (why: not regular, too short, not mappable).
        case refused(String)
    }

    /// Maps the file at `path` when it is a regular file of at least `minimumSize` bytes.
    /// O(1) system calls.
    static func map(_ path: String, minimumSize: Int) -> Outcome {
        // O_NONBLOCK: a FIFO (or device) at the path must not block the open; it is refused below.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .missing }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .refused("not a regular file") }
        let size = Int(info.st_size)
        guard size >= minimumSize else { return .refused("shorter than its header (\(size) bytes)") }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            return .refused("cannot be mapped: \(String(cString: strerror(errno)))")
        }
        return .mapped(mapped, size)
    }
}
