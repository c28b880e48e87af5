/*
 * Resampling to the working planes: luma, transpose, weighted row and column sums (area
 * resampling along one axis), and the one-pass working planes (area resample, luma and HSV
 * bins) over a source image, whole or row by row.
 */
#include "kernel_variants.h"
#include "pixel_maps.h"
#include "transpose_avx2.h"

#include <string.h>

/* ---- Luma ------------------------------------------------------------------------------ */

BODY void luma_rgba8_body(const uint8_t *src, size_t sbpr, int w, int h, float *out, size_t os) {
    for (int y = 0; y < h; y++) {
        const uint8_t *s = src + (size_t)y * sbpr;
        float *o = out + (size_t)y * os;
        for (int x = 0; x < w; x++) {
            o[x] = kLumaR * (float)s[4 * x] + kLumaG * (float)s[4 * x + 1] + kLumaB * (float)s[4 * x + 2];
        }
    }
}
VARIANTS(void, luma_rgba8, (const uint8_t *src, size_t sbpr, int w, int h, float *out, size_t os),
         (src, sbpr, w, h, out, os))
void glimpse_luma_rgba8(int isa, const uint8_t *src, size_t sbpr, int w, int h, float *out, size_t os) {
    VARIANT(isa, luma_rgba8)(src, sbpr, w, h, out, os);
}

BODY void luma_gray8_body(const uint8_t *src, size_t sbpr, int w, int h, float *out, size_t os) {
    for (int y = 0; y < h; y++) {
        const uint8_t *s = src + (size_t)y * sbpr;
        float *o = out + (size_t)y * os;
        for (int x = 0; x < w; x++) o[x] = (float)s[x];
    }
}
VARIANTS(void, luma_gray8, (const uint8_t *src, size_t sbpr, int w, int h, float *out, size_t os),
         (src, sbpr, w, h, out, os))
void glimpse_luma_gray8(int isa, const uint8_t *src, size_t sbpr, int w, int h, float *out, size_t os) {
    VARIANT(isa, luma_gray8)(src, sbpr, w, h, out, os);
}

BODY void luma_rgbaf_body(const float *src, size_t ss, int w, int h, float *out, size_t os) {
    for (int y = 0; y < h; y++) {
        const float *s = src + (size_t)y * ss;
        float *o = out + (size_t)y * os;
        for (int x = 0; x < w; x++) o[x] = kLumaR * s[4 * x] + kLumaG * s[4 * x + 1] + kLumaB * s[4 * x + 2];
    }
}
VARIANTS(void, luma_rgbaf, (const float *src, size_t ss, int w, int h, float *out, size_t os),
         (src, ss, w, h, out, os))
void glimpse_luma_rgbaf(int isa, const float *src, size_t ss, int w, int h, float *out, size_t os) {
    VARIANT(isa, luma_rgbaf)(src, ss, w, h, out, os);
}


/* ---- Transpose ------------------------------------------------------------------------- */

void glimpse_transpose_f32(const float *in, size_t is, float *out, size_t os, int rows, int cols, int group) {
    enum { B = 16 };
    for (int r0 = 0; r0 < rows; r0 += B) {
        const int r1 = r0 + B < rows ? r0 + B : rows;
        for (int c0 = 0; c0 < cols; c0 += B) {
            const int c1 = c0 + B < cols ? c0 + B : cols;
            for (int r = r0; r < r1; r++) {
                const float *s = in + (size_t)r * is;
                for (int c = c0; c < c1; c++) {
                    float *d = out + (size_t)c * os + (size_t)r * group;
                    for (int g = 0; g < group; g++) d[g] = s[(size_t)c * group + g];
                }
            }
        }
    }
}

/* ---- Weighted row sums (area resampling along one axis) --------------------------------- */

#define ROW_CHUNK 1024

BODY void weighted_rows_u8_body(const uint8_t *src, size_t ss, int len, const int32_t *ts, const int32_t *tc,
                                const int32_t *to, const float *w, int orows, float *out, size_t os) {
    for (int o = 0; o < orows; o++) {
        float *d = out + (size_t)o * os;
        for (int x0 = 0; x0 < len; x0 += ROW_CHUNK) {
            const int n = len - x0 < ROW_CHUNK ? len - x0 : ROW_CHUNK;
            for (int x = 0; x < n; x++) d[x0 + x] = 0.0f;
            for (int t = 0; t < tc[o]; t++) {
                const float wt = w[to[o] + t];
                const uint8_t *s = src + (size_t)(ts[o] + t) * ss + x0;
                for (int x = 0; x < n; x++) d[x0 + x] += wt * (float)s[x];
            }
        }
    }
}
VARIANTS(void, weighted_rows_u8,
         (const uint8_t *src, size_t ss, int len, const int32_t *ts, const int32_t *tc, const int32_t *to,
          const float *w, int orows, float *out, size_t os),
         (src, ss, len, ts, tc, to, w, orows, out, os))
