import Fingerprints
import Testing

/// For a test that compares kernels across instruction sets: it runs the comparisons this
/// CPU allows, then, where the CPU lacks a path (no AVX-512, or `GLIMPSE_ISA` capping it),
/// ends cancelled with a comment naming the paths not compared, so a machine without them
/// cannot pass it silently.
public struct InstructionSetCoverage: TestTrait, TestScoping {
    /// Creates the trait; use ``Trait/comparingEveryInstructionSet``.
    public init() {}

    /// Runs the test, then cancels it naming the instruction sets this CPU could not compare.
    /// - Complexity: the test's own, plus O(instruction sets).
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await function()
        let missing = InstructionSet.allCases.filter { !$0.isSupported }
        if !missing.isEmpty {
            try Test.cancel("this CPU (or GLIMPSE_ISA) cannot run \(missing.map { "\($0)" }.joined(separator: ", ")): those kernels were not compared here")
        }
    }
}

extension Trait where Self == InstructionSetCoverage {
    /// The test compares every instruction set this CPU has; see ``InstructionSetCoverage``.
    public static var comparingEveryInstructionSet: Self { Self() }
}
