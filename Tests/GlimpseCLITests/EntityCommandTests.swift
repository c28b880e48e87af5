import Foundation
import Testing

@Suite("glimpse open, export, catalog")
struct EntityCommandTests {
    @Test func openShowsALandmarkAndItsCollectionsByURLOrKindAndID() throws {
        let db = try Glimpse.sampleCatalog.get()
        let byURL = try Glimpse.run(["open", "glimpse://landmark/food%2Fapricot", "--db", db])
        #expect(byURL.status == 0, "\(byURL.stderr)")
        #expect(byURL.stdout.hasPrefix("Apricot\nAsia\n"))
        #expect(byURL.stdout.contains("In 1 collection:\n  Food  glimpse://collection/food"))
        #expect(!byURL.stdout.contains("Image statistics"))
        let byID = try Glimpse.run(["open", "landmark:food/apricot", "--db", db])
        #expect(byID.stdout == byURL.stdout)
    }

    @Test func openComputesDeferredPropertiesOnlyWhenAsked() throws {
        let db = try Glimpse.sampleCatalog.get()
        let plain = try Glimpse.run(["open", "landmark:food/apricot", "--db", db, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        #expect(object["image_statistics"] == nil)
        #expect((object["collections"] as? [[String: Any]])?.first?["id"] as? String == "food")
        let asked = try Glimpse.run(["open", "landmark:food/apricot", "--db", db, "--json", "--with", "image-statistics"])
        let withStats = try #require(try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any])
        let statistics = try #require(withStats["image_statistics"] as? [String: Any])
        #expect(statistics["searchable"] as? Bool == true)
        let unknown = try Glimpse.run(["open", "landmark:food/apricot", "--db", db, "--with", "crowd"])
        #expect(unknown.status == 1)
        #expect(unknown.errorLines == ["glimpse: --with crowd: unknown property; available: image-statistics"])
    }

    @Test func openShowsACollectionsLandmarks() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["open", "collection:food", "--db", db])
        #expect(run.status == 0)
        #expect(run.stdout.contains("8 landmarks:\n  Apricot  glimpse://landmark/food%2Fapricot"))
    }

    @Test func unknownIdsAndMalformedURLsAreOneErrorLineAndExitStatus1() throws {
        let db = try Glimpse.sampleCatalog.get()
        for (argument, message) in [
            ("landmark:nope", "glimpse: glimpse://landmark/nope: no such landmark in the catalog (unknown id, or removed)"),
            ("planet:earth", "glimpse: planet:earth: unknown kind 'planet'; use landmark or collection"),
            ("glimpse://landmark/", nil),
            ("nonsense", "glimpse: nonsense: not an entity; give a glimpse:// URL or KIND:ID (landmark:ID, collection:ID)"),
        ] {
            for command in ["open", "export"] {
                let run = try Glimpse.run([command, argument, "--db", db])
                #expect(run.status == 1, "\(command) \(argument)")
                #expect(run.errorLines.count == 1, "\(command) \(argument): \(run.stderr)")
                if let message { #expect(run.errorLines.first == message) }
            }
        }
    }

    @Test func exportListsRepresentationsRichestFirstAndWritesEach() throws {
        let db = try Glimpse.sampleCatalog.get()
        let list = try Glimpse.run(["export", "landmark:food/apricot", "--db", db, "--list"])
        #expect(list.stdout == "json\tapplication/json\ntext\ttext/plain; charset=utf-8\npng\timage/png\n")
        let json = try Glimpse.run(["export", "glimpse://landmark/food%2Fapricot", "--db", db])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "landmark" && object["title"] as? String == "Apricot")
        let text = try Glimpse.run(["export", "landmark:food/apricot", "--db", db, "--as", "text"])
        #expect(text.stdout.hasPrefix("Apricot\n"))
        let folder = try Glimpse.scratchFolder("export")
        let png = try Glimpse.run(["export", "landmark:food/apricot", "--db", db, "--as", "png", "--out", folder + "/a.png"])
        #expect(png.status == 0, "\(png.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/a.png"))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let unwritable = try Glimpse.run(["export", "landmark:food/apricot", "--db", db, "--as", "png", "--out", "/no/such/dir/a.png"])
        #expect(unwritable.status == 1)
        #expect(unwritable.errorLines.count == 1 && unwritable.errorLines[0].hasPrefix("glimpse: /no/such/dir/a.png: cannot write"))
    }

