import CSIMDKernels
import PixelBuffers

/// The float kernels of the fingerprint pipeline, each a thin wrapper over a C kernel
/// compiled for AVX-512, AVX2 and baseline x86-64 (see ``InstructionSet``). Every path
/// gives bit-identical results: each output is the same sequence of IEEE-754 single
/// precision operations in the same order (vectorised across outputs, never across a
/// sum, no FMA contraction).
public enum ImageKernels {
    // MARK: luma

    /// Luma coefficients (ITU-R BT.601, as PDQ uses): `Y = (0.299·R + 0.587·G) + 0.114·B`,
    /// evaluated in `Float` in exactly that order.
    public static let lumaCoefficients: (r: Float, g: Float, b: Float) = (0.299, 0.587, 0.114)

    /// The luma plane of a pixel buffer (Gray8 samples are used as they are). Alpha is
    /// ignored. O(pixels).
    public static func luma(of buffer: PixelBuffer, using isa: InstructionSet = .best) -> FloatImage {
        let w = buffer.width, h = buffer.height
        let samples = [Float](unsafeUninitializedCapacity: w * h) { out, n in
            buffer.withUnsafeBytes { src in
                let p = src.baseAddress?.assumingMemoryBound(to: UInt8.self)
                switch buffer.format {
                case .rgba8: glimpse_luma_rgba8(isa.code, p, buffer.bytesPerRow, Int32(w), Int32(h), out.baseAddress, w)
                case .gray8: glimpse_luma_gray8(isa.code, p, buffer.bytesPerRow, Int32(w), Int32(h), out.baseAddress, w)
                }
            }
            n = w * h
        }
        return FloatImage(width: w, height: h, channels: 1, samples: samples)
    }

    /// The luma plane of a float RGBA image (a 1-channel image is returned as is). O(pixels).
    public static func luma(of image: FloatImage, using isa: InstructionSet = .best) -> FloatImage {
        guard image.channels == 4 else { return image }
        let w = image.width, h = image.height
        let samples = [Float](unsafeUninitializedCapacity: w * h) { out, n in
            image.samples.withUnsafeBufferPointer { src in
                glimpse_luma_rgbaf(isa.code, src.baseAddress, image.rowLength, Int32(w), Int32(h), out.baseAddress, w)
            }
            n = w * h
        }
        return FloatImage(width: w, height: h, channels: 1, samples: samples)
    }

    // MARK: perspective warp

    /// `plane` (one channel) warped through a projective map: output pixel (x, y) is `plane`
    /// sampled bilinearly, clamped at the edges, at ((m0·x + m1·y + m2) / z, (m3·x + m4·y + m5) / z)
    /// with z = m6·x + m7·y + m8 (`mapping`: 9 values, row-major; pixel centres at integers).
    /// Same size as `plane`. O(pixels).
    public static func perspectiveWarp(_ plane: FloatImage, mapping: [Float], using isa: InstructionSet = .best) -> FloatImage {
        precondition(plane.channels == 1 && mapping.count == 9, "a perspective warp takes a luma plane and 9 coefficients")
        precondition(plane.width * plane.height <= Int(Int32.max), "a perspective warp's plane has under 2^31 pixels (32-bit offsets)")
        let w = plane.width, h = plane.height
        let samples = [Float](unsafeUninitializedCapacity: w * h) { out, n in
            plane.samples.withUnsafeBufferPointer { src in
                mapping.withUnsafeBufferPointer { m in
                    glimpse_perspective_warp(isa.code, src.baseAddress, Int32(w), Int32(h), m.baseAddress, out.baseAddress)
                }
            }
            n = w * h
        }
        return FloatImage(width: w, height: h, channels: 1, samples: samples)
    }

    // MARK: area resampling

    /// Area-averaging resample of a pixel buffer to `width`×`height`: each output pixel is
    /// the mean of the source area it covers, with exact fractional coverage of the source
    /// pixels on its edges (see ``AreaWeights``). RGBA8 gives a 4-channel image, Gray8 a
    /// 1-channel one.
    ///
    /// Vertical pass first, straight from the bytes and vectorised across each row (every
    /// source byte is read once), then a horizontal pass over the `height` rows left.
    /// O(source pixels × vertical taps + height × source width × horizontal taps).
    public static func areaResample(_ buffer: PixelBuffer, width: Int, height: Int, using isa: InstructionSet = .best) -> FloatImage {
        let channels = buffer.format.bytesPerPixel
        let rowLength = buffer.width * channels
        let ys = AreaWeights(source: buffer.height, target: height)
        let vertical = [Float](unsafeUninitializedCapacity: height * rowLength) { out, n in
            buffer.withUnsafeBytes { src in
                ys.withPointers { ts, tc, to, w in
                    glimpse_weighted_rows_u8(isa.code, src.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.bytesPerRow,
                                             Int32(rowLength), ts, tc, to, w, Int32(height), out.baseAddress, rowLength)
                }
            }
            n = height * rowLength
        }
        return resampleColumns(vertical, rows: height, columns: buffer.width, channels: channels, width: width, using: isa)
    }

