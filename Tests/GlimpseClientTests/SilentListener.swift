import Foundation
import GlimpseProcessTesting
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that accepts connections (the kernel completes them) and never answers:
/// what a hung server looks like to a client.
final class SilentListener: @unchecked Sendable {
    private var fd: Int32
    /// The port it listens on.
    let port: Int

    init() throws {
        let socket = try LoopbackListener()
        fd = socket.descriptor
        port = socket.port
    }

    /// Stops listening: connections to the port are refused from now on.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
