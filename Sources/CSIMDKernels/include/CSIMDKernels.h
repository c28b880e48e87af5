/*
 * CSIMDKernels: the hot loops of Glimpse's fingerprints, each compiled three times
 * (portable x86-64 / generic C, AVX2+POPCNT, AVX-512 F+BW+VPOPCNTDQ) and chosen at run
 * time with __builtin_cpu_supports.
 *
 * Every entry point takes an `isa` argument (GLIMPSE_ISA_*). The kernel runs the best
 * variant that is both requested and supported by the CPU, so GLIMPSE_ISA_PORTABLE
 * forces the portable path (tests use this to prove the paths identical) and
 * GLIMPSE_ISA_BEST picks the fastest one.
 *
 * Identical answers on every path: integer kernels are exact; float kernels evaluate,
 * for every output element, the same IEEE operations in the same order on every path
 * (they vectorise across outputs, never across a reduction) and the file is compiled
 * with floating-point contraction (FMA fusion) turned off.
 *
 * Nothing here allocates, prints, or keeps state other than the cached CPU probe.
 */
#ifndef GLIMPSE_CSIMDKERNELS_H
#define GLIMPSE_CSIMDKERNELS_H

#include <stddef.h>
#include <stdint.h>

#define GLIMPSE_ISA_PORTABLE 0
#define GLIMPSE_ISA_AVX2 1
#define GLIMPSE_ISA_AVX512 2
#define GLIMPSE_ISA_BEST 255

int glimpse_kernels_version(void);

/* Best instruction set this CPU supports (one of GLIMPSE_ISA_PORTABLE/AVX2/AVX512), capped by the
 * environment variable GLIMPSE_ISA=portable|avx2|avx512 when set (read once, at the first probe). */
int glimpse_cpu_best_isa(void);
/* The instruction set a kernel actually uses when `requested` is asked for. */
int glimpse_isa_effective(int requested);
/* Cores this process may run on (its CPU affinity mask: taskset, a cpuset), at least 1
 * (cpu_cores.c). */
int glimpse_cpu_available_cores(void);

/* ---- Hamming distance ---------------------------------------------------------- */

/* out[i] = popcount(query ^ codes[i]) for i < count. */
void glimpse_hamming64_distances(int isa, uint64_t query, const uint64_t *codes, size_t count,
                                 uint16_t *out);

/* 256-bit codes, four consecutive words each (code i = codes[4i ..< 4i+4]).
 * out[i] = popcount(query ^ code i), 0…256. */
void glimpse_hamming256_distances(int isa, const uint64_t *query4, const uint64_t *codes,
                                  size_t count, uint16_t *out);

/* Filtered scans (the index's inner loop): codes are examined in index order and, for each
 * code i with distance d = popcount(query ^ code i) <= max_distance, indices[k] = i and
 * distances[k] = d are written (k = 0, 1, …) until `capacity` entries exist. Returns the
 * number written; *scanned is set to the number of codes examined (`count`, or fewer when
 * the buffer filled: the scan stops right after the code that filled it, so the caller can
 * tighten max_distance and continue from there). Indices are relative to `codes` (count
 * must be below 2^32). max_distance < 0 writes nothing. */
size_t glimpse_hamming64_within(int isa, uint64_t query, const uint64_t *codes, size_t count,
                                int max_distance, uint32_t *indices, uint16_t *distances,
                                size_t capacity, size_t *scanned);
size_t glimpse_hamming256_within(int isa, const uint64_t *query4, const uint64_t *codes, size_t count,
                                 int max_distance, uint32_t *indices, uint16_t *distances,
                                 size_t capacity, size_t *scanned);

/* ---- Byte-vector L1 (histograms) ----------------------------------------------- */

/* Sum of |a[i] - b[i]| over n bytes. */
uint32_t glimpse_l1_u8(int isa, const uint8_t *a, const uint8_t *b, size_t n);

/* out[i] = L1 distance between the 64-byte query and rows[64i ..< 64i+64]. */
void glimpse_l1_u8x64_distances(int isa, const uint8_t *query64, const uint8_t *rows,
                                size_t count, uint16_t *out);

/* ---- Luma ------------------------------------------------------------------------ */

/* Y = (0.299f*R + 0.587f*G) + 0.114f*B in float, as PDQ computes it.
 * src: RGBA8 rows `src_bytes_per_row` apart; out: `out_stride` floats apart. */
