/// One share of a partitioned catalog: partition ``index`` of ``count``, written `i/P` on the
/// command line (`glimpse serve --partition 2/4`).
///
/// A PostgreSQL catalog is split into P partitions when it is created (`glimpse index
/// --partitions P`); PostgreSQL itself assigns every landmark to one of them by a hash of
/// its id (declarative hash partitioning, `MODULUS P REMAINDER i`), so the split is stable,
/// needs no table of its own and is the same for every reader. A replica opened for one
/// partition loads the fingerprints of that partition's landmarks only; entity reads
/// (names, collections) still see the whole catalog. SQLite catalogs are never partitioned.
public struct CatalogPartition: Sendable, Hashable, CustomStringConvertible {
    /// Which partition, from 0 to ``count`` - 1.
    public let index: Int
    /// How many partitions the catalog has.
    public let count: Int

    /// Most partitions a catalog may have (PostgreSQL keeps one table per partition).
    public static let maximumCount = 256

    /// Partition `index` of `count`.
    ///
    /// - Throws: ``CatalogPartitionError`` when `count` is not in 1...``maximumCount`` or
    ///   `index` not in 0..<`count`.
    /// - Complexity: O(1).
    public init(index: Int, count: Int) throws(CatalogPartitionError) {
        guard (1...Self.maximumCount).contains(count) else { throw .badCount(count) }
        guard (0..<count).contains(index) else { throw .badIndex(index, count: count) }
        self.index = index
        self.count = count
    }

    /// Partition `index` of `count`, both already checked. O(1).
    private init(checkedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `i/P` (for example `0/4`).
    ///
    /// - Throws: ``CatalogPartitionError/malformed(_:)`` for anything else, or the errors of
    ///   ``init(index:count:)``.
    /// - Complexity: O(text length).
    public init(parsing text: String) throws(CatalogPartitionError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let index = Int(parts[0]), let count = Int(parts[1]) else { throw .malformed(text) }
        try self.init(index: index, count: count)
    }

    /// Every partition of a catalog of `count` partitions, in order.
    ///
    /// - Complexity: O(count).
    public static func all(count: Int) throws(CatalogPartitionError) -> [CatalogPartition] {
        guard (1...maximumCount).contains(count) else { throw .badCount(count) }
        return (0..<count).map { CatalogPartition(checkedIndex: $0, count: count) }
    }

    /// `i/P`. O(1).
    public var description: String { "\(index)/\(count)" }
}

extension CatalogPartition: Codable {
    /// Decodes `i/P` (a JSON string).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes `i/P` (a JSON string).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a partition or partition count was refused.
public enum CatalogPartitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not of the form `i/P` with two decimal numbers.
    case malformed(String)
    /// A partition count outside 1...``CatalogPartition/maximumCount``.
    case badCount(Int)
    /// A partition index outside 0..<count.
    case badIndex(Int, count: Int)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .malformed(let text): "\"\(text)\" is not a partition: write i/P, for example 0/4 (partition 0 of 4)"
        case .badCount(let count): "\(count) partitions: a catalog has 1 to \(CatalogPartition.maximumCount) partitions"
        case .badIndex(let index, let count): "partition \(index) of \(count): partitions are numbered 0 to \(count - 1)"
        }
    }
}