    /// Area-averaging resample of `region` (default: all) of a float image to
    /// `width`×`height`, same rules and order as ``areaResample(_:width:height:using:)``.
    public static func areaResample(_ image: FloatImage, region: PixelRect? = nil, width: Int, height: Int,
                                    using isa: InstructionSet = .best) -> FloatImage {
        let r = region ?? image.bounds
        let vertical = verticalPass(image, region: r, height: height, using: isa)
        return resampleColumns(vertical, rows: height, columns: r.width, channels: image.channels, width: width, using: isa)
    }

    /// First (vertical) pass of ``areaResample(_:region:width:height:using:)``: `region`
    /// averaged down to `height` rows of `region.width × channels` samples. Shared by resamples
    /// to the same height (aHash and the horizontal dHash grid).
    static func verticalPass(_ image: FloatImage, region r: PixelRect, height: Int, using isa: InstructionSet) -> [Float] {
        verticalPass(image, region: r, weights: AreaWeights(source: r.height, target: height), using: isa)
    }

    /// ``verticalPass(_:region:height:using:)`` with the weights already built
    /// (`AreaWeights(source: region.height, target: height)`).
    static func verticalPass(_ image: FloatImage, region r: PixelRect, weights ys: AreaWeights, using isa: InstructionSet) -> [Float] {
        precondition(!r.isEmpty && r.fits(width: image.width, height: image.height), "region \(r) outside \(image.width)x\(image.height)")
        let rowLength = r.width * image.channels
        let height = ys.outputCount
        return [Float](unsafeUninitializedCapacity: height * rowLength) { out, n in
            image.samples.withUnsafeBufferPointer { src in
                ys.withPointers { ts, tc, to, w in
                    glimpse_weighted_rows_f32(isa.code, src.baseAddress! + (r.y * image.width + r.x) * image.channels, image.rowLength,
                                              Int32(rowLength), ts, tc, to, w, Int32(height), out.baseAddress, rowLength)
                }
            }
            n = height * rowLength
        }
    }

    /// Second (horizontal) pass of the area resample: weighted sums of pixels along each row.
    static func resampleColumns(_ vertical: [Float], rows: Int, columns: Int, channels: Int, width: Int,
                                        using isa: InstructionSet) -> FloatImage {
        resampleColumns(vertical, rows: rows, columns: columns, channels: channels,
                        weights: AreaWeights(source: columns, target: width), using: isa)
    }

    /// ``resampleColumns(_:rows:columns:channels:width:using:)`` with the weights already
    /// built (`AreaWeights(source: columns, target: width)`).
    static func resampleColumns(_ vertical: [Float], rows: Int, columns: Int, channels: Int, weights xs: AreaWeights,
                                using isa: InstructionSet) -> FloatImage {
        let width = xs.outputCount
        let rowLength = width * channels
        let samples = [Float](unsafeUninitializedCapacity: rows * rowLength) { out, n in
            vertical.withUnsafeBufferPointer { src in
                xs.withPointers { ts, tc, to, w in
                    glimpse_weighted_columns_f32(isa.code, src.baseAddress, columns * channels, Int32(rows), Int32(channels),
                                                 ts, tc, to, w, Int32(width), out.baseAddress, rowLength)
                }
            }
            n = rows * rowLength
        }
        return FloatImage(width: width, height: rows, channels: channels, samples: samples)
    }

    /// ``resampleColumns(_:rows:columns:channels:weights:using:)`` of one channel, on the
    /// columns `offset ..< offset + xs.source` of each `rows`×`stride` row of `vertical` (a
    /// vertical pass over a wider band of the plane, see ``PerceptualHashes/CodeBand``). Each
    /// output reads only its own taps, so the same bits as on a copy of those columns.
    static func resampleColumns(_ vertical: [Float], offset: Int, stride: Int, rows: Int, weights xs: AreaWeights,
                                using isa: InstructionSet) -> FloatImage {
        let width = xs.outputCount
        let samples = [Float](unsafeUninitializedCapacity: rows * width) { out, n in
            resampleColumns(vertical, offset: offset, stride: stride, rows: rows, weights: xs, into: out, using: isa)
            n = rows * width
        }
        return FloatImage(width: width, height: rows, channels: 1, samples: samples)
    }

    /// ``resampleColumns(_:offset:stride:rows:weights:using:)`` into `out` (`rows` ×
    /// `xs.outputCount` floats, row-major), for results that need no array of their own.
    static func resampleColumns(_ vertical: [Float], offset: Int, stride: Int, rows: Int, weights xs: AreaWeights,
                                into out: UnsafeMutableBufferPointer<Float>, using isa: InstructionSet) {
        let width = xs.outputCount
        precondition(vertical.count >= rows * stride && offset >= 0, "band of \(vertical.count) floats, \(rows)x\(stride)")
        precondition(out.count >= rows * width, "\(out.count) floats for \(rows)x\(width) outputs")
        vertical.withUnsafeBufferPointer { src in
            xs.withPointers { ts, tc, to, w in
                glimpse_weighted_columns_f32(isa.code, src.baseAddress! + offset, stride, Int32(rows), 1,
                                             ts, tc, to, w, Int32(width), out.baseAddress, width)
            }
        }
    }

