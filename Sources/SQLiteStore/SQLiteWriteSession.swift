import Foundation
import GRDB
import Synchronization

/// One SQLite write transaction driven from async code (``CatalogRules`` are async, GRDB's
/// write transactions are a synchronous closure): a thread of its own enters the writer's
/// transaction and runs the steps the async side sends, one at a time, until it is told to
/// commit or roll back. Each step runs on that thread with the transaction's `Database`;
/// the async side awaits its result. Nothing else writes meanwhile (GRDB serialises
/// writers); WAL readers go on reading the last commit. If the transaction cannot begin or
/// has ended, every step sent fails with its error instead of waiting.
final class SQLiteWriteSession: Sendable {
    private struct Step: Sendable {
        let run: @Sendable (Database) -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private enum Command: Sendable {
        case step(Step)
        case finish(commit: Bool, done: @Sendable (Result<Void, any Error>) -> Void)
    }

    private struct State {
        var commands: [Command] = []
        /// How the transaction ended, once it has.
        var ended: Result<Void, any Error>?
    }

    private struct RolledBack: Error {}
    private struct SessionEnded: Error, CustomStringConvertible {
        var description: String { "the write transaction had already ended" }
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the transaction on a thread of its own.
    init(writer: any DatabaseWriter) {
        let thread = Thread { [self] in
            var finishing: (@Sendable (Result<Void, any Error>) -> Void)?
            var commit = false
            let outcome = Result<Void, any Error> {
                try writer.write { db in
                    while true {
                        wake.wait()
                        guard let command = state.withLock({ $0.commands.isEmpty ? nil : $0.commands.removeFirst() }) else { continue }
                        switch command {
                        case .step(let step): step.run(db)
                        case .finish(let shouldCommit, let done):
                            finishing = done
                            commit = shouldCommit
                            if shouldCommit { return }
                            throw RolledBack()
                        }
                    }
                }
            }
            let ended: Result<Void, any Error>
            switch outcome {
            case .failure(let error) where error is RolledBack && !commit: ended = .success(())
            default: ended = outcome
            }
            let left = state.withLock { state in
                state.ended = ended
                defer { state.commands = [] }
                return state.commands
            }
            let error: any Error = ended.failureValue ?? SessionEnded()
            for command in left {
                switch command {
                case .step(let step): step.fail(error)
                case .finish(_, let done): done(ended)
                }
            }
            finishing?(ended)
        }
        thread.name = "glimpse.sqlite-write"
        thread.start()
    }

    private func send(_ command: Command) {
        let ended = state.withLock { state -> Result<Void, any Error>? in
            if state.ended == nil { state.commands.append(command) }
            return state.ended
        }
        guard let ended else { wake.signal(); return }
        switch command {
        case .step(let step): step.fail(ended.failureValue ?? SessionEnded())
        case .finish(_, let done): done(ended)
        }
    }

    /// Runs `body` inside the transaction and returns what it returns.
    /// - Throws: what `body` throws, or why the transaction could not begin or has ended.
    /// - Complexity: `body`'s, plus two thread hand-offs.
    func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            send(.step(Step(run: { db in continuation.resume(with: Result { try body(db) }) },
                            fail: { error in continuation.resume(throwing: error) })))
        }
    }

    /// Ends the transaction: commits when `commit`, otherwise rolls back.
    /// - Throws: what the commit (or the transaction's start) threw; a rollback asked for is not an error.
    /// - Complexity: the commit's.
    func finish(commit: Bool) async throws {
        let outcome: Result<Void, any Error> = await withCheckedContinuation { continuation in
            send(.finish(commit: commit, done: { continuation.resume(returning: $0) }))
        }
        try outcome.get()
    }
}

private extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
