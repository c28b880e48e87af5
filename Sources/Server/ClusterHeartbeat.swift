import Catalog
import Logging
import Search
import ServiceLifecycle
import Synchronization

/// The service that keeps a partition replica in its cluster: once its index is loaded it
/// registers itself in the catalog's ``ClusterDirectory`` (address, partition, generation
/// served) and renews that entry every ``ClusterConfiguration/heartbeatInterval``; each
/// time it also reads which replicas are alive into the ``PartitionFanOut``. On graceful
/// shutdown it removes its entry at once, so the others stop asking it within one interval
/// (a replica killed outright is dropped when its heartbeat is ``ClusterConfiguration/memberTimeout``
/// old; meanwhile its refused connections send its partition's requests to its twin).
struct ClusterHeartbeat: Service {
    let directory: any ClusterDirectory
    let fanOut: PartitionFanOut
    let holder: IndexHolder
    let logger: Logger

    func run() async throws {
        let configuration = fanOut.configuration
        await cancelWhenGracefulShutdown {
            var failing = false
            while !Task.isCancelled {
                do {
                    if let address = fanOut.ownAddress.withLock({ $0 }), let index = holder.index {
                        try await directory.heartbeat(ClusterMember(address: address, partition: configuration.partition,
                                                                    generation: index.prepared.version.generation))
                    }
                    fanOut.update(members: try await directory.members(heardWithin: configuration.memberTimeout))
                    if failing { logger.notice("cluster membership renewed again", metadata: ["partition": "\(configuration.partition)"]) }
                    failing = false
                } catch {
                    if !failing { logger.error("cannot renew the cluster membership", metadata: ["reason": "\(error)"]) }
                    failing = true
                }
                try? await Task.sleep(for: configuration.heartbeatInterval)
            }
        }
        if let address = fanOut.ownAddress.withLock({ $0 }) {
            try? await directory.leave(address: address)
        }
    }
}
