import Foundation
import GRDB
import Testing
@testable import SQLiteStore

/// The bridge that lets the catalog's async rules run inside one GRDB write transaction.
@Suite struct SQLiteWriteSessionTests {
    static func notes() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE note (text TEXT NOT NULL)") }
        return queue
    }

    static func count(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") ?? -1 }
    }

    @Test func stepsRunInOneTransactionThatCommitsWhole() async throws {
        let queue = try Self.notes()
        let session = SQLiteWriteSession(writer: queue)
        try await session.run { db in try db.execute(sql: "INSERT INTO note VALUES ('a')") }
        let seen = try await session.run { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") }
        #expect(seen == 1, "a later step sees an earlier step's write")
        try await session.finish(commit: true)
        #expect(try Self.count(queue) == 1)
    }

    @Test func aFailingStepThrowsAndARollbackLeavesNothing() async throws {
        let queue = try Self.notes()
        let session = SQLiteWriteSession(writer: queue)
        try await session.run { db in try db.execute(sql: "INSERT INTO note VALUES ('a')") }
        await #expect(throws: DatabaseError.self) {
            try await session.run { db in try db.execute(sql: "INSERT INTO note VALUES (NULL)") }
        }
        try await session.finish(commit: false)
        #expect(try Self.count(queue) == 0)
    }

    @Test func stepsAfterTheEndFailInsteadOfWaiting() async throws {
        let queue = try Self.notes()
        let session = SQLiteWriteSession(writer: queue)
        try await session.finish(commit: true)
        await #expect(throws: (any Error).self) {
            try await session.run { db in try db.execute(sql: "INSERT INTO note VALUES ('late')") }
        }
        #expect(try Self.count(queue) == 0)
    }

    @Test func aReadOnlyDatabaseRefusesTheStepAndTheSessionStillEnds() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-session-\(UUID().uuidString).sqlite").path
        try Self.notes().backup(to: try DatabaseQueue(path: path))
        var configuration = Configuration()
        configuration.readonly = true
        let readOnly = try DatabaseQueue(path: path, configuration: configuration)
        let session = SQLiteWriteSession(writer: readOnly)
        await #expect(throws: DatabaseError.self) {
            try await session.run { db in try db.execute(sql: "INSERT INTO note VALUES ('x')") }
        }
        try await session.finish(commit: false)
        #expect(try await readOnly.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } == 0)
    }
}
