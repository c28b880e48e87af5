import ArgumentParser
import Rendering

/// `glimpse open URL|KIND:ID`: the "open" intent, showing one entity (``EntityDetails``).
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Show a landmark or collection: its display representation and related entities.",
        discussion: """
            A landmark shows its collections; a collection shows its landmarks. Deferred \
            properties are computed only when asked for with --with (image-statistics: \
            per reference image, its size on disk, fingerprint views and quality).

            Example:
              glimpse open glimpse://landmark/landmarks%2Fhurricane-ridge
              glimpse open landmark:landmarks/hurricane-ridge \\
                --with image-statistics --json
              glimpse open collection:food

            Exit codes: 0 success; 1 usage or input error (malformed URL, unknown or removed id).
            """
    )

    @Argument(help: ArgumentHelp("The entity: a glimpse:// URL or KIND:ID.", valueName: "url|kind:id"))
    var entity: String

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @Option(name: .customLong("with"), help: ArgumentHelp("Also compute this deferred property (image-statistics).", valueName: "property"))
    var properties: [String] = []

    func run() async throws {
        let reference = try entityReference(entity)
        var deferred: [EntityDetails.DeferredProperty] = []
        for name in properties {
            guard let property = EntityDetails.DeferredProperty(rawValue: name) else {
                let known = EntityDetails.DeferredProperty.allCases.map(\.rawValue).joined(separator: ", ")
                throw failure("--with \(name): unknown property; available: \(known)")
            }
            deferred.append(property)
        }
        let store = try await database.openExisting()
        let details: EntityDetails
        do { details = try await EntityDetails.open(reference, in: store, with: deferred) } catch {
            throw database.storeFailure(error)
        }
        print(json ? details.json : details.text)
    }
}
