import Catalog
import Fingerprints
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CandidateIndex {
    /// The first-stage file of the visual-index snapshot at `snapshotPath`
    /// (`<snapshotPath>.first`, e.g. `glimpse.sqlite.vindex.first`).
    public static func path(forSnapshotAt snapshotPath: String) -> String { snapshotPath + ".first" }

    /// What ``load(path:for:)`` found.
    public enum LoadOutcome: Sendable {
        /// The first stage of exactly this index, mapped and checked.
        case loaded(CandidateIndex)
        /// No file (or it could not be opened).
        case missing
        /// A sound file built from another index (an older catalog generation).
        case stale(String)
        /// Not a sound first-stage file (truncated, bad checksum, inconsistent).
        case damaged(String)
    }

    /// Maps the first-stage file at `path` when it is sound and was built from `index`.
    ///
    /// - Complexity: O(file bytes): the whole file is checksummed and its references
    ///   bounds-checked on open (what a search reads of it is then trusted).
    public static func load(path: String, for index: VisualIndex) -> LoadOutcome {
        let mapped: UnsafeMutableRawPointer, size: Int
        switch ReadOnlyMapping.map(path, minimumSize: CandidateIndexLayout.headerSize) {
        case .mapped(let start, let length): (mapped, size) = (start, length)
        case .missing: return .missing
        case .refused(let reason): return .damaged(reason)
        }
        var adopted = false
        defer { if !adopted { munmap(mapped, size) } }
        let base = UnsafeRawPointer(mapped)
        func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        guard u64(0) == CandidateIndexLayout.magic else { return .damaged("not a Glimpse first-stage file (bad magic)") }
        guard u32(8) == CandidateIndexLayout.formatVersion, u32(12) == 128 else {
            return .stale("first-stage format \(u32(8)), this build writes \(CandidateIndexLayout.formatVersion)")
        }
        guard let layout = CandidateIndexLayout.read(from: base, available: size) else { return .damaged("its length does not match its header") }
        let generation = Int64(bitPattern: u64(32)), identity = u64(40)
        guard generation == index.version.generation, identity == index.identity,
              layout.entries == index.viewCount, layout.landmarks == index.landmarkCount else {
            return .stale("built from another visual index (generation \(generation), catalog is at \(index.version.generation))")
        }
        let checksum = Checksum64.of(UnsafeRawBufferPointer(start: base + CandidateIndexLayout.checksumStart, count: size - CandidateIndexLayout.checksumStart))
        guard checksum == u64(24) else { return .damaged("checksum mismatch") }
        let storage = VisualIndexStorage(adoptingChecked: base, count: size) { pointer, count in _ = munmap(pointer, count) }
        adopted = true
        let candidate = CandidateIndex(storage: storage, layout: layout, generation: generation, indexIdentity: identity)
        if let problem = candidate.consistencyProblem() { return .damaged(problem) }
        return .loaded(candidate)
    }

    /// The first inconsistency of the image (offsets out of order or range, a reference to
    /// an unknown landmark), or `nil`. O(entries + lists + landmarks).
    func consistencyProblem() -> String? {
        let offsets = listOffsets
        guard offsets[0] == 0, Int(offsets[layout.lists]) == layout.entries else { return "list offsets are inconsistent" }
        for l in 0..<layout.lists where offsets[l] > offsets[l + 1] { return "list offsets are inconsistent" }
        let fullEnds = self.fullEnds
        for l in 0..<layout.lists where fullEnds[l] < offsets[l] || fullEnds[l] > offsets[l + 1] { return "full-frame list ends are inconsistent" }
        for reference in references where Int(reference & ~CandidateIndexLayout.fullFrameBit) >= layout.landmarks {
            return "an entry names an unknown landmark"
        }
        let starts = viewStarts
        guard starts[0] == 0, Int(starts[layout.landmarks]) == layout.entries else { return "landmark view starts are inconsistent" }
        for k in 0..<layout.landmarks where starts[k] > starts[k + 1] { return "landmark view starts are inconsistent" }
        return nil
    }

    /// Writes the image to `path` atomically (temporary file, `fsync`, `rename`), with its
    /// header and checksum. O(bytes).
    ///
    /// - Throws: ``VisualIndexSnapshotError/cannotWrite(path:reason:)``; `path` is then untouched.
    public func write(to path: String) throws(VisualIndexSnapshotError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        // The image carries its header (``CandidateIndexLayout/writeHeader(to:generation:identity:)``
        // at build time); the file's copy adds the checksum of everything after byte 32.
        let image = storage.base
        let checksum = Checksum64.of(UnsafeRawBufferPointer(start: image + CandidateIndexLayout.checksumStart, count: layout.length - CandidateIndexLayout.checksumStart))
        var header = [UInt8](UnsafeRawBufferPointer(start: image, count: CandidateIndexLayout.headerSize))
        header.withUnsafeMutableBytes { $0.storeBytes(of: checksum.littleEndian, toByteOffset: 24, as: UInt64.self) }
        let body = UnsafeRawBufferPointer(start: image + CandidateIndexLayout.headerSize, count: layout.length - CandidateIndexLayout.headerSize)
        func writeAll(_ start: UnsafeRawPointer, _ count: Int) -> Bool {
            var done = 0
            while done < count {
                #if canImport(Glibc)
                let n = Glibc.write(fd, start + done, min(count - done, 1 << 30))
                #else
                let n = Darwin.write(fd, start + done, min(count - done, 1 << 30))
                #endif
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        var failure: String?
        let ok = header.withUnsafeBytes { writeAll($0.baseAddress!, $0.count) } && writeAll(body.baseAddress!, body.count)
        if !ok { failure = String(cString: strerror(errno)) } else if fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: failure)
        }
    }
}
