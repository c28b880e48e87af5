import Catalog
import Fingerprints
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a visual-index snapshot could not be written (the catalog is unaffected; searches
/// then build the index in memory).
public enum VisualIndexSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or its temporary sibling) could not be created, written or renamed.
    case cannotWrite(path: String, reason: String)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "\(path): cannot write the visual-index snapshot: \(reason)"
        }
    }
}

/// The visual index saved beside its catalog so that a process can start searching
/// without reading every fingerprint from the catalog: the ``VisualIndex`` byte image
/// (``VisualIndexLayout``) in a file, memory-mapped read-only on open. Opening costs O(1)
/// system calls plus a check of the small sections (about 10 of the 122 bytes per view);
/// the PDQ planes, pHashes and dHashes are checked chunk by chunk as a scan reaches them and
/// a candidate view's histogram row when it is first scored, each 4 KiB block against its
/// own checksum, so no byte is used unchecked and a query pays only for what it reads (about
/// half of the image for the default query: the 64-byte histogram rows of chance hits are
/// never read).
///
/// Trust rules: the catalog stays the source of truth. A snapshot is used only when its
/// magic, format version, fingerprint serialization version, catalog id, generation and
/// minimum view quality all match the catalog being searched (else it is *stale*), and when
/// its length, header checksum (covering the block table), the blocks of the sections
/// checked on open and every stored index (owners, regions, full views, id offsets,
/// memberships) are consistent (else it is *damaged*). A stale or damaged snapshot is never
/// read further; the index is built from the catalog and the snapshot rewritten when the
/// folder is writable. A block found damaged later stops the search that read it with
/// ``VisualIndexDamage`` (``VisualSearchQuery`` then rebuilds the index from the catalog,
/// rewrites the snapshot and searches again). Files are replaced atomically (temporary file,
/// `fsync`, `rename`), so a reader never sees half a snapshot.
public enum VisualIndexSnapshot {
    /// The snapshot path of the catalog database at `catalogPath` (`<catalogPath>.vindex`),
    /// or `nil` for an in-memory catalog.
    public static func path(forCatalogAt catalogPath: String) -> String? {
        catalogPath.isEmpty || catalogPath == ":memory:" ? nil : catalogPath + ".vindex"
    }

    /// What ``load(path:expecting:minimumViewQuality:)`` found.
    public enum LoadOutcome: Sendable {
        /// A snapshot of exactly this catalog state, mapped.
        case loaded(VisualIndex)
        /// No snapshot file (or it could not be opened).
        case missing
        /// A sound snapshot of another catalog, generation, layout or quality threshold.
        case stale(String)
        /// A file that is not a sound snapshot (truncated, bad checksum, inconsistent).
        case damaged(String)
    }

    /// Maps the snapshot at `path` if it is a sound snapshot of `version`.
    ///
    /// - Complexity: O(1) system calls, plus a checksum and a bounds check over the sections
    ///   checked on open (``VisualIndexLayout/checkedOnOpen``: about 10 bytes per view).
    public static func load(path: String, expecting version: CatalogVersion,
                            minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) -> LoadOutcome {
        load(path: path, expecting: version, minimumViewQuality: minimumViewQuality, acceptingEarlierGenerations: false)
    }

