import AsyncHTTPClient
import Catalog
import Fingerprints
import Foundation
import NIOCore
import NIOHTTP1
import Search
import Synchronization

/// The replica side of a partitioned catalog's searches: asks one live replica of every
/// other partition for its matches (`POST /internal/v1/partition-matches`, in parallel),
/// retries a partition on its twin when a replica refuses, fails or does not answer within
/// ``ClusterConfiguration/attemptBudget``, and reports the partitions no replica answered
/// for. Which replicas are alive comes from the catalog's ``ClusterDirectory``
/// (``update(members:)``, called by ``ClusterHeartbeat``).
///
/// The first replica asked for a partition rotates from search to search, so the load of a
/// partition spreads over its replicas. Thread-safe; one per server.
final class PartitionFanOut: Sendable {
    let configuration: ClusterConfiguration
    private let client: HTTPClient
    /// Live replicas' addresses by partition index (this replica's own left out).
    private let replicas = Mutex<[Int: [String]]>([:])
    private let rotation = Atomic<UInt64>(0)
    /// This replica's own address once known (left out of the replicas asked).
    let ownAddress = Mutex<String?>(nil)
    /// Replicas whose last request failed, and when: asked after their partition's others,
    /// and not counted as reachable, until ``ClusterConfiguration/memberTimeout`` has passed
    /// (by then a dead replica's row is gone too) or they answer again.
    private let suspects = Mutex<[String: ContinuousClock.Instant]>([:])
    private let metrics: ServerMetrics

    /// The path of the internal endpoint.
    static let path = "/internal/v1/partition-matches"
    /// Largest answer read from a replica, in bytes.
    static let maximumAnswerBytes = 64 << 20

    /// Creates the fan-out of `configuration`'s replica, with an HTTP client of its own
    /// (``shutdown()`` it when the server has stopped): a replica that cannot be connected
    /// to fails at once (no retried connection attempts, 200 ms to connect), so its twin is
    /// asked within the search's time instead of after it.
    init(configuration: ClusterConfiguration, metrics: ServerMetrics) {
        self.configuration = configuration
        self.metrics = metrics
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        clientConfiguration.timeout.connect = .milliseconds(200)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
    }

    /// Closes the HTTP client's connections. O(connections).
    func shutdown() async {
        try? await client.shutdown()
    }

    /// Replaces the live replicas with `members` (this replica's own entry left out). O(members).
    func update(members: [ClusterMember]) {
        let own = ownAddress.withLock { $0 }
        var byPartition: [Int: [String]] = [:]
        for member in members where member.partition.count == configuration.partition.count && member.address != own {
            byPartition[member.partition.index, default: []].append(member.address)
        }
        replicas.withLock { $0 = byPartition }
    }

    /// The partitions some live replica (or this one) holds, and those none does, in order.
    /// O(partitions).
    func reachability() -> (reachable: [CatalogPartition], missing: [CatalogPartition]) {
        let known = replicas.withLock { $0 }
        let suspected = currentSuspects()
        let all = (try? CatalogPartition.all(count: configuration.partition.count)) ?? []
        let reachable = all.filter { partition in
            partition == configuration.partition || (known[partition.index] ?? []).contains { !suspected.contains($0) }
        }
        return (reachable, all.filter { !reachable.contains($0) })
    }

    /// The source a ``VisualSearchQuery`` of search profile `profile` asks. O(1).
    func source(profile: UInt8) -> Source {
        Source(fanOut: self, profile: Int(profile))
    }

    /// The other partitions of one search profile, as ``VisualSearchQuery`` asks them: a
    /// scan of every view is asked with the profile's exhaustive twin
    /// (``ServedIndex/exhaustiveFlag``), a first-stage answer with
    /// ``PartitionMatchRequest/firstStageOnly``.
    struct Source: PartitionMatchSource {
        let fanOut: PartitionFanOut
        let profile: Int

        func matches(for fingerprint: Fingerprint, minimumScore: Double, limit: Int, membershipOf: [String],
                     deadline: ContinuousClock.Instant, scan: PartitionScan) async -> PartitionMatches {
            let (asked, only, round): (Int, Set<CatalogPartition>?, FirstStageRound?) = switch scan {
            case .asProfile: (profile, nil, nil)
            case .firstStage(let round, let partitions): (profile, partitions, round)
            case .everyView(let partitions): (profile | Int(ServedIndex.exhaustiveFlag), partitions, nil)
            }
            return await fanOut.matches(profile: asked, fingerprint: fingerprint, minimumScore: minimumScore, limit: limit,
                                        membershipOf: membershipOf, deadline: deadline, only: only, firstStage: round)
        }
    }

