import Hummingbird
import Synchronization

/// Reading request bodies under a byte limit, checked as the body streams in, at the pace
/// of an ``UploadPolicy``, within the server's ``BodyBudget``: a body over the limit is
/// refused (413) after at most `limit` bytes were buffered, whatever its `Content-Length`
/// claims (a declared length over the limit is refused before any byte is read); a body
/// that stalls or crawls is refused with 408 (noticed by the server's ``DeadlineWatchdog``); a
/// body that does not fit the budget with 429.
///
/// The bytes of a collected body stay counted in the budget until its ``Lease`` is released.
enum RequestBody {
    /// A collected body and its share of the budget.
    struct Lease: Sendable {
        /// The body.
        let bytes: ByteBuffer
        fileprivate let budget: BodyBudget
        fileprivate let held: Int

        /// Returns the body's bytes to the budget. Call once, when the body is no longer needed.
        func release() { budget.release(held) }
    }

    /// The whole body of `request`, at most `limit` bytes, counted in `budget` until the
    /// lease is released.
    ///
    /// - Complexity: O(body bytes), memory at most `limit`.
    /// - Throws: 413 `payload_too_large`, 408 `request_timeout` (stalled or too slow),
    ///   429 `uploads_busy` (the budget is spent), 400 `invalid_body` when the stream fails.
    static func collect(_ request: Request, limit: Int, policy: UploadPolicy, budget: BodyBudget, watchdog: DeadlineWatchdog) async throws(APIError) -> Lease {
        let tooLarge = APIError(.contentTooLarge, "payload_too_large", "the request body is larger than the limit of \(limit) bytes")
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit { throw tooLarge }
        let busy = APIError(.tooManyRequests, "uploads_busy", "the server holds as many uploaded bytes as it may; retry after the delay in Retry-After",
                            headers: [.retryAfter: "1"])
        // A declared length is reserved whole at once; a chunked body as it arrives.
        let upfront = declared ?? 0
        guard budget.reserve(upfront) else { throw busy }
        let progress = Progress()
        let start = ContinuousClock.now
        enum Outcome: Sendable { case body(ByteBuffer, held: Int), failed(APIError), timedOut }
        let outcome = await withTaskGroup(of: Outcome.self) { group -> Outcome in
            group.addTask {
                var collected = ByteBuffer(), held = upfront
                do {
                    for try await part in request.body {
                        guard part.readableBytes <= limit - collected.readableBytes else { budget.release(held); return .failed(tooLarge) }
                        let more = collected.readableBytes + part.readableBytes - held
                        if more > 0 {
                            guard budget.reserve(more) else { budget.release(held); return .failed(busy) }
                            held += more
                        }
                        var part = part
                        collected.writeBuffer(&part)
                        progress.withLock { $0 = (collected.readableBytes, .now) }
                    }
                } catch {
                    budget.release(held)
                    if Task.isCancelled { return .timedOut }
                    return .failed(APIError(.badRequest, "invalid_body", "the request body could not be read: \(error)"))
                }
                if Task.isCancelled { budget.release(held); return .timedOut }
                return .body(collected, held: held)
            }
            group.addTask {
                // Returns when the body is overdue, or when cancelled (the reader finished first).
                await watchdog.overdue {
                    let (received, last) = progress.withLock { $0 }
                    return policy.deadline(start: start, lastByte: last, received: received)
                }
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            guard case .timedOut = first else { return first }
            // The watchdog fired: the reader ends once cancelled (its budget share released).
            let reader = await group.next() ?? .timedOut
            if case .body(let bytes, let held) = reader { return .body(bytes, held: held) }
            return .timedOut
        }
        switch outcome {
        case .body(let bytes, let held): return Lease(bytes: bytes, budget: budget, held: held)
        case .failed(let error): throw error
        case .timedOut:
            let received = progress.withLock { $0.received }
            throw APIError(.requestTimeout, "request_timeout",
                           "the request body stopped or arrived too slowly (\(received) bytes in \(Self.seconds(ContinuousClock.now - start)) s; a body must not pause for \(policy.stallSeconds) s and must average \(policy.minimumBytesPerSecond) bytes/s after that)")
        }
    }

    /// Bytes received so far and when the last arrived, shared by the reader and its watchdog.
    private final class Progress: Sendable {
        private let state = Mutex<(received: Int, last: ContinuousClock.Instant)>((0, .now))
        func withLock<T>(_ body: (inout (received: Int, last: ContinuousClock.Instant)) -> T) -> T { state.withLock { body(&$0) } }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (s, atto) = duration.components
        return String(Double(s) + Double(atto) / 1e18).prefix(5).description
    }
}
