import Catalog

/// How a replica of a partitioned catalog takes part in its cluster (`glimpse serve
/// --partition i/P --cluster-token-file F`): the partition it holds, the shared token of the
/// internal endpoint, the address the other replicas reach it at, and the time limits of
/// membership and fan-out.
public struct ClusterConfiguration: Sendable {
    /// The partition this replica holds.
    public var partition: CatalogPartition
    /// The token every replica of the cluster shares: sent and required as
    /// `Authorization: Bearer TOKEN` on `POST /internal/v1/partition-matches`.
    public var token: String
    /// The base URL other replicas reach this one at (`http://host:port`); `nil`: the bound
    /// address (`http://<host>:<port>`, which needs a host other than a wildcard).
    public var advertisedAddress: String?
    /// Time between two heartbeats (and two reads of the membership).
    public var heartbeatInterval: Duration = .seconds(1)
    /// A replica not heard from for this long is not asked.
    public var memberTimeout: Duration = .seconds(3)
    /// Longest wait for one replica of a partition before its twin is asked (a refused
    /// connection moves on at once); never past the search's deadline.
    public var attemptBudget: Duration = .milliseconds(1000)

    /// Creates a configuration for `partition` with `token`. O(1).
    public init(partition: CatalogPartition, token: String, advertisedAddress: String? = nil) {
        self.partition = partition
        self.token = token
        self.advertisedAddress = advertisedAddress
    }

    /// `host` as the host part of a URL (an IPv6 address in brackets).
    static func urlHost(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// Whether `host` is a wildcard address (`0.0.0.0`, `::`), which other replicas cannot
    /// reach: such a replica needs an advertised address. O(1).
    public static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "*"].contains(host)
    }
}
