import ArgumentParser
import Catalog
import CatalogStores

/// `glimpse catalog repartition --partitions P`: splits a PostgreSQL catalog into P
/// partitions (an offline change: replicas of one partition are stopped first, then
/// started again with `--partition i/P`).
struct CatalogRepartitionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repartition",
        abstract: "Split a PostgreSQL catalog into another number of partitions (offline).",
        discussion: """
            Every reference image is moved to the partition PostgreSQL's hash of its landmark
            id gives, in one transaction: a failure changes nothing. Stop the replicas started
            with --partition first; unpartitioned replicas reload by themselves.

            Example:
              glimpse catalog repartition --partitions 4 --db postgres://glimpse@db/glimpse

            Exit codes: 0 success (also when the catalog already has that many); 1 usage or
            input error (an SQLite catalog, an unreachable database).
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: ArgumentHelp("How many partitions the catalog gets.", valueName: "count"))
    var partitions: Int

    func validate() throws {
        guard (1...CatalogPartition.maximumCount).contains(partitions) else {
            throw ValidationError(CatalogPartitionError.badCount(partitions).description)
        }
    }

    func run() async throws {
        let result: (previous: Int, count: Int)
        do { result = try await CatalogStores.repartition(database.catalogLocation, count: partitions) } catch {
            throw database.storeFailure(error)
        }
        if result.previous == result.count {
            print("\(database.catalogLocation): already \(result.count) partition\(result.count == 1 ? "" : "s"); nothing changed.")
        } else {
            print("\(database.catalogLocation): \(result.previous) → \(result.count) partitions; start each partition's replicas with --partition i/\(result.count).")
        }
    }
}
