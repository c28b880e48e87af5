import Foundation

/// RFC 4180 fields: quoted when they hold a comma, quote, CR or LF; quotes doubled.
public enum CSVText {
    /// A score in 0…1 as CSV shows it: four decimals (`0.8123`), non-finite values as 0.
    ///
    /// - Complexity: O(1).
    public static func score(_ value: Double) -> String {
        String(format: "%.4f", value.isFinite ? value : 0)
    }

    /// `text` as one CSV field. O(length).
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The fields of one CSV record; `nil` when a quoted field is not closed. O(length).
    public static func fields(of line: String) -> [String]? {
        var fields: [String] = []
        var current = ""
        var inQuotes = false
        var iterator = line.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if c == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { current.append("\"") } else { inQuotes = false; pending = next }
                    } else {
                        inQuotes = false
                    }
                } else {
                    current.append(c)
                }
            } else if c == "\"" && current.isEmpty {
                inQuotes = true
            } else if c == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        guard !inQuotes else { return nil }
        fields.append(current)
        return fields
    }
}