void glimpse_luma_rgba8(int isa, const uint8_t *src, size_t src_bytes_per_row, int width, int height,
                        float *out, size_t out_stride);
/* Y = (float)gray. */
void glimpse_luma_gray8(int isa, const uint8_t *src, size_t src_bytes_per_row, int width, int height,
                        float *out, size_t out_stride);
/* Same formula as glimpse_luma_rgba8 on float RGBA pixels (4 floats each). */
void glimpse_luma_rgbaf(int isa, const float *src, size_t src_stride, int width, int height,
                        float *out, size_t out_stride);

/* ---- Separable filters ----------------------------------------------------------- */

/* PDQ's box filter (a Jarosz pass) along each column: for every column, the running
 * mean over a window of `window` rows centred as PDQ does (shrinking at the edges). */
void glimpse_box_columns(int isa, const float *in, size_t in_stride, float *out, size_t out_stride,
                         int rows, int cols, int window);

/* PDQ's box filter along each row (the same running mean as glimpse_box_columns, per row).
 * Works on strips of 16 rows transposed into `scratch`, which must hold 2 * 16 * cols floats. */
void glimpse_box_rows(int isa, const float *in, size_t in_stride, float *out, size_t out_stride,
                      int rows, int cols, int window, float *scratch);

/* out[c][r] = in[r][c] for groups of `group` floats (pixel transpose). Pure data movement. */
void glimpse_transpose_f32(const float *in, size_t in_stride, float *out, size_t out_stride,
                           int rows, int cols, int group);

/* Weighted sums of rows: for output row o, out[o][x] = sum over t < tap_count[o] of
 * weights[tap_offset[o] + t] * src[tap_start[o] + t][x], accumulated from 0.0f in t order.
 * `row_len` elements per row. The _u8 form reads bytes, the _f32 form floats. */
void glimpse_weighted_rows_u8(int isa, const uint8_t *src, size_t src_stride, int row_len,
                              const int32_t *tap_start, const int32_t *tap_count,
                              const int32_t *tap_offset, const float *weights, int out_rows,
                              float *out, size_t out_stride);
void glimpse_weighted_rows_f32(int isa, const float *src, size_t src_stride, int row_len,
                               const int32_t *tap_start, const int32_t *tap_count,
                               const int32_t *tap_offset, const float *weights, int out_rows,
                               float *out, size_t out_stride);

/* Weighted sums of pixels along each row (horizontal resampling), `channels` 1 or 4
 * interleaved: for every row y and output pixel o, channel c,
 * out[y][o*channels + c] = sum over t < tap_count[o] of
 *     weights[tap_offset[o] + t] * src[y][(tap_start[o] + t)*channels + c],
 * accumulated from 0.0f in t order. */
void glimpse_weighted_columns_f32(int isa, const float *src, size_t src_stride, int rows, int channels,
                                  const int32_t *tap_start, const int32_t *tap_count,
                                  const int32_t *tap_offset, const float *weights, int out_width,
                                  float *out, size_t out_stride);

/* Dense product C = A·B, C[i][j] = sum_k A[i][k] * B[k][j] accumulated from 0.0f in k
 * order (the summation order of PDQ's dct64To16). A is m×k, B is k×n, C is m×n,
 * all row-major with the given strides (in floats). */
void glimpse_matmul_f32(int isa, const float *a, size_t a_stride, const float *b, size_t b_stride,
                        float *c, size_t c_stride, int m, int k, int n);

/* ---- Colour histogram ------------------------------------------------------------ */

/* Adds, for each float RGBA pixel (0…255 scale), one count to counts[bin] where bin is
 * Glimpse's 64-bin HSV bin (see ColorHistogram.swift for the bin layout). */
void glimpse_hsv_histogram_rgbaf(int isa, const float *src, size_t src_stride, int width, int height,
                                 uint32_t counts[64]);

/* ---- PDQ steps ------------------------------------------------------------------- */

/* `src` (width x height floats, rows contiguous) warped through the row-major 3x3 projective
 * map `matrix9`: out[y*width + x] is src sampled bilinearly (clamped at the edges) at
 * ((m0 x + m1 y + m2) / z, (m3 x + m4 y + m5) / z), z = m6 x + m7 y + m8, pixel centres at
 * integers. Identical on every path. O(width * height). */