    /// Every other partition's answer (or only those in `only`), merged; partitions without
    /// one listed as missing.
    /// - Complexity: one request per partition asked (more on failures), in parallel.
    func matches(profile: Int, fingerprint: Fingerprint, minimumScore: Double, limit: Int, membershipOf: [String],
                 deadline: ContinuousClock.Instant, only: Set<CatalogPartition>? = nil, firstStage: FirstStageRound? = nil) async -> PartitionMatches {
        let own = configuration.partition
        let others = ((try? CatalogPartition.all(count: own.count)) ?? []).filter { $0 != own && only?.contains($0) ?? true }
        guard !others.isEmpty else { return PartitionMatches(matches: [], collectionsByLandmark: [:], isPartial: false) }
        let known = replicas.withLock { $0 }
        let suspected = currentSuspects()
        let turn = Int(rotation.add(1, ordering: .relaxed).oldValue % 1_000_003)
        // The fingerprint is encoded once; each request only names its partition and deadline.
        let template = PartitionMatchRequest(partition: own, profile: profile, fingerprint: fingerprint, minimumScore: minimumScore,
                                             limit: limit, membershipOf: membershipOf, deadlineMilliseconds: 0,
                                             firstStage: firstStage)
        let answers = await withTaskGroup(of: PartitionMatches.self) { group in
            for partition in others {
                let addresses = known[partition.index] ?? []
                let rotated = addresses.isEmpty ? [] : Array(addresses[(turn % addresses.count)...] + addresses[..<(turn % addresses.count)])
                // Replicas that failed lately are asked last (still asked: they may be back).
                let ordered = rotated.filter { !suspected.contains($0) } + rotated.filter { suspected.contains($0) }
                let request = { (remaining: Int) in
                    var request = template
                    request.partition = partition
                    request.deadlineMilliseconds = remaining
                    return request
                }
                group.addTask {
                    for address in ordered {
                        if let answer = await self.ask(address, partition: partition, request: request, deadline: deadline) { return answer }
                    }
                    self.metrics.recordMissingPartition()
                    return PartitionMatches(matches: [], collectionsByLandmark: [:], isPartial: true, missingPartitions: [partition])
                }
            }
            var answers: [PartitionMatches] = []
            for await answer in group { answers.append(answer) }
            return answers
        }
        return PartitionMatches.merging(answers, limit: limit)
    }

    /// One replica's answer for `partition`, or `nil` when it refused, failed, answered
    /// something else or took longer than the attempt budget (or the deadline and a grace).
    private func ask(_ address: String, partition: CatalogPartition, request makeRequest: (Int) -> PartitionMatchRequest,
                     deadline: ContinuousClock.Instant) async -> PartitionMatches? {
        let remaining = max(.zero, deadline - .now)
        let wait = min(configuration.attemptBudget, remaining + .milliseconds(100))
        let body = WireJSON.bytes(makeRequest(Self.milliseconds(remaining)))
        var request = HTTPClientRequest(url: address + Self.path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(configuration.token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(max(1, Self.milliseconds(wait)))))
            let bytes = try await response.body.collect(upTo: Self.maximumAnswerBytes)
            guard response.status == .ok else {
                metrics.recordPartitionAttempt(failed: true)
                return nil
            }
            let answer = try WireJSON.decode(PartitionMatches.self, from: bytes.readableBytesView)
            guard answer.generations[partition.description] != nil else {
                metrics.recordPartitionAttempt(failed: true)
                return nil
            }
            metrics.recordPartitionAttempt(failed: false)
            suspects.withLock { _ = $0.removeValue(forKey: address) }
            return answer
        } catch {
            metrics.recordPartitionAttempt(failed: true)
            suspects.withLock { $0[address] = .now }
            return nil
        }
    }

    /// The replicas that failed within ``ClusterConfiguration/memberTimeout`` (older entries
    /// forgotten). O(suspects).
    private func currentSuspects() -> Set<String> {
        let horizon = ContinuousClock.now - configuration.memberTimeout
        return suspects.withLock { entries in
            entries = entries.filter { $0.value > horizon }
            return Set(entries.keys)
        }
    }

    /// Whole milliseconds in `duration` (rounded down, at least 0).
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
