import ArgumentParser
import Search

/// Tells the user, on stderr, when the catalog still holds fingerprints of an older view
/// layout, and exactly what to run. Such fingerprints are still searched (upright queries
/// match as before); only what newer layouts added is missing for them.
func noteOutdatedFingerprints(_ search: VisualSearchQuery, database: DatabaseOption) async {
    guard let (outdated, total) = try? await search.outdatedFingerprintCount(), outdated > 0 else { return }
    let command = (["glimpse", "index", "SOURCE"] + database.arguments.map(shellQuoted)).joined(separator: " ")
    printError("""
        glimpse: note: \(outdated) of \(total) catalog images have fingerprints of an older view layout \
        (this build makes layout version \(FingerprintViewLayout.catalogVersion)); they are still searched, \
        but rotated, flipped and cropped queries may miss them. Run '\(command)' again \
        (SOURCE: the manifest or folder the catalog was indexed from) to recompute them.
        """)
}

extension QueryOrientations: ExpressibleByArgument {}
