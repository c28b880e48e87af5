import CSIMDKernels

/// The instruction set a SIMD kernel runs with.
///
/// Every kernel in this module takes an `InstructionSet` (default ``best``) and runs the
/// most capable variant that is both requested and supported by the CPU, so asking for
/// ``portable`` forces the plain path (tests compare it with the fast paths) and asking
/// for ``avx512`` on a CPU without it quietly falls back. All paths give identical answers.
public enum InstructionSet: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Plain C compiled for baseline x86-64 (or any other architecture): no AVX, no POPCNT.
    case portable = 0
    /// AVX2 with the POPCNT instruction.
    case avx2 = 1
    /// AVX-512 F + BW + VPOPCNTDQ.
    case avx512 = 2

    /// The most capable set this CPU supports (probed once with `__builtin_cpu_supports`). O(1).
    public static var best: InstructionSet {
        InstructionSet(rawValue: Int(glimpse_cpu_best_isa())) ?? .portable
    }

    /// Whether this CPU can run this set.
    public var isSupported: Bool { rawValue <= InstructionSet.best.rawValue }

    /// The set actually used when this one is requested: `min(self, best)`.
    public var effective: InstructionSet {
        InstructionSet(rawValue: Int(glimpse_isa_effective(Int32(rawValue)))) ?? .portable
    }

    /// `portable`, `avx2` or `avx512`.
    public var description: String {
        switch self {
        case .portable: "portable"
        case .avx2: "avx2"
        case .avx512: "avx512"
        }
    }

    @usableFromInline var code: Int32 { Int32(rawValue) }
}
