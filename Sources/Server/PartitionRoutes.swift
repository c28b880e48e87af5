import Catalog
import Foundation
import Hummingbird
import Search

/// `POST /internal/v1/partition-matches`: a replica holding one partition answers another
/// replica's fan-out (``PartitionMatchRequest`` in, ``PartitionMatches`` out) with its own
/// index's matches. A plain route outside the public API description, for the cluster only:
/// `Authorization: Bearer <cluster token>` (constant-time compare; 401 without it, 403
/// wrong), 404 `not_partitioned` on a replica started without `--partition`, 421
/// `wrong_partition` when it holds another partition, 400 on a malformed request, 503 until
/// its index is loaded, 429 when its partition-search slots are busy (the asker tries the twin).
struct PartitionRoutes {
    let state: ServerState

    /// Largest request body accepted, in bytes (a query fingerprint is a few KB).
    static let maximumBodyBytes = 1 << 20

    func add(to router: Router<GlimpseRequestContext>) {
        router.post(RouterPath(PartitionFanOut.path)) { request, context in try await answer(request, context) }
    }

    func answer(_ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        guard let cluster = state.configuration.cluster else {
            throw APIError(.notFound, "not_partitioned", "this replica serves the whole catalog (started without --partition)")
        }
        try BearerToken(token: cluster.token, realm: "glimpse-cluster",
                        missing: "the internal endpoint needs 'Authorization: Bearer <cluster token>'", name: "cluster token").check(request)
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: Self.maximumBodyBytes) } catch {
            throw APIError(.contentTooLarge, "payload_too_large", "a partition request is at most \(Self.maximumBodyBytes) bytes")
        }
        let asked: PartitionMatchRequest
        do { asked = try WireJSON.decode(PartitionMatchRequest.self, from: body.readableBytesView) } catch {
            throw APIError.badRequest("invalid_body", "not a partition request: \(error)")
        }
        guard asked.partition == cluster.partition else {
            throw APIError(.misdirectedRequest, "wrong_partition", "this replica holds partition \(cluster.partition), not \(asked.partition)")
        }
        guard let fingerprint = asked.decodedFingerprint else { throw APIError.badRequest("invalid_body", "fingerprint is not a serialized fingerprint in base64") }
        guard (1...100_000).contains(asked.limit), asked.minimumScore.isFinite, (0...1).contains(asked.minimumScore),
              (0...600_000).contains(asked.deadlineMilliseconds), asked.membershipOf.count <= PartitionMatchRequest.maximumMembershipIDs else {
            throw APIError.badRequest("invalid_body", "limit, minimum_score, deadline_ms or membership_of out of range")
        }
        guard let index = state.holder.index else { throw APIError.notReady }
        guard let profile = UInt8(exactly: asked.profile), let query = index.query(profile: profile) else {
            throw APIError.badRequest("invalid_body", "unknown scoring profile \(asked.profile)")
        }
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(asked.deadlineMilliseconds))
        let (found, version, scan, firstStageBest): (PartitionMatches, CatalogVersion, Duration, Double?)
        do {
            (found, version, scan, firstStageBest) = try await state.partitionSlots.withSlot {
                try await query.partitionMatches(for: fingerprint, minimumScore: asked.minimumScore, limit: asked.limit,
                                                 membershipOf: asked.membershipOf, deadline: deadline, firstStage: asked.firstStage)
            }
        } catch let error as VisualSearchError { throw SearchRoutes.apiError(error) }
        var answer = found
        answer.generations = [cluster.partition.description: version.generation]
        answer.firstStageBest = firstStageBest.map { [cluster.partition.description: $0] } ?? [:]
        state.metrics.recordPartitionAnswer(everyView: firstStageBest == nil)
        let (seconds, attoseconds) = scan.components
        answer.scanMicroseconds = [cluster.partition.description: Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)]
        return context.json(answer, for: request)
    }
}
