import Foundation
import PixelBuffers

/// A catalog described by a JSON manifest. Image paths are relative to the manifest's
/// folder (absolute paths are accepted too).
///
/// ```json
/// {
///   "version": 1,
///   "landmarks": [
///     { "id": "eiffel-tower", "name": "Eiffel Tower", "continent": "Europe",
///       "description": "Wrought-iron tower in Paris.", "keywords": ["tower", "paris"],
///       "location": { "latitude": 48.8584, "longitude": 2.2945 },
///       "images": ["images/eiffel-1.jpg", "images/eiffel-2.jpg"] }
///   ],
///   "collections": [
///     { "id": "towers", "name": "Towers", "landmarks": ["eiffel-tower"] }
///   ]
/// }
/// ```
///
/// Required: `landmarks`; per landmark `id` (a string: not empty, no control characters
/// such as NUL or newline, at most 1024 bytes; see ``CatalogContent/idProblem(_:)``),
/// `name` (string) and
/// `images` (non-empty array of strings naming PNG or JPEG files); per collection `id`,
/// `name` and `landmarks` (array of landmark ids, each at most once). Optional:
/// `version` (must be 1), `collections`, `continent`, `description`, `keywords`,
/// `location`. Unknown fields are errors (they are usually typos).
public struct ManifestCatalogSource: CatalogSource {
    /// The manifest file.
    public var manifestPath: String

    /// Creates a source reading the manifest at `manifestPath`.
    public init(manifestPath: String) {
        self.manifestPath = manifestPath
    }

    /// The manifest path.
    public var sourceDescription: String { manifestPath }

