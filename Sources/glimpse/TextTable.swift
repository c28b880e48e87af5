/// A plain-text table with aligned columns (printing only).
struct TextTable {
    var header: [String]
    var rows: [[String]]
    /// Column indices aligned to the right (numbers).
    var rightAligned: Set<Int> = []

    /// The table, two spaces between columns, no trailing spaces.
    var text: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let cell = row[column]
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                if rightAligned.contains(column) { return pad + cell }
                return column == row.count - 1 ? cell : cell + pad
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