void glimpse_weighted_rows_u8(int isa, const uint8_t *src, size_t ss, int len, const int32_t *ts, const int32_t *tc,
                              const int32_t *to, const float *w, int orows, float *out, size_t os) {
    VARIANT(isa, weighted_rows_u8)(src, ss, len, ts, tc, to, w, orows, out, os);
}

/* Outputs in blocks of 64 columns keep their sums in registers across all taps (the same
 * per-output additions in the same order as the plain loop below, so the same bits); the
 * last len % 64 columns take blocks of 16, then the plain loop. */
#define ROW_BLOCK 64
BODY void weighted_rows_f32_body(const float *src, size_t ss, int len, const int32_t *ts, const int32_t *tc,
                                 const int32_t *to, const float *w, int orows, float *out, size_t os) {
    const int blocked = len - len % ROW_BLOCK;
    for (int o = 0; o < orows; o++) {
        float *d = out + (size_t)o * os;
        for (int x0 = 0; x0 < blocked; x0 += ROW_BLOCK) {
            float acc[ROW_BLOCK];
            for (int x = 0; x < ROW_BLOCK; x++) acc[x] = 0.0f;
            for (int t = 0; t < tc[o]; t++) {
                const float wt = w[to[o] + t];
                const float *s = src + (size_t)(ts[o] + t) * ss + x0;
                for (int x = 0; x < ROW_BLOCK; x++) acc[x] += wt * s[x];
            }
            for (int x = 0; x < ROW_BLOCK; x++) d[x0 + x] = acc[x];
        }
        /* Then blocks of 16 (a 96- or 240-sample row leaves 32 or 48), also in registers. */
        const int blocked16 = len - len % 16;
        for (int x0 = blocked; x0 < blocked16; x0 += 16) {
            float acc[16];
            for (int x = 0; x < 16; x++) acc[x] = 0.0f;
            for (int t = 0; t < tc[o]; t++) {
                const float wt = w[to[o] + t];
                const float *s = src + (size_t)(ts[o] + t) * ss + x0;
                for (int x = 0; x < 16; x++) acc[x] += wt * s[x];
            }
            for (int x = 0; x < 16; x++) d[x0 + x] = acc[x];
        }
        for (int x0 = blocked16; x0 < len; x0 += ROW_CHUNK) {
            const int n = len - x0 < ROW_CHUNK ? len - x0 : ROW_CHUNK;
            for (int x = 0; x < n; x++) d[x0 + x] = 0.0f;
            for (int t = 0; t < tc[o]; t++) {
                const float wt = w[to[o] + t];
                const float *s = src + (size_t)(ts[o] + t) * ss + x0;
                for (int x = 0; x < n; x++) d[x0 + x] += wt * s[x];
            }
        }
    }
}
VARIANTS(void, weighted_rows_f32,
         (const float *src, size_t ss, int len, const int32_t *ts, const int32_t *tc, const int32_t *to,
          const float *w, int orows, float *out, size_t os),
         (src, ss, len, ts, tc, to, w, orows, out, os))
void glimpse_weighted_rows_f32(int isa, const float *src, size_t ss, int len, const int32_t *ts, const int32_t *tc,
                               const int32_t *to, const float *w, int orows, float *out, size_t os) {
    VARIANT(isa, weighted_rows_f32)(src, ss, len, ts, tc, to, w, orows, out, os);
}

/* ---- Weighted pixel sums along rows (horizontal area resampling) ------------------------ */

