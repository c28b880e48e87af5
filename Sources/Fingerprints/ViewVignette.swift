/// A photometric hypothesis for a query view: the query went through a "vintage" filter or a
/// lens that darkened its corners (a vignette), and this view brightens them back, so the
/// picture's structure meets the catalog's unfiltered views again.
///
/// The model is the common radial fall-off of photo apps: a pixel at distance d from the
/// frame's centre keeps `1 − strength·d²/R²` of its brightness, R being half the diagonal,
/// so the corners lose ``strength`` of it and the centre nothing. Undoing it divides the
/// luma by that factor. A vignette darkens the corners without touching their colours' hues
/// or saturations, but it moves their brightness, which the histogram counts too (16 grey
/// levels, a light and a dark half of each hue): a white background darkened at the corners
/// falls into grey bins the catalog picture does not have. So the view's histogram is the
/// full frame's with the same brightening undone on its bins
/// (``undoneHistogram(bins:width:height:aspect:)``). A strength within about 0.1 of the filter's is
/// absorbed by the perceptual hashes. The view is hashed from the frame shrunk to the query
/// layout's ``FingerprintViewLayout/tiltSize`` (32 pixels a side), as the tilt views are: as
/// accurate as the working resolution in the evaluation, at under a tenth of the cost (about
/// 15 µs a query).
public struct ViewVignette: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Fraction of the brightness the assumed vignette takes at the frame's corners (0…0.9).
    public var strength: Float

    /// Creates a hypothesis of a vignette taking `strength` (0…0.9) of the brightness at the corners.
    public init(strength: Float) {
        precondition(strength >= 0 && strength <= 0.9, "a vignette takes 0…0.9 of the corners' brightness")
        self.strength = strength
    }

    /// One line for people.
    public var description: String { "vignette(\(strength))" }

    /// `plane` (a luma plane, 0…255) with this vignette undone: every sample divided by the
    /// brightness the vignette leaves there, capped at 255. `aspect` is the query frame's
    /// width over its height (the plane may have been shrunk more in one direction):
    /// distances are measured in the frame's proportions, as the filter measures them. The
    /// same samples on every instruction set (scalar IEEE arithmetic). O(pixels).
    public func undone(_ plane: FloatImage, aspect: Double) -> FloatImage {
        precondition(plane.channels == 1, "a vignette is undone on a luma plane")
        let w = plane.width, h = plane.height
        // A point at fractions (fx, fy) of the sides lies ((fx − ½)·a, fy − ½) from the centre
        // in units of the frame's height; R² = (a/2)² + (½)².
        let a = Float(max(aspect, .leastNonzeroMagnitude))
        let reach = (a * a + 1) / 4
        let columns = (0..<w).map { x -> Float in
            let d = ((Float(x) + 0.5) / Float(w) - 0.5) * a
            return d * d / reach
        }
        var samples = plane.samples
        columns.withUnsafeBufferPointer { column in
            samples.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let d = (Float(y) + 0.5) / Float(h) - 0.5
                    let rowTerm = d * d / reach
                    let row = UnsafeMutableBufferPointer(rebasing: out[(y * w)..<(y * w + w)])
                    for x in 0..<w {
                        row[x] = min(255, row[x] / (1 - strength * (column[x] + rowTerm)))
                    }
                }
            }
        }
        return FloatImage(width: w, height: h, channels: 1, samples: samples)
    }

    /// Rings of equal assumed brightness that ``undoneHistogram(bins:width:height:aspect:)``
    /// counts separately (uniform in squared distance from the centre).
    public static let histogramRings = 32

    /// The colour histogram of a frame with this vignette undone, from the frame's histogram
    /// bins (``ColorHistogram``: one bin per working pixel, `width` per row; `aspect` as in
    /// ``undone(_:aspect:)``).
    ///
    /// The bins keep hue and saturation, which a vignette leaves alone, and brightness only
    /// as an interval (a grey level of 16 values, or a hue's dark half, 51…152, or light one,
    /// 153…255). Undoing a vignette divides brightness by the light left at that distance, so
    /// each bin's pixels are counted per ring of equal light, and a ring's interval, divided by
    /// its light, is shared among the bins it then overlaps in proportion to the overlap
    /// (brightness assumed uniform within a bin). Pixels too dark to have a hue stay grey.
    /// At most about 128 × 128 samples are read (a regular grid), enough for a 64-bin
    /// histogram. The same bins on every instruction set (scalar IEEE arithmetic).
    /// - Complexity: O(min(pixels, 16,384) + rings × 64).
    public func undoneHistogram(bins: [UInt8], width: Int, height: Int, aspect: Double) -> ColorHistogram {
        precondition(bins.count >= width * height, "one bin per pixel")
        let rings = Self.histogramRings, binCount = ColorHistogram.binCount
        guard width > 0, height > 0 else { return .empty }
        let a = Float(max(aspect, .leastNonzeroMagnitude))
        let reach = (a * a + 1) / 4
        let step = max(1, (max(width, height) + 127) / 128)
        // Squared distance over R², per sampled column and row, as `undone` measures it.
        let columns = stride(from: 0, to: width, by: step).map { x -> Float in
            let d = ((Float(x) + 0.5) / Float(width) - 0.5) * a
            return d * d / reach
        }
        var counts = [UInt32](repeating: 0, count: rings * binCount)
        bins.withUnsafeBufferPointer { plane in
            counts.withUnsafeMutableBufferPointer { c in
                for y in stride(from: 0, to: height, by: step) {
                    let d = (Float(y) + 0.5) / Float(height) - 0.5
                    let rowTerm = d * d / reach
                    var x = 0
                    for columnTerm in columns {
                        let ring = min(rings - 1, Int((columnTerm + rowTerm) * Float(rings)))
                        c[ring * binCount + Int(plane[y * width + x] & 63)] += 1
                        x += step
                    }
                }
            }
        }
        // A bin's brightness interval [low, high) divided by the light is shared among the
        // target intervals it overlaps, in proportion (no allocation per bin).
        var undone = [Double](repeating: 0, count: binCount)
        for ring in 0..<rings {
            let light = 1 - Double(strength) * (Double(ring) + 0.5) / Double(rings)
            for bin in 0..<binCount {
                let count = Double(counts[ring * binCount + bin])
                guard count > 0 else { continue }
                if bin < 16 {
                    // Grey level `bin`: brightness 16·bin…16·bin + 15, grey levels 16 wide, the last open.
                    let low = Double(16 * bin) / light, high = Double(16 * bin + 16) / light
                    let first = min(15, Int(low / 16)), last = min(15, Int(high / 16))
                    for grey in first...last {
                        let top = grey == 15 ? Double.infinity : Double(16 * grey + 16)
                        let overlap = min(high, top) - max(low, Double(16 * grey))
                        if overlap > 0 { undone[grey] += count * overlap / (high - low) }
                    }
                } else if (bin - 16) % 2 == 1 {
                    undone[bin] += count   // the light half of a hue stays light
                } else {
                    // The dark half, 51…152: the part brightened past 153 becomes light.
                    let low = 51 / light, high = 153 / light
                    let lit = max(0, high - max(low, 153)) / (high - low)
                    undone[bin] += count * (1 - lit)
                    undone[bin + 1] += count * lit
                }
            }
        }
        return ColorHistogram(counts: undone.map { UInt32(($0 * 256).rounded()) })
    }
}