void glimpse_perspective_warp(int isa, const float *src, int width, int height, const float *matrix9, float *out);

/* PDQ's Jarosz filter: `passes` times glimpse_box_rows (window clamped to 1…cols) then
 * glimpse_box_columns (window clamped to 1…rows). Reads `in` (rows `in_stride` floats apart,
 * e.g. a region of a larger plane), writes `out` (rows×cols, contiguous). `tmp` holds
 * rows×cols floats, `strips` 2·16·cols floats. */
void glimpse_jarosz_filter(int isa, const float *in, size_t in_stride, int rows, int cols,
                           int window_along_rows, int window_along_columns, int passes,
                           float *out, float *tmp, float *strips);

/* glimpse_jarosz_filter followed by glimpse_decimate_f32 to 64×64, into out64, with the
 * last pass computed only where the decimation samples (the row filter at the 64 sampled
 * columns, the column filter on those columns): the same 4096 values, bit for bit, for
 * about half the work of the last pass. `buffer` and `tmp` hold rows × max(cols, 64)
 * floats, `strips` 2·16·cols. passes ≥ 1. */
void glimpse_pdq_filter_decimate(int isa, const float *in, size_t in_stride, int rows, int cols,
                                 int window_along_rows, int window_along_columns, int passes,
                                 float *out64, float *buffer, float *tmp, float *strips);

/* The first box filter of glimpse_pdq_filter_decimate (along rows, window clamped the same
 * way) of `rows` rows of `cols` floats, into `out` (rows × cols, dense). Every row is
 * filtered on its own, so regions with the same columns can share one call over the union
 * of their rows. `strips` 2·16·cols floats. */
void glimpse_pdq_first_rows(int isa, const float *in, size_t in_stride, int rows, int cols, int window_along_rows,
                            float *out, float *strips);

/* A whole plane (`rows` × `cols`, rows `in_stride` floats apart) transposed once into strips
 * of 8 rows: strips[(s·cols + c)·8 + j] = in[8s + j][c] for s < ⌈rows / 8⌉, the rows past the
 * last one repeating it. `strips` holds ⌈rows / 8⌉·8·cols floats. Pure data movement. */
void glimpse_plane_strips(int isa, const float *in, size_t in_stride, int rows, int cols, float *strips);

/* glimpse_pdq_first_rows of the region at column x, row y (`rows` × `cols`) of the plane whose
 * strips (glimpse_plane_strips, `plane_cols` wide) are given, into `out` (rows × cols, dense):
 * the same values bit for bit, without transposing the region's rows again (every view of a
 * plane reads the one transpose; a region whose rows do not start on a strip filters the
 * extra rows of its first and last strips and drops them). `scratch` 24·cols floats. */
void glimpse_pdq_first_rows_from_strips(int isa, const float *strips, int plane_cols, int x, int y, int rows, int cols,
                                        int window_along_rows, float *out, float *scratch);

/* glimpse_pdq_filter_decimate whose first row filter is already done: `rows_filtered` (stride
 * `rs`) holds glimpse_pdq_first_rows of the region. The same 4096 values, bit for bit. */
void glimpse_pdq_filter_decimate_rows_done(int isa, const float *rows_filtered, size_t rs, int rows, int cols,
                                           int window_along_rows, int window_along_columns, int passes,
                                           float *out64, float *buffer, float *tmp, float *strips);

/* PDQ's decimation: out[i*side + j] = in[y_i][x_j] with y_i = (int)((i + 0.5)·rows/side),
 * x_j = (int)((j + 0.5)·cols/side), computed in double as the reference does. side ≤ 256. */
void glimpse_decimate_f32(const float *in, size_t in_stride, int rows, int cols, int side, float *out);

/* PDQ's quality of a 64×64 block: sum of |(int)((a − b)·100/255)| (float) over vertical
 * and horizontal neighbours, divided by 90, capped at 100. */
int glimpse_pdq_quality64(const float *block);

/* glimpse_pdq_quality64 of the 64×64 decimation (glimpse_decimate_f32) of a rows×cols region
 * with 1 ≤ rows, cols ≤ 64, computed on the region itself: the decimation only repeats
 * samples there, so each neighbour pair of the region is counted as many times as the block
 * holds it (the same integer sum, so exactly the same quality). */
