#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files with POSIX calls, so a failure carries the system's reason (`No such file
/// or directory`, `Permission denied`…), and only ever reads **regular files**: a path
/// is opened with `O_NONBLOCK` (so a FIFO, a device or a socket never blocks the open),
/// its type is checked with `fstat` on that descriptor (links followed), and anything but
/// a regular file is refused with its kind before a byte is read. Paths are
/// ``FileSystemPath`` strings (names that are not UTF-8 work).
public enum FileBytes {
    /// What `stat` says about a regular file.
    public struct Status: Sendable, Hashable {
        /// Size in bytes.
        public var size: Int64
        /// Modification time in nanoseconds since 1970.
        public var modificationNanoseconds: Int64
    }

    /// The bytes of the regular file at `path`. O(file size).
    ///
    /// - Throws: ``DecodeError/unreadableFile(source:reason:)`` when it cannot be opened
    ///   or read or is not a regular file (the reason names its kind: folder, FIFO…).
    public static func contents(ofFile path: String) throws(DecodeError) -> [UInt8] {
        let fd: Int32
        var status = stat()
        switch openRegularFile(path, status: &status) {
        case .success(let opened): fd = opened
        case .failure(let reason): throw .unreadableFile(source: path, reason: reason.description)
        }
        defer { close(fd) }
        // Read straight into an array of the file's size; then keep reading in case the
        // file grew until end of file.
        let expected = max(0, Int(status.st_size))
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected, let base = buffer.baseAddress {
                let got = read(fd, base + count, expected - count)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errno }
                if got <= 0 { break }
                count += got
            }
        }
        guard failure == 0 else { throw .unreadableFile(source: path, reason: String(cString: strerror(failure))) }
        guard bytes.count == expected else { return bytes } // shrank while reading: take what is there
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .unreadableFile(source: path, reason: systemError()) }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
        }
        return bytes
    }

    /// At most `count` first bytes of the regular file at `path` (for recognising a
    /// format), or why it cannot be read. O(count).
    public static func head(ofFile path: String, count: Int) -> Result<[UInt8], FileAccessFailure> {
        var status = stat()
        let fd: Int32
        switch openRegularFile(path, status: &status) {
        case .success(let opened): fd = opened
        case .failure(let reason): return .failure(reason)
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, count - got) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(FileAccessFailure(systemError())) }
            if n == 0 { break }
            got += n
        }
        return .success(Array(bytes[0..<got]))
    }

    /// Size and modification time of the regular file at `path` (links followed), or why
    /// it is not one. Never opens the file. O(1).
    public static func regularFileStatus(_ path: String) -> Result<Status, FileAccessFailure> {
        var status = stat()
        let result = FileSystemPath.withFileSystemRepresentation(path) { stat($0, &status) }
        guard result == 0 else { return .failure(FileAccessFailure(systemError())) }
        if let kind = nonRegularKind(status.st_mode) { return .failure(FileAccessFailure(kind)) }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return .success(Status(size: Int64(status.st_size),
                               modificationNanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)))
    }

    /// Opens `path` read-only without blocking and keeps it only if it is a regular file;
    /// the descriptor is switched back to blocking reads.
    private static func openRegularFile(_ path: String, status: inout stat) -> Result<Int32, FileAccessFailure> {
        let fd = FileSystemPath.withFileSystemRepresentation(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { return .failure(FileAccessFailure(systemError())) }
        guard fstat(fd, &status) == 0 else {
            let reason = systemError()
            close(fd)
            return .failure(FileAccessFailure(reason))
        }
        if let kind = nonRegularKind(status.st_mode) {
            close(fd)
            return .failure(FileAccessFailure(kind))
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return .success(fd)
    }

    /// Why a file of mode `mode` is not read, or nil for a regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a directory"
        case S_IFIFO: "is a FIFO (named pipe), not a regular file"
        case S_IFSOCK: "is a socket, not a regular file"
        case S_IFCHR, S_IFBLK: "is a device, not a regular file"
        default: "not a regular file"
        }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

/// Why a file could not be read or written: the system's reason (`Permission denied`) or the kind of
/// file that is not read (`is a FIFO (named pipe), not a regular file`).
public struct FileAccessFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, lower-case, without the path.
    public var description: String

    /// Creates a failure with its reason.
    public init(_ description: String) {
        self.description = description
    }
}
