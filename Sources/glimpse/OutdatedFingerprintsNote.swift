import ArgumentParser
import Fingerprints
import Search

/// Tells the user, on stderr, when the catalog still holds fingerprints of an older view
/// layout, and exactly what to run. Such fingerprints are still searched; they were computed
/// the older way (for version 1: from a larger decode), so their scores can differ from
/// those of a freshly indexed catalog.
func noteOutdatedFingerprints(_ search: VisualSearchQuery, database: DatabaseOption) async {
    guard let (outdated, total) = try? await search.outdatedFingerprintCount(), outdated > 0 else { return }
    let command = (["glimpse", "index", "SOURCE"] + database.arguments.map(shellQuoted)).joined(separator: " ")
    printError("""
        glimpse: note: \(outdated) of \(total) catalog images have fingerprints of an older view layout \
        (this build makes layout version \(FingerprintViewLayout.catalogVersion)); they are still searched, \
        but their scores can differ from a freshly indexed catalog's. Run '\(command)' again \
        (SOURCE: the manifest or folder the catalog was indexed from) to recompute them.
        """)
}

extension QueryOrientations: ExpressibleByArgument {}
