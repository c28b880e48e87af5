import Catalog
import Foundation

/// One input of the manifest fuzzer (`scripts/fuzz.sh manifest`): the bytes of a
/// manifest. Shared by the libFuzzer entry point (fuzz/ManifestFuzzer.swift, which
/// compiles this file too) and ``FuzzRegressionTests``, so a saved input replays exactly.
///
/// The bytes are written as `manifest.json` into a private folder whose subfolders link
/// to the images of `testdata/catalog` and `testdata/catalog-fixtures/manifest/images`,
/// so manifests copied from testdata resolve their image paths and reach validation.
enum ManifestFuzzInput {
    /// The private folder, made once per process (removed by the system's temp cleanup).
    static let folder: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/CatalogTests/ManifestFuzzInput.swift
        let testdata = parts.joined(separator: "/") + "/testdata"
        let folder = NSTemporaryDirectory() + "glimpse-manifest-fuzz-\(getpid())"
        let manager = FileManager.default
        try? manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let catalog = testdata + "/catalog"
        for entry in (try? manager.contentsOfDirectory(atPath: catalog)) ?? [] where !entry.hasSuffix(".json") {
            try? manager.createSymbolicLink(atPath: folder + "/" + entry, withDestinationPath: catalog + "/" + entry)
        }
        try? manager.createSymbolicLink(atPath: folder + "/images",
                                        withDestinationPath: testdata + "/catalog-fixtures/manifest/images")
        return folder
    }()

    /// Loads `bytes` as a manifest. Returns `nil` when the parser behaved (content that
    /// satisfies the documented invariants, or a typed error naming the manifest),
    /// otherwise what went wrong. `name` keeps concurrent callers apart.
    static func run(_ bytes: Data, name: String = "manifest.json") -> String? {
        let path = folder + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: bytes) else { return "cannot write \(path)" }
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let content = try ManifestCatalogSource(manifestPath: path).load()
            let ids = content.landmarks.map(\.id)
            guard Set(ids).count == ids.count else { return "duplicate landmark ids in \(ids)" }
            guard Set(content.collections.map(\.id)).count == content.collections.count else { return "duplicate collection ids" }
            let known = Set(ids)
            for landmark in content.landmarks where landmark.id.isEmpty || landmark.referenceImages.isEmpty {
                return "landmark \"\(landmark.id)\" without id or images"
            }
            for collection in content.collections {
                guard collection.landmarkIDs.allSatisfy(known.contains),
                      Set(collection.landmarkIDs).count == collection.landmarkIDs.count else {
                    return "collection \(collection.id) has unknown or repeated members"
                }
            }
            _ = content.imagePaths
        } catch {
            guard error.description.hasPrefix(path) else { return "error does not name the manifest: \(error)" }
        }
        return nil
    }
}
