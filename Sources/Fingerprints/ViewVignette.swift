/// A photometric hypothesis for a query view: the query went through a "vintage" filter or a
/// lens that darkened its corners (a vignette), and this view brightens them back, so the
/// picture's structure meets the catalog's unfiltered views again.
///
/// The model is the common radial fall-off of photo apps: a pixel at distance d from the
/// frame's centre keeps `1 − strength·d²/R²` of its brightness, R being half the diagonal,
/// so the corners lose ``strength`` of it and the centre nothing. Undoing it divides the
/// luma by that factor. A vignette darkens the corners without touching their colours' hues,
/// so only the structural codes (PDQ, pHash, dHash, aHash) need the correction; the view keeps
/// the full frame's colour histogram. A strength within about 0.1 of the filter's is
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
}
