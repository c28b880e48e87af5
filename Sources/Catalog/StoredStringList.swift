import Foundation

/// The one text form both stores give a list of strings kept in a single column (a
/// landmark's keywords, the entity URLs of a removal): a JSON array of strings.
public enum StoredStringList {
    /// A column that does not hold a JSON array of strings.
    public struct DamagedColumn: Error, Sendable, Hashable, CustomStringConvertible {
        /// What the column was for (`keywords of landmark x`).
        public var column: String
        /// A damaged column `column`.
        public init(column: String) { self.column = column }
        /// One line naming the column.
        public var description: String { "\(column) is not a JSON array of strings: the catalog database is damaged" }
    }

    /// `values` as a JSON array. O(total length).
    public static func text(_ values: [String]) -> String {
        // A JSON array of strings is written by hand so that no encoder error can be
        // swallowed: every string is escaped as RFC 8259 asks.
        var out = "["
        for (index, value) in values.enumerated() {
            if index > 0 { out += "," }
            out += "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            out += "\""
        }
        return out + "]"
    }

    /// The strings of a column written by ``text(_:)``.
    /// - Parameter column: what the column is for, named in the error.
    /// - Throws: ``DamagedColumn`` when it is not a JSON array of strings. O(length).
    public static func values(_ text: String, column: @autoclosure () -> String) throws(DamagedColumn) -> [String] {
        do { return try JSONDecoder().decode([String].self, from: Data(text.utf8)) } catch { throw DamagedColumn(column: column()) }
    }
}
