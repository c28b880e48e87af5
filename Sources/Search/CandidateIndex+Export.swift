import Foundation

extension CandidateIndex {
    /// Writes the first stage's entries for other tools to index the same codes
    /// (`benchmarks/faiss-first-stage.sh` builds faiss's binary indexes from them), into
    /// `folder`:
    /// - `entries.codes`: every entry's 16-byte ``CandidateCode`` (pHash then dHash, each a
    ///   little-endian 64-bit word), in list order;
    /// - `entries.owners`: for each entry a little-endian 32-bit landmark number, with bit 31
    ///   set when the entry is a full-frame view;
    /// - `landmarks.txt`: `landmarkIDs[n]` on line n + 1 (ids with a newline are refused).
    ///
    /// - Parameter landmarkIDs: the ids of the visual index's landmarks, by number
    ///   (``VisualIndex/landmarkIDs``).
    /// - Throws: ``VisualIndexSnapshotError/cannotWrite(path:reason:)`` naming the file.
    /// - Complexity: O(entries); writes 20 bytes per entry.
    public func exportEntries(landmarkIDs: [String], to folder: String) throws(VisualIndexSnapshotError) {
        func write(_ name: String, _ data: Data) throws(VisualIndexSnapshotError) {
            let path = (folder as NSString).appendingPathComponent(name)
            do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw .cannotWrite(path: path, reason: "\(error)")
            }
        }
        guard landmarkIDs.count == layout.landmarks else {
            throw .cannotWrite(path: folder, reason: "\(landmarkIDs.count) landmark ids for an index of \(layout.landmarks) landmarks")
        }
        if let bad = landmarkIDs.first(where: { $0.contains("\n") }) {
            throw .cannotWrite(path: folder, reason: "landmark id '\(bad.debugDescription)' contains a newline")
        }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .cannotWrite(path: folder, reason: "\(error)")
        }
        try write("entries.codes", Data(bytes: storage.base + layout.codes, count: 16 * layout.entries))
        try write("entries.owners", Data(bytes: storage.base + layout.references, count: 4 * layout.entries))
        try write("landmarks.txt", Data(landmarkIDs.map { $0 + "\n" }.joined().utf8))
    }
}
