#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files into memory with POSIX calls, so a failure carries the system's
/// reason (`No such file or directory`, `Is a directory`…).
enum FileBytes {
    /// The bytes of the regular file at `path`. O(file size).
    static func contents(ofFile path: String) throws(DecodeError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadableFile(source: path, reason: systemError()) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadableFile(source: path, reason: systemError()) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            let what = (status.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : "not a regular file"
            throw .unreadableFile(source: path, reason: what)
        }
        var bytes = [UInt8]()
        let expected = Int(status.st_size)
        bytes.reserveCapacity(expected)
        var chunk = [UInt8](repeating: 0, count: max(1 << 16, min(expected + 1, 1 << 24)))
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadableFile(source: path, reason: systemError())
            }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
        }
        return bytes
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