int glimpse_pdq_quality_folded(int isa, const float *in, size_t in_stride, int rows, int cols);

/* 1 when the standard deviation of the n floats (mean and population variance summed in
 * double, left to right) is below `threshold`, else 0: the exact comparison, computed fast
 * (interleaved sums) unless the variance is within 1e-6 relative of threshold². */
int glimpse_below_contrast(int isa, const float *values, int n, double threshold);

/* The k-th smallest (0-based) of n ≤ 256 floats, without NaNs: the value a full sort
 * puts at position k. O(n). Returns 0 for out-of-range arguments. */
float glimpse_kth_smallest_f32(const float *values, int n, int k);

/* The bits of a median threshold: bit i (word i / 64, bit i % 64) set when values[i] exceeds
 * the (n/2 − 1)-th smallest value (0-based, what glimpse_kth_smallest_f32 returns). n is 64,
 * 128, 192 or 256 (else nothing is written); no NaNs. O(n), vectorised, the same bits on
 * every path. */
void glimpse_median_bits_f32(int isa, const float *values, int n, uint64_t *words);

/* ---- Working planes ---------------------------------------------------------------- */

/* The fingerprint's working image in one pass over an 8-bit source (`channels` 4 = RGBA8,
 * 1 = Gray8): the area resample of glimpse_weighted_rows_u8 (vertical taps) followed by
 * glimpse_weighted_columns_f32 (horizontal taps), one output row at a time, then per output
 * pixel its luma (glimpse_luma_rgbaf's formula; Gray8: the value) and its colour bin
 * (glimpse_hsv_histogram_rgbaf's bin; Gray8: min(15, (int)(v·0.0625f))). Bit-identical to
 * running those kernels one after the other. `y_identity` / `x_identity` (source size equals
 * output size on that axis, so every weight is exactly 1) skip the multiplications, which
 * gives the same values. `scratch` holds src_width·channels + out_width·channels floats. */
void glimpse_working_planes_u8(int isa, const uint8_t *src, size_t src_stride, int src_width, int channels,
                               const int32_t *y_tap_start, const int32_t *y_tap_count,
                               const int32_t *y_tap_offset, const float *y_weights, int out_height,
                               int y_identity, const int32_t *x_tap_start, const int32_t *x_tap_count,
                               const int32_t *x_tap_offset, const float *x_weights, int out_width,
                               int x_identity, float *scratch, float *luma, size_t luma_stride,
                               uint8_t *bins, size_t bins_stride);

/* glimpse_working_planes_u8 fed one source row at a time (e.g. straight from a decoder), so
 * the source image never needs to exist in memory. The caller fills every field but the last
 * two (zero them), then calls glimpse_working_planes_push_row once per source row, top to
 * bottom; after the last row the planes hold exactly what glimpse_working_planes_u8 gives. */
typedef struct {
    int source_width, source_height, channels, out_width, out_height;
    const int32_t *y_tap_start, *y_tap_count, *y_tap_offset;
    const float *y_weights;
    const int32_t *x_tap_start, *x_tap_count, *x_tap_offset;
    const float *x_weights;
    /* 1 when out_width == source_width (every horizontal weight is exactly 1). */
    int x_identity;
    /* 2 * source_width * channels floats (the open vertical sums). */
    float *accumulators;
    /* out_width * channels floats. */
    float *row_scratch;
    /* out_width * out_height floats / bytes. */
    float *luma;
    uint8_t *bins;
    /* Progress: the next source row expected and the lowest unfinished output row. */
    int next_source_row, first_open_row;
} glimpse_working_planes_stream;

/* Adds one source row (source_width * channels bytes). Rows beyond source_height are ignored. */
void glimpse_working_planes_push_row(int isa, glimpse_working_planes_stream *stream, const uint8_t *row);

/* Adds the number of occurrences of each value (0…63) in a width×height byte plane to counts. */
void glimpse_bin_counts(const uint8_t *bins, size_t stride, int width, int height, uint32_t counts[64]);

/* ---- Visual index (index_scan.c) --------------------------------------------------- */

/* Most query codes one plane scan takes, and the least candidate capacity it needs. */
#define GLIMPSE_PLANE_SCAN_MAX_QUERIES 64
#define GLIMPSE_PLANE_SCAN_MIN_CAPACITY(query_count) (8 * (size_t)(query_count))

