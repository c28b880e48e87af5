/// The taps of an area-averaging resample along one axis, from `source` pixels to
/// `target` pixels, with exact fractional coverage.
///
/// Output pixel `o` covers the source interval `[o·S/T, (o+1)·S/T)`. Scaling by `T`
/// makes every edge an integer: source pixel `p` covers `[p·T, (p+1)·T)`, output `o`
/// covers `[o·S, (o+1)·S)`, and the weight of `p` in `o` is their integer overlap
/// divided by `S` (the weights of one output sum to exactly 1 before rounding to Float).
/// Computed once in portable code and shared by every kernel path.
///
/// Stored in two arrays (a fingerprint builds a few dozen of these, so each array is an
/// allocation that shows): the three integer tables back to back in ``taps``, and the
/// weights.
public struct AreaWeights: Sendable, Hashable {
    /// Number of outputs (`target`).
    public let outputCount: Int
    /// The integer tables, each ``outputCount`` long, back to back: first source index of
    /// each output, number of source pixels feeding it, offset of its first weight in
    /// ``weights``.
    let taps: [Int32]
    /// All weights, output by output.
    public let weights: [Float]

    /// First source index of each output (a copy: O(outputs)).
    public var tapStart: [Int32] { Array(taps[0..<outputCount]) }
    /// Number of source pixels feeding each output (a copy: O(outputs)).
    public var tapCount: [Int32] { Array(taps[outputCount..<(2 * outputCount)]) }
    /// Offset of each output's first weight in ``weights`` (a copy: O(outputs)).
    public var tapOffset: [Int32] { Array(taps[(2 * outputCount)...]) }

    /// Builds the taps; `source` and `target` must be positive. O(source + target), two
    /// allocations and no integer division in the loop (this runs dozens of times per
    /// fingerprint: the quotients of `o·source` by `target` are carried from one output to
    /// the next).
    public init(source: Int, target: Int) {
        precondition(source > 0 && target > 0, "area weights need positive sizes, got \(source)→\(target)")
        var taps = [Int32](unsafeUninitializedCapacity: 3 * target) { _, n in n = 3 * target }
        // All outputs together have at most source + target taps.
        // A source pixel wholly inside an output (overlap = target, most taps when shrinking)
        // gets the same Float as the general formula, computed once instead of per tap; only
        // an output's first and last taps are divided out.
        let whole = Float(Double(target) / Double(source))
        let weights = [Float](unsafeUninitializedCapacity: source + target) { w, weightCount in
            weightCount = 0
            taps.withUnsafeMutableBufferPointer { taps in
                guard let start = taps.baseAddress else { return }
                let count = start + target, offset = start + 2 * target
                // lo = o·source = q·target + r with 0 ≤ r < target, carried forward.
                let stepQuotient = source / target, stepRemainder = source % target
                var q = 0, r = 0
                for o in 0..<target {
                    let lo = o * source, hi = lo + source
                    // hi = nextQ·target + nextR; the last source pixel is (hi − 1) / target.
                    var nextQ = q + stepQuotient, nextR = r + stepRemainder
                    if nextR >= target {
                        nextQ += 1
                        nextR -= target
                    }
                    let first = q, last = nextR > 0 ? nextQ : nextQ - 1
                    q = nextQ
                    r = nextR
                    start[o] = Int32(first)
                    count[o] = Int32(last - first + 1)
                    offset[o] = Int32(weightCount)
                    // Only the first and the last source pixel can be cut by the
                    // output's edges; every pixel between them lies wholly inside.
                    func weight(_ p: Int) -> Float {
                        let overlap = min((p + 1) * target, hi) - max(p * target, lo)
                        return overlap == target ? whole : Float(Double(overlap) / Double(source))
                    }
                    var k = weightCount
                    w[k] = weight(first)
                    k += 1
                    if last > first {
                        let inside = last - first - 1
                        if inside > 0 { (w.baseAddress! + k).initialize(repeating: whole, count: inside) }
                        k += inside
                        w[k] = weight(last)
                        k += 1
                    }
                    weightCount = k
                }
            }
        }
        self.outputCount = target
        self.taps = taps
        self.weights = weights
    }

    /// Calls `body` with the first-tap, tap-count, weight-offset and weight tables, as the C
    /// kernels take them. O(1) plus `body`.
    func withPointers<R>(_ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Float>) -> R) -> R {
        taps.withUnsafeBufferPointer { t in
            weights.withUnsafeBufferPointer { w in
                // Never empty: target ≥ 1 output and each has at least one tap.
                let start = t.baseAddress!
                return body(start, start + outputCount, start + 2 * outputCount, w.baseAddress!)
            }
        }
    }
}
