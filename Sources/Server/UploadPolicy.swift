import Synchronization

/// How request bodies must arrive, and how many of their bytes the server holds at once.
///
/// A body that stops (no byte for ``stallSeconds``) or crawls (fewer than
/// ``minimumBytesPerSecond`` on average once ``stallSeconds`` have passed) is answered 408
/// and its connection closed: a slow client holds no search slot (slots are taken once the
/// body is in) and no connection for long. Buffered body bytes of all requests together stay
/// under ``bufferedBytesBudget`` (429 beyond it), so accepting bodies before taking a search
/// slot cannot grow memory without bound.
public struct UploadPolicy: Sendable {
    /// Longest silence within a body, and the time before the rate applies, in seconds.
    public var stallSeconds: Int
    /// Least average body rate once ``stallSeconds`` have passed, in bytes per second.
    public var minimumBytesPerSecond: Int
    /// Most body bytes buffered by all requests at once.
    public var bufferedBytesBudget: Int

    /// Creates a policy: by default 10 s without a byte or under 64 KiB/s on average after
    /// 10 s is 408, and 256 MiB of bodies are held at once.
    public init(stallSeconds: Int = 10, minimumBytesPerSecond: Int = 64 << 10, bufferedBytesBudget: Int = 256 << 20) {
        self.stallSeconds = stallSeconds
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.bufferedBytesBudget = bufferedBytesBudget
    }

    /// The instant by which more of a body begun at `start`, with `received` bytes so far,
    /// the last of them at `lastByte`, must arrive. O(1).
    func deadline(start: ContinuousClock.Instant, lastByte: ContinuousClock.Instant, received: Int) -> ContinuousClock.Instant {
        let stall = Duration.seconds(stallSeconds)
        // Rate rule: received ≥ rate × (t − start − stall), so t ≤ start + stall + received / rate.
        let byRate = start + stall + .seconds(Double(received) / Double(max(1, minimumBytesPerSecond)))
        return min(lastByte + stall, byRate)
    }
}

/// The body bytes all requests hold at once, bounded by ``UploadPolicy/bufferedBytesBudget``
/// and shown as the gauge `glimpse_request_body_bytes_held` (a declared length counts from
/// the moment its request starts reading the body).
final class BodyBudget: Sendable {
    private let held = Mutex(0)
    private let metrics: ServerMetrics?
    /// The budget in bytes.
    let capacity: Int

    init(capacity: Int, metrics: ServerMetrics? = nil) {
        self.capacity = max(1, capacity)
        self.metrics = metrics
    }

    /// Takes `bytes` of the budget, or returns false when they do not fit. O(1).
    func reserve(_ bytes: Int) -> Bool {
        held.withLock { total in
            guard bytes <= capacity - total else { return false }
            total += bytes
            metrics?.bodyBytesHeld(total)
            return true
        }
    }

    /// Gives `bytes` back. O(1).
    func release(_ bytes: Int) {
        held.withLock { total in
            total -= bytes
            metrics?.bodyBytesHeld(total)
        }
    }
}
