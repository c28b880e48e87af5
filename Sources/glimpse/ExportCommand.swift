import ArgumentParser
import Catalog
import Foundation
import PixelBuffers
import Rendering
import Search
#if canImport(Glibc)
import Glibc
#endif

/// `glimpse export URL`: an entity in one of its representations (``EntityExporter``),
/// richest first like `Transferable`: json, text, png.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a landmark or collection as JSON, text, or its thumbnail as PNG.",
        discussion: """
            Representations, richest first (like Transferable): json (every field and the \
            related entities), text (readable), png (the thumbnail, at most 256 pixels). \
            --list prints the ones an entity has. Without --out the bytes go to stdout (PNG \
            is refused on a terminal).

            Example:
              glimpse export glimpse://landmark/food%2Fapricot --as text
              glimpse export landmark:food/apricot --as png --out apricot.png

            Exit codes: 0 success; 1 usage or input error (unknown entity, no thumbnail, \
            unwritable --out).
            """
    )

    @Argument(help: ArgumentHelp("The entity: a glimpse:// URL or KIND:ID.", valueName: "url|kind:id"))
    var entity: String

    @OptionGroup var database: DatabaseOption

    @Option(name: .customLong("as"), help: "Representation: json (the richest), text or png.")
    var format: ExportFormat = .json

    @Option(help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
    var out: String?

    @Flag(help: "List the entity's representations, richest first, and exit.")
    var list = false

    func run() async throws {
        let reference = try entityReference(entity)
        let store = try await database.openExisting()
        let exporter = EntityExporter(store: store)
        if list {
            let entityValue: VisualSearchResult
            do { entityValue = try await EntityResolver(store: store).entity(for: reference) } catch { throw database.storeFailure(error) }
            for representation in exporter.representations(of: entityValue) {
                print("\(representation.rawValue)\t\(representation.mediaType)")
            }
            return
        }
        if format == .png && out == nil && isatty(STDOUT_FILENO) == 1 {
            throw failure("\(reference.url): refusing to write PNG bytes to a terminal; use --out FILE or a pipe")
        }
        let bytes: [UInt8]
        do { bytes = try await exporter.export(reference, as: format) } catch { throw database.storeFailure(error) }
        if let out {
            do { try OutputFile.write(bytes, to: out) } catch {
                throw failure("\(out): cannot write: \(error.description)")
            }
            printError("Wrote \(reference.url) as \(format) (\(bytes.count) bytes) to \(out).")
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
