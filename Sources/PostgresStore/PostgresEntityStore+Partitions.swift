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

extension PostgresEntityStore: ClusterDirectory {
    /// Registers `member` or renews its entry, stamped with the database's `now()`, and drops
    /// the rows of replicas not heard from for an hour; allowed on a store opened read-only
    /// (the one table a replica writes), outside the writer lock so that a long index commit
    /// never delays it.
    /// - Complexity: one upsert and one delete over the (small) table.
    public func heartbeat(_ member: ClusterMember) async throws(CatalogStoreError) {
        let logger = self.logger
        do {
            try await client.withConnection { connection in
                try await connection.query("""
                    INSERT INTO cluster_member (address, partition_index, partition_count, generation, heartbeat_at)
                    VALUES (\(member.address), \(member.partition.index), \(member.partition.count), \(member.generation), now())
                    ON CONFLICT (address) DO UPDATE SET partition_index = EXCLUDED.partition_index, partition_count = EXCLUDED.partition_count,
                      generation = EXCLUDED.generation, heartbeat_at = now()
                    """, logger: logger)
                // Rows of replicas gone for an hour (killed, never stopped cleanly) are dropped.
                try await connection.query("DELETE FROM cluster_member WHERE heartbeat_at < now() - interval '1 hour'", logger: logger)
            }
        } catch { throw storeError("renewing the cluster membership of \(member.address)", error) }
    }

    /// The members heard from within `maximumAge` (database clock), by partition then address;
    /// rows of another partition count (a replica not yet restarted after a repartition) are left out.
    /// - Complexity: one read, O(members).
    public func members(heardWithin maximumAge: Duration) async throws(CatalogStoreError) -> [ClusterMember] {
        let logger = self.logger
        let seconds = Double(maximumAge.components.seconds) + Double(maximumAge.components.attoseconds) / 1e18
        return try await read("reading the cluster members") { connection in
            let count = try await PostgresSchema.partitionCount(connection, logger: logger)
            var members: [ClusterMember] = []
            let rows = try await connection.query("""
                SELECT address, partition_index, generation FROM cluster_member
                WHERE partition_count = \(count) AND heartbeat_at > now() - make_interval(secs => \(seconds))
                ORDER BY partition_index, address
                """, logger: logger)
            for try await (address, index, generation) in rows.decode((String, Int, Int64).self) {
                guard let partition = try? CatalogPartition(index: index, count: count) else { continue }
                members.append(ClusterMember(address: address, partition: partition, generation: generation))
            }
            return members
        }
    }

    /// Removes the entry of the member at `address`.
    /// - Complexity: one delete.
    public func leave(address: String) async throws(CatalogStoreError) {
        let logger = self.logger
        do {
            try await client.withConnection { connection in
                try await connection.query("DELETE FROM cluster_member WHERE address = \(address)", logger: logger)
            }
        } catch { throw storeError("leaving the cluster (\(address))", error) }
    }
}
