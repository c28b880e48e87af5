import Foundation
import Testing

/// HEIC, AVIF and WebP through the real `glimpse` binary: every command takes them, by
/// their bytes, whatever their names say.
@Suite("HEIC, AVIF and WebP in the commands")
struct NewFormatsCommandTests {
    /// One photo per format, each of a different catalog landmark, plus a JPEG named `.HEIC`
    /// (phones' exports do that) and an AVIF without an extension.
    static func mixedFolder() throws -> String {
        let folder = try Glimpse.scratchFolder("formats") + "/photos"
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (source, name) in [
            ("catalog/food/apricot.jpg", "apricot.jpg"), ("catalog/animals/pink-flamingo.png", "flamingo.png"),
            ("heif/catalog-hurricane-ridge.heic", "IMG_0001.HEIC"), ("avif/catalog-lion.avif", "lion"),
            ("webp/catalog-apricot.webp", "apricot-web.webp"), ("catalog/animals/black-rhino.jpg", "IMG_0002.HEIC"),
        ] {
            try manager.copyItem(atPath: Glimpse.testdata(source), toPath: folder + "/" + name)
        }
        return folder
    }

    @Test func matchOnAFolderMixingEveryFormatMatchesEveryPhoto() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Self.mixedFolder()
        let run = try Glimpse.run(["match", folder, "--db", db, "--jobs", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let top = Dictionary(uniqueKeysWithValues: rows.map { row in
            ((row["photo"] as? String ?? "").replacingOccurrences(of: folder + "/", with: ""),
             ((row["matches"] as? [[String: Any]])?.first)?["id"] as? String ?? "")
        })
        #expect(top == [
            "apricot.jpg": "food/apricot", "flamingo.png": "animals/pink-flamingo",
            "IMG_0001.HEIC": "landmarks/hurricane-ridge", "lion": "animals/lion",
            "apricot-web.webp": "food/apricot", "IMG_0002.HEIC": "animals/black-rhino",
        ], "\(rows)")
    }

    @Test func aHeicOfACatalogPhotoFindsItsLandmark() throws {
        let db = try Glimpse.sampleCatalog.get()
        let heic = Glimpse.testdata("heif/catalog-hurricane-ridge.heic")
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", heic, "--db", db, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.first?["id"] as? String == "landmarks/hurricane-ridge")
    }

    @Test func regionsAreInUprightCoordinates() throws {
        // exif6.heic is stored 256x128 with EXIF Orientation 6: upright it is 128x256, so
        // y 200…255 exists only upright.
        let run = try Glimpse.run(["inspect", "--json", "--region", "0,200,128,56", Glimpse.testdata("heif/exif6.heic")])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["decoded_width"] as? Int == 128 && object["decoded_height"] as? Int == 56)
        #expect(object["orientation_applied"] as? Bool == true)
    }

    @Test func inspectJsonReportsFormatBitDepthAndGrid() throws {
        for (file, format, depth, grid) in [
            ("avif/grid-2x2.avif", "AVIF", 8, true), ("heif/photo-10bit.heic", "HEIF", 10, false),
            ("avif/photo-12bit.avif", "AVIF", 12, false), ("webp/animated.webp", "WebP", 8, false),
        ] {
            let run = try Glimpse.run(["inspect", "--json", Glimpse.testdata(file)])
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(object["format"] as? String == format, "\(file)")
            #expect(object["bit_depth"] as? Int == depth, "\(file)")
            #expect(object["grid"] as? Bool == grid, "\(file)")
            #expect(object["pixel_format"] as? String == "rgba8")
        }
    }

    @Test func hashAndIndexTakeTheNewFormats() throws {
        let hash = try Glimpse.run(["hash", Glimpse.testdata("webp/catalog-apricot.webp"), Glimpse.testdata("heif/photo.heic"),
                                    Glimpse.testdata("avif/photo.avif")])
        #expect(hash.status == 0, "\(hash.stderr)")
        #expect(hash.stdout.split(separator: "\n").count >= 3)
        // A folder catalog mixing the formats: every file is a landmark.
        let folder = try Self.mixedFolder()
        let db = folder + "/../g.sqlite"
        let index = try Glimpse.run(["index", folder, "--db", db])
        #expect(index.status == 0, "\(index.stderr)")
        #expect(index.stdout.contains("6 added, 0 updated, 0 skipped (unchanged), 0 failed"), "\(index.stdout)")
    }

    @Test func aDamagedHeicIsATypedErrorNamingTheFile() throws {
        let folder = try Glimpse.scratchFolder("formats-bad")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Glimpse.testdata("heif/photo.heic")))
        let path = folder + "/cut.heic"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let run = try Glimpse.run(["inspect", path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("glimpse: \(path): truncated HEIF file"), "\(run.stderr)")
    }

    /// dav1d's default logger prints "Error parsing frame header" and the like to stderr;
    /// libheif's dav1d plugin keeps it. Damaged AVIFs must give one `glimpse:` line, nothing else.
    @Test func damagedAvifsPrintNothingButTheError() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Glimpse.testdata("avif/photo.avif"))))
        let mdat = try #require((0..<(original.count - 4)).first { original[$0..<($0 + 4)].elementsEqual("mdat".utf8) })
        let folder = try Glimpse.scratchFolder("formats-avif")
        var state: UInt64 = 7
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        var refused = 0
        for trial in 0..<24 {
            var bytes = original
            for _ in 0..<(1 + next() % 6) { bytes[mdat + 4 + next() % 56] = UInt8(next() % 256) }
            let path = folder + "/damaged-\(trial).avif"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let run = try Glimpse.run(["inspect", path])
            let stray = run.errorLines.filter { !$0.hasPrefix("glimpse: \(path): ") }
            #expect(stray.isEmpty, "trial \(trial): \(stray)")
            if run.status != 0 { refused += 1 }
        }
        #expect(refused > 0, "some of the damaged files must be refused")
    }

    /// An AVIF whose AV1 item holds no data (found by the decoder fuzzer): dav1d refused the
    /// empty buffer our plugin made with a line of its own on stderr (and leaked it).
    @Test func anAvifWithAnEmptyAV1ItemPrintsOnlyTheError() throws {
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Glimpse.testdata("fuzz-regressions/decoder/leak-avif-empty-av1-item-dav1d.bin"))))
        let path = try Glimpse.scratchFolder("formats-avif-empty") + "/empty-item.avif"
        try Data(input.dropFirst(8)).write(to: URL(fileURLWithPath: path)) // the fuzzer's 8 option bytes first
        let run = try Glimpse.run(["inspect", path])
        #expect(run.status != 0)
        #expect(run.errorLines.count == 1 && run.errorLines.allSatisfy { $0.hasPrefix("glimpse: \(path): ") }, "\(run.errorLines)")
    }
}