#define WEIGHTED_COLUMNS_BODY(T)                                                                      \
    for (int y = 0; y < rows; y++) {                                                                  \
        const T *s = src + (size_t)y * ss;                                                            \
        float *d = out + (size_t)y * os;                                                              \
        if (channels == 4) {                                                                          \
            for (int o = 0; o < ow; o++) {                                                            \
                float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;                             \
                const T *p = s + (size_t)ts[o] * 4;                                                   \
                const float *wt = w + to[o];                                                          \
                for (int t = 0; t < tc[o]; t++) {                                                     \
                    acc0 += wt[t] * (float)p[4 * t];                                                  \
                    acc1 += wt[t] * (float)p[4 * t + 1];                                              \
                    acc2 += wt[t] * (float)p[4 * t + 2];                                              \
                    acc3 += wt[t] * (float)p[4 * t + 3];                                              \
                }                                                                                     \
                d[4 * o] = acc0; d[4 * o + 1] = acc1; d[4 * o + 2] = acc2; d[4 * o + 3] = acc3;       \
            }                                                                                         \
        } else {                                                                                      \
            for (int o = 0; o < ow; o++) {                                                            \
                float acc = 0.0f;                                                                     \
                const T *p = s + ts[o];                                                               \
                const float *wt = w + to[o];                                                          \
                for (int t = 0; t < tc[o]; t++) acc += wt[t] * (float)p[t];                           \
                d[o] = acc;                                                                           \
            }                                                                                         \
        }                                                                                             \
    }

BODY void weighted_columns_f32_body(const float *src, size_t ss, int rows, int channels, const int32_t *ts,
                                    const int32_t *tc, const int32_t *to, const float *w, int ow, float *out, size_t os) {
    if (channels == 1 && rows >= 4) {
        /* One channel: four rows at a time, so that four independent sums (each in the plain
         * loop's order) hide the latency of one another's additions. */
        int y = 0;
        for (; y + 4 <= rows; y += 4) {
            const float *s0 = src + (size_t)y * ss, *s1 = s0 + ss, *s2 = s1 + ss, *s3 = s2 + ss;
            float *d0 = out + (size_t)y * os, *d1 = d0 + os, *d2 = d1 + os, *d3 = d2 + os;
            for (int o = 0; o < ow; o++) {
                float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
                const int start = ts[o];
                const float *wt = w + to[o];
                for (int t = 0; t < tc[o]; t++) {
                    const float k = wt[t];
                    a0 += k * s0[start + t];
                    a1 += k * s1[start + t];
                    a2 += k * s2[start + t];
                    a3 += k * s3[start + t];
                }
                d0[o] = a0; d1[o] = a1; d2[o] = a2; d3[o] = a3;
            }
        }
        const int rest = rows - y;
        if (rest > 0) {
            src += (size_t)y * ss;
            out += (size_t)y * os;
            rows = rest;
            WEIGHTED_COLUMNS_BODY(float)
        }
        return;
    }
    WEIGHTED_COLUMNS_BODY(float)
}
VARIANTS(void, weighted_columns_f32,
         (const float *src, size_t ss, int rows, int channels, const int32_t *ts, const int32_t *tc,
          const int32_t *to, const float *w, int ow, float *out, size_t os),
         (src, ss, rows, channels, ts, tc, to, w, ow, out, os))
#if GLIMPSE_X86
/* One channel, 8 rows at a time across the lanes of a ymm: the rows are transposed into a
 * cols×8 strip (8×8 register transposes), each output is one vector sum over its taps (every
 * lane adds its own row's products in tap order from 0.0f, as the plain loop does) and the
 * 8 outputs per column go back with the same transposes. Rows beyond the last multiple of 8
 * take the plain body. Also the AVX-512 path (the strips are the same). */
#define COLUMN_STRIP_MAX 512
AVX2_FN static void weighted_columns_strips_avx2(const float *src, size_t ss, int rows, const int32_t *ts,
                                                 const int32_t *tc, const int32_t *to, const float *w, int ow,
                                                 float *out, size_t os, int cols) {
    float a[COLUMN_STRIP_MAX * 8], res[COLUMN_STRIP_MAX * 8];
    int r0 = 0;
    for (; r0 + 8 <= rows; r0 += 8) {
        strip_in_avx2(src + (size_t)r0 * ss, ss, cols, a);
        for (int o = 0; o < ow; o++) {
            __m256 acc = _mm256_setzero_ps();
            const float *p = a + (size_t)ts[o] * 8, *wt = w + to[o];
            for (int t = 0; t < tc[o]; t++) acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(wt[t]), _mm256_loadu_ps(p + 8 * t)));
            _mm256_storeu_ps(res + (size_t)o * 8, acc);
        }
        strip_out_avx2(res, ow, out + (size_t)r0 * os, os);
    }
    if (r0 < rows) weighted_columns_f32_body(src + (size_t)r0 * ss, ss, rows - r0, 1, ts, tc, to, w, ow, out + (size_t)r0 * os, os);
}
#endif

