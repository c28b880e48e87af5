import Catalog
import Foundation
import GlimpseProcessTesting
import GRDB
@testable import Server
@testable import SQLiteStore
import Testing

/// `/readyz`'s count of unsearchable images, kept per catalog generation in the background.
@Suite struct UnsearchableCountCacheTests {
    /// A catalog of `images` landmarks whose one image each has no searchable view (whole
    /// quality 0): what makes the count read for a while, as at a million crops.
    func flatCatalog(images: Int) throws -> SQLiteEntityStore {
        let store = try SQLiteEntityStore(path: GlimpseExecutable.scratchFolder("unsearchable") + "/catalog.sqlite")
        try store.database.write { db in
            for n in 0..<images {
                let id = "flat-\(n)", hash = String(format: "%064x", n)
                try db.execute(sql: "INSERT INTO landmark (id, name, position) VALUES (?, ?, ?)", arguments: [id, id, n])
                try db.execute(sql: "INSERT INTO fingerprint (content_hash, data, frame_digest, whole_quality) VALUES (?, x'00', ?, 0)",
                               arguments: [hash, n])
                try db.execute(sql: "INSERT INTO landmark_image (landmark_id, ordinal, path, content_hash) VALUES (?, 0, ?, ?)",
                               arguments: [id, "\(id).png", hash])
            }
        }
        return store
    }

    /// Generations that come faster than a count ends (a replica serving while images are
    /// added) are counted one at a time, the newest last, not each side by side.
    @Test func generationsComingFasterThanCountsAreCountedOneAtATimeTheNewestLast() async throws {
        let store = try flatCatalog(images: 20_000)
        let cache = UnsearchableCountCache()
        #expect(cache.counts(for: 1, store: store) == nil, "nothing known before the first count ends")
        for generation in 2...40 as ClosedRange<Int64> {
            _ = cache.counts(for: generation, store: store)
            try await Task.sleep(for: .milliseconds(2))
        }
        // The wait runs from the last generation asked for: on a loaded machine the 39 short
        // sleeps above can themselves take most of a minute (a busy cooperative pool).
        let lastAsked = ContinuousClock.now
        while cache.countedGeneration != 40, ContinuousClock.now - lastAsked < .seconds(120) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(cache.countedGeneration == 40)
        #expect(cache.counts(for: 40, store: store) == UnsearchableCounts(images: 20_000, landmarks: 20_000))
        #expect(cache.mostCountsAtOnce == 1)
    }
}
