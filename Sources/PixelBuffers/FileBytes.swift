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
        // Read straight into an array of the file's size; then keep reading in case the
        // file grew (or reports no size, like some special files) until end of file.
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

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
