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
    /// Whether the sheet is taken to be what lies inside the query's plain border
    /// (``PlainBorder/sheet(in:)``) when it has one, ``margin`` serving only when it has none.
    public var fitsPlainBorder: Bool
    /// Whether the view rectifies the sheet's outline found inside the plain border
    /// (``SheetQuadrilateral``) when there is one, undoing the camera's tilt exactly; the
    /// hypothesis (``down``, ``right``, the box) serves only when none is found.
    public var rectifiesQuadrilateral: Bool

    /// Focal length of the assumed camera, in diagonals of the frame (0.8: a phone's main camera).
    public static let focalLength = 0.8

    /// Creates a hypothesis of `down` and `right` degrees of tilt, the sheet `margin` (a
    /// fraction of the longer side) inside the frame or, with `fitsPlainBorder`, inside the
    /// query's plain border where it has one.
    /// With `rectifiesQuadrilateral`, the sheet's outline inside the plain border is
    /// rectified when one is found (``SheetQuadrilateral``).
    public init(down: Float, right: Float, margin: Float, fitsPlainBorder: Bool = false, rectifiesQuadrilateral: Bool = false) {
        self.down = down
        self.right = right
        self.margin = margin
        self.fitsPlainBorder = fitsPlainBorder
        self.rectifiesQuadrilateral = rectifiesQuadrilateral
    }

    /// Eight hypotheses at `degrees` of tilt: an edge leaning away (top, bottom, left, right)
    /// or a corner leaning away (the four diagonals, each axis at `degrees`/√2), each with
    /// `margin` and `fitsPlainBorder`. O(1).
    public static func ring(degrees: Float, margin: Float, fitsPlainBorder: Bool = false) -> [ViewTilt] {
        let d = degrees * Float(0.5).squareRoot()
        return [(degrees, 0), (-degrees, 0), (0, degrees), (0, -degrees), (d, d), (d, -d), (-d, d), (-d, -d)].map {
            ViewTilt(down: $0.0, right: $0.1, margin: margin, fitsPlainBorder: fitsPlainBorder)
        }
    }

    /// One line for people.
    public var description: String {
        "tilt(\(rectifiesQuadrilateral ? "the sheet's outline, else " : "")down \(down)°, right \(right)°, margin \(fitsPlainBorder ? "plain border, else " : "")\(margin))"
    }

    /// The sheet this hypothesis assumes in a frame of `aspect` whose plain border, if any,
    /// leaves `plainBorder` (``PlainBorder/sheet(in:)``): that box when ``fitsPlainBorder``
    /// and there is one, else ``sheetRegion(aspect:)``. O(1).
    public func sheetRegion(aspect: Double, plainBorder: ViewRegion?) -> ViewRegion {
        if fitsPlainBorder, let plainBorder { return plainBorder }
        return sheetRegion(aspect: aspect)
    }

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
    /// Stored inline (no heap storage: one per tilt view of every query).
    private func sourceMapping(width: Int, height: Int, aspect: Double, sheet: ViewRegion, modelsSheetAspect: Bool) -> Projective {
        let a = Double(down) * .pi / 180, b = Double(right) * .pi / 180
        let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
        // The frame in units of its height.
        let fw = max(aspect, .leastNonzeroMagnitude), fh = 1.0
        // With `modelsSheetAspect` the camera model is applied to the sheet itself (units of
        // its height), whose projection under this tilt has the bounding box `sheet` gives:
        // its aspect is found by a few fixed-point steps from that box's (a 1:8 picture inside
        // a plain border would otherwise be modelled as wide as the frame, with the
        // perspective of a sheet twice its width). Else the sheet is modelled with the
        // frame's aspect (a fixed margin: the two differ little).
        let boxAspect = modelsSheetAspect ? Double(sheet.width) * fw / max(Double(sheet.height) * fh, .leastNonzeroMagnitude) : fw
        func projection(_ sw: Double) -> Projective {
            // R = Ry(b)·Rx(a) (y points down); a sheet point (x, y, 0) lands at R·(x, y, 0) + (0, 0, f)
            // and projects to f·(X/Z, Y/Z): the first two columns of R do all the work.
            let f = Self.focalLength * (sw * sw + 1).squareRoot()
            return Projective(f * cb, f * sb * sa, 0, 0, f * ca, 0, sb, -cb * sa, f)
        }
        // The bounding box of the projected sheet's corners (no heap storage: a few per tilt view).
        func box(_ sw: Double) -> (u0: Double, u1: Double, v0: Double, v1: Double) {
            let project = projection(sw)
            let c0 = project.apply(-sw / 2, -0.5), c1 = project.apply(sw / 2, -0.5)
            let c2 = project.apply(-sw / 2, 0.5), c3 = project.apply(sw / 2, 0.5)
            return (min(c0.0, c1.0, c2.0, c3.0), max(c0.0, c1.0, c2.0, c3.0), min(c0.1, c1.1, c2.1, c3.1), max(c0.1, c1.1, c2.1, c3.1))
        }
        var sw = boxAspect
        for _ in 0..<(modelsSheetAspect ? 4 : 0) {
            let b = box(sw)
            sw *= boxAspect / max((b.u1 - b.u0) / max(b.v1 - b.v0, .leastNonzeroMagnitude), .leastNonzeroMagnitude)
        }
        let project = projection(sw)
        let (u0, u1, v0, v1) = box(sw)
        // The projected sheet's bounding box fills `sheet` (``sheetRegion(aspect:plainBorder:)``),
        // then the frame is scaled to the plane's pixels (pixel centres at integers): an affine map A.
        let px = Double(width) / fw, py = Double(height) / fh
        let sx = Double(sheet.width) * fw / max(u1 - u0, .leastNonzeroMagnitude)
        let sy = Double(sheet.height) * fh / max(v1 - v0, .leastNonzeroMagnitude)
        let (left, top) = (Double(sheet.x) * fw, Double(sheet.y) * fh)
        let affine = Projective(px * sx, 0, px * (left - sx * u0) - 0.5, 0, py * sy, py * (top - sy * v0) - 0.5, 0, 0, 1)
        // Output pixel (x, y) is sheet point ((x + ½)·sw/width − sw/2, (y + ½)/height − ½): a map C.
        let ux = sw / Double(width), uy = 1 / Double(height)
        let centre = Projective(ux, 0, 0.5 * ux - sw / 2, 0, uy, 0.5 * uy - 0.5, 0, 0, 1)
        return affine.then(project).then(centre)
    }

    /// A row-major 3×3 projective map, stored inline.
    private struct Projective {
        var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

        init(_ m0: Double, _ m1: Double, _ m2: Double, _ m3: Double, _ m4: Double, _ m5: Double,
             _ m6: Double, _ m7: Double, _ m8: Double) {
            m = (m0, m1, m2, m3, m4, m5, m6, m7, m8)
        }

        /// Where the map sends (x, y). O(1).
        func apply(_ x: Double, _ y: Double) -> (Double, Double) {
            let z = m.6 * x + m.7 * y + m.8
            return ((m.0 * x + m.1 * y + m.2) / z, (m.3 * x + m.4 * y + m.5) / z)
        }

        /// The product self·q (q applied first). O(1).
        func then(_ q: Projective) -> Projective {
            let p = self.m, q = q.m
            return Projective(p.0 * q.0 + p.1 * q.3 + p.2 * q.6, p.0 * q.1 + p.1 * q.4 + p.2 * q.7, p.0 * q.2 + p.1 * q.5 + p.2 * q.8,
                              p.3 * q.0 + p.4 * q.3 + p.5 * q.6, p.3 * q.1 + p.4 * q.4 + p.5 * q.7, p.3 * q.2 + p.4 * q.5 + p.5 * q.8,
                              p.6 * q.0 + p.7 * q.3 + p.8 * q.6, p.6 * q.1 + p.7 * q.4 + p.8 * q.7, p.6 * q.2 + p.7 * q.5 + p.8 * q.8)
        }
    }

    /// `plane` rectified under this hypothesis: a plane of the same size whose pixel (x, y) is
    /// `plane` sampled bilinearly (clamped at the edges) where
    /// ``sourceMapping(width:height:aspect:sheet:modelsSheetAspect:)`` sends it (``ImageKernels/perspectiveWarp(_:mapping:using:)``).
    /// `aspect` is the query frame's width over its height (the plane may have been shrunk
    /// more in one direction); `sheet` is where the sheet's projection is assumed to lie
    /// (default ``sheetRegion(aspect:)``). A view that fits the plain border and was given
    /// another box than its fixed margin's (the border's, ``sheetRegion(aspect:plainBorder:)``)
    /// models the sheet with that box's aspect rather than the frame's. The same samples on
    /// every instruction set. With ``rectifiesQuadrilateral`` and a `quadrilateral`, that
    /// outline is mapped onto the whole plane instead (``SheetQuadrilateral/mapping(width:height:)``). O(pixels).
    public func rectified(_ plane: FloatImage, aspect: Double, sheet: ViewRegion? = nil, quadrilateral: SheetQuadrilateral? = nil,
                          using isa: InstructionSet = .best) -> FloatImage {
        if rectifiesQuadrilateral, let quadrilateral {
            return ImageKernels.perspectiveWarp(plane, mapping: quadrilateral.mapping(width: plane.width, height: plane.height), using: isa)
        }
        let fixed = sheetRegion(aspect: aspect), box = sheet ?? fixed
        let m = sourceMapping(width: plane.width, height: plane.height, aspect: aspect, sheet: box,
                              modelsSheetAspect: fitsPlainBorder && box != fixed).m
        return ImageKernels.perspectiveWarp(plane, mapping: [Float(m.0), Float(m.1), Float(m.2), Float(m.3), Float(m.4), Float(m.5),
                                                             Float(m.6), Float(m.7), Float(m.8)], using: isa)
    }
}
