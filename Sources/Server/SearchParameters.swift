import Foundation
import Hummingbird
import PixelBuffers

/// The query parameters of the search endpoints, validated: `region=x,y,w,h` (pixels of
/// the upright image) or `region_fraction=x,y,w,h` (0…1), `labels=a,b`, `page_size`
/// (1…100, default 10), `deadline_ms` (1…10000, default the server's) and `exact`
/// (`true`: scan every view even when the index has a first stage; default `false`).
struct SearchParameters: Sendable {
    var region: DecodeOptions.Region?
    var labels: [String]
    var pageSize: Int
    var deadline: Duration
    var exact: Bool

    /// Most results per page.
    static let maximumPageSize = 100
    /// Longest deadline a client may ask for, in milliseconds.
    static let maximumDeadlineMilliseconds = 10_000

    /// Parses the parameters of `request`.
    ///
    /// - Throws: 400 ``APIError`` naming the parameter and what is wrong with it.
    init(_ request: Request, defaultDeadlineMilliseconds: Int) throws(APIError) {
        let query = request.uri.queryParameters
        for name in ["region", "region_fraction", "labels", "page_size", "deadline_ms", "exact"] where query.getAll(name).count > 1 {
            throw .badRequest("invalid_parameter", "\(name) is given \(query.getAll(name).count) times; give it once")
        }
        let pixels = query.get("region")
        let fractions = query.get("region_fraction")
        if pixels != nil && fractions != nil {
            throw .badRequest("invalid_parameter", "give either region or region_fraction, not both")
        }
        if let pixels {
            let parts = pixels.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
                  x >= 0, y >= 0, w > 0, h > 0, x <= 1 << 20, y <= 1 << 20, w <= 1 << 20, h <= 1 << 20 else {
                throw .badRequest("invalid_parameter", "region must be x,y,w,h: four whole numbers, x,y ≥ 0 and w,h > 0 (pixels of the upright image); got '\(pixels.prefix(80))'")
            }
            region = .pixels(PixelRect(x: x, y: y, width: w, height: h))
        } else if let fractions {
            let parts = fractions.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
                  [x, y, w, h].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }), w > 0, h > 0 else {
                throw .badRequest("invalid_parameter", "region_fraction must be x,y,w,h: four numbers in 0…1, w,h > 0; got '\(fractions.prefix(80))'")
            }
            region = .fractions(x: x, y: y, width: w, height: h)
        } else {
            region = nil
        }
        labels = (query.get("labels") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard labels.count <= 32, labels.allSatisfy({ $0.utf8.count <= 64 }) else {
            throw .badRequest("invalid_parameter", "labels: at most 32 labels of at most 64 bytes each")
        }
        pageSize = try Self.integer(query, "page_size", default: 10, in: 1...Self.maximumPageSize)
        deadline = .milliseconds(try Self.integer(query, "deadline_ms", default: defaultDeadlineMilliseconds, in: 1...Self.maximumDeadlineMilliseconds))
        switch query.get("exact") {
        case nil, "false": exact = false
        case "true": exact = true
        case let other?: throw .badRequest("invalid_parameter", "exact must be true or false; got '\(other.prefix(80))'")
        }
    }

    /// The integer parameter `name`, `default` when absent.
    ///
    /// - Throws: 400 when it is not a whole number in `range`.
    static func integer(_ query: Parameters, _ name: String, default value: Int, in range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let text = query.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .badRequest("invalid_parameter", "\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound); got '\(text.prefix(40))'")
        }
        return number
    }
}
