import Foundation

/// Builds JSON text by hand, so fields come out in a fixed, documented order (Foundation's
/// encoders do not promise one). Used for the JSON Lines the CLI and batch matching write.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else (including non-ASCII) kept as UTF-8. O(length).
    public static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `text` as a JSON string, or `null`.
    public static func string(_ text: String?) -> String {
        text.map { string($0) } ?? "null"
    }

    /// A score in 0…1 with four decimals (`0.8123`); enough to compare, stable to diff.
    public static func score(_ value: Double) -> String {
        String(format: "%.4f", value.isFinite ? value : 0)
    }

    /// An object from already-encoded `(key, value)` pairs, in the order given.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// An array from already-encoded values.
    public static func array(_ values: [String]) -> String {
        "[" + values.joined(separator: ", ") + "]"
    }
}