    /// ``load(path:expecting:minimumViewQuality:)``, also mapping a sound snapshot of an
    /// earlier generation of the same catalog (the index it maps then has that generation's
    /// version): the base that ``IncrementalVisualIndex/opened(snapshotAt:store:minimumViewQuality:)``
    /// brings up to date from the change log. With `partition` (of more than one), only the
    /// snapshot of that partition's index is mapped (``ownerID(catalogID:partition:)``).
    ///
    /// - Complexity: as ``load(path:expecting:minimumViewQuality:)``.
    public static func load(path: String, expecting version: CatalogVersion, minimumViewQuality: Int,
                            acceptingEarlierGenerations: Bool, partition: CatalogPartition? = nil) -> LoadOutcome {
        let mapped: UnsafeMutableRawPointer, size: Int
        switch ReadOnlyMapping.map(path, minimumSize: VisualIndexLayout.headerSize) {
        case .mapped(let start, let length): (mapped, size) = (start, length)
        case .missing: return .missing
        case .refused(let reason): return .damaged(reason)
        }
        var adopted = false
        defer { if !adopted { munmap(mapped, size) } }
        let base = UnsafeRawPointer(mapped)
        func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        guard u64(0) == VisualIndexLayout.magic else { return .damaged("not a Glimpse visual-index snapshot (bad magic)") }
        guard u32(8) == VisualIndexLayout.formatVersion else { return .stale("snapshot format \(u32(8)), this build writes \(VisualIndexLayout.formatVersion)") }
        guard u32(12) == UInt32(Fingerprint.serializationVersion) else {
            return .stale("fingerprint format \(u32(12)), this build uses \(Fingerprint.serializationVersion)")
        }
        guard let layout = VisualIndexLayout.read(from: base, available: size), layout.length == size else {
            return .damaged("its length does not match its header")
        }
        guard case .snapshot(let catalogID, let generation) = owner(ofHeader: UnsafeRawBufferPointer(start: base, count: size)) else {
            return .damaged("bad catalog id length")
        }
        let quality = Int(Int32(bitPattern: u32(40)))
        let expected = ownerID(catalogID: version.catalogID, partition: partition)
        guard catalogID == expected else { return .stale("snapshot of \(Self.describe(owner: catalogID)), not \(Self.describe(owner: expected))") }
        guard generation == version.generation || (acceptingEarlierGenerations && generation < version.generation) else {
            return .stale("snapshot of generation \(generation), catalog is at \(version.generation)")
        }
        var version = version
        version.generation = generation
        guard quality == minimumViewQuality else { return .stale("snapshot keeps views of quality ≥ \(quality), search wants \(minimumViewQuality)") }
        guard headerChecksum(base, layout) == u64(24) else { return .damaged("checksum mismatch (header or block table)") }
        let body = UnsafeRawBufferPointer(start: base + layout.bodyStart, count: size - layout.bodyStart)
        let blocks = VerifiedBlocks(bytes: body, table: base + layout.blockTable, blockSize: VisualIndexLayout.blockSize)
        // The pages of the sections read on open are asked for in one go, and below those
        // every scan streams through (the PDQ planes, pHashes and dHashes) unless a first
        // stage spares it; candidates' histogram rows are faulted in one page at a time.
        advisePopulate(base + layout.owners, layout.length - layout.owners)
        let storage = VisualIndexStorage(adopting: base, count: size, blocks: blocks, bodyStart: layout.bodyStart, path: path) { pointer, count in
            _ = munmap(pointer, count)
        }
        adopted = true
        for range in layout.checkedOnOpen {
            do { try storage.check(range) } catch { return .damaged("checksum mismatch in the block at byte \(error.offset)") }
        }
        let index = VisualIndex(version: version, minimumViewQuality: minimumViewQuality, storage: storage, layout: layout)
        if let problem = index.consistencyProblem() { return .damaged(problem) }
        // With a first stage, only candidates' rows are read: their pages come on demand.
        if case .loaded(let firstStage) = CandidateIndex.load(path: CandidateIndex.path(forSnapshotAt: path), for: index),
           let staged = index.withFirstStage(firstStage) {
            return .loaded(staged)
        }
        advisePopulate(base + layout.pdqPlanes, layout.histograms - layout.pdqPlanes)
        return .loaded(index)
    }

    /// The checksum stored at byte 24: of bytes 32 ..< the body (the rest of the header and
    /// the block table). O(header + table).
    static func headerChecksum(_ base: UnsafeRawPointer, _ layout: VisualIndexLayout) -> UInt64 {
        Checksum64.of(UnsafeRawBufferPointer(start: base + VisualIndexLayout.checksumStart, count: layout.bodyStart - VisualIndexLayout.checksumStart))
    }

