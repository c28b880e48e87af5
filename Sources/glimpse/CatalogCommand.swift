import ArgumentParser
import Catalog
import Fingerprints
import Foundation
import Search
#if canImport(Glibc)
import Glibc
#endif

/// `glimpse catalog list|remove|undo|repartition`: look at the catalog and change it by hand.
/// Removals are soft (kept, undoable): no single command loses data.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List, remove (archive or delete) and restore catalog entities; repartition a PostgreSQL catalog.",
        discussion: """
            Example:
              glimpse catalog list --kind collection
              glimpse catalog remove landmark:food/apricot --archive
              glimpse catalog undo
              glimpse catalog repartition --partitions 4 --db postgres://glimpse@db/glimpse

            Exit codes: 0 success; 1 usage or input error.
            """,
        subcommands: [CatalogListCommand.self, CatalogRemoveCommand.self, CatalogUndoCommand.self, CatalogRepartitionCommand.self]
    )
}

/// `glimpse catalog list`.
struct CatalogListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the catalog's landmarks and collections (or its removals).",
        discussion: """
            Example:
              glimpse catalog list
              glimpse catalog list --kind landmark --json
              glimpse catalog list --removed

            Exit codes: 0 success; 1 usage or input error.
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "Only this kind: landmark or collection.")
    var kind: EntityKind?

    @Flag(help: "List removals (archived, deleted, gone from the source), newest first, instead.")
    var removed = false

    @Flag(help: "One JSON object per line instead of a table.")
    var json = false

    func run() async throws {
        let store = try await database.openExisting()
        if removed { return try await listRemovals(store) }
        var entities: [VisualSearchResult] = []
        do {
            if kind != .collection { entities += try await store.allLandmarks().map(VisualSearchResult.landmark) }
            if kind != .landmark { entities += try await store.allCollections().map(VisualSearchResult.collection) }
        } catch { throw database.storeFailure(error) }
        if json {
            for entity in entities { print(WireJSON.line(EntitySummary(entity))) }
            return
        }
        let rows = entities.map { entity in
            [entity.kind.rawValue, entity.reference.id, entity.displayRepresentation.title, entity.displayRepresentation.subtitle ?? "", entity.url]
        }
        print(TextTable(header: ["KIND", "ID", "TITLE", "SUBTITLE", "URL"], rows: rows).text)
        let landmarks = entities.filter { $0.kind == .landmark }.count
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        var unsearchableNote = ""
        if kind != .collection {
            let unsearchable: UnsearchableCounts?
            do { unsearchable = try await store.unsearchableCounts(minimumViewQuality: FingerprintView.minimumSearchableQuality) } catch {
                throw database.storeFailure(error)
            }
            if let unsearchable, unsearchable.images > 0 {
                unsearchableNote = " Too little detail for a search: \(count(unsearchable.images, "image")), \(count(unsearchable.landmarks, "landmark")) wholly "
                    + "(only exact copies find them; 'glimpse index SOURCE --verbose' lists the images)."
            }
        }
        switch kind {
        case .landmark?: print("\(count(landmarks, "landmark")).\(unsearchableNote)")
        case .collection?: print("\(count(entities.count, "collection")).")
        case nil: print("\(count(landmarks, "landmark")), \(count(entities.count - landmarks, "collection")).\(unsearchableNote)")
        }
    }

    private func listRemovals(_ store: any EntityStore) async throws {
        let removals: [Removal]
        do { removals = try await store.removals() } catch { throw database.storeFailure(error) }
        let formatter = ISO8601DateFormatter()
        if json {
            for removal in removals { print(WireJSON.line(RemovalLine(removal))) }
            return
        }
        guard !removals.isEmpty else { return print("No removals.") }
        let rows = removals.map { removal in
            [String(removal.id), removal.reason.label, formatter.string(from: removal.date), removal.isUndone ? "undone" : "",
             removal.entities.map(\.url).joined(separator: " ")]
        }
        print(TextTable(header: ["ID", "REASON", "DATE", "STATE", "ENTITIES"], rows: rows, rightAligned: [0]).text)
    }
}

/// `glimpse catalog remove`.
struct CatalogRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Archive or delete a landmark or collection (soft: 'glimpse catalog undo' restores it).",
        discussion: """
            On a terminal, asks: [a]rchive, [d]elete or [c]ancel. Otherwise pass --archive or \
            --delete. Both hide the entity from queries, open and list, and keep it stored; \
            re-indexing does not bring it back; 'glimpse catalog undo' does. Archived and \
            deleted entities are told apart in 'glimpse catalog list --removed'.

            Example:
              glimpse catalog remove glimpse://landmark/food%2Fapricot --delete
              glimpse catalog remove collection:food --archive

            Exit codes: 0 removed or cancelled; 1 usage or input error (unknown or already \
            removed entity, no choice given off a terminal).
            """
    )

    @Argument(help: ArgumentHelp("The entity: a glimpse:// URL or KIND:ID.", valueName: "url|kind:id"))
    var entity: String

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Archive it (hidden and kept, listed as archived).")
    var archive = false

    @Flag(help: "Delete it (hidden from everything; kept so that undo can restore it).")
    var delete = false

    func validate() throws {
        if archive && delete { throw ValidationError("use either --archive or --delete, not both") }
    }

    func run() async throws {
        let reference = try entityReference(entity)
        let store = try await database.openForChange()
        let found: VisualSearchResult
        do { found = try await EntityResolver(store: store).entity(for: reference) } catch { throw database.storeFailure(error) }
        var reason: Removal.Reason? = archive ? .archivedByUser : delete ? .removedByUser : nil
        if reason == nil {
            guard isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 else {
                throw failure("\(reference.url): not on a terminal; pass --archive or --delete")
            }
            reason = try ask("Remove \(found.displayRepresentation.title) (\(reference.url))? [a]rchive, [d]elete, [c]ancel: ")
            guard reason != nil else { return printError("Cancelled; nothing removed.") }
        }
        guard let reason else { return }
        do { try await store.remove(reference, reason: reason) } catch { throw database.storeFailure(error) }
        print("\(reason == .archivedByUser ? "Archived" : "Deleted") \(found.displayRepresentation.title) (\(reference.url)). 'glimpse catalog undo' restores it.")
    }

    /// Asks on the terminal until the answer is a, d or c (end of input cancels).
    private func ask(_ question: String) throws -> Removal.Reason? {
        while true {
            FileHandle.standardError.write(Data(question.utf8))
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
            switch answer {
            case "a", "archive": return .archivedByUser
            case "d", "delete": return .removedByUser
            case "c", "cancel", "": return nil
            default: continue
            }
        }
    }
}

/// `glimpse catalog undo`.
struct CatalogUndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Restore the entities of the most recent removal not yet undone.",
        discussion: """
            Example:
              glimpse catalog undo

            Exit codes: 0 restored; 1 nothing to undo, or an input error.
            """
    )

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let store = try await database.openForChange()
        let removal: Removal?
        do { removal = try await store.undoLastRemoval() } catch { throw database.storeFailure(error) }
        guard let removal else { throw failure("\(database.path): nothing to undo") }
        print("Restored \(removal.entities.map(\.url).joined(separator: ", ")) (\(removal.reason.label) \(ISO8601DateFormatter().string(from: removal.date))).")
    }
}

extension Removal.Reason {
    /// How `catalog list --removed` names it.
    var label: String {
        switch self {
        case .removedByUser: "deleted"
        case .archivedByUser: "archived"
        case .missingFromSource: "gone from source"
        }
    }
}

extension EntityKind: ExpressibleByArgument {}
