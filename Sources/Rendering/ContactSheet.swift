import Foundation

/// A self-contained HTML contact sheet of a batch match (`glimpse match --report`): each
/// photo's thumbnail beside the thumbnails, titles and scores of its matched landmarks,
/// or its error. Every image is inlined as a `data:` URI (JPEG, or PNG for sources with
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
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escaped(title))</title>
            <style>\(Self.style)</style></head>
            <body><h1>\(Self.escaped(title))</h1>

            """
        let counts = Dictionary(grouping: records, by: \.status).mapValues(\.count)
        html += "<p class=\"summary\">\(records.count) photos: \(counts[.matched] ?? 0) matched, "
            + "\(counts[.noMatch] ?? 0) no match, \(counts[.failed] ?? 0) failed.</p>\n"
        for record in records {
            html += "<section class=\"photo \(record.status.rawValue)\">\n"
            html += figure(images[record.photo], caption: Self.escaped(record.photo), className: "query")
            html += "<div class=\"matches\">"
            switch record.status {
            case .failed:
                html += "<p class=\"error\">\(Self.escaped(record.error ?? "failed"))</p>"
            case .noMatch:
                html += "<p class=\"none\">No match</p>"
            case .matched:
                for match in record.matches {
                    let image = landmarkThumbnails[match.url].flatMap { images[$0] }
                    let title = match.title.isEmpty ? match.id : match.title
                    let caption = "<b>\(Self.escaped(title))</b><br><span class=\"score\">\(String(format: "%.3f", match.score))</span> "
                        + "<code>\(Self.escaped(match.url))</code>"
                    html += figure(image, caption: caption, className: "match")
                }
            }
            html += "</div>\n</section>\n"
        }
        return html + "</body></html>\n"
    }

    private func figure(_ image: Result<EncodedImage, ThumbnailError>?, caption: String, className: String) -> String {
        let body: String
        switch image {
        case .success(let encoded)?: body = "<img src=\"\(encoded.dataURI)\" alt=\"\">"
        case .failure(let error)?: body = "<div class=\"missing\" title=\"\(Self.escaped(error.description))\">no preview</div>"
        case nil: body = "<div class=\"missing\">no preview</div>"
        }
        return "<figure class=\"\(className)\">\(body)<figcaption>\(caption)</figcaption></figure>"
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

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;background:#fafafa;color:#222}\
        h1{font-size:20px;margin:0 0 4px}.summary{color:#555;margin:0 0 16px}\
        section.photo{display:flex;gap:16px;align-items:flex-start;background:#fff;border:1px solid #ddd;\
        border-radius:8px;padding:12px;margin:0 0 12px}\
        section.error{border-color:#d33}section.no_match{border-color:#bbb}\
        figure{margin:0;width:168px}figure.query{width:200px}\
        figure img,.missing{display:block;max-width:160px;max-height:160px;border-radius:4px;background:#eee}\
        .missing{width:160px;height:100px;line-height:100px;text-align:center;color:#888}\
        figcaption{font-size:12px;word-break:break-all;margin-top:4px}\
        .matches{display:flex;flex-wrap:wrap;gap:12px}.score{font-weight:600;color:#06c}\
        .error{color:#c00}.none{color:#777}code{font-size:11px;color:#666}
        """
}