    /// Asks the kernel to map the pages of `count` bytes at `start` now (Linux
    /// `MADV_POPULATE_READ`, 5.14 and later), so that the first pass over them takes no page
    /// faults; a no-op where refused. O(pages).
    private static func advisePopulate(_ start: UnsafeRawPointer, _ count: Int) {
        #if os(Linux)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = Int(bitPattern: start) & ~(page - 1), end = Int(bitPattern: start) + count
        guard count > 0, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(pointer, end - first, 22 /* MADV_POPULATE_READ */)
        #endif
    }

    /// Writes `index` to `path` atomically (a temporary file in the same folder, `fsync`,
    /// then `rename` over `path`), with its block table and header checksum; its header names
    /// `partition` when the index holds one partition of several
    /// (``ownerID(catalogID:partition:)``). O(index bytes).
    ///
    /// - Throws: ``VisualIndexSnapshotError/cannotWrite(path:reason:)`` (read-only folder,
    ///   disk full…); `path` is then untouched.
    public static func write(_ index: VisualIndex, to path: String, partition: CatalogPartition? = nil) throws(VisualIndexSnapshotError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var failure: String?
        // The header and block table carry the checksums; the shared image is never modified.
        let layout = index.layout, image = index.storage.base
        var prefix = [UInt8](UnsafeRawBufferPointer(start: image, count: layout.bodyStart))
        prefix.withUnsafeMutableBytes { head in
            // The owner: the index's catalog id, or the partition it holds and that id.
            let owner = Array(ownerID(catalogID: index.version.catalogID, partition: partition).utf8.prefix(VisualIndexLayout.maximumCatalogIDLength))
            head.storeBytes(of: UInt32(owner.count).littleEndian, toByteOffset: 44, as: UInt32.self)
            for k in 0..<VisualIndexLayout.maximumCatalogIDLength {
                head.storeBytes(of: k < owner.count ? owner[k] : 0, toByteOffset: 48 + k, as: UInt8.self)
            }
            Checksum64.blocks(of: UnsafeRawBufferPointer(start: image + layout.bodyStart, count: layout.length - layout.bodyStart),
                              blockSize: VisualIndexLayout.blockSize,
                              into: UnsafeMutableRawBufferPointer(rebasing: head[layout.blockTable..<layout.bodyStart]))
            let checksum = headerChecksum(UnsafeRawPointer(head.baseAddress!), layout).littleEndian
            head.storeBytes(of: checksum, toByteOffset: 24, as: UInt64.self)
        }
        func writeAll(_ start: UnsafeRawPointer, _ count: Int) -> Bool {
            var done = 0
            while done < count {
                let n = posixWrite(fd, start + done, min(count - done, 1 << 30))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        let ok = prefix.withUnsafeBytes { writeAll($0.baseAddress!, $0.count) }
            && writeAll(image + layout.bodyStart, layout.length - layout.bodyStart)
        if !ok { failure = String(cString: strerror(errno)) } else if fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: failure)
        }
    }

    /// What ``refresh(store:path:minimumViewQuality:)`` did.
    public enum RefreshAction: Sendable, Hashable, CustomStringConvertible {
        /// The snapshot already matched the catalog.
        case upToDate
        /// The index was built from the catalog and the snapshot written.
        case written
        /// The index was built from the catalog but the snapshot could not be written (why).
        case notWritten(String)

        /// One line for people, naming what and why.
        public var description: String {
            switch self {
            case .upToDate: "visual-index snapshot up to date"
            case .written: "visual-index snapshot written"
            case .notWritten(let reason): "visual-index snapshot not written (\(reason))"
            }
        }
    }

