/// One result slot per thread of a split computation: thread `i` writes slot `i` once,
/// the caller takes every slot after all threads have finished (`concurrentPerform`
/// returns only then). The slots are disjoint, so no lock is needed.
final class ThreadParts<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    /// `count` empty slots. O(count).
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    /// Fills slot `index` (from the thread that owns it). O(1).
    func set(_ index: Int, _ value: Value) { slots[index] = value }

    /// Empties slot `index` and returns what it held; it must have been set. O(1).
    func take(_ index: Int) -> Value {
        guard let value = slots[index] else { preconditionFailure("slot \(index) of a split computation was never filled") }
        slots[index] = nil
        return value
    }
}
