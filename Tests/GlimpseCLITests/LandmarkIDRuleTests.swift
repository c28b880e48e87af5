import Foundation
import Testing

/// Issue 13, item 2: ids are validated (no control characters) and stored byte-exact, so
/// an id with a NUL can never overwrite another landmark.
@Suite("Landmark id rule")
struct LandmarkIDRuleTests {
    private func manifest(_ json: String, in folder: String, name: String) throws -> String {
        let path = folder + "/" + name
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func anIDWithANULIsRefusedAndNeverOverwritesTheLandmarkItPrefixes() throws {
        let scratch = try Glimpse.scratchFolder("nul-id")
        try ShellRun.copy("catalog/food/apricot.jpg", to: scratch + "/a.jpg")
        try ShellRun.copy("catalog/food/avocado.jpg", to: scratch + "/b.jpg")
        let db = scratch + "/g.sqlite"
        let good = try manifest(#"{"landmarks":[{"id":"x","name":"A","images":["a.jpg"]}]}"#, in: scratch, name: "good.json")
        let first = try Glimpse.run(["index", good, "--db", db])
        #expect(first.status == 0, "\(first.stderr)")

        let hostile = try manifest(#"""
            {"landmarks":[{"id":"x","name":"A","images":["a.jpg"]},{"id":"x\u0000z","name":"B","images":["b.jpg"]}]}
            """#, in: scratch, name: "nul.json")
        let run = try Glimpse.run(["index", hostile, "--db", db])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.errorLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(#"landmarks[1] "x\u{0}z": field "id" must not contain control characters (found U+0000)"#), "\(run.stderr)")

        let list = try Glimpse.run(["catalog", "list", "--json", "--db", db])
        #expect(list.status == 0)
        #expect(list.stdout.contains("\"title\": \"A\"") || list.stdout.contains("\"title\":\"A\""), "\(list.stdout)")
        #expect(!list.stdout.contains("\"B\""), "\(list.stdout)")
    }

    @Test func aNULIDAloneIsRefusedOnEveryRunInsteadOfFlippingBetweenRemovedAndRestored() throws {
        let scratch = try Glimpse.scratchFolder("nul-id-alone")
        try ShellRun.copy("catalog/food/apricot.jpg", to: scratch + "/a.jpg")
        let db = scratch + "/g.sqlite"
        let hostile = try manifest(#"{"landmarks":[{"id":"x\u0000y","name":"A","images":["a.jpg"]}]}"#, in: scratch, name: "nul.json")
        for _ in 0..<2 {
            let run = try Glimpse.run(["index", hostile, "--db", db])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("must not contain control characters"), "\(run.stderr)")
            #expect(!run.stdout.contains("removed") && !run.stdout.contains("restored"))
        }
    }

    @Test func newlinesTabsAndEmptyIDsAreRefusedForLandmarksAndCollections() throws {
        let scratch = try Glimpse.scratchFolder("ctl-id")
        try ShellRun.copy("catalog/food/apricot.jpg", to: scratch + "/a.jpg")
        let cases = [
            #"{"landmarks":[{"id":"a\nb","name":"A","images":["a.jpg"]}]}"#: "must not contain control characters (found U+000A)",
            #"{"landmarks":[{"id":"a\tb","name":"A","images":["a.jpg"]}]}"#: "must not contain control characters (found U+0009)",
            #"{"landmarks":[{"id":"  ","name":"A","images":["a.jpg"]}]}"#: "must not be empty",
            #"{"landmarks":[{"id":"a","name":"A","images":["a.jpg"]}],"collections":[{"id":"c\u007f","name":"C","landmarks":["a"]}]}"#:
                "must not contain control characters (found U+007F)",
        ]
        for (index, (json, message)) in cases.enumerated() {
            let path = try manifest(json, in: scratch, name: "m\(index).json")
            let run = try Glimpse.run(["index", path, "--db", scratch + "/g.sqlite"])
            #expect(run.status == 1, "\(json): \(run.stderr)")
            #expect(run.errorLines.count == 1, "\(json): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(json): \(run.stderr)")
        }
    }
}