/* PDQ radius scan over word planes: code i's four words are planes[i],
 * planes[plane_stride + i], planes[2·plane_stride + i], planes[3·plane_stride + i]
 * (struct of arrays), so each word of 4 or 8 consecutive codes is one vector load.
 * `queries4` holds query_count 256-bit codes (4 words each); every code is read once and
 * compared with all of them. For each code i (ascending) and each query j (ascending) with
 * d = popcount(query j ^ code i) <= max_distance, (indices, query_indices, distances)[k] =
 * (i, j, d) for k = 0, 1, …. The scan stops early only between codes, when fewer than
 * GLIMPSE_PLANE_SCAN_MIN_CAPACITY(query_count) entries are left; *scanned is then the
 * number of codes fully examined (continue from there). Returns the entries written.
 * query_count ≤ GLIMPSE_PLANE_SCAN_MAX_QUERIES and capacity ≥ the minimum, else nothing is
 * done (*scanned = 0). count < 2^32. */
size_t glimpse_pdq_planes_within(int isa, const uint64_t *queries4, size_t query_count, int max_distance,
                                 const uint64_t *planes, size_t plane_stride, size_t count, uint32_t *indices,
                                 uint16_t *query_indices, uint16_t *distances, size_t capacity, size_t *scanned);

/* ---- First stage (code_scan.c) ------------------------------------------------------ */

/* out[k] = popcount(low ^ codes2[2k]) + popcount(high ^ codes2[2k + 1]) (0…128) for the
 * count 128-bit codes of codes2 (two words each), and histogram[d] (129 entries, added to)
 * increased by the number of codes at each distance d. */
void glimpse_code128_distance_histogram(int isa, uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out,
                                        uint32_t *histogram);

/* Writes the positions k (ascending) of the count bytes with values[k] <= limit to indices
 * (room for count entries); returns how many. count < 2^32. */
size_t glimpse_bytes_at_most(int isa, const uint8_t *values, size_t count, uint8_t limit, uint32_t *indices);

/* The scan of one inverted list: for each code k whose distance d to (low, high) is at most
 * radius (0…128), the entry of its owner, owner = refs[k] & mask, in `nearest` (a table of
 * `owners` bytes) becomes min(entry, d); owners outside the table are skipped. counts[d]
 * (129 entries) is kept equal to the number of table entries at each distance d within the
 * radius (entries above it count nowhere). Returns how many codes were within the radius. */
size_t glimpse_code128_nearest(int isa, uint64_t low, uint64_t high, const uint64_t *codes2, const uint32_t *refs, size_t count,
                               uint32_t mask, int radius, uint8_t *nearest, size_t owners, uint32_t *counts);

/* glimpse_code128_nearest for query_count query codes at once (queries2: two words each),
 * the list read once: each code's distance is its nearest to any of them. Same table and
 * counts as calling glimpse_code128_nearest once per query code; returns how many codes were
 * within the radius of at least one. */
size_t glimpse_code128_nearest_many(int isa, const uint64_t *queries2, size_t query_count, const uint64_t *codes2, const uint32_t *refs,
                                    size_t count, uint32_t mask, int radius, uint8_t *nearest, size_t owners, uint32_t *counts);

/* A hint that the cache line holding p will be read soon (no effect on results). */
static inline void glimpse_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/* A 64-bit checksum of n bytes (damage detection, not cryptographic): the same value on
 * every path, any alignment. About one vector multiply per 32 (AVX2) or 64 (AVX-512) bytes. */
uint64_t glimpse_checksum64(int isa, const void *data, size_t n);

/* The checksum (glimpse_checksum64) of every block of `block_size` bytes of `data` (n bytes,
 * the last block shorter), written to `table` as little-endian 64-bit words, one per block. */
void glimpse_block_checksums(int isa, const void *data, size_t n, size_t block_size, void *table);

/* Verifies blocks first ..< end of `data` (blocked as glimpse_block_checksums) against
 * `table`, skipping those whose bit in `verified` (one bit per block) is set and setting the
 * bit of each that matches. Safe to call from several threads at once: a block may then be
 * checked twice, never skipped unchecked. Returns `end` (clamped to the block count) when every
 * block matches, else the number of the first that does not. */
size_t glimpse_verify_blocks(int isa, const void *data, size_t n, size_t block_size, const void *table,
                             uint64_t *verified, size_t first, size_t end);

#endif
