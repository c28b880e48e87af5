import Foundation
import InstructionSetTesting
import Testing
import Fingerprints

/// The perspective hypotheses of the query's tilt views: where they look and how the warp
/// samples.
@Suite struct ViewTiltTests {
    /// A plane whose samples are their own x (or y) coordinate: warped, each output sample
    /// is the source coordinate the map sent that pixel to (bilinear sampling of a ramp is exact).
    static func ramp(width: Int, height: Int, alongX: Bool) -> FloatImage {
        FloatImage(width: width, height: height, channels: 1,
                   samples: (0..<(width * height)).map { Float(alongX ? $0 % width : $0 / width) })
    }

    @Test func facingTheCameraWithoutMarginLeavesThePlaneAsItIs() {
        let plane = Self.ramp(width: 64, height: 48, alongX: true)
        let out = ViewTilt(down: 0, right: 0, margin: 0).rectified(plane, aspect: 4.0 / 3.0)
        #expect(zip(out.samples, plane.samples).allSatisfy { abs($0 - $1) < 1e-3 })
    }

    @Test func aTopLeaningAwayIsReadFromANarrowerTopEdgeInsideTheMargin() {
        let (w, h) = (64, 64)
        let tilt = ViewTilt(down: 20, right: 0, margin: 0.05)
        let xs = tilt.rectified(Self.ramp(width: w, height: h, alongX: true), aspect: 1.5)
        let ys = tilt.rectified(Self.ramp(width: w, height: h, alongX: false), aspect: 1.5)
        func span(_ row: Int) -> Float { xs[w - 1, row] - xs[0, row] }
        // The far (top) edge is shorter in the picture than the near (bottom) one.
        #expect(span(0) < span(h - 1) * 0.9, "top \(span(0)) px, bottom \(span(h - 1)) px")
        // The near edge fills the frame less the margin (5 % of the longer side: 3.2 px of the
        // 64 plane's width, stretched 1.5 in x against y, so 3.2 and 4.8 px), centred.
        #expect(abs(xs[0, h - 1] - 2.7) < 1 && abs(xs[w - 1, h - 1] - 60.3) < 1, "\(xs[0, h - 1]) … \(xs[w - 1, h - 1])")
        #expect(abs(ys[w / 2, 0] - 4.3) < 1 && abs(ys[w / 2, h - 1] - 58.7) < 1, "\(ys[w / 2, 0]) … \(ys[w / 2, h - 1])")
        #expect(abs(xs[0, 0] + xs[w - 1, 0] - Float(w - 1)) < 0.01, "symmetric about the vertical axis")
    }

    @Test func aRightSideLeaningAwayIsReadFromAShorterRightEdge() {
        let (w, h) = (40, 64)
        let ys = ViewTilt(down: 0, right: 20, margin: 0.02).rectified(Self.ramp(width: w, height: h, alongX: false), aspect: 0.6)
        #expect(ys[w - 1, h - 1] - ys[w - 1, 0] < (ys[0, h - 1] - ys[0, 0]) * 0.9)
    }

    @Test func aRingHoldsEightDirectionsAtOneAngleAndTheSheetRegionIsTheFrameLessTheMargin() {
        let ring = ViewTilt.ring(degrees: 20, margin: 0.04)
        #expect(ring.count == 8 && Set(ring).count == 8)
        #expect(ring.allSatisfy { abs(($0.down * $0.down + $0.right * $0.right).squareRoot() - 20) < 1e-4 && $0.margin == 0.04 })
        let wide = ViewTilt(down: 20, right: 0, margin: 0.05).sheetRegion(aspect: 2)
        #expect(abs(wide.x - 0.05) < 1e-6 && abs(wide.y - 0.1) < 1e-6 && abs(wide.width - 0.9) < 1e-6 && abs(wide.height - 0.8) < 1e-6)
        #expect(wide.isValid && wide != .full, "searched as an inner view, against catalog full frames only")
        #expect(ViewTilt(down: 0, right: 0, margin: 0.4).sheetRegion(aspect: 5).isValid, "a huge margin on a narrow frame stays inside it")
    }

    @Test(.comparingEveryInstructionSet, arguments: [(64, 64), (37, 91), (1, 1), (128, 5)])
    func perspectiveWarpIsBitIdenticalOnEveryPath(size: (Int, Int)) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(size.0 * 1000 + size.1)
        let plane = FloatImage(width: size.0, height: size.1, channels: 1, samples: (0..<(size.0 * size.1)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24) * 255
        })
        for tilt in ViewTilt.ring(degrees: 20, margin: 0.06) + [ViewTilt(down: -7, right: 13, margin: 0)] {
            let portable = tilt.rectified(plane, aspect: 1.3, using: .portable)
            for isa in supportedInstructionSets {
                let fast = tilt.rectified(plane, aspect: 1.3, using: isa)
                #expect(fast.samples.map(\.bitPattern) == portable.samples.map(\.bitPattern), "\(tilt) \(isa)")
            }
        }
    }
}
