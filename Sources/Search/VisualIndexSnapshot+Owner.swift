import Catalog
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension VisualIndexSnapshot {
    /// What lies at a snapshot path, read from its header alone: whether a process may
    /// replace the file with its own snapshot (``PreparedSearchIndex/saveSnapshot(to:)``).
    public enum FileOwner: Sendable, Hashable {
        /// Nothing there.
        case nothing
        /// Something that is not a Glimpse visual-index snapshot (or cannot be read): never
        /// replaced.
        case notASnapshot
        /// A snapshot (sound or not) of this owner (``ownerID(catalogID:partition:)``: a
        /// catalog id, or a partition of one) at this generation.
        case snapshot(catalogID: String, generation: Int64)
    }

    /// The owner a snapshot's header names (bytes 48 ..< 112): the catalog id for the index
    /// of a whole catalog; for the index of one partition of several, `partition i/P of `
    /// before it, so that a replica of one partition never maps, nor replaces, another
    /// partition's snapshot or the whole catalog's. Cut to
    /// ``VisualIndexLayout/maximumCatalogIDLength`` bytes (the partition is never cut off).
    ///
    /// - Complexity: O(catalog id).
    public static func ownerID(catalogID: String, partition: CatalogPartition?) -> String {
        var bytes = Array(catalogID.utf8)
        if let partition, partition.count > 1 { bytes = Array("\(partitionOwnerPrefix)\(partition) of ".utf8) + bytes }
        return String(decoding: bytes.prefix(VisualIndexLayout.maximumCatalogIDLength), as: UTF8.self)
    }

    /// How the owner id of one partition's snapshot begins (``ownerID(catalogID:partition:)``).
    static let partitionOwnerPrefix = "partition "

    /// An owner id for people: `catalog ID`, or `partition i/P of ID`. O(id).
    static func describe(owner: String) -> String {
        owner.hasPrefix(partitionOwnerPrefix) ? owner : "catalog \(owner)"
    }

    /// What lies at `path`, from at most its first 112 bytes. Never blocks on a FIFO.
    ///
    /// - Complexity: O(1) system calls.
    public static func owner(ofFileAt path: String) -> FileOwner {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return errno == ENOENT ? .nothing : .notASnapshot }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return .notASnapshot }
        var head = [UInt8](repeating: 0, count: 48 + VisualIndexLayout.maximumCatalogIDLength)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return .notASnapshot }
        return head.withUnsafeBytes { owner(ofHeader: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// The owner a snapshot's first bytes name (magic, generation at byte 32, catalog id
    /// length at 44 and the id from 48): the one reading of those fields, for ``load(path:expecting:minimumViewQuality:)``
    /// and ``owner(ofFileAt:)``. ``FileOwner/notASnapshot`` when the magic is wrong or
    /// the bytes end first. O(catalog id).
    static func owner(ofHeader bytes: UnsafeRawBufferPointer) -> FileOwner {
        guard bytes.count >= 48,
              UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)) == VisualIndexLayout.magic else { return .notASnapshot }
        let idLength = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 44, as: UInt32.self)))
        guard idLength <= VisualIndexLayout.maximumCatalogIDLength, bytes.count >= 48 + idLength else { return .notASnapshot }
        let generation = Int64(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt64.self)))
        return .snapshot(catalogID: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[48..<(48 + idLength)]), as: UTF8.self), generation: generation)
    }
}
