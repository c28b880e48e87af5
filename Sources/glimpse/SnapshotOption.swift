import ArgumentParser
import Catalog
import PixelBuffers
import Search

/// `--snapshot PATH`: where the catalog's visual-index snapshot (and its first stage,
/// `PATH.first`) lives, for the commands that write or map it. An SQLite catalog keeps it
/// beside its file (`CATALOG.vindex`) unless told otherwise; a PostgreSQL catalog has no
/// folder of its own, so it has a snapshot only when given one: `glimpse index` writes it
/// there after its commit, and `query`, `match` and `serve` map it and apply the changes
/// since from the catalog's change log instead of reading every fingerprint.
///
/// A snapshot is one machine's file: each replica keeps its own copy (made by `glimpse
/// index … --snapshot`, or copied from a machine that made one); a replica of one partition
/// (`serve --partition i/P`) keeps that partition's at its own path, saved by itself after
/// its first build. One of another catalog or partition, of
/// an unknown layout, damaged, or too far behind the change log is never used: the
/// command builds its index from the catalog as it would without one.
struct SnapshotOption: ParsableArguments {
    @Option(name: .customLong("snapshot"), help: ArgumentHelp(
        "The visual-index snapshot file (default: CATALOG.vindex beside an SQLite catalog; none for a PostgreSQL catalog unless given). `index` writes it, searches map it.",
        valueName: "path"))
    var location: String?

    /// Refuses a `--snapshot` that exists and is not a regular file (a folder, a FIFO, a
    /// device): it could never be mapped or written, and would otherwise be passed over in
    /// silence. A path with nothing there is fine (`index` and `serve` create it). O(1).
    func validate() throws {
        guard let location else { return }
        guard !location.isEmpty else { throw ValidationError("--snapshot wants a file path; got an empty one") }
        guard DirectoryListing.exists(location), case .failure(let failure) = FileBytes.regularFileStatus(location) else { return }
        throw ValidationError("--snapshot '\(location)' \(failure.description): give the path of a snapshot file (or where one is to be written)")
    }

    /// The snapshot path for `database`: `--snapshot`, else the SQLite catalog's own
    /// (``DatabaseOption/snapshotPath``), else none. O(1).
    func path(for database: DatabaseOption) -> String? {
        location ?? database.snapshotPath
    }

    /// What a command writing the snapshot may replace there: anything at the catalog's own
    /// path (a FIFO, an empty or unrecognisable file there is repaired), only a snapshot at a
    /// path given with `--snapshot` (someone's file, or a partition replica's snapshot, is left
    /// as it is). O(1).
    var replacement: SnapshotReplacement {
        location == nil ? .anyFile : .snapshotsOnly
    }
}
