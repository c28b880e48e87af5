import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket listening on a free loopback port (the kernel completes connections to it;
/// what is done with them is the owner's); never shipped.
public struct LoopbackListener: Sendable {
    /// The listening socket.
    public let descriptor: Int32
    /// The port it listens on.
    public let port: Int

    /// Binds 127.0.0.1 on a port the kernel picks and listens (backlog 16).
    /// - Throws: the POSIX error when the socket cannot be bound.
    /// - Complexity: O(1).
    public init() throws {
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
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }
}