void glimpse_weighted_columns_f32(int isa, const float *src, size_t ss, int rows, int channels, const int32_t *ts,
                                  const int32_t *tc, const int32_t *to, const float *w, int ow, float *out, size_t os) {
#if GLIMPSE_X86
    if (channels == 1 && rows >= 8 && ow > 0 && ow <= COLUMN_STRIP_MAX && glimpse_isa_effective(isa) >= GLIMPSE_ISA_AVX2) {
        const int cols = ts[ow - 1] + tc[ow - 1];   /* taps run left to right: the last one is the rightmost */
        if (cols <= COLUMN_STRIP_MAX) {
            weighted_columns_strips_avx2(src, ss, rows, ts, tc, to, w, ow, out, os, cols);
            return;
        }
    }
#endif
    VARIANT(isa, weighted_columns_f32)(src, ss, rows, channels, ts, tc, to, w, ow, out, os);
}


/* ---- Working planes: area resample, luma and HSV bins in one pass over the source ------- */

/* Output row o of the working planes from its vertical sums `vrow` (src_width·channels
 * floats): the horizontal pass (weighted_columns_f32_body's operations; skipped when
 * xidentity, every weight being exactly 1), then luma (luma_rgbaf_body's formula) and the
 * colour bin of every output pixel. */
BODY void finish_working_row(const float *vrow, int channels, const int32_t *xts, const int32_t *xtc,
                             const int32_t *xto, const float *xw, int ow, int xidentity, float *hrow, float *l,
                             uint8_t *bn) {
    const float *h = vrow;
    if (!xidentity) {
        if (channels == 4) {
            /* One output pixel at a time, its four channels summed in tap order: the pixels'
             * chains are independent, so out-of-order execution overlaps them (a version that
             * interleaved four pixels with zero-weight padding spent more on its index
             * arithmetic than it hid: 3.3 µs against 1.5 µs per 1920 → 512 row). */
            for (int q = 0; q < ow; q++) {
                float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
                const float *p = vrow + (size_t)xts[q] * 4;
                const float *wt = xw + xto[q];
                for (int t = 0; t < xtc[q]; t++) {
                    acc0 += wt[t] * p[4 * t];
                    acc1 += wt[t] * p[4 * t + 1];
                    acc2 += wt[t] * p[4 * t + 2];
                    acc3 += wt[t] * p[4 * t + 3];
                }
                hrow[4 * q] = acc0; hrow[4 * q + 1] = acc1; hrow[4 * q + 2] = acc2; hrow[4 * q + 3] = acc3;
            }
        } else {
            for (int q = 0; q < ow; q++) {
                float acc = 0.0f;
                const float *p = vrow + xts[q];
                const float *wt = xw + xto[q];
                for (int t = 0; t < xtc[q]; t++) acc += wt[t] * p[t];
                hrow[q] = acc;
            }
        }
        h = hrow;
    }
    if (channels == 4) {
        for (int x = 0; x < ow; x++) l[x] = kLumaR * h[4 * x] + kLumaG * h[4 * x + 1] + kLumaB * h[4 * x + 2];
        for (int x = 0; x < ow; x++) bn[x] = (uint8_t)hsv_bin(h[4 * x], h[4 * x + 1], h[4 * x + 2]);
    } else {
        for (int x = 0; x < ow; x++) {
            l[x] = h[x];
            const int g = (int)(h[x] * 0.0625f);
            bn[x] = (uint8_t)(g > 15 ? 15 : g);
        }
    }
}

