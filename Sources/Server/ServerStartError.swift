/// Why `glimpse serve` could not start listening.
public enum ServerStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address could not be bound (in use, not local, not permitted): host, port and
    /// the OS reason.
    case cannotListen(host: String, port: Int, reason: String)

    /// One line for people, naming the address and what to do.
    public var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason) (another process has it? choose another with --port, or --host)"
        }
    }
}
