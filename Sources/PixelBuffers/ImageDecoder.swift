import CImageCodecs
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes PNG, JPEG, WebP, HEIF (HEIC) and AVIF bytes (or a region of them) into a ``PixelBuffer``.
///
/// The format is detected from the bytes, never from a file name. Only what is asked for
/// is decoded: a JPEG region is cropped and skipped inside libjpeg-turbo and can be shrunk
/// in the DCT domain (see ``DecodeOptions/minimumShortSide``); a WebP region is cropped and
/// scaled inside libwebp; a PNG region keeps only the region's rows (interlaced PNGs need
/// the full frame); HEIF and AVIF decode the whole primary image (libheif 1.15 has no
/// region decode) and keep the region. Orientation is applied once, by default (EXIF, or a
/// HEIF's own `irot`/`imir`). Every failure is a ``DecodeError``; nothing is printed,
/// nothing exits.
///
/// `ImageDecoder` holds no state: one value can be used from any number of threads.
public struct ImageDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    // MARK: Header only

    /// Reads the header of the file at `path`. Reads the whole file, decodes no pixel.
    public func info(ofFile path: String) throws(DecodeError) -> ImageInfo {
        let bytes = try FileBytes.contents(ofFile: path)
        return try info(of: bytes, source: path)
    }

    /// Reads the header of in-memory image bytes (`[UInt8]`, `Data`, …); `source` names
    /// them in errors. Decodes no pixel. O(header size).
    public func info<Bytes: ContiguousBytes>(of bytes: Bytes, source: String = "<memory>") throws(DecodeError) -> ImageInfo {
        let outcome = bytes.withUnsafeBytes { raw -> Result<ImageInfo, DecodeError> in
            var info = glimpse_image_info()
            var message = [CChar](repeating: 0, count: 256)
            let status = glimpse_probe(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &info,
                                       &message, message.count)
            guard status == GLIMPSE_OK else {
                return .failure(Self.error(status, message: message, info: info, source: source, limit: 0))
            }
            return .success(Self.imageInfo(info))
        }
        return try outcome.get()
    }

    // MARK: Decoding

    /// Decodes the file at `path` according to `options`.
    ///
    /// Cost: reading the file, plus decoding the region at the chosen scale (a 12 MP JPEG
    /// takes tens of milliseconds at full size, a few at 1/8).
    public func decode(file path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
        let bytes = try FileBytes.contents(ofFile: path)
        return try decode(bytes, source: path, options: options)
    }

    /// Decodes in-memory image bytes (`[UInt8]`, `Data`, …) according to `options`;
    /// `source` names them in errors.
    public func decode<Bytes: ContiguousBytes>(_ bytes: Bytes, source: String = "<memory>",
                                               options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
        let outcome = bytes.withUnsafeBytes { raw -> Result<DecodedImage, DecodeError> in
            Result { () throws(DecodeError) -> DecodedImage in
                try decode(raw, source: source, options: options)
            }
        }
        return try outcome.get()
    }

    func decode(_ raw: UnsafeRawBufferPointer, source: String, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try Self.validate(options, source: source)
        let data = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var message = [CChar](repeating: 0, count: 256)

        // 1. Header: format, stored size, orientation. Checks the pixel cap too.
        var cInfo = glimpse_image_info()
        var probeOptions = glimpse_decode_options()
        probeOptions.max_pixels = UInt64(options.maxPixels)
        probeOptions.scale_num = 8
        var plan = glimpse_decode_result()
        var status = glimpse_plan(data, raw.count, &probeOptions, &cInfo, &plan, &message, message.count)
        guard status == GLIMPSE_OK else {
            throw Self.error(status, message: message, info: cInfo, source: source, limit: options.maxPixels)
        }
        let info = Self.imageInfo(cInfo)
        try Self.checkAspectRatio(width: info.storedWidth, height: info.storedHeight, options: options, source: source)

        // 2. Region in output orientation → stored full-resolution coordinates.
        let orientation = options.applyOrientation ? info.orientation : .up
        let (outWidth, outHeight) = orientation.orientedSize(width: info.storedWidth, height: info.storedHeight)
        let region = try Self.resolve(options.region, width: outWidth, height: outHeight, source: source)
        let storedRegion = orientation.storedRect(for: region, storedWidth: info.storedWidth, storedHeight: info.storedHeight)

        // 3. Smallest scale (JPEG DCT, WebP scaler) that keeps the short side (and the long
        //    side, when asked) at or above the minimum.
        let scale = Self.decodeScale(for: storedRegion, of: info, canScale: cInfo.can_scale != 0, options: options)
        let decodedRegion = scale.scaled(storedRegion, imageWidth: info.storedWidth, imageHeight: info.storedHeight)

        // 4. Plan the output, allocate it once, decode straight into it.
        var cOptions = glimpse_decode_options()
        cOptions.scale_num = Int32(scale.numerator)
        cOptions.region_x = UInt32(decodedRegion.x)
        cOptions.region_y = UInt32(decodedRegion.y)
        cOptions.region_width = UInt32(decodedRegion.width)
        cOptions.region_height = UInt32(decodedRegion.height)
        cOptions.max_pixels = UInt64(options.maxPixels)
        cOptions.allow_damaged = options.allowDamaged ? 1 : 0
        cOptions.allow_gray = options.alwaysRGBA ? 0 : 1
        status = glimpse_plan(data, raw.count, &cOptions, &cInfo, &plan, &message, message.count)
        guard status == GLIMPSE_OK else {
            throw Self.error(status, message: message, info: cInfo, source: source, limit: options.maxPixels,
                             region: region, regionSize: (outWidth, outHeight))
        }
        let byteCount = plan.bytes_per_row * Int(plan.height)
        var result = glimpse_decode_result()
        var decodeStatus = GLIMPSE_OK
        let bytes = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, count in
            decodeStatus = glimpse_decode(data, raw.count, &cOptions, buffer.baseAddress, byteCount, &cInfo, &result,
                                          &message, message.count)
            count = decodeStatus == GLIMPSE_OK ? byteCount : 0
        }
        guard decodeStatus == GLIMPSE_OK else {
            throw Self.error(decodeStatus, message: message, info: cInfo, source: source, limit: options.maxPixels,
                             region: region, regionSize: (outWidth, outHeight))
        }
        let format: PixelFormat = result.channels == 1 ? .gray8 : .rgba8
        let stored = PixelBuffer(unchecked: format, width: Int(result.width), height: Int(result.height),
                                 bytesPerRow: result.bytes_per_row, storage: bytes, origin: 0)
        return DecodedImage(
            info: info, pixels: stored.oriented(orientation), scale: scale, appliedOrientation: orientation,
            region: region, storedRegion: storedRegion, decodedRegion: decodedRegion,
            damage: result.damaged != 0 ? Self.string(message) : nil)
    }

    // MARK: Helpers

    /// Refuses an image whose long side exceeds ``DecodeOptions/maxAspectRatio`` times its short side. O(1).
    static func checkAspectRatio(width: Int, height: Int, options: DecodeOptions, source: String) throws(DecodeError) {
        let short = max(1, min(width, height)), long = max(width, height)
        guard long <= short * options.maxAspectRatio else {
            throw .extremeAspectRatio(source: source, width: width, height: height, limit: options.maxAspectRatio)
        }
    }

    /// Throws ``DecodeError/invalidOptions(source:reason:)`` for options no decode can
    /// follow (a pixel cap or a minimum side that is not positive). O(1).
    static func validate(_ options: DecodeOptions, source: String) throws(DecodeError) {
        guard options.maxAspectRatio > 0 else {
            throw .invalidOptions(source: source, reason: "maxAspectRatio must be positive, not \(options.maxAspectRatio)")
        }
        guard options.maxPixels > 0 else {
            throw .invalidOptions(source: source, reason: "maxPixels must be positive, not \(options.maxPixels)")
        }
        if let side = options.minimumShortSide, side <= 0 {
            throw .invalidOptions(source: source, reason: "minimum short side must be positive, not \(side)")
        }
        if let side = options.minimumLongSide, side <= 0 {
            throw .invalidOptions(source: source, reason: "minimum long side must be positive, not \(side)")
        }
        if let small = options.smallImageSides, small.maxPixels <= 0 || small.minimumShortSide <= 0 || small.minimumLongSide <= 0 {
            throw .invalidOptions(source: source, reason: "small-image decode size must be positive, not \(small)")
        }
    }

    /// The decode scale `options` ask for a stored-orientation region of the image `info`
    /// describes: the smallest DCT (or WebP scaler) scale keeping the short side (and the
    /// long side, when asked) at or above the minimums; a small region that this already
    /// shrinks is shrunk to its own minimums (``DecodeOptions/smallImageSides``) when asked.
    /// ``DCTScale/full`` for formats that cannot scale. O(1).
    static func decodeScale(for storedRegion: PixelRect, of info: ImageInfo, canScale: Bool, options: DecodeOptions) -> DCTScale {
        func smallestScale(short side: Int?, long longSide: Int?) -> DCTScale {
            guard canScale, let side else { return .full }
            let longSide = longSide ?? 1
            return DCTScale.allCases.first { candidate in
                let r = candidate.scaled(storedRegion, imageWidth: info.storedWidth, imageHeight: info.storedHeight)
                return min(r.width, r.height) >= side && max(r.width, r.height) >= longSide
            } ?? .full
        }
        var scale = smallestScale(short: options.minimumShortSide, long: options.minimumLongSide)
        if let small = options.smallImageSides, scale < .full, storedRegion.width * storedRegion.height <= small.maxPixels {
            scale = min(scale, smallestScale(short: small.minimumShortSide, long: small.minimumLongSide))
        }
        return scale
    }


    /// The region in pixels of the output orientation, validated.
    static func resolve(_ region: DecodeOptions.Region?, width: Int, height: Int, source: String) throws(DecodeError) -> PixelRect {
        guard let region else { return PixelRect(x: 0, y: 0, width: width, height: height) }
        switch region {
        case .pixels(let rect):
            guard !rect.isEmpty else { throw .emptyRegion(source: source, region: rect.description) }
            guard rect.fits(width: width, height: height) else {
                throw .regionOutside(source: source, region: rect, imageWidth: width, imageHeight: height)
            }
            return rect
        case .fractions(let fx, let fy, let fw, let fh):
            guard [fx, fy, fw, fh].allSatisfy(\.isFinite) else {
                throw .invalidOptions(source: source, reason: "region fractions must be finite numbers")
            }
            guard fw > 0, fh > 0 else { throw .emptyRegion(source: source, region: region.description) }
            let tolerance = 1e-9
            guard fx >= 0, fy >= 0, fx + fw <= 1 + tolerance, fy + fh <= 1 + tolerance else {
                throw .invalidOptions(source: source,
                                      reason: "region \(region) must lie within 0…1 of the \(width)x\(height) image")
            }
            let x0 = min(Int((fx * Double(width)).rounded(.down)), width)
            let y0 = min(Int((fy * Double(height)).rounded(.down)), height)
            let x1 = min(Int(((fx + fw) * Double(width) - tolerance).rounded(.up)), width)
            let y1 = min(Int(((fy + fh) * Double(height) - tolerance).rounded(.up)), height)
            guard x1 > x0, y1 > y0 else { throw .emptyRegion(source: source, region: region.description) }
            return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
    }

    static func imageInfo(_ info: glimpse_image_info) -> ImageInfo {
        ImageInfo(
            format: ImageFormat(info.format) ?? .jpeg,
            storedWidth: Int(info.width), storedHeight: Int(info.height),
            orientation: ExifOrientation(tag: Int(info.orientation)),
            components: Int(info.components), bitDepth: Int(info.bit_depth),
            isInterlaced: info.interlaced != 0, hasAlpha: info.has_alpha != 0,
            isGrid: info.is_grid != 0, imageCount: max(1, Int(info.image_count)))
    }

    static func string(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingSuffixWhitespace()
    }

    static func error(_ status: glimpse_status, message: [CChar], info: glimpse_image_info, source: String,
                      limit: Int, region: PixelRect? = nil, regionSize: (Int, Int) = (0, 0)) -> DecodeError {
        let reason = string(message)
        let format = ImageFormat(info.format) ?? .jpeg
        switch status {
        case GLIMPSE_ERR_EMPTY: return .emptyFile(source: source)
        case GLIMPSE_ERR_UNRECOGNIZED: return .unrecognisedFormat(source: source, detail: reason)
        case GLIMPSE_ERR_TRUNCATED: return .truncated(source: source, format: format, reason: reason)
        case GLIMPSE_ERR_UNSUPPORTED: return .unsupported(source: source, format: format, reason: reason)
        case GLIMPSE_ERR_TOO_LARGE where info.width == 0 || info.height == 0:
            // The codec refused the header before it declared a size (libjpeg: a side over
            // 65,500 pixels): its own message says what, "declared 0x0" would not.
            return .unsupported(source: source, format: format, reason: reason)
        case GLIMPSE_ERR_TOO_LARGE:
            return .tooLarge(source: source, width: Int(info.width), height: Int(info.height), limit: limit)
        case GLIMPSE_ERR_REGION:
            if let region {
                return .regionOutside(source: source, region: region, imageWidth: regionSize.0, imageHeight: regionSize.1)
            }
            return .invalidOptions(source: source, reason: reason)
        case GLIMPSE_ERR_MEMORY: return .outOfMemory(source: source, reason: reason)
        case GLIMPSE_ERR_ARGUMENT: return .invalidOptions(source: source, reason: reason)
        default: return .corruptData(source: source, format: format, reason: reason)
        }
    }
}

extension String {
    fileprivate func trimmingSuffixWhitespace() -> String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
