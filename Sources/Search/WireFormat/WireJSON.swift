import Foundation

/// The one JSON encoder and decoder of every wire format (the CLI's `--json` and JSON
/// Lines, the HTTP bodies): compact, one line, keys sorted (deterministic: the same value
/// always gives the same bytes), `/` not escaped. The Codable types it is used with live
/// in this folder (`Sources/Search/WireFormat`), each checked against a golden file in
/// `testdata/wire/`.
public enum WireJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }()

    /// `value` as UTF-8 JSON bytes (no trailing newline).
    ///
    /// - Complexity: O(size of the value).
    public static func bytes(_ value: some Encodable) -> [UInt8] {
        // Wire types encode only strings, numbers (non-finite ones as strings), booleans,
        // arrays and objects, so encoding cannot fail; `{}` is never expected.
        Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    /// `value` as one line of JSON text (no trailing newline).
    ///
    /// - Complexity: O(size of the value).
    public static func line(_ value: some Encodable) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// Decodes a `T` from JSON bytes.
    ///
    /// - Complexity: O(bytes).
    /// - Throws: `DecodingError` naming the field that does not fit.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Sequence<UInt8>) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// A score in 0…1 rounded to four decimals (`0.8123`), as every wire format shows it:
    /// enough to compare, stable to diff. Non-finite values become 0.
    public static func score(_ value: Double) -> Double {
        value.isFinite ? (value * 10_000).rounded() / 10_000 : 0
    }
}