BODY void working_planes_body(const uint8_t *src, size_t ss, int sw, int channels, const int32_t *yts,
                              const int32_t *ytc, const int32_t *yto, const float *yw, int oh, int yidentity,
                              const int32_t *xts, const int32_t *xtc, const int32_t *xto, const float *xw, int ow,
                              int xidentity, float *vrow, float *hrow, float *luma, size_t ls, uint8_t *bins,
                              size_t bs) {
    const int len = sw * channels;
    for (int o = 0; o < oh; o++) {
        /* Vertical pass for output row o (weighted_rows_u8_body's operations). */
        if (yidentity) {
            const uint8_t *s = src + (size_t)o * ss;
            for (int x = 0; x < len; x++) vrow[x] = (float)s[x];
        } else {
            for (int x0 = 0; x0 < len; x0 += ROW_CHUNK) {
                const int n = len - x0 < ROW_CHUNK ? len - x0 : ROW_CHUNK;
                float *d = vrow + x0;
                for (int x = 0; x < n; x++) d[x] = 0.0f;
                for (int t = 0; t < ytc[o]; t++) {
                    const float wt = yw[yto[o] + t];
                    const uint8_t *s = src + (size_t)(yts[o] + t) * ss + x0;
                    for (int x = 0; x < n; x++) d[x] += wt * (float)s[x];
                }
            }
        }
        finish_working_row(vrow, channels, xts, xtc, xto, xw, ow, xidentity, hrow, luma + (size_t)o * ls,
                           bins + (size_t)o * bs);
    }
}
VARIANTS(void, working_planes,
         (const uint8_t *src, size_t ss, int sw, int channels, const int32_t *yts, const int32_t *ytc,
          const int32_t *yto, const float *yw, int oh, int yidentity, const int32_t *xts, const int32_t *xtc,
          const int32_t *xto, const float *xw, int ow, int xidentity, float *vrow, float *hrow, float *luma,
          size_t ls, uint8_t *bins, size_t bs),
         (src, ss, sw, channels, yts, ytc, yto, yw, oh, yidentity, xts, xtc, xto, xw, ow, xidentity, vrow, hrow,
          luma, ls, bins, bs))
void glimpse_working_planes_u8(int isa, const uint8_t *src, size_t src_stride, int src_width, int channels,
                               const int32_t *y_tap_start, const int32_t *y_tap_count, const int32_t *y_tap_offset,
                               const float *y_weights, int out_height, int y_identity, const int32_t *x_tap_start,
                               const int32_t *x_tap_count, const int32_t *x_tap_offset, const float *x_weights,
                               int out_width, int x_identity, float *scratch, float *luma, size_t luma_stride,
                               uint8_t *bins, size_t bins_stride) {
    if (src_width <= 0 || out_width <= 0 || out_height <= 0 || (channels != 1 && channels != 4)) return;
    float *vrow = scratch, *hrow = scratch + (size_t)src_width * channels;
    VARIANT(isa, working_planes)(src, src_stride, src_width, channels, y_tap_start, y_tap_count, y_tap_offset, y_weights,
                              out_height, y_identity, x_tap_start, x_tap_count, x_tap_offset, x_weights, out_width,
                              x_identity, vrow, hrow, luma, luma_stride, bins, bins_stride);
}

/* Streaming form: source rows arrive one at a time, in order. A source row overlaps at most
 * two output rows (outputs are never smaller than a source pixel), so two accumulators,
 * chosen by the parity of the output row, hold the open vertical sums. Each sum starts at
 * 0.0f and adds its taps in order, exactly as weighted_rows_u8_body does. */
BODY void working_planes_push_body(glimpse_working_planes_stream *st, const uint8_t *row) {
    const int len = st->source_width * st->channels;
    const int y = st->next_source_row++;
    if (st->x_identity && st->out_height == st->source_height) {
        /* No resample (a 320×240 decode fits the working size): output row y is source row y
         * with its single weight exactly 1, and 0.0f + 1.0f·v == v, so the float conversion
         * alone gives the sums the general loop below would. */
        float *acc = st->accumulators;
        for (int x = 0; x < len; x++) acc[x] = (float)row[x];
        finish_working_row(acc, st->channels, st->x_tap_start, st->x_tap_count, st->x_tap_offset, st->x_weights,
                           st->out_width, 1, st->row_scratch, st->luma + (size_t)y * st->out_width,
                           st->bins + (size_t)y * st->out_width);
        st->first_open_row = y + 1;
        return;
    }
    for (int o = st->first_open_row; o < st->out_height && st->y_tap_start[o] <= y; o++) {
        const int t = y - st->y_tap_start[o];
        if (t >= st->y_tap_count[o]) continue;
        float *acc = st->accumulators + (size_t)(o & 1) * len;
        const float wt = st->y_weights[st->y_tap_offset[o] + t];
        if (t == 0)
            for (int x = 0; x < len; x++) acc[x] = 0.0f;
        for (int x = 0; x < len; x++) acc[x] += wt * (float)row[x];
        if (t == st->y_tap_count[o] - 1) {
            finish_working_row(acc, st->channels, st->x_tap_start, st->x_tap_count, st->x_tap_offset, st->x_weights,
                               st->out_width, st->x_identity, st->row_scratch, st->luma + (size_t)o * st->out_width,
                               st->bins + (size_t)o * st->out_width);
            st->first_open_row = o + 1;
        }
    }
}
VARIANTS(void, working_planes_push, (glimpse_working_planes_stream *st, const uint8_t *row), (st, row))