    @Test func catalogListRemoveUndo() throws {
        let db = try Glimpse.copyOfSampleCatalog()
        let list = try Glimpse.run(["catalog", "list", "--db", db])
        #expect(list.status == 0)
        #expect(list.stdout.hasSuffix("46 landmarks, 6 collections.\n"))
        // Off a terminal, remove needs a choice.
        let noChoice = try Glimpse.run(["catalog", "remove", "landmark:food/apricot", "--db", db])
        #expect(noChoice.status == 1)
        #expect(noChoice.errorLines == ["glimpse: glimpse://landmark/food%2Fapricot: not on a terminal; pass --archive or --delete"])
        let archive = try Glimpse.run(["catalog", "remove", "landmark:food/apricot", "--archive", "--db", db])
        #expect(archive.status == 0)
        #expect(try Glimpse.run(["open", "landmark:food/apricot", "--db", db]).status == 1)
        let delete = try Glimpse.run(["catalog", "remove", "glimpse://collection/food", "--delete", "--db", db])
        #expect(delete.status == 0)
        let again = try Glimpse.run(["catalog", "remove", "collection:food", "--delete", "--db", db])
        #expect(again.status == 1 && again.errorLines.count == 1)
        let removals = try Glimpse.run(["catalog", "list", "--removed", "--json", "--db", db])
        let reasons = try removals.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["reason"] as? String
        }
        #expect(reasons == ["user", "archived"])  // the wire names, as the HTTP admin API sends them
        #expect(try Glimpse.run(["catalog", "list", "--kind", "landmark", "--db", db]).stdout.hasSuffix("45 landmarks.\n"))
        // Undo restores the last removal (the collection), then the one before.
        let undo = try Glimpse.run(["catalog", "undo", "--db", db])
        #expect(undo.status == 0 && undo.stdout.hasPrefix("Restored glimpse://collection/food"))
        #expect(try Glimpse.run(["open", "collection:food", "--db", db]).status == 0)
        #expect(try Glimpse.run(["catalog", "undo", "--db", db]).status == 0)
        #expect(try Glimpse.run(["open", "landmark:food/apricot", "--db", db]).status == 0)
        let nothing = try Glimpse.run(["catalog", "undo", "--db", db])
        #expect(nothing.status == 1)
        #expect(nothing.errorLines == ["glimpse: \(db): nothing to undo"])
    }

    @Test func everyCommandsHelpShowsAnExample() throws {
        for command in [["index"], ["query"], ["match"], ["open"], ["export"], ["catalog"], ["catalog", "list"], ["catalog", "remove"], ["catalog", "undo"]] {
            let run = try Glimpse.run(command + ["--help"])
            #expect(run.status == 0)
            #expect(run.stdout.contains("Example:"), "\(command)")
            #expect(run.stdout.contains("Exit codes:"), "\(command)")
        }
        let root = try Glimpse.run(["--help"])
        let rootText = root.stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(rootText.contains("Exit codes: 0 success; 1 usage or input error; 2 some files (or folders) failed"), "\(rootText)")
        #expect(rootText.contains("3 no match where one was required; 4 partial"), "\(rootText)")
    }

    @Test func anUnknownCommandOrOptionIsOneErrorLineAndExitStatus1() throws {
        let unknown = try Glimpse.run(["frobnicate"])
        #expect(unknown.status == 1)
        #expect(unknown.errorLines.count == 1)
        let option = try Glimpse.run(["query", "x.png", "--no-such-option"])
        #expect(option.status == 1)
        #expect(option.errorLines.count == 1)
    }
}

/// Runs `glimpse` under `script(1)`, so that stdin, stdout and stderr are a terminal.
enum Terminal {
    static let script = "/usr/bin/script"

    static func run(_ arguments: [String], input: String = "") throws -> String {
        let binary = try #require(Glimpse.binary)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        let command = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        let out = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardInput = stdin
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("glimpse on a terminal", .enabled(if: FileManager.default.isExecutableFile(atPath: Terminal.script), "script(1) from util-linux is not installed"))
struct TerminalTests {
    @Test func indexDrawsAProgressBarWithRateAndETA() throws {
        let db = try Glimpse.scratchFolder("tty") + "/g.sqlite"
        let output = try Terminal.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        #expect(output.contains("\r\u{1B}[2Kfingerprinting "))
        #expect(output.contains("46/46 100%"))
        #expect(output.contains("files/s"))
        #expect(output.contains("ETA ") || output.contains("done in "))
    }

    @Test func removeAsksArchiveDeleteOrCancel() throws {
        let db = try Glimpse.copyOfSampleCatalog()
        let cancelled = try Terminal.run(["catalog", "remove", "landmark:food/apricot", "--db", db], input: "c\n")
        #expect(cancelled.contains("[a]rchive, [d]elete, [c]ancel: "))
        #expect(try Glimpse.run(["open", "landmark:food/apricot", "--db", db]).status == 0)
        let archived = try Terminal.run(["catalog", "remove", "landmark:food/apricot", "--db", db], input: "maybe\na\n")
        #expect(archived.contains("Archived Apricot"))
        #expect(try Glimpse.run(["open", "landmark:food/apricot", "--db", db]).status == 1)
    }
}
