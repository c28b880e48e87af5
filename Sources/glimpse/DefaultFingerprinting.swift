import Search

/// The query-side fingerprints the CLI uses: the Fingerprints module's default query
/// layout, decoding JPEGs at the DCT scale its working size needs. (Indexing uses the
/// Catalog module's `DecodingImageFingerprinter`, the catalog layout.)
enum DefaultFingerprinting {
    /// For query images (`query`, `match`).
    static var query: ImageFileFingerprinter {
        let fingerprinter = Fingerprinter()
        return ImageFileFingerprinter(minimumShortSide: fingerprinter.workingSize) { fingerprinter.queryFingerprint(of: $0) }
    }
}
