import Fingerprints
import Foundation
import GlimpseAPITypes

/// The body of `POST /v1/search/fingerprint`, for clients that fingerprint on the device
/// and never upload pixels: `{"pdq": 64 hex digits}` and optionally `"phash"` and
/// `"dhash"` (16 hex digits each), `"histogram"` (128 hex digits: the 64 packed bins) and
/// `"quality"` (0…100, default 100). With PDQ alone the catalog is scored by PDQ distance
/// only; with all four codes exactly as an uploaded image's full frame is.
struct FingerprintLookup {
    /// The one-view query fingerprint.
    var fingerprint: Fingerprint
    /// ``ServedIndex/visualProfile`` or ``ServedIndex/pdqOnlyProfile``.
    var profile: UInt8

    /// The lookup the body describes (its JSON already decoded by the generated interface).
    ///
    /// - Throws: 400 `invalid_body` naming the field that is malformed.
    init(_ body: Components.Schemas.FingerprintLookup) throws(APIError) {
        guard body.pdq.utf8.count == 64, let pdq = PDQHash(hex: body.pdq) else {
            throw .badRequest("invalid_body", "pdq must be 64 hex digits")
        }
        let quality = body.quality ?? 100
        guard (0...100).contains(quality) else { throw .badRequest("invalid_body", "quality must be in 0…100") }
        let extras = [body.phash, body.dhash, body.histogram]
        let profile: UInt8
        var pHash: UInt64 = 0, dHash: UInt64 = 0, histogram = ColorHistogram.empty
        if extras.allSatisfy({ $0 == nil }) {
            profile = ServedIndex.pdqOnlyProfile
        } else if let phash = body.phash, let dhash = body.dhash, let bins = body.histogram {
            pHash = try Self.word(phash, "phash")
            dHash = try Self.word(dhash, "dhash")
            guard bins.utf8.count == 128, let bytes = Self.bytes(hex: bins) else {
                throw .badRequest("invalid_body", "histogram must be 128 hex digits (64 bins)")
            }
            histogram = ColorHistogram(bins: bytes)
            profile = ServedIndex.visualProfile
        } else {
            throw .badRequest("invalid_body", "give phash, dhash and histogram together, or pdq alone")
        }
        fingerprint = Fingerprint(views: [FingerprintView(region: .full, aHash: 0, dHash: dHash, pHash: pHash, pdq: pdq,
                                                          quality: quality, histogram: histogram)])
        self.profile = profile
    }

    private static func word(_ text: String, _ name: String) throws(APIError) -> UInt64 {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ $0.isHexDigit }), let value = UInt64(text, radix: 16) else {
            throw .badRequest("invalid_body", "\(name) must be 16 hex digits")
        }
        return value
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, digits.allSatisfy({ $0.isHexDigit }) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
    }
}

private extension UInt8 {
    var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
