import Catalog
import Logging
import PostgresNIO

extension PostgresEntityStore {
    /// How many partitions the catalog has (fixed when it was created; 1 unless
    /// `glimpse index --partitions` or ``repartition(count:)`` chose more).
    /// - Complexity: one small read.
    public func partitionCount() async throws(CatalogStoreError) -> Int {
        let logger = self.logger
        return try await read("reading the partition count") { connection in
            try await PostgresSchema.partitionCount(connection, logger: logger)
        }
    }

    /// Splits the catalog's reference images into `count` hash partitions of landmark id,
    /// replacing the current split, in ONE transaction under the writer lock: a failure
    /// leaves the old split. The generation moves on (every replica reloads), and replicas
    /// of one partition of the old count stop finding their table: stop them first and
    /// start them again with `--partition i/count` (an offline change).
    ///
    /// - Returns: the previous count and the new one (equal: nothing was done).
    /// - Throws: ``CatalogStoreError/readOnly(_:operation:)``, ``CatalogStoreError/database(_:reason:)``.
    /// - Complexity: O(reference images) rows copied once.
    public func repartition(count: Int) async throws(CatalogStoreError) -> (previous: Int, count: Int) {
        let logger = self.logger
        do {
            return try await write("repartition the catalog") { connection in
                let previous = try await PostgresSchema.partitionCount(connection, logger: logger)
                guard previous != count else { return (previous, count) }
                for statement in PostgresSchema.partitionedImageTable(count: count) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await Self.bumpGeneration(connection, touching: [], logger)
                // A new split makes every replica's incremental state meaningless: the change
                // log restarts here, so replicas reload in full.
                try await connection.query("""
                    UPDATE catalog_meta SET value = (SELECT value FROM catalog_meta WHERE key = 'generation') WHERE key = 'change_log_from'
                    """, logger: logger)
                return (previous, count)
            }
        } catch let error as CatalogStoreError {
            throw error
        } catch {
            throw storeError("trying to repartition the catalog", error)
        }
    }
}
