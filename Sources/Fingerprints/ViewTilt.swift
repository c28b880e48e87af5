import Foundation

/// A perspective hypothesis for a query view: the query is a camera's picture of a flat print
/// or screen seen tilted away from the camera (keystone), and this view undoes that tilt, so
/// the picture on the sheet meets the catalog's upright, facing views again.
///
/// The model is the one a phone camera follows: a pinhole camera with a focal length of
/// ``focalLength`` diagonals facing the sheet's centre, the sheet turned by ``down`` degrees
/// about its horizontal axis (positive: its top edge leans away from the camera) and then by
/// ``right`` degrees about its vertical axis (positive: its right edge leans away). The sheet
/// is assumed to fill the query's frame up to a margin of ``margin`` of the longer side, as a
/// person's selection of a photographed print does. A tilt of up to about half the angle
/// between two hypotheses is absorbed by the perceptual hashes, so a ring of eight directions
/// at one angle covers a band of tilts (``ring(degrees:margin:)``).
public struct ViewTilt: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Tilt about the sheet's horizontal axis, in degrees (positive: the top leans away).
    public var down: Float
    /// Tilt about the sheet's vertical axis, in degrees (positive: the right side leans away).
    public var right: Float
    /// Margin between the frame and the tilted sheet assumed, as a fraction of the frame's longer side.
    public var margin: Float

    /// Focal length of the assumed camera, in diagonals of the frame (0.8: a phone's main camera).
    public static let focalLength = 0.8

    /// Creates a hypothesis of `down` and `right` degrees of tilt, the sheet `margin` (a
    /// fraction of the longer side) inside the frame.
    public init(down: Float, right: Float, margin: Float) {
        self.down = down
        self.right = right
        self.margin = margin
    }

    /// Eight hypotheses at `degrees` of tilt: an edge leaning away (top, bottom, left, right)
    /// or a corner leaning away (the four diagonals, each axis at `degrees`/√2). O(1).
    public static func ring(degrees: Float, margin: Float) -> [ViewTilt] {
        let d = degrees * Float(0.5).squareRoot()
        return [(degrees, 0), (-degrees, 0), (0, degrees), (0, -degrees), (d, d), (d, -d), (-d, d), (-d, -d)].map {
            ViewTilt(down: $0.0, right: $0.1, margin: margin)
        }
    }

    /// One line for people.
    public var description: String { "tilt(down \(down)°, right \(right)°, margin \(margin))" }

    /// Where the sheet is assumed to lie in a frame of `aspect` (width over height): the frame
    /// less ``margin`` of its longer side on every side. The region of the view this tilt
    /// describes, so that it is searched as the query's inner crops are, against catalog
    /// full frames only. O(1).
    public func sheetRegion(aspect: Double) -> ViewRegion {
        let longer = Float(max(aspect, 1)), mx = min(0.45, margin * longer / Float(max(aspect, .leastNonzeroMagnitude))),
            my = min(0.45, margin * longer)
        return ViewRegion(x: mx, y: my, width: 1 - 2 * mx, height: 1 - 2 * my)
    }

    /// The projective map from a rectified plane of `width`×`height` pixels (the sheet seen
    /// facing) to the query's plane of the same size (the sheet as the camera saw it), as a
    /// row-major 3×3 matrix over pixel-centre coordinates: the source point of output pixel
    /// (x, y) is (m0·x + m1·y + m2, m3·x + m4·y + m5) / (m6·x + m7·y + m8). The plane may be
    /// the query frame shrunk in each direction independently: the camera model is applied
    /// to a frame of `aspect` (width over height) and its result scaled back. O(1).
    func sourceMapping(width: Int, height: Int, aspect: Double) -> [Double] {
        let a = Double(down) * .pi / 180, b = Double(right) * .pi / 180
        // The frame in units of its height.
        let w = max(aspect, .leastNonzeroMagnitude), h = 1.0
        let f = Self.focalLength * (w * w + h * h).squareRoot()
        // R = Ry(b)·Rx(a) (y points down); a sheet point (x, y, 0) lands at R·(x, y, 0) + (0, 0, f)
        // and projects to f·(X/Z, Y/Z): the first two columns of R do all the work.
        let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
        let project: [Double] = [f * cb, f * sb * sa, 0, 0, f * ca, 0, sb, -cb * sa, f]
        func apply(_ m: [Double], _ x: Double, _ y: Double) -> (Double, Double) {
            let z = m[6] * x + m[7] * y + m[8]
            return ((m[0] * x + m[1] * y + m[2]) / z, (m[3] * x + m[4] * y + m[5]) / z)
        }
        let corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (-w / 2, h / 2), (w / 2, h / 2)].map { apply(project, $0.0, $0.1) }
        let (u0, u1) = (corners.map(\.0).min() ?? 0, corners.map(\.0).max() ?? 1)
        let (v0, v1) = (corners.map(\.1).min() ?? 0, corners.map(\.1).max() ?? 1)
        // The projected sheet's bounding box fills the frame less the margin (``sheetRegion``),
        // then the frame is scaled to the plane's pixels (pixel centres at integers): an affine map A.
        let sheet = sheetRegion(aspect: aspect)
        let px = Double(width) / w, py = Double(height) / h
        let sx = Double(sheet.width) * w / max(u1 - u0, .leastNonzeroMagnitude)
        let sy = Double(sheet.height) * h / max(v1 - v0, .leastNonzeroMagnitude)
        let (left, top) = (Double(sheet.x) * w, Double(sheet.y) * h)
        let affine: [Double] = [px * sx, 0, px * (left - sx * u0) - 0.5, 0, py * sy, py * (top - sy * v0) - 0.5, 0, 0, 1]
        // Output pixel (x, y) is sheet point ((x + ½)/px − w/2, (y + ½)/py − h/2): a map C.
        let centre: [Double] = [1 / px, 0, 0.5 / px - w / 2, 0, 1 / py, 0.5 / py - h / 2, 0, 0, 1]
        return Self.multiply(Self.multiply(affine, project), centre)
    }

    /// The product of two row-major 3×3 matrices. O(1).
    private static func multiply(_ p: [Double], _ q: [Double]) -> [Double] {
        (0..<9).map { k in
            let i = k / 3, j = k % 3
            return p[3 * i] * q[j] + p[3 * i + 1] * q[3 + j] + p[3 * i + 2] * q[6 + j]
        }
    }

    /// `plane` rectified under this hypothesis: a plane of the same size whose pixel (x, y) is
    /// `plane` sampled bilinearly (clamped at the edges) where
    /// ``sourceMapping(width:height:aspect:)`` sends it (``ImageKernels/perspectiveWarp(_:mapping:using:)``).
    /// `aspect` is the query frame's width over its height (the plane may have been shrunk
    /// more in one direction). The same samples on every instruction set. O(pixels).
    public func rectified(_ plane: FloatImage, aspect: Double, using isa: InstructionSet = .best) -> FloatImage {
        ImageKernels.perspectiveWarp(plane, mapping: sourceMapping(width: plane.width, height: plane.height, aspect: aspect).map { Float($0) },
                                     using: isa)
    }
}
