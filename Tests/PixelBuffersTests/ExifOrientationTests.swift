import Testing
@testable import PixelBuffers

/// Dave Perrett's samples: the same picture stored with EXIF orientation 0…8 must all
/// come out upright and equal to `_1` (within the tolerance of separate encodes).
@Suite struct ExifOrientationTests {
    static func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.format == b.format)
        var total = 0
        for y in 0..<a.height {
            a.withRow(y) { ra in b.withRow(y) { rb in for i in 0..<ra.count { total += abs(Int(ra[i]) - Int(rb[i])) } } }
        }
        return Double(total) / Double(a.height * a.rowByteCount)
    }

    @Test(arguments: ["Landscape", "Portrait"], 0...8)
    func everySampleComesOutUpright(_ kind: String, _ n: Int) throws {
        let options = DecodeOptions(minimumShortSide: 150)
        let reference = try ImageDecoder().decode(file: TestData.path("exif-orientation/\(kind)_1.jpg"), options: options)
        let image = try ImageDecoder().decode(file: TestData.path("exif-orientation/\(kind)_\(n).jpg"), options: options)
        #expect(image.info.orientation.rawValue == max(n, 1))
        #expect(image.appliedOrientation == image.info.orientation)
        let (w, h) = kind == "Landscape" ? (1800, 1200) : (1200, 1800)
        #expect(image.info.orientedWidth == w && image.info.orientedHeight == h)
        #expect(image.scale == .oneEighth)
        #expect(image.pixels.width == w / 8 && image.pixels.height == h / 8)
        let difference = Self.meanAbsoluteDifference(image.pixels, reference.pixels)
        #expect(difference < 4, "\(kind)_\(n) differs from _1 by \(difference) on average")
        if n >= 2 {
            // The stored pixels, not turned, must differ clearly (or even have another size).
            let stored = try ImageDecoder().decode(
                file: TestData.path("exif-orientation/\(kind)_\(n).jpg"),
                options: DecodeOptions(minimumShortSide: 150, applyOrientation: false))
            if stored.pixels.width == reference.pixels.width {
                #expect(Self.meanAbsoluteDifference(stored.pixels, reference.pixels) > 20)
            } else {
                #expect(stored.pixels.width == reference.pixels.height)
            }
        }
    }

    @Test func storedOrientationKeepsTheStoredSizeAndReportsTheTag() throws {
        let path = TestData.path("exif-orientation/Landscape_6.jpg")
        let info = try ImageDecoder().info(ofFile: path)
        #expect(info.orientation == .right)
        #expect(info.storedWidth == 1200 && info.storedHeight == 1800)
        #expect(info.orientedWidth == 1800 && info.orientedHeight == 1200)
        let stored = try ImageDecoder().decode(file: path, options: DecodeOptions(minimumShortSide: 1, applyOrientation: false))
        #expect(stored.appliedOrientation == .up)
        #expect(stored.pixels.width == 150 && stored.pixels.height == 225)
    }

    @Test func orientationMapsEveryUprightPointToAStoredPointAndBack() {
        let (w, h) = (5, 3)
        for o in ExifOrientation.allCases {
            let (ow, oh) = o.orientedSize(width: w, height: h)
            var seen = Set<Int>()
            for y in 0..<oh {
                for x in 0..<ow {
                    let p = o.storedPoint(x: x, y: y, storedWidth: w, storedHeight: h)
                    #expect(p.x >= 0 && p.x < w && p.y >= 0 && p.y < h)
                    seen.insert(p.y * w + p.x)
                }
            }
            #expect(seen.count == w * h, "\(o) is not a bijection")
        }
    }
}
