import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP connection to the server, for what an ordinary client cannot do: send a
/// body slowly, in chunks, without a length, and hold a request open.
public final class RawConnection: @unchecked Sendable {
    private var fd: Int32

    /// Connects to `127.0.0.1:port` (20 s receive time-out).
    /// - Throws: `ECONNREFUSED` when nothing listens there.
    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { Glibc.close(fd); throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes the connection now (the server sees the peer go away).
    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }

    /// Writes all of `bytes`; false when the peer closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Writes `text` as UTF-8; false when the peer closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// The first line of an interim (1xx) answer, reading exactly up to its blank line so
    /// that the final answer stays unread. Blocks the calling thread (20 s at most).
    public func readLine() -> String? {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        while !data.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            data.append(byte)
        }
        return String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n").first
    }

    /// ``readResponse()`` on a thread of its own: a blocking `recv` must not hold one of
    /// the few cooperative threads the in-process servers need to answer.
    public func response() async -> (status: Int, text: String) {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.readResponse()) }
            thread.start()
        }
    }

    /// Reads until the peer closes or the headers and `Content-Length` body arrived;
    /// returns the status code and the raw text. Blocks the calling thread.
    public func readResponse() -> (status: Int, text: String) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buffer[0..<n]
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                   let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
                   data.count - text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound.samePosition(in: text.utf8)!) >= length {
                    break
                }
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }
}