#if GLIMPSE_X86
/* The RGBA8 row of an unresampled working image (the common case of a DCT-scaled JPEG) on
 * AVX-512, 32 pixels per step: the luma as finish_working_row computes it (16 lanes of floats,
 * the same products and sums, so the same bits), the histogram bins in 16-bit integer lanes
 * by the exact integer forms of hsv_bin's tests (see identity_rgba16_avx2 below); the last
 * w mod 32 pixels take identity_rgba_row_avx2. */
AVX2_FN static void identity_rgba_row_avx2(const uint8_t *row, int w, float *luma, uint8_t *bins);
AVX512_FN static void identity_rgba_row_avx512(const uint8_t *row, int w, float *luma, uint8_t *bins) {
    const __m512i byte = _mm512_set1_epi32(0xFF);
    const __m512 kr = _mm512_set1_ps(kLumaR), kg = _mm512_set1_ps(kLumaG), kb = _mm512_set1_ps(kLumaB);
    const __m512i one = _mm512_set1_epi16(1);
    /* packs works within 128-bit lanes: the words come out as pixels 0-3, 16-19 | 4-7, 20-23 | … */
    const __m256i order = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    int x = 0;
    for (; x + 32 <= w; x += 32) {
        __m512i ri[2], gi[2], bi[2];
        for (int half = 0; half < 2; half++) {
            const __m512i p = _mm512_loadu_si512(row + 4 * (size_t)(x + 16 * half));
            ri[half] = _mm512_and_si512(p, byte);
            gi[half] = _mm512_and_si512(_mm512_srli_epi32(p, 8), byte);
            bi[half] = _mm512_and_si512(_mm512_srli_epi32(p, 16), byte);
            const __m512 r = _mm512_cvtepi32_ps(ri[half]), g = _mm512_cvtepi32_ps(gi[half]), b = _mm512_cvtepi32_ps(bi[half]);
            _mm512_storeu_ps(luma + x + 16 * half,
                             _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(kr, r), _mm512_mul_ps(kg, g)), _mm512_mul_ps(kb, b)));
        }
        const __m512i r = _mm512_packs_epi32(ri[0], ri[1]), g = _mm512_packs_epi32(gi[0], gi[1]),
                      b = _mm512_packs_epi32(bi[0], bi[1]);
        const __m512i mx = _mm512_max_epi16(_mm512_max_epi16(r, g), b);
        const __m512i delta = _mm512_sub_epi16(mx, _mm512_min_epi16(_mm512_min_epi16(r, g), b));
        const __mmask32 achromatic = _mm512_cmplt_epi16_mask(mx, _mm512_set1_epi16(51)) |
                                     _mm512_cmplt_epi16_mask(_mm512_mullo_epi16(delta, _mm512_set1_epi16(5)), mx);
        const __mmask32 isr = _mm512_cmpeq_epi16_mask(mx, r), isg = _mm512_cmpeq_epi16_mask(mx, g);
        __m512i num = _mm512_mask_blend_epi16(isg, _mm512_sub_epi16(r, g), _mm512_sub_epi16(b, r));
        num = _mm512_mask_blend_epi16(isr, num, _mm512_sub_epi16(g, b));
        /* 2·base + 2: red 2, green 6, blue 10; then minus one per threshold 4·num is below. */
        __m512i hue = _mm512_mask_blend_epi16(isg, _mm512_set1_epi16(10), _mm512_set1_epi16(6));
        hue = _mm512_mask_blend_epi16(isr, hue, _mm512_set1_epi16(2));
        const __m512i n4 = _mm512_slli_epi16(num, 2), d3 = _mm512_mullo_epi16(delta, _mm512_set1_epi16(3));
        const __m512i zero = _mm512_setzero_si512();
        hue = _mm512_mask_sub_epi16(hue, _mm512_cmplt_epi16_mask(n4, _mm512_sub_epi16(zero, d3)), hue, one);
        hue = _mm512_mask_sub_epi16(hue, _mm512_cmplt_epi16_mask(n4, _mm512_sub_epi16(zero, delta)), hue, one);
        hue = _mm512_mask_sub_epi16(hue, _mm512_cmplt_epi16_mask(n4, delta), hue, one);
        hue = _mm512_mask_sub_epi16(hue, _mm512_cmplt_epi16_mask(n4, d3), hue, one);
        hue = _mm512_mask_add_epi16(hue, _mm512_cmplt_epi16_mask(hue, zero), hue, _mm512_set1_epi16(12));
        const __mmask32 saturated = _mm512_cmpge_epi16_mask(_mm512_mullo_epi16(delta, _mm512_set1_epi16(20)),
                                                            _mm512_mullo_epi16(mx, _mm512_set1_epi16(11)));
        const __mmask32 bright = _mm512_cmpgt_epi16_mask(mx, _mm512_set1_epi16(152));
        __m512i chroma = _mm512_add_epi16(_mm512_set1_epi16(16), _mm512_slli_epi16(hue, 2));
        chroma = _mm512_mask_add_epi16(chroma, saturated, chroma, _mm512_set1_epi16(2));
        chroma = _mm512_mask_add_epi16(chroma, bright, chroma, one);
        const __m512i bin = _mm512_mask_blend_epi16(achromatic, chroma, _mm512_srli_epi16(mx, 4));
        const __m256i packed = _mm256_permutevar8x32_epi32(_mm512_cvtepi16_epi8(bin), order);
        _mm256_storeu_si256((__m256i *)(bins + x), packed);
    }
    if (x < w) identity_rgba_row_avx2(row + 4 * (size_t)x, w - x, luma + x, bins + x);
}

