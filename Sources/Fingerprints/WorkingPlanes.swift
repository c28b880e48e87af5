import CSIMDKernels
import PixelBuffers

/// What ``Fingerprinter`` computes every view from: the source area-averaged to the working
/// size, kept as its luma plane and a plane of colour-histogram bins (one byte per pixel,
/// ``ColorHistogram``'s 64 bins). The float RGBA working image itself is never stored.
///
/// Bit-identical to ``Fingerprinter/workingImage(of:)`` followed by
/// ``ImageKernels/luma(of:using:)-(FloatImage,_)`` and the histogram bin of each pixel: one C
/// kernel (`glimpse_working_planes_u8`) runs the same operations one output row at a time,
/// so the intermediate rows stay in cache. Cost: one read of the source, O(source pixels ×
/// vertical taps + working pixels × horizontal taps); memory: the two planes (5 bytes per
/// working pixel) plus one source row of floats.
struct WorkingPlanes {
    /// Luma of the working image (1 channel, 0…255).
    let luma: FloatImage
    /// Histogram bin (0…63) of each working pixel, `luma.width` bytes per row.
    let bins: [UInt8]

    /// Resamples `buffer` to `width`×`height` (each at most the source's) and derives both planes.
    init(_ buffer: PixelBuffer, width: Int, height: Int, using isa: InstructionSet) {
        let channels = buffer.format.bytesPerPixel
        let xs = AreaWeights(source: buffer.width, target: width)
        let ys = AreaWeights(source: buffer.height, target: height)
        let count = width * height
        var bins = [UInt8](unsafeUninitializedCapacity: count) { _, n in n = count }   // written by the kernel
        let luma = [Float](unsafeUninitializedCapacity: count) { lumaOut, n in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: (buffer.width + width) * channels) { scratch in
                buffer.withUnsafeBytes { src in
                    ys.withPointers { yts, ytc, yto, yw in
                        xs.withPointers { xts, xtc, xto, xw in
                            bins.withUnsafeMutableBufferPointer { binsOut in
                                glimpse_working_planes_u8(
                                    isa.code, src.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.bytesPerRow,
                                    Int32(buffer.width), Int32(channels),
                                    yts, ytc, yto, yw, Int32(height), buffer.height == height ? 1 : 0,
                                    xts, xtc, xto, xw, Int32(width), buffer.width == width ? 1 : 0,
                                    scratch.baseAddress, lumaOut.baseAddress, width, binsOut.baseAddress, width)
                            }
                        }
                    }
                }
            }
            n = count
        }
        self.luma = FloatImage(width: width, height: height, channels: 1, samples: luma)
        self.bins = bins
    }

    /// Planes already computed (by ``Builder``).
    init(luma: FloatImage, bins: [UInt8]) {
        precondition(bins.count == luma.width * luma.height, "one bin per working pixel")
        self.luma = luma
        self.bins = bins
    }

    /// Builds the planes from rows delivered one at a time (``ImageDecoder/decodeRows(_:source:options:into:)``),
    /// so the source image never has to exist in memory: `glimpse_working_planes_push_row`
    /// keeps the (at most two) open vertical sums and finishes each working row as soon as its
    /// last source row has arrived. The planes equal ``WorkingPlanes/init(_:width:height:using:)``'s
    /// on the same pixels, bit for bit.
    struct Builder: DecodedRowSink {
        let workingSize: Int
        let isa: InstructionSet
        private var sourceWidth = 0, sourceHeight = 0, channels = 0, width = 0, height = 0
        private var xs = AreaWeights(source: 1, target: 1), ys = AreaWeights(source: 1, target: 1)
        private var accumulators: [Float] = [], scratch: [Float] = [], luma: [Float] = [], bins: [UInt8] = []
        private var nextSourceRow: Int32 = 0, firstOpenRow: Int32 = 0

        init(workingSize: Int, using isa: InstructionSet) {
            self.workingSize = workingSize
            self.isa = isa
        }

        mutating func begin(width sourceWidth: Int, height sourceHeight: Int, format: PixelFormat) {
            self.sourceWidth = sourceWidth
            self.sourceHeight = sourceHeight
            channels = format.bytesPerPixel
            width = min(sourceWidth, workingSize)
            height = min(sourceHeight, workingSize)
            xs = AreaWeights(source: sourceWidth, target: width)
            ys = AreaWeights(source: sourceHeight, target: height)
            func uninitialized<T>(_ n: Int, _: T.Type) -> [T] { [T](unsafeUninitializedCapacity: n) { _, count in count = n } }
            accumulators = uninitialized(2 * sourceWidth * channels, Float.self)
            scratch = uninitialized(width * channels, Float.self)
            luma = uninitialized(width * height, Float.self)
            bins = uninitialized(width * height, UInt8.self)
            nextSourceRow = 0
            firstOpenRow = 0
        }

        mutating func consume(row: UnsafeBufferPointer<UInt8>, y: Int) {
            precondition(y == Int(nextSourceRow) && row.count >= sourceWidth * channels, "rows must arrive in order, whole")
            let (isa, xIdentity) = (isa, Int32(width == sourceWidth ? 1 : 0))
            let shape = (Int32(sourceWidth), Int32(sourceHeight), Int32(channels), Int32(width), Int32(height))
            let progress = (nextSourceRow, firstOpenRow)
            let next = ys.withPointers { yts, ytc, yto, yw in
                xs.withPointers { xts, xtc, xto, xw in
                    accumulators.withUnsafeMutableBufferPointer { acc in
                        scratch.withUnsafeMutableBufferPointer { s in
                            luma.withUnsafeMutableBufferPointer { l in
                                bins.withUnsafeMutableBufferPointer { b in
                                    var stream = glimpse_working_planes_stream(
                                        source_width: shape.0, source_height: shape.1, channels: shape.2,
                                        out_width: shape.3, out_height: shape.4,
                                        y_tap_start: yts, y_tap_count: ytc, y_tap_offset: yto, y_weights: yw,
                                        x_tap_start: xts, x_tap_count: xtc, x_tap_offset: xto, x_weights: xw,
                                        x_identity: xIdentity, accumulators: acc.baseAddress, row_scratch: s.baseAddress,
                                        luma: l.baseAddress, bins: b.baseAddress,
                                        next_source_row: progress.0, first_open_row: progress.1)
                                    glimpse_working_planes_push_row(isa.code, &stream, row.baseAddress)
                                    return (stream.next_source_row, stream.first_open_row)
                                }
                            }
                        }
                    }
                }
            }
            (nextSourceRow, firstOpenRow) = next
        }

        /// The planes, once every source row has arrived.
        func planes() -> WorkingPlanes {
            precondition(Int(firstOpenRow) == height && height > 0, "working planes need every source row")
            return WorkingPlanes(luma: FloatImage(width: width, height: height, channels: 1, samples: luma), bins: bins)
        }
    }

    /// The colour histogram of each rectangle (which must lie inside the planes). The
    /// rectangles' edges cut the plane into cells; each cell's bins are counted once and
    /// each histogram sums the cells it covers, so overlapping views cost one pass over the
    /// pixels in total, and a summed-area table over the cells gives each rectangle in four
    /// lookups. O(working pixels + cells × 64 + rectangles × 64).
    func histograms(of rects: [PixelRect]) -> [ColorHistogram] {
        let w = luma.width, h = luma.height
        let xEdges = Array(Set(rects.flatMap { [$0.x, $0.x + $0.width] } + [0, w])).sorted()
        let yEdges = Array(Set(rects.flatMap { [$0.y, $0.y + $0.height] } + [0, h])).sorted()
        let columns = xEdges.count - 1, binCount = ColorHistogram.binCount
        var cells = [UInt32](repeating: 0, count: (yEdges.count - 1) * columns * binCount)
        bins.withUnsafeBufferPointer { plane in
            cells.withUnsafeMutableBufferPointer { out in
                for cy in 0..<(yEdges.count - 1) {
                    for cx in 0..<columns {
                        let x = xEdges[cx], y = yEdges[cy]
                        glimpse_bin_counts(plane.baseAddress! + y * w + x, w, Int32(xEdges[cx + 1] - x), Int32(yEdges[cy + 1] - y),
                                           out.baseAddress! + (cy * columns + cx) * binCount)
                    }
                }
            }
        }
        // Summed-area table over the cells: table[(cy·(columns+1) + cx)·64 + k] = count of bin k
        // in the cells left of cx and above cy. A rectangle's counts are then four lookups
        // (exact: integer counts, wrapping arithmetic that never actually wraps).
        let stride = columns + 1
        var table = [UInt32](repeating: 0, count: yEdges.count * stride * binCount)
        cells.withUnsafeBufferPointer { cell in
            table.withUnsafeMutableBufferPointer { t in
                for cy in 0..<(yEdges.count - 1) {
                    var running = [UInt32](repeating: 0, count: binCount)
                    for cx in 0..<columns {
                        let c = (cy * columns + cx) * binCount
                        let above = (cy * stride + cx + 1) * binCount, here = ((cy + 1) * stride + cx + 1) * binCount
                        for k in 0..<binCount {
                            running[k] &+= cell[c + k]
                            t[here + k] = t[above + k] &+ running[k]
                        }
                    }
                }
            }
        }
        func index(_ edges: [Int], _ value: Int) -> Int {
            // Every rectangle edge is a cell edge by construction (binary search of the sorted edges).
            var lo = 0, hi = edges.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if edges[mid] < value { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        return rects.map { rect in
            let x0 = index(xEdges, rect.x), x1 = index(xEdges, rect.x + rect.width)
            let y0 = index(yEdges, rect.y), y1 = index(yEdges, rect.y + rect.height)
            let a = (y1 * stride + x1) * binCount, b = (y0 * stride + x1) * binCount
            let c = (y1 * stride + x0) * binCount, d = (y0 * stride + x0) * binCount
            let counts = [UInt32](unsafeUninitializedCapacity: binCount) { out, n in
                for k in 0..<binCount { out[k] = table[a + k] &- table[b + k] &- table[c + k] &+ table[d + k] }
                n = binCount
            }
            return ColorHistogram(counts: counts)
        }
    }
}
