import Foundation
import ArgumentParser
import Search

/// `X,Y,W,H` in whole pixels (`--region`).
struct PixelRegionArgument: ExpressibleByArgument {
    var rect: PixelRect
    var text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              x >= 0, y >= 0, w > 0, h > 0 else { return nil }
        rect = PixelRect(x: x, y: y, width: w, height: h)
        text = argument
    }

    static var defaultValueDescription: String { "X,Y,W,H" }
}

/// `X,Y,W,H` as fractions 0…1 of the image (`--region-fraction`).
struct FractionRegionArgument: ExpressibleByArgument {
    var values: [Double]
    var text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
        values = parts.compactMap { $0 }
        guard values.allSatisfy({ (0...1).contains($0) }), values[2] > 0, values[3] > 0,
              values[0] + values[2] <= 1 + 1e-9, values[1] + values[3] <= 1 + 1e-9 else { return nil }
        text = argument
    }

    var region: DecodeOptions.Region { .fractions(x: values[0], y: values[1], width: values[2], height: values[3]) }
}
