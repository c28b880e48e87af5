import Fingerprints

extension InstructionSet {
    /// The instruction set a benchmark's `--isa` names (`portable`, `avx2`, `avx512`: its
    /// ``description``), or `nil`. O(1).
    init?(named name: String) {
        guard let named = InstructionSet.allCases.first(where: { $0.description == name }) else { return nil }
        self = named
    }
}
