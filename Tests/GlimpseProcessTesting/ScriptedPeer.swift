import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP peer that answers every connection with the same raw bytes and closes it:
/// what a misbehaving server or a proxy in front of Glimpse can send (an HTML 502 page, a body
/// that is not JSON, an endless answer), or a collector that accepts what it is sent. Keeps
/// every request it answered (head and body, as bytes); never shipped.
public final class ScriptedPeer: @unchecked Sendable {
    private let listener: Int32
    private let lock = NSLock()
    private var received: [[UInt8]] = []
    /// The port it listens on.
    public let port: Int

    /// Listens on a free loopback port and answers with `response` (status line, headers and body).
    public init(response: [UInt8]) throws {
        let socket = try LoopbackListener()
        listener = socket.descriptor
        port = socket.port
        let thread = Thread { [self] in serve(response) }
        thread.start()
    }

    /// Convenience: an answer with `status`, `headers` and a text body.
    public convenience init(status: String, headers: [String] = [], body: String) throws {
        let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers).joined(separator: "\r\n")
        try self.init(response: Array((head + "\r\n\r\n" + body).utf8))
    }

    /// How many requests it has answered.
    public var requests: Int { lock.withLock { received.count } }

    /// The requests it has answered, each its head and whole body.
    public var receivedRequests: [[UInt8]] { lock.withLock { received } }

    private func serve(_ response: [UInt8]) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            // Read the request head and its Content-Length body (2 s without bytes ends it), then answer.
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request = Self.readRequest(connection)
            lock.withLock { received.append(request) }
            _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(connection, Int32(SHUT_WR))
            Glibc.close(connection)
        }
    }

    /// The head and its `Content-Length` body (as much as arrives).
    private static func readRequest(_ connection: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return data }
            data += buffer[0..<count]
            guard let end = data.indices.dropLast(3).first(where: { data[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) else { continue }
            let head = String(decoding: data[..<end], as: UTF8.self).lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if data.count - (end + 4) >= length { return data }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }
}
