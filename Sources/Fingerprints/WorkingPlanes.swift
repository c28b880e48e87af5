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
        private var stream: RowStream?
        private var luma: [Float] = [], bins: [UInt8] = []

        init(workingSize: Int, using isa: InstructionSet) {
            self.workingSize = workingSize
            self.isa = isa
        }

        mutating func begin(width sourceWidth: Int, height sourceHeight: Int, format: PixelFormat) {
            let width = min(sourceWidth, workingSize), height = min(sourceHeight, workingSize)
            stream = RowStream(sourceWidth: sourceWidth, sourceHeight: sourceHeight, channels: format.bytesPerPixel,
                               width: width, height: height)
            func uninitialized<T>(_ n: Int, _: T.Type) -> [T] { [T](unsafeUninitializedCapacity: n) { _, count in count = n } }
            luma = uninitialized(width * height, Float.self)
            bins = uninitialized(width * height, UInt8.self)
        }

        mutating func consume(row: UnsafeBufferPointer<UInt8>, y: Int) {
            guard let stream else { preconditionFailure("rows arrive after begin(width:height:format:)") }
            let isa = isa
            luma.withUnsafeMutableBufferPointer { l in
                bins.withUnsafeMutableBufferPointer { b in stream.push(row, y: y, luma: l, bins: b, using: isa) }
            }
        }

        /// The planes, once every source row has arrived.
        func planes() -> WorkingPlanes {
            guard let stream, stream.isComplete else { preconditionFailure("working planes need every source row") }
            return WorkingPlanes(luma: FloatImage(width: stream.width, height: stream.height, channels: 1, samples: luma), bins: bins)
        }
    }

    /// The state of one ``Builder`` between rows: the resample taps and the open vertical
    /// sums in memory that stays put (a class, allocated once per image), so that each row
    /// is one call into `glimpse_working_planes_push_row` instead of a dozen nested array
    /// accesses (measured: their retains and releases were 1.5 % of a 640×480 catalog
    /// fingerprint).
    private final class RowStream {
        let width: Int, height: Int
        /// Every buffer the C stream points into (taps, weights, sums, scratch), one block.
        private let memory: CacheAlignedMemory
        private var state: glimpse_working_planes_stream

        init(sourceWidth: Int, sourceHeight: Int, channels: Int, width: Int, height: Int) {
            self.width = width
            self.height = height
            let xs = AreaWeights(source: sourceWidth, target: width), ys = AreaWeights(source: sourceHeight, target: height)
            // Layout: y taps (3 × height Int32), x taps (3 × width Int32), y weights, x weights,
            // accumulators (2 · sourceWidth · channels), row scratch (width · channels) floats.
            let ints = 3 * (height + width)
            let floats = ys.weights.count + xs.weights.count + 2 * sourceWidth * channels + width * channels
            memory = CacheAlignedMemory(byteCount: ints * 4 + floats * 4)
            let storage = memory.base
            let i32 = storage.bindMemory(to: Int32.self, capacity: ints)
            let f32 = (storage + ints * 4).bindMemory(to: Float.self, capacity: floats)
            // Each table copied from the weights into its place in the block.
            func place(_ k: AreaWeights, ints at: Int, floats from: Int) {
                k.withPointers { ts, tc, to, w in
                    let n = k.outputCount
                    (i32 + at).initialize(from: ts, count: n)
                    (i32 + at + n).initialize(from: tc, count: n)
                    (i32 + at + 2 * n).initialize(from: to, count: n)
                    (f32 + from).initialize(from: w, count: k.weights.count)
                }
            }
            place(ys, ints: 0, floats: 0)
            place(xs, ints: 3 * height, floats: ys.weights.count)
            let yts = UnsafePointer(i32), ytc = yts + height, yto = yts + 2 * height
            let xts = yts + 3 * height, xtc = xts + width, xto = xts + 2 * width
            let xw = f32 + ys.weights.count
            let accumulators = xw + xs.weights.count
            state = glimpse_working_planes_stream(
                source_width: Int32(sourceWidth), source_height: Int32(sourceHeight), channels: Int32(channels),
                out_width: Int32(width), out_height: Int32(height),
                y_tap_start: yts, y_tap_count: ytc, y_tap_offset: yto, y_weights: UnsafePointer(f32),
                x_tap_start: xts, x_tap_count: xtc, x_tap_offset: xto, x_weights: UnsafePointer(xw),
                x_identity: width == sourceWidth ? 1 : 0, accumulators: accumulators,
                row_scratch: accumulators + 2 * sourceWidth * channels,
                luma: nil, bins: nil, next_source_row: 0, first_open_row: 0)
        }

        deinit { memory.deallocate() }

        /// Whether every working row is finished.
        var isComplete: Bool { Int(state.first_open_row) == height && height > 0 }

        /// Adds source row `y` (rows must arrive in order, whole), finishing the working rows
        /// it completes into `luma` and `bins` (the builder's planes, width × height each).
        func push(_ row: UnsafeBufferPointer<UInt8>, y: Int, luma: UnsafeMutableBufferPointer<Float>,
                  bins: UnsafeMutableBufferPointer<UInt8>, using isa: InstructionSet) {
            precondition(y == Int(state.next_source_row) && row.count >= Int(state.source_width * state.channels),
                         "rows must arrive in order, whole")
            state.luma = luma.baseAddress
            state.bins = bins.baseAddress
            glimpse_working_planes_push_row(isa.code, &state, row.baseAddress)
            state.luma = nil
            state.bins = nil
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
        // Summed-area table over the cells: table[(cy·(columns+1) + cx)·64 + k] = count of bin k
        // in the cells left of cx and above cy. Each cell's bins are counted straight into its
        // entry, which then adds the entries above and to the left and subtracts the one
        // diagonally above (exact: integer counts, wrapping arithmetic that never actually
        // wraps). A rectangle's counts are then four lookups.
        let stride = columns + 1
        var table = [UInt32](repeating: 0, count: yEdges.count * stride * binCount)
        bins.withUnsafeBufferPointer { plane in
            table.withUnsafeMutableBufferPointer { t in
                guard let plane = plane.baseAddress, let t = t.baseAddress else { return }
                for cy in 0..<(yEdges.count - 1) {
                    for cx in 0..<columns {
                        let x = xEdges[cx], y = yEdges[cy]
                        let here = t + ((cy + 1) * stride + cx + 1) * binCount
                        glimpse_bin_counts(plane + y * w + x, w, Int32(xEdges[cx + 1] - x), Int32(yEdges[cy + 1] - y), here)
                        let above = t + (cy * stride + cx + 1) * binCount, left = here - binCount, diagonal = above - binCount
                        for k in 0..<binCount { here[k] = here[k] &+ above[k] &+ left[k] &- diagonal[k] }
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
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: binCount) { counts in
                for k in 0..<binCount { counts[k] = table[a + k] &- table[b + k] &- table[c + k] &+ table[d + k] }
                return ColorHistogram(counts: UnsafeBufferPointer(counts))
            }
        }
    }
}
