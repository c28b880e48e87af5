import PixelBuffers

/// JPEG compression artefacts: encode with ``JPEGEncoder`` at a quality, then decode
/// with ``ImageDecoder`` back to RGBA8, as a photo re-shared through a messaging app.
enum JPEGRoundTrip {
    /// The decoded pixels of `buffer` compressed at `quality`. O(pixels).
    static func apply(_ buffer: PixelBuffer, quality: Int, name: String) throws(EvaluationError) -> PixelBuffer {
        let transformation: ImageTransformation = quality == 20 ? .jpegQ20 : .jpegQ75
        do {
            let bytes = try JPEGEncoder(quality: quality).encode(buffer)
            return try ImageDecoder().decode(bytes, source: "\(name) (JPEG q\(quality))", options: DecodeOptions(alwaysRGBA: true)).pixels
        } catch let error as JPEGEncodeError {
            throw .transformationFailed(transformation, image: name, reason: error.description)
        } catch let error as DecodeError {
            throw .transformationFailed(transformation, image: name, reason: error.description)
        } catch {
            throw .transformationFailed(transformation, image: name, reason: "\(error)")
        }
    }
}
