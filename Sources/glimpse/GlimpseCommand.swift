import ArgumentParser

/// The `glimpse` command line: a thin layer over the Glimpse library. Every
/// subcommand lives in its own file and only parses, calls the library, and prints.
@main
struct GlimpseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse",
        abstract: "Image search over pixel buffers: decode, fingerprint, index and query images.",
        discussion: """
            Exit codes: 0 success; 1 usage or input error; 2 some files (or folders) failed, \
            the others were processed; 3 no match where one was required; 4 partial: a \
            deadline cut the search short before anything was found.
            """,
        version: "0.1.0",
        subcommands: [
            InspectCommand.self,
            HashCommand.self,
            IndexCommand.self,
            QueryCommand.self,
            MatchCommand.self,
            OpenCommand.self,
            ExportCommand.self,
            CatalogCommand.self,
            BenchScanCommand.self,
            EvalCommand.self,
            BenchFingerprintCommand.self,
            SynthesizeCatalogCommand.self,
            FirstStageCommand.self,
            CropCatalogCommand.self,
            BenchSearchCommand.self,
            CapacityIndexCommand.self,
            DumpFingerprintsCommand.self,
            ServeCommand.self,
        ]
    )
}