/* The RGBA8 row of an unresampled working image on AVX2, 16 pixels per step: the luma as
 * finish_working_row computes it (8 lanes of floats, the same products and sums), the
 * bins in 16-bit integer lanes. The channels are integers 0…255, so hsv_bin's float tests
 * have exact integer forms (checked for all 2^24 colours against hsv_bin):
 *  - grey level ⌊mx·0.0625⌋ = mx >> 4; achromatic when mx < 51 or 5·delta < mx (delta <
 *    fl(0.2f·mx): that product is mx/5 exactly or lies at least 1/5 from an integer);
 *  - saturated when 20·delta ≥ 11·mx (delta ≥ fl(0.55f·mx), likewise);
 *  - hue: h = base + q with q = num/delta ∈ [−1, 1], and ⌊2h + 0.5⌋ = 2·base + k where
 *    k = ⌊2q + 0.5⌋ counts the thresholds 4·num ≥ −3δ, −δ, δ, 3δ passed, minus 2 (the float
 *    quotient is exact at those thresholds and at least 1/(4δ) away from them otherwise,
 *    far beyond its rounding); a negative red hue wraps by 12 as `h + 6` does.
 * Only chromatic pixels (delta > 0) use the hue, so a zero delta needs no care. */
AVX2_FN static inline void identity_rgba16_avx2(const uint8_t *px, float *luma, uint8_t *bins) {
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256 kr = _mm256_set1_ps(kLumaR), kg = _mm256_set1_ps(kLumaG), kb = _mm256_set1_ps(kLumaB);
    const __m256i zero = _mm256_setzero_si256();
    /* packs/packus work within 128-bit lanes: bytes come out as pixels 0-3, 8-11 | 4-7, 12-15. */
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i ri[2], gi[2], bi[2];
    for (int half = 0; half < 2; half++) {
        const __m256i p = _mm256_loadu_si256((const __m256i *)(px + 32 * half));
        ri[half] = _mm256_and_si256(p, byte);
        gi[half] = _mm256_and_si256(_mm256_srli_epi32(p, 8), byte);
        bi[half] = _mm256_and_si256(_mm256_srli_epi32(p, 16), byte);
        const __m256 r = _mm256_cvtepi32_ps(ri[half]), g = _mm256_cvtepi32_ps(gi[half]), b = _mm256_cvtepi32_ps(bi[half]);
        _mm256_storeu_ps(luma + 8 * half,
                         _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(kr, r), _mm256_mul_ps(kg, g)), _mm256_mul_ps(kb, b)));
    }
    const __m256i r = _mm256_packs_epi32(ri[0], ri[1]), g = _mm256_packs_epi32(gi[0], gi[1]),
                  b = _mm256_packs_epi32(bi[0], bi[1]);
    const __m256i mx = _mm256_max_epi16(_mm256_max_epi16(r, g), b);
    const __m256i delta = _mm256_sub_epi16(mx, _mm256_min_epi16(_mm256_min_epi16(r, g), b));
    const __m256i grey = _mm256_srli_epi16(mx, 4);
    const __m256i achromatic = _mm256_or_si256(_mm256_cmpgt_epi16(_mm256_set1_epi16(51), mx),
                                               _mm256_cmpgt_epi16(mx, _mm256_mullo_epi16(delta, _mm256_set1_epi16(5))));
    const __m256i isr = _mm256_cmpeq_epi16(mx, r), isg = _mm256_cmpeq_epi16(mx, g);
    __m256i num = _mm256_blendv_epi8(_mm256_sub_epi16(r, g), _mm256_sub_epi16(b, r), isg);
    num = _mm256_blendv_epi8(num, _mm256_sub_epi16(g, b), isr);
    /* 2·base: red 0, green 4, blue 8. */
    const __m256i base2 = _mm256_andnot_si256(isr, _mm256_sub_epi16(_mm256_set1_epi16(8),
                                                                     _mm256_and_si256(isg, _mm256_set1_epi16(4))));
    const __m256i n4 = _mm256_slli_epi16(num, 2), d3 = _mm256_mullo_epi16(delta, _mm256_set1_epi16(3));
    /* Each compare is −1 where 4·num is below a threshold: k = 2 + their sum. */
    const __m256i below = _mm256_add_epi16(
        _mm256_add_epi16(_mm256_cmpgt_epi16(_mm256_sub_epi16(zero, d3), n4),
                         _mm256_cmpgt_epi16(_mm256_sub_epi16(zero, delta), n4)),
        _mm256_add_epi16(_mm256_cmpgt_epi16(delta, n4), _mm256_cmpgt_epi16(d3, n4)));
    __m256i hue = _mm256_add_epi16(_mm256_add_epi16(base2, _mm256_set1_epi16(2)), below);
    hue = _mm256_add_epi16(hue, _mm256_and_si256(_mm256_cmpgt_epi16(zero, hue), _mm256_set1_epi16(12)));
    const __m256i dull = _mm256_cmpgt_epi16(_mm256_mullo_epi16(mx, _mm256_set1_epi16(11)),
                                            _mm256_mullo_epi16(delta, _mm256_set1_epi16(20)));
    const __m256i bright = _mm256_cmpgt_epi16(mx, _mm256_set1_epi16(152));
    /* 16 + 4·hue + 2·saturated + bright. */
    __m256i chroma = _mm256_add_epi16(_mm256_set1_epi16(18), _mm256_slli_epi16(hue, 2));
    chroma = _mm256_sub_epi16(_mm256_sub_epi16(chroma, _mm256_and_si256(dull, _mm256_set1_epi16(2))), bright);
    const __m256i bin = _mm256_blendv_epi8(chroma, grey, achromatic);
    const __m256i packed = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(bin, bin), order);
    _mm_storeu_si128((__m128i *)bins, _mm256_castsi256_si128(packed));
}
AVX2_FN static void identity_rgba_row_avx2(const uint8_t *row, int w, float *luma, uint8_t *bins) {
    int x = 0;
    for (; x + 16 <= w; x += 16) identity_rgba16_avx2(row + 4 * (size_t)x, luma + x, bins + x);
    if (x < w) {
        /* The last w − x < 16 pixels, padded (lanes are independent; the padding is dropped). */
        uint8_t in[64] = {0}, b[16];
        float l[16];
        memcpy(in, row + 4 * (size_t)x, 4 * (size_t)(w - x));
        identity_rgba16_avx2(in, l, b);
        memcpy(luma + x, l, sizeof(float) * (size_t)(w - x));
        memcpy(bins + x, b, (size_t)(w - x));
    }
}
#endif

void glimpse_working_planes_push_row(int isa, glimpse_working_planes_stream *stream, const uint8_t *row) {
    if (stream->next_source_row >= stream->source_height) return;
#if GLIMPSE_X86
    if (stream->x_identity && stream->out_height == stream->source_height && stream->channels == 4 &&
        glimpse_isa_effective(isa) >= GLIMPSE_ISA_AVX2) {
        const int y = stream->next_source_row++;
        float *l = stream->luma + (size_t)y * stream->out_width;
        uint8_t *b = stream->bins + (size_t)y * stream->out_width;
        if (glimpse_isa_effective(isa) == GLIMPSE_ISA_AVX512) identity_rgba_row_avx512(row, stream->out_width, l, b);
        else identity_rgba_row_avx2(row, stream->out_width, l, b);
        stream->first_open_row = y + 1;
        return;
    }
#endif
    VARIANT(isa, working_planes_push)(stream, row);
}
