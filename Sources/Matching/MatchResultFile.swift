import Foundation
import PixelBuffers
import Search

/// The format of batch match rows.
public enum MatchOutputFormat: String, Sendable, Hashable, CaseIterable {
    /// JSON Lines: one ``PhotoMatchRecord/jsonLine`` per line.
    case jsonl
    /// CSV with a header line (``PhotoMatchRecord/csvHeader``), one ``PhotoMatchRecord/csvLine`` per line.
    case csv

    /// The row text of `record`, without newline.
    public func line(_ record: PhotoMatchRecord) -> String {
        switch self {
        case .jsonl: record.jsonLine
        case .csv: record.csvLine
        }
    }

    /// Whether `partial` (a line cut short) could be the beginning of a row, or of the CSV
    /// header when nothing precedes it.
    func couldStartRow(_ partial: String, afterHeader: Bool) -> Bool {
        switch self {
        case .jsonl:
            // WireJSON sorts keys: every row starts with its "error" field.
            let start = "{\"error\":"
            return partial.hasPrefix(start) || start.hasPrefix(partial)
        case .csv:
            return afterHeader || PhotoMatchRecord.csvHeader.hasPrefix(partial)
        }
    }

    /// Parses one row; `nil` when it is not a row of this format.
    public func record(_ line: String) -> PhotoMatchRecord? {
        switch self {
        case .jsonl: PhotoMatchRecord(jsonLine: line)
        case .csv: PhotoMatchRecord(csvLine: line)
        }
    }
}

/// A results file that a batch match appends to and resumes from.
///
/// Each row is appended with one `write` of the whole line (newline included) on a file
/// opened for appending, so an interrupted run leaves complete rows plus at most one
/// partial last line. Opening an existing file reads its complete rows (the photos
/// already done), cuts any partial last line, and continues after them.
///
/// Not thread-safe: one writer at a time (the batch matcher's calling task).
public final class MatchResultFile {
    /// The file.
    public let path: String
    /// Its row format.
    public let format: MatchOutputFormat
    /// Rows already in the file when it was opened, in file order.
    public let existingRecords: [PhotoMatchRecord]
    private let handle: FileHandle

    /// Opens `path` for appending rows of `format`, creating it when missing, resuming
    /// after its complete rows otherwise. O(file size).
    ///
    /// - Throws: ``BatchMatchError/resultsFile(_:reason:)`` when the file cannot be read
    ///   or written, or holds a line that is not a row of `format` (it is then left
    ///   untouched, so a wrong `--out` never destroys another file).
    public init(path: String, format: MatchOutputFormat) throws(BatchMatchError) {
        self.path = path
        self.format = format
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        var records: [PhotoMatchRecord] = []
        var keepBytes = 0
        var needsHeader = format == .csv
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw .resultsFile(path, reason: "is a folder, not a results file") }
            let data: Data
            // A regular file only (a FIFO is refused, never opened blocking).
            do { data = Data(try FileBytes.contents(ofFile: path)) } catch {
                guard case .unreadableFile(_, let reason) = error else { throw .resultsFile(path, reason: error.description) }
                throw .resultsFile(path, reason: "cannot read results file: \(reason)")
            }
            // Complete rows only: everything up to the last newline that ends a row (in CSV
            // a newline inside a quoted field, RFC 4180, belongs to the row).
            let rows = Self.rowRanges(data, format: format)
            keepBytes = rows.completeBytes
            // A partial last row is an interrupted row only if it starts like one.
            let tail = String(decoding: data[(data.startIndex + keepBytes)...], as: UTF8.self)
            if !tail.isEmpty && !format.couldStartRow(tail, afterHeader: keepBytes > 0) {
                throw .resultsFile(path, reason: "last line is not a glimpse match \(format.rawValue) row; use another --out or --format")
            }
            var lineNumber = 1
            for (number, range) in rows.rows.enumerated() {
                var line = String(decoding: data[range], as: UTF8.self)
                if line.hasSuffix("\r") { line.removeLast() }
                defer { lineNumber += 1 + data[range].count(where: { $0 == UInt8(ascii: "\n") }) }
                if format == .csv && number == 0 && line == PhotoMatchRecord.csvHeader {
                    needsHeader = false
                    continue
                }
                guard let record = format.record(line) else {
                    throw .resultsFile(path, reason: "line \(lineNumber) is not a glimpse match \(format.rawValue) row; use another --out or --format")
                }
                records.append(record)
            }
            if format == .csv && keepBytes > 0 && needsHeader {
                throw .resultsFile(path, reason: "line 1 is not the glimpse match CSV header; use another --out or --format")
            }
        } else if !manager.createFile(atPath: path, contents: nil) {
            throw .resultsFile(path, reason: "cannot create results file")
        }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw .resultsFile(path, reason: "cannot open results file for writing")
        }
        self.handle = handle
        self.existingRecords = records
        do {
            try handle.truncate(atOffset: UInt64(keepBytes))
            try handle.seekToEnd()
        } catch {
            throw .resultsFile(path, reason: "cannot cut the partial last line: \(error)")
        }
        if needsHeader { try write(PhotoMatchRecord.csvHeader) }
    }

    deinit {
        try? handle.close()
    }

    /// The byte ranges of the complete rows of `data` (newline excluded) and how many
    /// bytes they span with their newlines. A row ends at a newline; in CSV, not at one
    /// inside a quoted field (RFC 4180: a quote toggles quoting, `""` toggles twice).
    /// O(bytes).
    static func rowRanges(_ data: Data, format: MatchOutputFormat) -> (rows: [Range<Data.Index>], completeBytes: Int) {
        var rows: [Range<Data.Index>] = []
        var start = data.startIndex
        var inQuotes = false
        for index in data.indices {
            let byte = data[index]
            if format == .csv && byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == UInt8(ascii: "\n") && !inQuotes {
                rows.append(start..<index)
                start = index + 1
            }
        }
        return (rows, start - data.startIndex)
    }

    /// The photos already written, for skipping them.
    public var donePhotos: Set<String> { Set(existingRecords.map(\.photo)) }

    /// Appends one row (one write of the line and its newline). O(row).
    ///
    /// - Throws: ``BatchMatchError/resultsFile(_:reason:)`` when the write fails (disk full…).
    public func append(_ record: PhotoMatchRecord) throws(BatchMatchError) {
        try write(format.line(record))
    }

    /// Flushes written rows to stable storage (`fsync`).
    public func synchronize() throws(BatchMatchError) {
        do { try handle.synchronize() } catch { throw .resultsFile(path, reason: "cannot flush results file: \(error)") }
    }

    private func write(_ line: String) throws(BatchMatchError) {
        do { try handle.write(contentsOf: Data((line + "\n").utf8)) } catch {
            throw .resultsFile(path, reason: "cannot write results file: \((error as NSError).localizedDescription)")
        }
    }
}
