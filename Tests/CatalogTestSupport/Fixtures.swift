import Foundation

/// The fixtures and fakes that the Catalog tests and the store conformance suite share (one
/// copy: test targets cannot import each other). A library target under `Tests/`, never
/// shipped.
/// Paths of the shared test fixtures and scratch folders.
public enum Fixtures {
    /// `testdata/catalog-fixtures` at the repository root.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/catalog-fixtures")

    /// `manifest/catalog.json` among the fixtures.
    public static var manifest: String { root.appendingPathComponent("manifest/catalog.json").path }
    /// The plain-folder fixture catalog.
    public static var folder: String { root.appendingPathComponent("folder").path }

    /// A fresh scratch folder holding a copy of `testdata/catalog-fixtures/<name>`.
    public static func scratchCopy(of name: String) throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let copy = scratch.appendingPathComponent(name)
        try FileManager.default.copyItem(at: root.appendingPathComponent(name), to: copy)
        return copy
    }
}