    /// The index of the store's current state: the snapshot at `path` when it is sound and
    /// current, else built from the catalog (and the snapshot rewritten, when `path` is
    /// writable and `replacing` allows replacing what is there: else
    /// ``RefreshAction/notWritten(_:)`` says why). What a search's cold start uses.
    ///
    /// With `trustingSnapshot` false the snapshot is not opened at all: the index is built
    /// from the catalog and the snapshot rewritten (after a search found it damaged).
    ///
    /// - Throws: the store's error when the catalog cannot be read.
    public static func refresh(store: any EntityStore, path: String?,
                               minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality,
                               trustingSnapshot: Bool = true, replacing: SnapshotReplacement = .snapshotsOnly)
        async throws(CatalogStoreError) -> (index: VisualIndex, action: RefreshAction) {
        if let path, trustingSnapshot {
            let version = try await store.catalogVersion()
            if case .loaded(let index) = load(path: path, expecting: version, minimumViewQuality: minimumViewQuality,
                                              acceptingEarlierGenerations: false, partition: store.partition) {
                return (index, .upToDate)
            }
        }
        let index = try await VisualIndex(store: store, minimumViewQuality: minimumViewQuality)
        guard let path else { return (index, .notWritten("in-memory catalog")) }
        if let refusal = replacing.refusal(toReplace: path, withSnapshotOf: ownerID(catalogID: index.version.catalogID, partition: store.partition)) {
            return (index, .notWritten(refusal))
        }
        do { try write(index, to: path, partition: store.partition) } catch { return (index, .notWritten(error.description)) }
        return (index, .written)
    }
}

extension VisualIndex {
    /// Builds the index of the store's current state from its fingerprints and collections,
    /// read consistently (retried if the catalog changes in between). O(views).
    ///
    /// - Throws: the store's error, or ``CatalogStoreError/database(_:reason:)`` when the
    ///   catalog kept changing.
    public init(store: any EntityStore, minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) async throws(CatalogStoreError) {
        let (snapshot, collections) = try await Self.readConsistently(from: store)
        self.init(version: snapshot.version, entries: snapshot.entries, collections: collections, minimumViewQuality: minimumViewQuality)
    }

    /// The fingerprints and live collections of one catalog version, read again when the
    /// catalog changed in between (up to three times).
    ///
    /// - Throws: the store's error, or ``CatalogStoreError/database(_:reason:)`` when the
    ///   catalog kept changing.
    static func readConsistently(from store: any EntityStore) async throws(CatalogStoreError) -> (FingerprintSnapshot, [CollectionEntity]) {
        for _ in 0..<3 {
            let snapshot = try await store.fingerprintSnapshot()
            let collections = try await store.allCollections()
            guard try await store.catalogVersion() == snapshot.version else { continue }
            return (snapshot, collections)
        }
        throw .database("building the visual index", reason: "the catalog kept changing while it was read")
    }

    /// The first inconsistency of a mapped image (an index out of its table, offsets out of
    /// order), or `nil`. O(views + landmarks + memberships).
    func consistencyProblem() -> String? {
        let l = layout
        if l.landmarks > 0 || l.views > 0 {
            var worst: UInt32 = 0
            for owner in owners { worst = max(worst, UInt32(bitPattern: owner)) }
            if l.views > 0 && Int(worst) >= l.landmarks { return "a view's landmark number is out of range" }
            worst = 0
            for region in regionNumbers { worst = max(worst, region) }
            if l.views > 0 && Int(worst) >= l.regions { return "a view's region number is out of range" }
            worst = 0
            for view in fullViews { worst = max(worst, UInt32(bitPattern: view)) }
            if l.fullViews > 0 && Int(worst) >= l.views { return "a full-frame view number is out of range" }
        }
        func monotonic(_ offset: Int, _ count: Int, limit: Int) -> Bool {
            let offsets = section(offset, count + 1, as: UInt32.self)
            if offsets[0] != 0 || Int(offsets[count]) != limit { return false }
            for k in 0..<count where offsets[k] > offsets[k + 1] { return false }
            return true
        }
        guard monotonic(l.landmarkIDOffsets, l.landmarks, limit: l.landmarkIDBytes) else { return "landmark id offsets are inconsistent" }
        guard monotonic(l.collectionIDOffsets, l.collections, limit: l.collectionIDBytes) else { return "collection id offsets are inconsistent" }
        guard monotonic(l.membershipOffsets, l.landmarks, limit: l.memberships) else { return "membership offsets are inconsistent" }
        for c in section(l.membershipData, l.memberships, as: UInt32.self) where Int(c) >= l.collections {
            return "a membership names an unknown collection"
        }
        return nil
    }
}

/// `write(2)` (the name is taken by ``VisualIndexSnapshot/write(_:to:)`` inside the type).
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