    /// Reads, parses and validates the manifest; checks every image exists and is a PNG
    /// or JPEG by its first bytes. O(manifest size + image count) I/O, no decoding.
    ///
    /// - Throws: ``CatalogSourceError``: unreadable file, malformed JSON, or
    ///   ``CatalogSourceError/invalid(source:issues:)`` listing every problem with its
    ///   entry and field.
    public func load() throws(CatalogSourceError) -> CatalogContent {
        let url = URL(fileURLWithPath: manifestPath)
        let data: Data
        // POSIX reads of a regular file only (a FIFO is refused, never waited on); also
        // avoids Data(contentsOf:), which leaks 4 KiB for every empty file (swift-foundation
        // 6.3; found by fuzzing, testdata/fuzz-regressions/manifest/).
        do { data = Data(try FileBytes.contents(ofFile: manifestPath)) } catch {
            guard case .unreadableFile(_, let reason) = error else { throw .unreadable(manifestPath, reason: error.description) }
            throw .unreadable(manifestPath, reason: reason)
        }
        // JSON is UTF-8 (RFC 8259); say so, with where, instead of a decoder's confusion.
        if let offset = Self.firstInvalidUTF8Offset(data) {
            throw .malformedJSON(manifestPath, reason: String(format: "not UTF-8 text: byte 0x%02X at offset %d is not valid UTF-8 (Latin-1?); save the manifest as UTF-8", data[data.startIndex + offset], offset))
        }
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw .malformedJSON(manifestPath, reason: Self.describe(error))
        }
        var parser = Parser(baseFolder: url.deletingLastPathComponent().standardizedFileURL.path)
        let content = parser.parse(root)
        guard parser.issues.isEmpty else { throw .invalid(source: manifestPath, issues: parser.issues) }
        return try content.validated(source: manifestPath)
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or nil. O(n).
    static func firstInvalidUTF8Offset(_ data: Data) -> Int? {
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context):
            let underlying = context.underlyingError.map { " (\(($0 as NSError).localizedDescription))" } ?? ""
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return context.debugDescription + underlying + (path.isEmpty ? "" : " at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)")
        default:
            return "\(error)"
        }
    }

    /// Walks the JSON tree, collecting every issue.
    private struct Parser {
        let baseFolder: String
        var issues: [CatalogIssue] = []

        mutating func parse(_ root: JSONValue) -> CatalogContent {
            guard case .object(let top) = root else {
                issues.append(.wrongType(entry: "manifest", field: "(root)", expected: "an object", found: root.typeName))
                return CatalogContent(landmarks: [], collections: [])
            }
            check(top, entry: "manifest", allowed: ["version", "landmarks", "collections"])
            if let version = top["version"] {
                if case .number(let v) = version {
                    if v != 1 { issues.append(.invalidValue(entry: "manifest", field: "version", reason: "is \(v); only version 1 is supported")) }
                } else {
                    issues.append(.wrongType(entry: "manifest", field: "version", expected: "a number", found: version.typeName))
                }
            }
            var landmarks: [LandmarkEntity] = []
            switch top["landmarks"] {
            case nil: issues.append(.missingField(entry: "manifest", field: "landmarks"))
            case .array(let items)?:
                for (index, item) in items.enumerated() {
                    if let landmark = parseLandmark(item, index: index) { landmarks.append(landmark) }
                }
            case let other?: issues.append(.wrongType(entry: "manifest", field: "landmarks", expected: "an array", found: other.typeName))
            }
            var collections: [CollectionEntity] = []
            switch top["collections"] {
            case nil: break
            case .array(let items)?:
                for (index, item) in items.enumerated() {
                    if let collection = parseCollection(item, index: index) { collections.append(collection) }
                }
            case let other?: issues.append(.wrongType(entry: "manifest", field: "collections", expected: "an array", found: other.typeName))
            }
            return CatalogContent(landmarks: landmarks, collections: collections)
        }

        mutating func parseLandmark(_ value: JSONValue, index: Int) -> LandmarkEntity? {
            var entry = "landmarks[\(index)]"
            guard case .object(let fields) = value else {
                issues.append(.wrongType(entry: entry, field: "(entry)", expected: "an object", found: value.typeName))
                return nil
            }
            if case .string(let id)? = fields["id"] { entry += " \"\(FileSystemPath.displayName(id))\"" }
            let before = issues.count
            check(fields, entry: entry, allowed: ["id", "name", "continent", "description", "keywords", "location", "images"])
            let id = requiredID(fields, entry: entry)
            let name = requiredString(fields, "name", entry: entry)
            let continent = optionalString(fields, "continent", entry: entry)
            let description = optionalString(fields, "description", entry: entry) ?? ""
            let keywords = stringArray(fields, "keywords", entry: entry, required: false) ?? []
            let location = parseLocation(fields["location"], entry: entry)
            var images: [ReferenceImage] = []
            if let paths = stringArray(fields, "images", entry: entry, required: true) {
                if paths.isEmpty { issues.append(.invalidValue(entry: entry, field: "images", reason: "must list at least one image")) }
                for (i, path) in paths.enumerated() {
                    let resolved = resolve(path)
                    let field = "images[\(i)]"
                    switch ImageFileSniffer.sniff(path: resolved) {
                    case .image: images.append(ReferenceImage(path: resolved))
                    case .unreadable(let reason) where reason == "No such file or directory":
                        issues.append(.missingImage(entry: entry, field: field, path: resolved))
                    case .unreadable(let reason): issues.append(.unreadableImage(entry: entry, field: field, path: resolved, reason: reason))
                    case .other: issues.append(.notAnImage(entry: entry, field: field, path: resolved))
                    }
                }
            }
            guard issues.count == before, let id, let name else { return nil }
            return LandmarkEntity(
                id: id, name: name, continent: continent, description: description, keywords: keywords,
                location: location, referenceImages: images)
        }

        mutating func parseCollection(_ value: JSONValue, index: Int) -> CollectionEntity? {
            var entry = "collections[\(index)]"
            guard case .object(let fields) = value else {
                issues.append(.wrongType(entry: entry, field: "(entry)", expected: "an object", found: value.typeName))
                return nil
            }
            if case .string(let id)? = fields["id"] { entry += " \"\(FileSystemPath.displayName(id))\"" }
            let before = issues.count
            check(fields, entry: entry, allowed: ["id", "name", "landmarks"])
            let id = requiredID(fields, entry: entry)
            let name = requiredString(fields, "name", entry: entry)
            let members = stringArray(fields, "landmarks", entry: entry, required: true)
            guard issues.count == before, let id, let name, let members else { return nil }
            return CollectionEntity(id: id, name: name, landmarkIDs: members)
        }

        mutating func parseLocation(_ value: JSONValue?, entry: String) -> GeoLocation? {
            guard let value else { return nil }
            guard case .object(let fields) = value else {
                issues.append(.wrongType(entry: entry, field: "location", expected: "an object", found: value.typeName))
                return nil
            }
            check(fields, entry: entry, allowed: ["latitude", "longitude"], prefix: "location.")
            var coordinates: [Double] = []
            for key in ["latitude", "longitude"] {
                switch fields[key] {
                case .number(let v)?: coordinates.append(v)
                case nil: issues.append(.missingField(entry: entry, field: "location.\(key)"))
                case let other?: issues.append(.wrongType(entry: entry, field: "location.\(key)", expected: "a number", found: other.typeName))
                }
            }
            guard coordinates.count == 2 else { return nil }
            let location = GeoLocation(latitude: coordinates[0], longitude: coordinates[1])
            guard location.isValid else {
                issues.append(.invalidValue(entry: entry, field: "location", reason: "must have latitude in -90…90 and longitude in -180…180"))
                return nil
            }
            return location
        }

        mutating func check(_ fields: [String: JSONValue], entry: String, allowed: Set<String>, prefix: String = "") {
            for key in fields.keys.sorted() where !allowed.contains(key) {
                issues.append(.unknownField(entry: entry, field: prefix + key))
            }
        }

        mutating func requiredString(_ fields: [String: JSONValue], _ key: String, entry: String) -> String? {
            switch fields[key] {
            case .string(let s)?:
                if s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    issues.append(.invalidValue(entry: entry, field: key, reason: "must not be empty"))
                    return nil
                }
                return s
            case nil: issues.append(.missingField(entry: entry, field: key)); return nil
            case let other?: issues.append(.wrongType(entry: entry, field: key, expected: "a string", found: other.typeName)); return nil
            }
        }

        /// `id`, checked against the id rule (``CatalogContent/idProblem(_:)``).
        mutating func requiredID(_ fields: [String: JSONValue], entry: String) -> String? {
            guard let id = requiredString(fields, "id", entry: entry) else { return nil }
            if let problem = CatalogContent.idProblem(id) {
                issues.append(.invalidValue(entry: entry, field: "id", reason: problem))
                return nil
            }
            return id
        }

        mutating func optionalString(_ fields: [String: JSONValue], _ key: String, entry: String) -> String? {
            switch fields[key] {
            case .string(let s)?: return s
            case nil, .null?: return nil
            case let other?: issues.append(.wrongType(entry: entry, field: key, expected: "a string", found: other.typeName)); return nil
            }
        }

        mutating func stringArray(_ fields: [String: JSONValue], _ key: String, entry: String, required: Bool) -> [String]? {
            switch fields[key] {
            case .array(let items)?:
                var out: [String] = []
                var ok = true
                for (i, item) in items.enumerated() {
                    if case .string(let s) = item { out.append(s) } else {
                        issues.append(.wrongType(entry: entry, field: "\(key)[\(i)]", expected: "a string", found: item.typeName))
                        ok = false
                    }
                }
                return ok ? out : nil
            case nil:
                if required { issues.append(.missingField(entry: entry, field: key)) }
                return nil
            case let other?:
                issues.append(.wrongType(entry: entry, field: key, expected: "an array of strings", found: other.typeName))
                return nil
            }
        }

        func resolve(_ path: String) -> String {
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: baseFolder).appendingPathComponent(path)
            return url.standardizedFileURL.path
        }
    }
}
