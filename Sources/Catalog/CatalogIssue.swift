/// One problem found while validating a catalog source. `entry` names the offending
/// entry as it appears in the source (`landmarks[3] "eiffel"`, `collections[0]`, or a
/// file path for folder catalogs) and `field` the field inside it (`images[1]`).
public enum CatalogIssue: Sendable, Hashable, CustomStringConvertible {
    /// A required field is absent.
    case missingField(entry: String, field: String)
    /// A field has the wrong JSON type (`expected` and `found` are JSON type names).
    case wrongType(entry: String, field: String, expected: String, found: String)
    /// A field has the right type but an unacceptable value.
    case invalidValue(entry: String, field: String, reason: String)
    /// A field the format does not define (likely a typo).
    case unknownField(entry: String, field: String)
    /// An id already used by an earlier entry of the same kind.
    case duplicateID(entry: String, id: String, firstEntry: String)
    /// A collection names a landmark id no landmark has.
    case unknownLandmark(entry: String, field: String, id: String)
    /// An image path that does not name a readable regular file (`path` as resolved).
    case missingImage(entry: String, field: String, path: String)
    /// An image path that names something that cannot be read: no permission, or not a
    /// regular file (a folder, a FIFO…); `reason` says which.
    case unreadableImage(entry: String, field: String, path: String, reason: String)
    /// An image file whose first bytes are neither PNG nor JPEG.
    case notAnImage(entry: String, field: String, path: String)
    /// An ``IndexMode/add`` run names a landmark id that the catalog holds with other image
    /// files (`existing`, as resolved): adding never replaces another source's landmark.
    case idTakenByOtherImages(entry: String, id: String, existing: [String])

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .missingField(let e, let f): "\(e): missing required field \"\(f)\""
        case .wrongType(let e, let f, let expected, let found): "\(e): field \"\(f)\" must be \(expected), found \(found)"
        case .invalidValue(let e, let f, let why): "\(e): field \"\(f)\" \(why)"
        case .unknownField(let e, let f): "\(e): unknown field \"\(f)\""
        case .duplicateID(let e, let id, let first): "\(e): duplicate id \"\(id)\" (first used by \(first))"
        case .unknownLandmark(let e, let f, let id): "\(e): field \"\(f)\" names unknown landmark id \"\(id)\""
        case .missingImage(let e, let f, let p): "\(e): field \"\(f)\": image file \(p) does not exist or is not readable"
        case .unreadableImage(let e, let f, let p, let why): "\(e): field \"\(f)\": image file \(p) cannot be read: \(why)"
        case .notAnImage(let e, let f, let p): "\(e): field \"\(f)\": \(p) is not a PNG or JPEG file"
        case .idTakenByOtherImages(let e, let id, let existing):
            "\(e): landmark id \"\(id)\" is already in the catalog with other images (\(existing.joined(separator: ", "))); "
                + "adding updates a landmark only from its own files: rename it, or index its source without --add"
        }
    }
}
