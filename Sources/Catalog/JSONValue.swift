/// A parsed JSON value, kept untyped so the manifest validator can report wrong types
/// precisely instead of failing on the first mismatch.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try Self.unlessOtherType({ try container.decode(String.self) }, at: decoder.codingPath) {
            self = .string(value)
        } else if let value = try Self.unlessOtherType({ try container.decode([JSONValue].self) }, at: decoder.codingPath) {
            self = .array(value)
        } else if let value = try Self.unlessOtherType({ try container.decode([String: JSONValue].self) }, at: decoder.codingPath) {
            self = .object(value)
        } else {
            // The real reason (a number out of range: `1e999`), not "expected an object".
            self = .number(try container.decode(Double.self))
        }
    }

    /// `decode()`'s value, nil when the value here is of another type; an error from deeper
    /// inside (an element or member that cannot be decoded) is thrown as it is, so the
    /// message names it rather than this value's type.
    private static func unlessOtherType<T>(_ decode: () throws -> T, at path: [any CodingKey]) throws -> T? {
        do { return try decode() } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == path.count {
            return nil
        }
    }

    /// JSON type name for messages: "a string", "an array"…
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
