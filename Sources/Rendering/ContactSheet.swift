import Catalog
import Foundation
import Matching
import Search

/// A self-contained HTML contact sheet of a batch match (`glimpse match --report`): a
/// summary with counts, a filter (all / matched / no match / failed: radio buttons and CSS,
/// no script), and a grid with one card per photo: its thumbnail, status, and the cards of
/// its matched landmarks (thumbnail, title, score) or its error. Same look as the search
/// page (``PageStyle``). Every image is inlined as a `data:` URI (JPEG, or PNG for sources with
/// transparency) made with the project's encoders, and the CSS is inline: the file opens
/// anywhere, offline, with nothing beside it.
public struct ContactSheet: Sendable {
    /// Heading of the page.
    public var title: String
    /// Makes the inlined thumbnails.
    public var thumbnailer: Thumbnailer
    /// Thumbnails made at once.
    public var jobs: Int

    /// Creates a contact sheet renderer.
    public init(title: String = "Glimpse matches", thumbnailer: Thumbnailer = Thumbnailer(maxSide: 160),
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.title = title
        self.thumbnailer = thumbnailer
        self.jobs = max(1, jobs)
    }

    /// The HTML page for `records`, in their order.
    ///
    /// - Parameters:
    ///   - records: one per photo.
    ///   - landmarkThumbnails: thumbnail image file of each matched landmark, by URL
    ///     (look them up in the catalog); a missing one shows a placeholder.
    ///   - progress: called with (thumbnails done, total) on the calling task.
    /// - Returns: the page; images that cannot be read show their error instead.
    ///
    /// Cost: one scaled decode and encode per photo and per distinct landmark thumbnail,
    /// ``jobs`` at a time; the page is about 5–10 KB per photo.
    public func html(records: [PhotoMatchRecord], landmarkThumbnails: [String: String],
                     progress: (Int, Int) -> Void = { _, _ in }) async -> String {
        var files = records.map(\.photo)
        var seen = Set(files)
        for record in records {
            for match in record.matches {
                if let path = landmarkThumbnails[match.url], seen.insert(path).inserted { files.append(path) }
            }
        }
        let images = await thumbnails(of: files, progress: progress)
        let counts = Dictionary(grouping: records, by: \.status).mapValues(\.count)
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escaped(title))</title>
            <style>\(PageStyle.css)</style></head>
            <body><header class="top"><h1>\(Self.escaped(title))</h1><p>Batch match report of <code>glimpse match</code></p></header>
            <main>
            <p class="summary">\(records.count) photos: \(counts[.matched] ?? 0) matched, \(counts[.noMatch] ?? 0) no match, \(counts[.failed] ?? 0) failed.</p>
            <fieldset class="filters"><legend>Show</legend>
            <label><input type="radio" name="show" id="show-all" checked> All <b>\(records.count)</b></label>

            """
        for status in PhotoMatchRecord.Status.allCases {
            html += "<label><input type=\"radio\" name=\"show\" id=\"show-\(status.rawValue)\"> \(Self.label(status)) <b>\(counts[status] ?? 0)</b></label>\n"
        }
        html += "</fieldset>\n<div class=\"sheet\">\n"
        for record in records {
            html += "<section class=\"photo \(record.status.rawValue)\">\n<header>"
            html += image(images[record.photo], className: "query")
            let badge = record.status == .matched ? "\(Self.label(.matched)) · \(record.matches.count)" : Self.label(record.status)
            html += "<div><h2>\(Self.escaped(record.photo))</h2><span class=\"badge status\">\(badge)</span></div></header>\n"
            switch record.status {
            case .failed:
                html += "<p class=\"error-text\">\(Self.escaped(record.error ?? "failed"))</p>\n"
            case .noMatch:
                html += "<p class=\"none\">No landmark in the catalog matches this photo.</p>\n"
            case .matched:
                html += "<ul class=\"grid matches\">"
                for match in record.matches {
                    let thumbnail = landmarkThumbnails[match.url].flatMap { images[$0] }
                    let title = match.title.isEmpty ? match.id : match.title
                    let subtitle = match.subtitle.map { "<span class=\"subtitle\">\(Self.escaped($0))</span>" } ?? ""
                    let score = String(format: "%.3f", match.score)
                    html += "<li><div class=\"card \(match.kind.rawValue)\">"
                    html += image(thumbnail, className: "thumb")
                    html += "<div class=\"body\"><span class=\"title\">\(Self.escaped(title))</span>\(subtitle)"
                    html += "<span class=\"meta\"><span class=\"badge\">\(match.kind.rawValue)</span><span class=\"score\">\(score)</span></span>"
                    html += "<code>\(Self.escaped(match.url))</code></div></div></li>"
                }
                html += "</ul>\n"
            }
            html += "</section>\n"
        }
        return html + "</div>\n</main></body></html>\n"
    }

    /// What the summary and the filter call `status`.
    private static func label(_ status: PhotoMatchRecord.Status) -> String {
        switch status {
        case .matched: "Matched"
        case .noMatch: "No match"
        case .failed: "Failed"
        }
    }

    private func image(_ image: Result<EncodedImage, ThumbnailError>?, className: String) -> String {
        switch image {
        case .success(let encoded)?: "<img class=\"\(className)\" src=\"\(encoded.dataURI)\" alt=\"\">"
        case .failure(let error)?: "<div class=\"missing \(className)\" title=\"\(Self.escaped(error.description))\">no preview</div>"
        case nil: "<div class=\"missing \(className)\">no preview</div>"
        }
    }

    private func thumbnails(of files: [String], progress: (Int, Int) -> Void) async -> [String: Result<EncodedImage, ThumbnailError>] {
        let thumbnailer = self.thumbnailer
        return await withTaskGroup(of: (String, Result<EncodedImage, ThumbnailError>).self) { group in
            var results: [String: Result<EncodedImage, ThumbnailError>] = [:]
            var next = 0
            func launch() {
                guard next < files.count else { return }
                let file = files[next]
                next += 1
                group.addTask {
                    (file, Result { () throws(ThumbnailError) -> EncodedImage in try thumbnailer.thumbnail(file: file) })
                }
            }
            for _ in 0..<min(jobs, files.count) { launch() }
            while let (file, result) = await group.next() {
                results[file] = result
                progress(results.count, files.count)
                launch()
            }
            return results
        }
    }

    /// `text` with `& < > " '` escaped for HTML text and attribute values. O(length).
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
