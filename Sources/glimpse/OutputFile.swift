import Foundation
import PixelBuffers

/// Writes a whole output file (`inspect --dump`, `match --report`, `export --out`) with
/// POSIX calls, so a failure says why in words (`is a directory`, `Permission denied`)
/// rather than as a Foundation error number. The bytes go to a temporary file beside
/// `path` that is renamed over it, so a reader never sees half a file; an existing
/// `path` that is not a regular file (a folder, a FIFO) is refused before anything is
/// written, never opened.
enum OutputFile {
    /// Writes `bytes` to `path`. O(bytes).
    ///
    /// - Throws: ``FileAccessFailure`` with the reason, without the path.
    static func write(_ bytes: some Collection<UInt8>, to path: String) throws(FileAccessFailure) {
        try checkDestination(path)
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let temporary = folder + ".glimpse-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = FileSystemPath.withFileSystemRepresentation(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw FileAccessFailure(errno == ENOENT ? "its folder does not exist" : "cannot create a file in its folder: \(reason)")
        }
        var written = 0
        let data = Array(bytes)
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno; return }
                written += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 {
            if FileSystemPath.withFileSystemRepresentation(temporary, { from in
                FileSystemPath.withFileSystemRepresentation(path) { to in rename(from, to) }
            }) != 0 { failure = errno }
        }
        if failure != 0 {
            _ = FileSystemPath.withFileSystemRepresentation(temporary) { unlink($0) }
            throw FileAccessFailure(String(cString: strerror(failure)))
        }
    }

    /// Refuses, before any work is done, an output path that exists and is not a regular
    /// file, or whose folder does not exist. O(1).
    static func checkDestination(_ path: String) throws(FileAccessFailure) {
        var status = stat()
        if FileSystemPath.withFileSystemRepresentation(path, { stat($0, &status) }) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: return
            case S_IFDIR: throw FileAccessFailure("is a directory; give a file name")
            case S_IFIFO: throw FileAccessFailure("is a FIFO (named pipe), not a regular file")
            default: throw FileAccessFailure("not a regular file")
            }
        }
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "."
        guard DirectoryListing.isFolder(folder) else { throw FileAccessFailure("its folder does not exist") }
    }
}
