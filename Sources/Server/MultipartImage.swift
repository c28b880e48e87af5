import Foundation
import Hummingbird

/// The image of a `multipart/form-data` upload (what an HTML `<form>` and most HTTP client
/// libraries send): exactly one file part (a part with a `filename`, or named `image`),
/// returned as a slice of the collected body (no copy). Search parameters are read from the
/// query string only, so any other field is refused rather than ignored.
///
/// - Complexity: O(body bytes): one pass looking for the boundary.
enum MultipartImage {
    /// The boundary of a `multipart/form-data` content type, `nil` for any other type.
    /// - Throws: 400 `invalid_multipart` for a multipart type without a usable boundary.
    static func boundary(contentType: String?) throws(APIError) -> String? {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = parts.first, type.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { break }
            return value
        }
        throw invalid("the Content-Type multipart/form-data needs a boundary parameter of 1 to 70 characters")
    }

    /// The one image part of `body`.
    /// - Throws: 400 `invalid_multipart` naming what is wrong (no closing boundary, no image
    ///   part, two image parts, a field other than the image).
    static func image(in body: ByteBuffer, boundary: String) throws(APIError) -> ByteBuffer {
        let range = body.withUnsafeReadableBytes { bytes in Result { () throws(APIError) in try imageRange(in: bytes, boundary: boundary) } }
        let (offset, length) = try range.get()
        return body.getSlice(at: body.readerIndex + offset, length: length) ?? ByteBuffer()
    }

    /// Offset and length of the one file part's content in `bytes`.
    private static func imageRange(in bytes: UnsafeRawBufferPointer, boundary: String) throws(APIError) -> (Int, Int) {
        let delimiter = Array("--\(boundary)".utf8)
        // Every occurrence of the delimiter at the start of the body or after CRLF.
        var marks: [Int] = []
        var index = 0
        while let found = firstIndex(of: delimiter, in: bytes, from: index) {
            if found == 0 || (found >= 2 && bytes[found - 2] == 13 && bytes[found - 1] == 10) { marks.append(found) }
            index = found + delimiter.count
        }
        guard let last = marks.last, last + delimiter.count + 2 <= bytes.count,
              bytes[last + delimiter.count] == UInt8(ascii: "-"), bytes[last + delimiter.count + 1] == UInt8(ascii: "-") else {
            throw invalid("the multipart body does not end with its closing boundary --\(boundary)--")
        }
        var image: (Int, Int)?
        for (open, close) in zip(marks, marks.dropFirst()) {
            var partStart = open + delimiter.count
            // Transport padding, then CRLF.
            while partStart < close, bytes[partStart] == 32 || bytes[partStart] == 9 { partStart += 1 }
            guard partStart + 2 <= close, bytes[partStart] == 13, bytes[partStart + 1] == 10 else {
                throw invalid("a multipart boundary line is not followed by CRLF")
            }
            partStart += 2
            let partEnd = close - 2   // the CRLF before the next delimiter belongs to it
            let headerEnd: Int, contentStart: Int
            if partStart + 2 <= partEnd, bytes[partStart] == 13, bytes[partStart + 1] == 10 {
                (headerEnd, contentStart) = (partStart, partStart + 2)   // no headers
            } else if let found = firstIndex(of: [13, 10, 13, 10], in: bytes, from: partStart), found + 4 <= partEnd {
                (headerEnd, contentStart) = (found, found + 4)
            } else {
                throw invalid("a multipart part has no blank line after its headers")
            }
            let headers = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[partStart..<headerEnd]), as: UTF8.self)
            let disposition = headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-disposition:") }.map(String.init) ?? ""
            let name = parameter("name", in: disposition)
            guard parameter("filename", in: disposition) != nil || name == "image" else {
                throw invalid("the multipart field '\(name ?? "")' is not read: send search parameters in the query string and only the image in the form")
            }
            guard image == nil else { throw invalid("the multipart body holds more than one file: send one image") }
            image = (contentStart, partEnd - contentStart)
        }
        guard let image else { throw invalid("the multipart body holds no file part: send the image as a file field") }
        return image
    }

    private static func invalid(_ message: String) -> APIError { APIError.badRequest("invalid_multipart", message) }

    /// A `name="value"` (or unquoted) parameter of a Content-Disposition line.
    private static func parameter(_ key: String, in line: String) -> String? {
        for piece in line.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            let value = pair[1]
            return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }

    /// The first index at or after `from` where `pattern` starts in `bytes`: `memchr` for
    /// its first byte, then `memcmp`. O(n · m) at worst, about O(n) on image data.
    private static func firstIndex(of pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress, let first = pattern.first else { return nil }
        let lastStart = bytes.count - pattern.count
        var index = from
        return pattern.withUnsafeBytes { needle -> Int? in
            while index <= lastStart {
                guard let hit = memchr(base + index, Int32(first), lastStart - index + 1) else { return nil }
                let candidate = UnsafeRawPointer(hit) - base
                if memcmp(base + candidate, needle.baseAddress!, pattern.count) == 0 { return candidate }
                index = candidate + 1
            }
            return nil
        }
    }
}