    /// Transposes a `rows`×`columns` matrix of `group`-float pixels. O(n), pure data movement.
    public static func transpose(_ m: [Float], rows: Int, columns: Int, group: Int = 1) -> [Float] {
        precondition(m.count == rows * columns * group, "transpose of \(m.count) floats as \(rows)x\(columns)x\(group)")
        return [Float](unsafeUninitializedCapacity: m.count) { out, n in
            m.withUnsafeBufferPointer { src in
                glimpse_transpose_f32(src.baseAddress, columns * group, out.baseAddress, rows * group,
                                      Int32(rows), Int32(columns), Int32(group))
            }
            n = m.count
        }
    }

    // MARK: box / Jarosz filter

    /// PDQ's Jarosz filter: `passes` times, a box filter along rows (window
    /// `windowAlongRows`) then along columns (`windowAlongColumns`), with PDQ's exact
    /// edge handling and operation order. In place on a 1-channel image. O(pixels × passes).
    public static func jaroszFilter(_ image: inout FloatImage, windowAlongRows: Int, windowAlongColumns: Int, passes: Int,
                                    using isa: InstructionSet = .best) {
        precondition(image.channels == 1, "the Jarosz filter works on one channel")
        let w = image.width, h = image.height
        let input = image.samples
        var scratch = [Float](repeating: 0, count: w * h)
        var strips = [Float](repeating: 0, count: 2 * 16 * w)
        input.withUnsafeBufferPointer { i in
            image.samples.withUnsafeMutableBufferPointer { o in
                scratch.withUnsafeMutableBufferPointer { t in
                    strips.withUnsafeMutableBufferPointer { s in
                        glimpse_jarosz_filter(isa.code, i.baseAddress, w, Int32(h), Int32(w), Int32(windowAlongRows),
                                              Int32(windowAlongColumns), Int32(passes), o.baseAddress, t.baseAddress, s.baseAddress)
                    }
                }
            }
        }
    }

    /// PDQ's `box1DFloat` applied down every column of a `rows`×`columns` matrix.
    public static func boxColumns(_ input: [Float], into output: inout [Float], rows: Int, columns: Int, window: Int,
                                  using isa: InstructionSet = .best) {
        precondition(input.count == rows * columns && output.count == rows * columns, "box filter size mismatch")
        precondition(window >= 1 && window <= rows, "box window \(window) must be in 1…\(rows)")
        input.withUnsafeBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                glimpse_box_columns(isa.code, i.baseAddress, columns, o.baseAddress, columns, Int32(rows), Int32(columns), Int32(window))
            }
        }
    }

    // MARK: matrix product

    /// `a·b` for row-major `m`×`k` and `k`×`n` matrices, each output summed from 0 in k order
    /// (PDQ's DCT summation order). O(m·k·n).
    public static func multiply(_ a: [Float], _ b: [Float], m: Int, k: Int, n: Int, using isa: InstructionSet = .best) -> [Float] {
        precondition(a.count == m * k && b.count == k * n, "matrix sizes do not match \(m)x\(k)·\(k)x\(n)")
        return [Float](unsafeUninitializedCapacity: m * n) { out, count in
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in multiply(pa, pb, into: out, m: m, k: k, n: n, using: isa) }
            }
            count = m * n
        }
    }

    /// ``multiply(_:_:m:k:n:using:)`` into `c` (`m`×`n` floats), for products that need no
    /// array of their own (the DCT's intermediate). O(m·k·n).
    static func multiply(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>, into c: UnsafeMutableBufferPointer<Float>,
                         m: Int, k: Int, n: Int, using isa: InstructionSet) {
        precondition(a.count >= m * k && b.count >= k * n && c.count >= m * n, "matrix sizes do not match \(m)x\(k)·\(k)x\(n)")
        glimpse_matmul_f32(isa.code, a.baseAddress, k, b.baseAddress, n, c.baseAddress, n, Int32(m), Int32(k), Int32(n))
    }

    // MARK: histogram

    /// Per-bin pixel counts of `region` (default: all) of a 4-channel float image, in
    /// ``ColorHistogram``'s 64 HSV bins. O(pixels).
    public static func hsvHistogramCounts(_ image: FloatImage, region: PixelRect? = nil, using isa: InstructionSet = .best) -> [UInt32] {
        precondition(image.channels == 4, "colour histograms need an RGBA image")
        let r = region ?? image.bounds
        precondition(!r.isEmpty && r.fits(width: image.width, height: image.height), "region \(r) outside \(image.width)x\(image.height)")
        var counts = [UInt32](repeating: 0, count: ColorHistogram.binCount)
        image.samples.withUnsafeBufferPointer { src in
            counts.withUnsafeMutableBufferPointer { c in
                glimpse_hsv_histogram_rgbaf(isa.code, src.baseAddress! + (r.y * image.width + r.x) * 4, image.rowLength,
                                            Int32(r.width), Int32(r.height), c.baseAddress)
            }
        }
        return counts
    }
}
