import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP peer that answers every connection with the same raw bytes and closes it:
/// what a misbehaving server or a proxy in front of Glimpse can send (an HTML 502 page, a body
/// that is not JSON, an endless answer). Counts the requests it answered.
final class ScriptedPeer: @unchecked Sendable {
    private let listener: Int32
    private let lock = NSLock()
    private var answered = 0
    /// The port it listens on.
    let port: Int

    /// Listens on a free loopback port and answers with `response` (status line, headers and body).
    init(response: [UInt8]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { Glibc.close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve(response) }
        thread.start()
    }

    /// Convenience: an answer with `status`, `headers` and a text body.
    convenience init(status: String, headers: [String] = [], body: String) throws {
        let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers).joined(separator: "\r\n")
        try self.init(response: Array((head + "\r\n\r\n" + body).utf8))
    }

    /// How many requests it has answered.
    var requests: Int { lock.withLock { answered } }

    private func serve(_ response: [UInt8]) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            // Read the request head (and whatever body arrived with it), then answer.
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            lock.withLock { answered += 1 }
            _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(connection, Int32(SHUT_WR))
            Glibc.close(connection)
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }
}
