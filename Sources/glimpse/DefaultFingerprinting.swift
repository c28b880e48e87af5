import Search

/// The fingerprints the CLI uses: the Fingerprints module's default catalog and query
/// layouts, decoding JPEGs at the DCT scale its working size needs.
enum DefaultFingerprinting {
    /// For catalog images (`index`).
    static var catalog: ImageFileFingerprinter {
        let fingerprinter = Fingerprinter()
        return ImageFileFingerprinter(minimumShortSide: fingerprinter.workingSize) { fingerprinter.fingerprint(of: $0) }
    }

    /// For query images (`query`, `match`).
    static var query: ImageFileFingerprinter {
        let fingerprinter = Fingerprinter()
        return ImageFileFingerprinter(minimumShortSide: fingerprinter.workingSize) { fingerprinter.queryFingerprint(of: $0) }
    }
}
