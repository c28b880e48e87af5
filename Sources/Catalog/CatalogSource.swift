/// Where a catalog's entities come from: a JSON manifest (``ManifestCatalogSource``) or
/// a plain folder of images (``FolderCatalogSource``).
public protocol CatalogSource: Sendable {
    /// A short description for messages (the manifest or folder path).
    var sourceDescription: String { get }
    /// Reads and validates the source. Reads the manifest and the first bytes of every
    /// image (to check it is an image); never decodes pixels.
    ///
    /// - Throws: ``CatalogSourceError`` naming the source and every problem found.
    func load() throws(CatalogSourceError) -> CatalogContent
}
