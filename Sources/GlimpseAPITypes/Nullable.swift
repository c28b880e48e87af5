/// A value of the API that is either a `Wrapped` or JSON `null`, and is always sent: the
/// spec's required-but-nullable properties (`next_page_token`, `subtitle`, `thumbnail`,
/// `removal`, …). The generator maps them here (`typeOverrides`) because its own optional
/// properties omit the key when nil (apple/swift-openapi-generator#934), which would drop
/// a `"next_page_token": null` that clients rely on.
public enum Nullable<Wrapped>: Hashable, Sendable, Codable where Wrapped: Hashable & Sendable & Codable {
    /// JSON `null`.
    case null
    /// A value.
    case value(Wrapped)

    /// `nil` for ``null``, the value otherwise.
    /// - Complexity: O(1).
    public init(_ optional: Wrapped?) {
        self = optional.map(Self.value) ?? .null
    }

    /// The value, or `nil` for JSON `null` (`if let token = page.nextPageToken.optional`).
    /// - Complexity: O(1).
    public var optional: Wrapped? {
        if case .value(let wrapped) = self { return wrapped }
        return nil
    }

    /// Decodes `null` or a `Wrapped`.
    /// - Complexity: O(size of the value).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .null : .value(try container.decode(Wrapped.self))
    }

    /// Encodes `null` or the value.
    /// - Complexity: O(size of the value).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .value(let wrapped): try container.encode(wrapped)
        }
    }
}

extension Nullable: ExpressibleByNilLiteral {
    /// JSON `null`, written `nil` (`subtitle: nil`, `page.nextPageToken == nil`).
    /// - Complexity: O(1).
    public init(nilLiteral: ()) { self = .null }
}

/// `Components.Schemas.NullableText`: a string or null.
public typealias NullableTextValue = Nullable<String>
/// `Components.Schemas.NullableInteger`: an integer or null.
public typealias NullableIntegerValue = Nullable<Int>
/// `Components.Schemas.NullableLocation`: a landmark's location or null.
public typealias NullableLocationValue = Nullable<Components.Schemas.Location>
/// `Components.Schemas.NullableRemoval`: a removal or null (`POST /v1/admin/undo` with nothing to undo).
public typealias NullableRemovalValue = Nullable<Components.Schemas.Removal>
