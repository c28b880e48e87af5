import CImageCodecs
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageDecoder {
    /// Decodes the file at `path` row by row into `sink`; see ``decodeRows(_:source:options:into:)``.
    public func decodeRows<Sink: DecodedRowSink>(file path: String, options: DecodeOptions = DecodeOptions(),
                                                 into sink: inout Sink) throws(DecodeError) -> DecodedRows {
        let bytes = try FileBytes.contents(ofFile: path)
        return try decodeRows(bytes, source: path, options: options, into: &sink)
    }

    /// Decodes image bytes and hands the pixels to `sink` one row at a time: the same rows,
    /// top to bottom, that ``decode(_:source:options:)`` would put in its ``PixelBuffer``.
    ///
    /// A whole image in its stored orientation (no region, not ``DecodeOptions/allowDamaged``,
    /// EXIF orientation 1 or not applied) is streamed straight from the decoder when it is a
    /// non-interlaced PNG (libpng, one row at a time) or a JPEG (libjpeg-turbo at the scale
    /// ``decode(_:source:options:)`` would choose, in bands of at most 16 rows): no image
    /// buffer is allocated and each row is still in cache when the sink reads it. Anything
    /// else is decoded into a buffer first and then handed over row by row. Cost: the
    /// decode, plus the sink's work; memory: one row (PNG) or one band (JPEG) when streamed.
    ///
    /// On failure the sink may already have received some rows; discard it.
    public func decodeRows<Bytes: ContiguousBytes, Sink: DecodedRowSink>(
        _ bytes: Bytes, source: String = "<memory>", options: DecodeOptions = DecodeOptions(), into sink: inout Sink
    ) throws(DecodeError) -> DecodedRows {
        let outcome = bytes.withUnsafeBytes { raw -> Result<DecodedRows, DecodeError> in
            Result { () throws(DecodeError) -> DecodedRows in try decodeRows(raw, source: source, options: options, into: &sink) }
        }
        return try outcome.get()
    }

    private func decodeRows<Sink: DecodedRowSink>(_ raw: UnsafeRawBufferPointer, source: String, options: DecodeOptions,
                                                  into sink: inout Sink) throws(DecodeError) -> DecodedRows {
        try Self.validate(options, source: source)
        let data = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var message = [CChar](repeating: 0, count: 256)
        var cInfo = glimpse_image_info()
        var cOptions = glimpse_decode_options()
        cOptions.scale_num = 8
        cOptions.max_pixels = UInt64(options.maxPixels)
        var plan = glimpse_decode_result()
        // Streamed: a whole image, upright as stored (or orientation not applied), not
        // decoded as damaged; a non-interlaced PNG at full size, or a JPEG at its decode
        // scale (libjpeg-turbo hands over bands of rows, never the whole image).
        var scale = DCTScale.full
        var canStream = options.region == nil && !options.allowDamaged
            && glimpse_plan(data, raw.count, &cOptions, &cInfo, &plan, &message, message.count) == GLIMPSE_OK
            && (!options.applyOrientation || cInfo.orientation == 1)
            && ((cInfo.format == GLIMPSE_FORMAT_PNG && cInfo.interlaced == 0) || cInfo.format == GLIMPSE_FORMAT_JPEG)
        if canStream && cInfo.format == GLIMPSE_FORMAT_JPEG {
            let info = Self.imageInfo(cInfo)
            scale = Self.decodeScale(for: PixelRect(x: 0, y: 0, width: info.storedWidth, height: info.storedHeight), of: info,
                                     canScale: cInfo.can_scale != 0, options: options)
            cOptions.scale_num = Int32(scale.numerator)
            cOptions.allow_gray = options.alwaysRGBA ? 0 : 1
            canStream = glimpse_plan(data, raw.count, &cOptions, &cInfo, &plan, &message, message.count) == GLIMPSE_OK
        }
        guard canStream else {
            // Everything else, errors included: the buffered decode, then its rows.
            let image = try decode(raw, source: source, options: options)
            let pixels = image.pixels
            sink.begin(width: pixels.width, height: pixels.height, format: pixels.format)
            for y in 0..<pixels.height { pixels.withRow(y) { sink.consume(row: $0, y: y) } }
            return DecodedRows(info: image.info, width: pixels.width, height: pixels.height, format: pixels.format,
                               scale: image.scale, streamed: false)
        }
        try Self.checkAspectRatio(width: Int(cInfo.width), height: Int(cInfo.height), options: options, source: source)
        let width = Int(plan.width), height = Int(plan.height)
        let format: PixelFormat = plan.channels == 1 ? .gray8 : .rgba8
        sink.begin(width: width, height: height, format: format)
        var result = glimpse_decode_result()
        let rowBytes = width * format.bytesPerPixel
        let status = withUnsafeMutablePointer(to: &sink) { sinkPointer in
            let consumer: RowConsumer = SinkRowConsumer(sink: sinkPointer, rowBytes: rowBytes)
            return withExtendedLifetime(consumer) {
                glimpse_decode_rows(data, raw.count, &cOptions, { context, y, row in
                    guard let context, let row else { return }
                    // Borrowed for the call: no reference counting per row.
                    Unmanaged<RowConsumer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.consume(row: row, y: Int(y)) }
                }, Unmanaged.passUnretained(consumer).toOpaque(), &cInfo, &result, &message, message.count)
            }
        }
        guard status == GLIMPSE_OK else {
            throw Self.error(status, message: message, info: cInfo, source: source, limit: options.maxPixels)
        }
        return DecodedRows(info: Self.imageInfo(cInfo), width: width, height: height, format: format, scale: scale, streamed: true)
    }
}

/// The Swift side of a `glimpse_row_sink` callback: a class, so that the C callback (which
/// cannot be generic) reaches the sink through one borrowed reference and a virtual call,
/// without the retain and release per row that a stored closure cost (measured: 0.6 % of a
/// 640×480 fingerprint).
private class RowConsumer {
    /// Hands one decoded row to the sink.
    func consume(row: UnsafePointer<UInt8>, y: Int) {}
}

/// A ``RowConsumer`` for one sink, valid while the pointer it holds is.
private final class SinkRowConsumer<Sink: DecodedRowSink>: RowConsumer {
    let sink: UnsafeMutablePointer<Sink>
    let rowBytes: Int

    init(sink: UnsafeMutablePointer<Sink>, rowBytes: Int) {
        self.sink = sink
        self.rowBytes = rowBytes
    }

    override func consume(row: UnsafePointer<UInt8>, y: Int) {
        sink.pointee.consume(row: UnsafeBufferPointer(start: row, count: rowBytes), y: y)
    }
}
