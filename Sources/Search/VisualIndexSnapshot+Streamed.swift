import Catalog
import Fingerprints
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension VisualIndexSnapshot {
    /// Views per chunk of the streamed writer: about 5 MB of row buffers (156 bytes a view
    /// with its full-frame rows), whatever the catalog's size.
    static let streamedChunkViews = 32_768

    /// Brings the snapshot at `path` up to date with the store without holding the index or
    /// the catalog's fingerprints in memory: what `glimpse index` runs after a commit.
    ///
    /// When the snapshot is already sound and current nothing is written. Otherwise the
    /// snapshot is written from a ``FingerprintStream`` in two passes over one consistent
    /// read (``VisualIndexBuilder``: counts, then rows), each view section written a chunk of
    /// ``streamedChunkViews`` views at a time, the block table computed by reading the body
    /// back, then `fsync` and `rename`: the same bytes as building the index in memory and
    /// ``write(_:to:)``, in memory bounded by one chunk plus the landmark ids and memberships.
    /// A store whose id order differs from Swift's string order (ids that are not in
    /// Unicode normal form) gets the in-memory build instead. A file at `path` that
    /// `replacing` does not allow replacing (``SnapshotReplacement``: with a path someone
    /// named, a file that is not a snapshot, or a partition replica's snapshot) is left as it
    /// is: ``RefreshAction/notWritten(_:)``.
    ///
    /// - Complexity: O(views) reads and writes; memory O(chunk + landmarks + memberships).
    /// - Throws: the store's error when the catalog cannot be read; a snapshot that cannot be
    ///   written is ``RefreshAction/notWritten(_:)``.
    public static func rewrite(store: any EntityStore, path: String?,
                               minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality,
                               replacing: SnapshotReplacement = .snapshotsOnly)
        async throws(CatalogStoreError) -> RefreshAction {
        try await rewrite(store: store, path: path, minimumViewQuality: minimumViewQuality, chunkViews: streamedChunkViews, replacing: replacing)
    }

    /// ``rewrite(store:path:minimumViewQuality:)`` with chunks of `chunkViews` views (tests
    /// use small chunks to cross many chunk boundaries).
    static func rewrite(store: any EntityStore, path: String?, minimumViewQuality: Int, chunkViews: Int,
                        replacing: SnapshotReplacement = .snapshotsOnly)
        async throws(CatalogStoreError) -> RefreshAction {
        guard let path else { return .notWritten("in-memory catalog") }
        let version = try await store.catalogVersion()
        if case .loaded = load(path: path, expecting: version, minimumViewQuality: minimumViewQuality) {
            return .upToDate
        }
        if let refusal = replacing.refusal(toReplace: path, withSnapshotOf: ownerID(catalogID: version.catalogID, partition: store.partition)) {
            return .notWritten(refusal)
        }
        for _ in 0..<3 {
            let before = try await store.catalogVersion()
            let collections = try await store.allCollections()
            let outcome: StreamedWrite
            do {
                outcome = try await store.withFingerprintStream { stream throws -> StreamedWrite in
                    guard stream.version == before else { return .catalogChanged }
                    return try streamedWrite(stream, collections: collections, minimumViewQuality: minimumViewQuality, chunkViews: chunkViews, to: path)
                }
            } catch let error as CatalogStoreError {
                throw error
            } catch let error as VisualIndexSnapshotError {
                return .notWritten(error.description)
            } catch {
                throw .database("writing the visual-index snapshot", reason: "\(error)")
            }
            switch outcome {
            case .written: return .written
            case .catalogChanged: continue
            case .notInIDOrder:
                let index = try await VisualIndex(store: store, minimumViewQuality: minimumViewQuality)
                do { try write(index, to: path) } catch { return .notWritten(error.description) }
                return .written
            }
        }
        throw .database("writing the visual-index snapshot", reason: "the catalog kept changing while it was read")
    }

    /// Writes the snapshot of `stream` (with `collections`) to `path` without holding the
    /// index in memory: the streamed writer of ``rewrite(store:path:minimumViewQuality:)``
    /// for fingerprints that do not come from a store, such as the capacity benchmark's
    /// generated catalog of ten million images (`glimpse debug-capacity-index`), whose
    /// catalog would not fit this project's disks. The stream's entries must come in
    /// increasing id order (Swift's string order, which is the UTF-8 byte order for ids in
    /// normal form), as a store hands them out.
    ///
    /// - Complexity: two passes over the stream; O(views) writes; memory O(chunk + landmarks
    ///   + memberships).
    /// - Throws: ``VisualIndexSnapshotError/cannotWrite(path:reason:)`` when the file cannot
    ///   be written, the ids are out of order or the stream changes between its passes (then
    ///   `path` is untouched); what the stream throws, as `cannotWrite`.
    public static func write(_ stream: FingerprintStream, collections: [CollectionEntity], to path: String,
                             minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) throws(VisualIndexSnapshotError) {
        let outcome: StreamedWrite
        do {
            outcome = try streamedWrite(stream, collections: collections, minimumViewQuality: minimumViewQuality, chunkViews: streamedChunkViews, to: path)
        } catch let error as VisualIndexSnapshotError {
            throw error
        } catch {
            throw .cannotWrite(path: path, reason: "reading the fingerprints: \(error)")
        }
        switch outcome {
        case .written: return
        case .notInIDOrder: throw .cannotWrite(path: path, reason: "the landmarks do not come in increasing id order")
        case .catalogChanged: throw .cannotWrite(path: path, reason: "the fingerprints changed between the two passes")
        }
    }

    /// What one streamed attempt did.
    private enum StreamedWrite {
        case written, catalogChanged, notInIDOrder
    }

    /// Writes the snapshot of `stream` to `path` (temporary file, `fsync`, `rename`).
    private static func streamedWrite(_ stream: FingerprintStream, collections: [CollectionEntity], minimumViewQuality: Int,
                                      chunkViews: Int, to path: String) throws -> StreamedWrite {
        var builder = VisualIndexBuilder(minimumViewQuality: minimumViewQuality)
        try stream.forEach { builder.count($0) }
        guard builder.inIDOrder else { return .notInIDOrder }
        let plan = builder.plan(collections: collections)
        let layout = plan.layout
        let file = try SnapshotFile(path: path, length: layout.length)
        do {
            // Pass 2: the view sections, a chunk of views at a time.
            let capacity = max(1, min(layout.views, max(chunkViews, builder.largestEntry)))
            let chunk = ViewChunk(capacity: capacity)
            var cursor = VisualIndexBuilder.Cursor()
            var rows = chunk.rows(firstView: 0, firstFullView: 0)
            try stream.forEach { entry in
                let needed = plan.rowsNeeded(by: entry)
                if cursor.view + needed.views > rows.firstView + rows.capacity {
                    try chunk.flush(rows, upTo: cursor, layout: layout, to: file)
                    rows = chunk.rows(firstView: cursor.view, firstFullView: cursor.fullView)
                }
                plan.fill(entry, at: &cursor, into: rows)
            }
            guard cursor.view == layout.views, cursor.fullView == layout.fullViews else {
                throw VisualIndexSnapshotError.cannotWrite(path: path, reason: "the catalog changed between the two passes")
            }
            try chunk.flush(rows, upTo: cursor, layout: layout, to: file)
            // The small sections and the header, then the block table read back from the file.
            let head = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.bodyStart, alignment: 16)
            defer { head.deallocate() }
            head.initializeMemory(as: UInt8.self, repeating: 0)
            let tailLength = layout.length - layout.regionTable
            let tail = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, tailLength), alignment: 16)
            defer { tail.deallocate() }
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            plan.writeTail(version: stream.version) { offset, count in
                if offset + count <= VisualIndexLayout.headerSize { return head.baseAddress! + offset }
                precondition(offset >= layout.regionTable && offset + count <= layout.length, "tail write outside the tail sections")
                return tail.baseAddress! + (offset - layout.regionTable)
            }
            try file.write(UnsafeRawBufferPointer(rebasing: tail[0..<tailLength]), at: layout.regionTable)
            try file.blockTable(bodyStart: layout.bodyStart, length: layout.length,
                                into: UnsafeMutableRawBufferPointer(rebasing: head[layout.blockTable..<layout.bodyStart]))
            head.storeBytes(of: headerChecksum(UnsafeRawPointer(head.baseAddress!), layout).littleEndian, toByteOffset: 24, as: UInt64.self)
            try file.write(UnsafeRawBufferPointer(head), at: 0)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
        return .written
    }

    /// The row buffers of one chunk of views (every view section's rows of `capacity`
    /// consecutive views, and as many full-frame rows), reused from chunk to chunk.
    private final class ViewChunk {
        let capacity: Int
        let pdq: UnsafeMutablePointer<UInt64>, fullPDQ: UnsafeMutablePointer<UInt64>
        let fullNumbers: UnsafeMutablePointer<Int32>
        let pHash: UnsafeMutablePointer<UInt64>, dHash: UnsafeMutablePointer<UInt64>
        let histogram: UnsafeMutablePointer<UInt8>
        let owner: UnsafeMutablePointer<Int32>, region: UnsafeMutablePointer<UInt32>

        init(capacity: Int) {
            self.capacity = capacity
            pdq = .allocate(capacity: 4 * capacity)
            fullPDQ = .allocate(capacity: 4 * capacity)
            fullNumbers = .allocate(capacity: capacity)
            pHash = .allocate(capacity: capacity)
            dHash = .allocate(capacity: capacity)
            histogram = .allocate(capacity: 64 * capacity)
            owner = .allocate(capacity: capacity)
            region = .allocate(capacity: capacity)
        }

        deinit {
            pdq.deallocate(); fullPDQ.deallocate(); fullNumbers.deallocate(); pHash.deallocate(); dHash.deallocate()
            histogram.deallocate(); owner.deallocate(); region.deallocate()
        }

        /// The window of this chunk starting at view `firstView` (full-frame view `firstFullView`).
        func rows(firstView: Int, firstFullView: Int) -> VisualIndexBuilder.ViewRows {
            VisualIndexBuilder.ViewRows(pdq: pdq, pdqStride: capacity, fullPDQ: fullPDQ, fullStride: capacity, fullNumbers: fullNumbers,
                                        pHash: pHash, dHash: dHash, histogram: histogram, owner: owner, region: region,
                                        firstView: firstView, firstFullView: firstFullView, capacity: capacity, fullCapacity: capacity)
        }

        /// Writes the rows filled in `rows` (up to `cursor`) at their places in `file`.
        func flush(_ rows: VisualIndexBuilder.ViewRows, upTo cursor: VisualIndexBuilder.Cursor, layout: VisualIndexLayout,
                   to file: SnapshotFile) throws(VisualIndexSnapshotError) {
            let n = cursor.view - rows.firstView, f = cursor.fullView - rows.firstFullView
            func put<T>(_ pointer: UnsafeMutablePointer<T>, _ count: Int, at offset: Int) throws(VisualIndexSnapshotError) {
                try file.write(UnsafeRawBufferPointer(start: pointer, count: count * MemoryLayout<T>.stride), at: offset)
            }
            for w in 0..<4 {
                try put(pdq + w * capacity, n, at: layout.pdqPlanes + 8 * (w * layout.views + rows.firstView))
                try put(fullPDQ + w * capacity, f, at: layout.fullPDQPlanes + 8 * (w * layout.fullViews + rows.firstFullView))
            }
            try put(fullNumbers, f, at: layout.fullViewNumbers + 4 * rows.firstFullView)
            try put(pHash, n, at: layout.pHashes + 8 * rows.firstView)
            try put(dHash, n, at: layout.dHashes + 8 * rows.firstView)
            try put(histogram, 64 * n, at: layout.histograms + 64 * rows.firstView)
            try put(owner, n, at: layout.owners + 4 * rows.firstView)
            try put(region, n, at: layout.regionNumbers + 4 * rows.firstView)
        }
    }

    /// The temporary file a snapshot is written to, of its final length (zero-filled), made
    /// the snapshot by ``commit()`` (`fsync`, `rename`) or removed by ``discard()``.
    final class SnapshotFile {
        let path: String, temporary: String
        private var fd: Int32

        init(path: String, length: Int) throws(VisualIndexSnapshotError) {
            self.path = path
            temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            guard ftruncate(fd, off_t(length)) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw .cannotWrite(path: path, reason: reason)
            }
        }

        /// Writes `bytes` at byte `offset`.
        func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(VisualIndexSnapshotError) {
            var done = 0
            while done < bytes.count, let base = bytes.baseAddress {
                let n = pwrite(fd, base + done, min(bytes.count - done, 1 << 30), off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw .cannotWrite(path: path, reason: n < 0 ? String(cString: strerror(errno)) : "short write") }
                done += n
            }
        }

        /// The checksum of every ``VisualIndexLayout/blockSize`` block of bytes `bodyStart ..< length`,
        /// read back from the file 256 blocks at a time, into `table`.
        func blockTable(bodyStart: Int, length: Int, into table: UnsafeMutableRawBufferPointer) throws(VisualIndexSnapshotError) {
            let blockSize = VisualIndexLayout.blockSize, step = 256 * blockSize
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: step, alignment: 64)
            defer { buffer.deallocate() }
            var position = bodyStart, block = 0
            while position < length {
                let count = min(step, length - position)
                var got = 0
                while got < count {
                    let n = pread(fd, buffer.baseAddress! + got, count - got, off_t(position + got))
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw .cannotWrite(path: path, reason: n < 0 ? String(cString: strerror(errno)) : "short read") }
                    got += n
                }
                let blocks = Checksum64.blockCount(of: count, blockSize: blockSize)
                Checksum64.blocks(of: UnsafeRawBufferPointer(rebasing: buffer[0..<count]), blockSize: blockSize,
                                  into: UnsafeMutableRawBufferPointer(rebasing: table[8 * block ..< 8 * (block + blocks)]))
                block += blocks
                position += count
            }
        }

        /// `fsync`, then `rename` over the snapshot's path.
        func commit() throws(VisualIndexSnapshotError) {
            var failure: String?
            if fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
            close(fd)
            fd = -1
            if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
            if let failure {
                unlink(temporary)
                throw .cannotWrite(path: path, reason: failure)
            }
        }

        /// Closes and removes the temporary file.
        func discard() {
            if fd >= 0 { close(fd) }
            fd = -1
            unlink(temporary)
        }
    }
}
