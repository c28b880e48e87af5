/*
 * PDQ hashing: the box filters of the Jarosz filter, decimation to 64 × 64, the quality
 * metric, the contrast test, and the selection of medians that turns coefficients into bits.
 */
#include "kernel_variants.h"
#include "transpose_avx2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Box filter along columns (PDQ box1DFloat, vectorised across columns) ------------- */

#define BOX_CHUNK 256

BODY void box_columns_body(const float *in, size_t is, float *out, size_t os, int rows, int cols, int window) {
    const int half = (window + 2) / 2;
    const int p1 = half - 1, p2 = window - half + 1, p3 = rows - window, p4 = half - 1;
    float sum[BOX_CHUNK];
    for (int c0 = 0; c0 < cols; c0 += BOX_CHUNK) {
        const int cw = cols - c0 < BOX_CHUNK ? cols - c0 : BOX_CHUNK;
        for (int j = 0; j < cw; j++) sum[j] = 0.0f;
        int li = 0, ri = 0, oi = 0, cur = 0;
        for (int i = 0; i < p1; i++, ri++) {
            const float *r = in + (size_t)ri * is + c0;
            for (int j = 0; j < cw; j++) sum[j] += r[j];
            cur++;
        }
        for (int i = 0; i < p2; i++, ri++, oi++) {
            const float *r = in + (size_t)ri * is + c0;
            float *o = out + (size_t)oi * os + c0;
            cur++;
            const float fc = (float)cur;
            for (int j = 0; j < cw; j++) {
                sum[j] += r[j];
                o[j] = sum[j] / fc;
            }
        }
        if ((cur & (cur - 1)) == 0) {
            /* A power-of-two count: x / 2^e and x · 2^-e are the same real number, so both
             * round to the same float; the multiply is the cheaper instruction. */
            const float inv = 1.0f / (float)cur;
            for (int i = 0; i < p3; i++, ri++, li++, oi++) {
                const float *r = in + (size_t)ri * is + c0;
                const float *l = in + (size_t)li * is + c0;
                float *o = out + (size_t)oi * os + c0;
                for (int j = 0; j < cw; j++) {
                    sum[j] += r[j];
                    sum[j] -= l[j];
                    o[j] = sum[j] * inv;
                }
            }
        }
        for (int i = (cur & (cur - 1)) == 0 ? p3 : 0; i < p3; i++, ri++, li++, oi++) {
            const float *r = in + (size_t)ri * is + c0;
            const float *l = in + (size_t)li * is + c0;
            float *o = out + (size_t)oi * os + c0;
            const float fc = (float)cur;
            for (int j = 0; j < cw; j++) {
                sum[j] += r[j];
                sum[j] -= l[j];
                o[j] = sum[j] / fc;
            }
        }
        for (int i = 0; i < p4; i++, li++, oi++) {
            const float *l = in + (size_t)li * is + c0;
            float *o = out + (size_t)oi * os + c0;
            cur--;
            const float fc = (float)cur;
            for (int j = 0; j < cw; j++) {
                sum[j] -= l[j];
                o[j] = sum[j] / fc;
            }
        }
    }
}
static void box_columns_portable(const float *in, size_t is, float *out, size_t os, int rows, int cols, int window) {
    box_columns_body(in, is, out, os, rows, cols, window);
}
#if GLIMPSE_X86
/* The middle rows of BOX_COLUMNS_BLOCKS (a full window), each output as MEAN of the sum s[v]. */
#define BOX_COLUMNS_MIDDLE(LOAD, STORE, ADD, SUB, LANES, MEAN)                                        \
    for (int i = 0; i < p3; i++, ri++, li++, oi++) {                                                  \
        const float *r = in + (size_t)ri * is + c0, *l = in + (size_t)li * is + c0;                   \
        float *o = out + (size_t)oi * os + c0;                                                        \
        for (int v = 0; v < 4; v++) {                                                                 \
            s[v] = SUB(ADD(s[v], LOAD(r + (LANES) * v)), LOAD(l + (LANES) * v));                      \
            STORE(o + (LANES) * v, MEAN);                                                             \
        }                                                                                             \
    }
/* box_columns_body on blocks of 4 vectors of columns with the four running sums in registers
 * (the body keeps them in memory): the same per-lane operations in the same order, so the
 * same bits. Written once for ymm and zmm; advances c0 past the whole blocks. */
#define BOX_COLUMNS_BLOCKS(VEC, ZERO, LOAD, STORE, SET1, ADD, SUB, MUL, DIV, LANES)                     \
    for (; c0 + 4 * (LANES) <= cols; c0 += 4 * (LANES)) {                                             \
        const int half = (window + 2) / 2;                                                            \
        const int p1 = half - 1, p2 = window - half + 1, p3 = rows - window, p4 = half - 1;            \
        VEC s[4];                                                                                     \
        for (int v = 0; v < 4; v++) s[v] = ZERO();                                                    \
        int li = 0, ri = 0, oi = 0, cur = 0;                                                          \
        for (int i = 0; i < p1; i++, ri++) {                                                          \
            const float *r = in + (size_t)ri * is + c0;                                               \
            for (int v = 0; v < 4; v++) s[v] = ADD(s[v], LOAD(r + (LANES) * v));                      \
            cur++;                                                                                    \
        }                                                                                             \
        for (int i = 0; i < p2; i++, ri++, oi++) {                                                    \
            const float *r = in + (size_t)ri * is + c0;                                               \
            float *o = out + (size_t)oi * os + c0;                                                    \
            cur++;                                                                                    \
            const VEC fc = SET1((float)cur);                                                          \
            for (int v = 0; v < 4; v++) {                                                             \
                s[v] = ADD(s[v], LOAD(r + (LANES) * v));                                              \
                STORE(o + (LANES) * v, DIV(s[v], fc));                                                \
            }                                                                                         \
        }                                                                                             \
        /* A power-of-two count: the exact reciprocal's product rounds the same real number. */     \
        const VEC fc = SET1((float)cur), inv = SET1(1.0f / (float)cur);                               \
        if ((cur & (cur - 1)) == 0) {                                                                 \
            BOX_COLUMNS_MIDDLE(LOAD, STORE, ADD, SUB, LANES, MUL(s[v], inv))                          \
        } else {                                                                                      \
            BOX_COLUMNS_MIDDLE(LOAD, STORE, ADD, SUB, LANES, DIV(s[v], fc))                           \
        }                                                                                             \
        for (int i = 0; i < p4; i++, li++, oi++) {                                                    \
            const float *l = in + (size_t)li * is + c0;                                               \
            float *o = out + (size_t)oi * os + c0;                                                    \
            cur--;                                                                                    \
            const VEC fc4 = SET1((float)cur);                                                         \
            for (int v = 0; v < 4; v++) {                                                             \
                s[v] = SUB(s[v], LOAD(l + (LANES) * v));                                              \
                STORE(o + (LANES) * v, DIV(s[v], fc4));                                               \
            }                                                                                         \
        }                                                                                             \
    }
AVX2_FN static void box_columns_avx2(const float *in, size_t is, float *out, size_t os, int rows, int cols, int window) {
    int c0 = 0;
    BOX_COLUMNS_BLOCKS(__m256, _mm256_setzero_ps, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_add_ps,
                       _mm256_sub_ps, _mm256_mul_ps, _mm256_div_ps, 8)
    if (c0 < cols) box_columns_body(in + c0, is, out + c0, os, rows, cols - c0, window);
}
/* The same on zmm (64 columns per block); glimpse_box_columns calls it for power-of-two
 * windows only, whose middle rows multiply instead of dividing. Narrower leftovers take the
 * AVX2 code. */
AVX512_FN static void box_columns_avx512(const float *in, size_t is, float *out, size_t os, int rows, int cols,
                                         int window) {
    int c0 = 0;
    BOX_COLUMNS_BLOCKS(__m512, _mm512_setzero_ps, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_add_ps,
                       _mm512_sub_ps, _mm512_mul_ps, _mm512_div_ps, 16)
    if (c0 < cols) box_columns_avx2(in + c0, is, out + c0, os, rows, cols - c0, window);
}
#undef BOX_COLUMNS_BLOCKS
#undef BOX_COLUMNS_MIDDLE
#endif
void glimpse_box_columns(int isa, const float *in, size_t is, float *out, size_t os, int rows, int cols, int window) {
    if (rows <= 0 || cols <= 0 || window <= 0 || window > rows) return;
#if GLIMPSE_X86
    /* A general AVX-512 instantiation measured slower than the AVX2 one on Zen 4 (zmm divides
     * are double-pumped); power-of-two windows (most of PDQ's column passes: the window of
     * 65…256 rows is 2, of up to 128 rows 1) divide only at the edges, and take zmm. Same
     * bits on every path. */
    if (glimpse_isa_effective(isa) == GLIMPSE_ISA_AVX512 && (window & (window - 1)) == 0) {
        box_columns_avx512(in, is, out, os, rows, cols, window);
        return;
    }
    if (glimpse_isa_effective(isa) >= GLIMPSE_ISA_AVX2) {
        box_columns_avx2(in, is, out, os, rows, cols, window);
        return;
    }
#endif
    box_columns_portable(in, is, out, os, rows, cols, window);
}

/* Rows: strips of up to 16 rows are transposed into scratch (cols x 16), filtered down
 * the columns of the strip (= along the original rows, one row per lane) and copied back. */
#define BOX_STRIP 16
BODY void box_rows_body(const float *in, size_t is, float *out, size_t os, int rows, int cols, int window,
                        float *scratch) {
    float *a = scratch, *b = scratch + (size_t)BOX_STRIP * cols;
    for (int r0 = 0; r0 < rows; r0 += BOX_STRIP) {
        const int n = rows - r0 < BOX_STRIP ? rows - r0 : BOX_STRIP;
        for (int j = 0; j < n; j++) {
            const float *s = in + (size_t)(r0 + j) * is;
            for (int c = 0; c < cols; c++) a[(size_t)c * BOX_STRIP + j] = s[c];
        }
        box_columns_body(a, BOX_STRIP, b, BOX_STRIP, cols, n, window);
        for (int j = 0; j < n; j++) {
            float *d = out + (size_t)(r0 + j) * os;
            for (int c = 0; c < cols; c++) d[c] = b[(size_t)c * BOX_STRIP + j];
        }
    }
}
static void box_rows_portable(const float *in, size_t is, float *out, size_t os, int rows, int cols, int window,
                              float *scratch) {
    box_rows_body(in, is, out, os, rows, cols, window, scratch);
}

#if GLIMPSE_X86
/* box_columns_body on strips of exactly 8 columns (`n` rows of 8 floats, contiguous): the
 * same IEEE operations in the same order for every lane, one ymm per row. `strips` (1 or 2)
 * strips a0→b0, a1→b1 are filtered in the same loop, so that two independent add/sub chains
 * hide each other's latency. */
AVX2_FN static void box_strip8_avx2(const float *a0, float *b0, const float *a1, float *b1, int n, int window) {
    const int half = (window + 2) / 2;
    const int p1 = half - 1, p2 = window - half + 1, p3 = n - window, p4 = half - 1;
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
    int li = 0, ri = 0, oi = 0, cur = 0;
    for (int i = 0; i < p1; i++, ri++) {
        s0 = _mm256_add_ps(s0, _mm256_loadu_ps(a0 + 8 * ri));
        s1 = _mm256_add_ps(s1, _mm256_loadu_ps(a1 + 8 * ri));
        cur++;
    }
    for (int i = 0; i < p2; i++, ri++, oi++) {
        cur++;
        const __m256 fc = _mm256_set1_ps((float)cur);
        s0 = _mm256_add_ps(s0, _mm256_loadu_ps(a0 + 8 * ri));
        s1 = _mm256_add_ps(s1, _mm256_loadu_ps(a1 + 8 * ri));
        _mm256_storeu_ps(b0 + 8 * oi, _mm256_div_ps(s0, fc));
        _mm256_storeu_ps(b1 + 8 * oi, _mm256_div_ps(s1, fc));
    }
    const __m256 fc = _mm256_set1_ps((float)cur);
    if ((cur & (cur - 1)) == 0) {
        /* Power-of-two count: multiplying by its exact reciprocal rounds the same real number. */
        const __m256 inv = _mm256_set1_ps(1.0f / (float)cur);
        for (int i = 0; i < p3; i++, ri++, li++, oi++) {
            s0 = _mm256_sub_ps(_mm256_add_ps(s0, _mm256_loadu_ps(a0 + 8 * ri)), _mm256_loadu_ps(a0 + 8 * li));
            s1 = _mm256_sub_ps(_mm256_add_ps(s1, _mm256_loadu_ps(a1 + 8 * ri)), _mm256_loadu_ps(a1 + 8 * li));
            _mm256_storeu_ps(b0 + 8 * oi, _mm256_mul_ps(s0, inv));
            _mm256_storeu_ps(b1 + 8 * oi, _mm256_mul_ps(s1, inv));
        }
    } else {
        for (int i = 0; i < p3; i++, ri++, li++, oi++) {
            s0 = _mm256_sub_ps(_mm256_add_ps(s0, _mm256_loadu_ps(a0 + 8 * ri)), _mm256_loadu_ps(a0 + 8 * li));
            s1 = _mm256_sub_ps(_mm256_add_ps(s1, _mm256_loadu_ps(a1 + 8 * ri)), _mm256_loadu_ps(a1 + 8 * li));
            _mm256_storeu_ps(b0 + 8 * oi, _mm256_div_ps(s0, fc));
            _mm256_storeu_ps(b1 + 8 * oi, _mm256_div_ps(s1, fc));
        }
    }
    for (int i = 0; i < p4; i++, li++, oi++) {
        cur--;
        const __m256 fc4 = _mm256_set1_ps((float)cur);
        s0 = _mm256_sub_ps(s0, _mm256_loadu_ps(a0 + 8 * li));
        s1 = _mm256_sub_ps(s1, _mm256_loadu_ps(a1 + 8 * li));
        _mm256_storeu_ps(b0 + 8 * oi, _mm256_div_ps(s0, fc4));
        _mm256_storeu_ps(b1 + 8 * oi, _mm256_div_ps(s1, fc4));
    }
}

/* Rows in strips of 8: each strip is transposed (8x8 register transposes) into a cols×8
 * block, filtered down its columns with one ymm per step (two strips at a time) and
 * transposed back. The last rows % 8 rows take the portable body. Pure data movement
 * around the same per-lane operations, so the results equal the portable path's bit for
 * bit. Also the AVX-512 path: zmm strips measured slower on Zen 4 (double-pumped divides). */
AVX2_FN static void box_rows_avx2(const float *in, size_t is, float *out, size_t os, int rows, int cols, int window,
                                  float *scratch) {
    /* scratch holds 2·16·cols floats: two input strips, then two output strips. */
    float *a0 = scratch, *a1 = scratch + (size_t)8 * cols, *b0 = scratch + (size_t)16 * cols, *b1 = scratch + (size_t)24 * cols;
    int r0 = 0;
    for (; r0 + 16 <= rows; r0 += 16) {
        strip_in_avx2(in + (size_t)r0 * is, is, cols, a0);
        strip_in_avx2(in + (size_t)(r0 + 8) * is, is, cols, a1);
        box_strip8_avx2(a0, b0, a1, b1, cols, window);
        strip_out_avx2(b0, cols, out + (size_t)r0 * os, os);
        strip_out_avx2(b1, cols, out + (size_t)(r0 + 8) * os, os);
    }
    if (r0 + 8 <= rows) {
        strip_in_avx2(in + (size_t)r0 * is, is, cols, a0);
        box_strip8_avx2(a0, b0, a0, b1, cols, window);
        strip_out_avx2(b0, cols, out + (size_t)r0 * os, os);
        r0 += 8;
    }
    if (r0 < rows) box_rows_body(in + (size_t)r0 * is, is, out + (size_t)r0 * os, os, rows - r0, cols, window, scratch);
}

/* box_strip8_avx2 keeping only the outputs at the sampled rows `xs` (n_out of them,
 * non-decreasing, each < n), written compactly: output k of strip s goes to bs + 8*k. The
 * running sums see every row, so each kept output equals box_strip8_avx2's bit for bit;
 * only the divisions and stores of the other rows are skipped. */
AVX2_FN static void box_strip8_sampled_avx2(const float *a0, float *b0, const float *a1, float *b1, int n, int window,
                                            const int *xs, int n_out) {
    const int half = (window + 2) / 2;
    const int p1 = half - 1, p2 = window - half + 1, p3 = n - window, p4 = half - 1;
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
    int li = 0, ri = 0, oi = 0, cur = 0, next = 0;
#define KEEP(FC)                                                                                      \
    while (next < n_out && xs[next] == oi) {                                                          \
        _mm256_storeu_ps(b0 + 8 * next, _mm256_div_ps(s0, FC));                                       \
        _mm256_storeu_ps(b1 + 8 * next, _mm256_div_ps(s1, FC));                                       \
        next++;                                                                                       \
    }
    for (int i = 0; i < p1; i++, ri++) {
        s0 = _mm256_add_ps(s0, _mm256_loadu_ps(a0 + 8 * ri));
        s1 = _mm256_add_ps(s1, _mm256_loadu_ps(a1 + 8 * ri));
        cur++;
    }
    for (int i = 0; i < p2; i++, ri++, oi++) {
        cur++;
        const __m256 fc = _mm256_set1_ps((float)cur);
        s0 = _mm256_add_ps(s0, _mm256_loadu_ps(a0 + 8 * ri));
        s1 = _mm256_add_ps(s1, _mm256_loadu_ps(a1 + 8 * ri));
        KEEP(fc)
    }
    const __m256 fc = _mm256_set1_ps((float)cur);
    for (int i = 0; i < p3; i++, ri++, li++, oi++) {
        s0 = _mm256_sub_ps(_mm256_add_ps(s0, _mm256_loadu_ps(a0 + 8 * ri)), _mm256_loadu_ps(a0 + 8 * li));
        s1 = _mm256_sub_ps(_mm256_add_ps(s1, _mm256_loadu_ps(a1 + 8 * ri)), _mm256_loadu_ps(a1 + 8 * li));
        KEEP(fc)
    }
    for (int i = 0; i < p4; i++, li++, oi++) {
        cur--;
        const __m256 fc4 = _mm256_set1_ps((float)cur);
        s0 = _mm256_sub_ps(s0, _mm256_loadu_ps(a0 + 8 * li));
        s1 = _mm256_sub_ps(s1, _mm256_loadu_ps(a1 + 8 * li));
        KEEP(fc4)
    }
#undef KEEP
}

/* box_rows_avx2 keeping only the columns `xs` (n_out ≤ 64 of them, a multiple of 8):
 * out is rows × n_out, out[r][k] = the filtered value at (r, xs[k]). A last strip of fewer
 * than 8 rows is padded with copies of its last row (lanes are independent; the padding
 * lanes are dropped). `scratch` holds 32·cols floats. */
AVX2_FN static void box_rows_sampled_avx2(const float *in, size_t is, float *out, int rows, int cols, int window,
                                          const int *xs, int n_out, float *scratch) {
    float *a0 = scratch, *a1 = scratch + (size_t)8 * cols;
    float b0[8 * 64], b1[8 * 64];
    int r0 = 0;
    if ((window & (window - 1)) == 0) {
        /* A power-of-two window multiplies by the reciprocal in the middle of the row, so
         * filtering every column costs less than testing each for a kept one: the whole
         * strips (box_strip8_avx2, the same sums and the same roundings as the kept
         * outputs of box_strip8_sampled_avx2), then only the kept columns are transposed
         * out. Uses scratch + 16·cols … 32·cols for the filtered strips. */
        float *f0 = scratch + (size_t)16 * cols, *f1 = scratch + (size_t)24 * cols;
        for (; r0 + 16 <= rows; r0 += 16) {
            strip_in_avx2(in + (size_t)r0 * is, is, cols, a0);
            strip_in_avx2(in + (size_t)(r0 + 8) * is, is, cols, a1);
            box_strip8_avx2(a0, f0, a1, f1, cols, window);
            for (int k = 0; k < n_out; k += 8) {
                const float *p0[8], *p1[8];
                for (int t = 0; t < 8; t++) p0[t] = f0 + 8 * xs[k + t], p1[t] = f1 + 8 * xs[k + t];
                transpose8x8_rows_avx2(p0, out + (size_t)r0 * n_out + k, (size_t)n_out);
                transpose8x8_rows_avx2(p1, out + (size_t)(r0 + 8) * n_out + k, (size_t)n_out);
            }
        }
    }
    for (; r0 + 16 <= rows; r0 += 16) {
        strip_in_avx2(in + (size_t)r0 * is, is, cols, a0);
        strip_in_avx2(in + (size_t)(r0 + 8) * is, is, cols, a1);
        box_strip8_sampled_avx2(a0, b0, a1, b1, cols, window, xs, n_out);
        for (int k = 0; k < n_out; k += 8) {
            transpose8x8_avx2(b0 + 8 * k, 8, out + (size_t)r0 * n_out + k, (size_t)n_out);
            transpose8x8_avx2(b1 + 8 * k, 8, out + (size_t)(r0 + 8) * n_out + k, (size_t)n_out);
        }
    }
    for (; r0 < rows; r0 += 8) {
        const int n = rows - r0 < 8 ? rows - r0 : 8;
        for (int c = 0; c < cols; c++)
            for (int j = 0; j < 8; j++) a0[(size_t)c * 8 + j] = in[(size_t)(r0 + (j < n ? j : n - 1)) * is + c];
        box_strip8_sampled_avx2(a0, b0, a0, b1, cols, window, xs, n_out);
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n_out; k++) out[(size_t)(r0 + j) * n_out + k] = b0[8 * k + j];
    }
}
#endif

void glimpse_box_rows(int isa, const float *in, size_t is, float *out, size_t os, int rows, int cols, int window,
                      float *scratch) {
    if (rows <= 0 || cols <= 0 || window <= 0 || window > cols) return;
#if GLIMPSE_X86
    if (glimpse_isa_effective(isa) >= GLIMPSE_ISA_AVX2) {
        box_rows_avx2(in, is, out, os, rows, cols, window, scratch);
        return;
    }
#endif
    box_rows_portable(in, is, out, os, rows, cols, window, scratch);
}


/* ---- Jarosz filter, PDQ decimation and quality ------------------------------------------- */

void glimpse_jarosz_filter(int isa, const float *in, size_t is, int rows, int cols, int window_along_rows,
                           int window_along_columns, int passes, float *out, float *tmp, float *strips) {
    if (rows <= 0 || cols <= 0) return;
    const int wr = window_along_rows < 1 ? 1 : (window_along_rows > cols ? cols : window_along_rows);
    const int wc = window_along_columns < 1 ? 1 : (window_along_columns > rows ? rows : window_along_columns);
    const float *src = in;
    size_t ss = is;
    for (int p = 0; p < passes; p++) {
        glimpse_box_rows(isa, src, ss, tmp, (size_t)cols, rows, cols, wr, strips);
        glimpse_box_columns(isa, tmp, (size_t)cols, out, (size_t)cols, rows, cols, wc);
        src = out;
        ss = (size_t)cols;
    }
    if (passes <= 0)
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) out[(size_t)r * cols + c] = in[(size_t)r * is + c];
}

void glimpse_decimate_f32(const float *in, size_t is, int rows, int cols, int side, float *out) {
    int xs[256];
    if (side <= 0 || side > 256) return;
    for (int j = 0; j < side; j++) xs[j] = (int)((((double)j + 0.5) * (double)cols) / (double)side);
    for (int i = 0; i < side; i++) {
        const int y = (int)((((double)i + 0.5) * (double)rows) / (double)side);
        const float *s = in + (size_t)y * is;
        for (int j = 0; j < side; j++) out[i * side + j] = s[xs[j]];
    }
}

/* glimpse_pdq_filter_decimate; with rows_done, `in` already holds the first pass's row
 * filter (glimpse_pdq_first_rows), which is then skipped. */
static void pdq_filter_decimate(int isa, const float *in, size_t is, int rows_done, int rows, int cols,
                                int window_along_rows, int window_along_columns, int passes, float *out64,
                                float *buffer, float *tmp, float *strips) {
    if (rows <= 0 || cols <= 0 || passes <= 0) return;
    const int wr = window_along_rows < 1 ? 1 : (window_along_rows > cols ? cols : window_along_rows);
    const int wc = window_along_columns < 1 ? 1 : (window_along_columns > rows ? rows : window_along_columns);
    int xs[64], ys[64];
    /* ((j + 0.5)·n) / 64 truncated, as glimpse_decimate_f32 computes it in double: the product
     * and the division by a power of two are exact there, so it is ⌊(2j + 1)·n / 128⌋. */
    for (int j = 0; j < 64; j++) {
        xs[j] = (int)(((int64_t)(2 * j + 1) * cols) >> 7);
        ys[j] = (int)(((int64_t)(2 * j + 1) * rows) >> 7);
    }
    const float *src = in;
    size_t ss = is;
    for (int p = 0; p < passes - 1; p++) {
        if (p == 0 && rows_done) {
            glimpse_box_columns(isa, src, ss, buffer, (size_t)cols, rows, cols, wc);
        } else {
            glimpse_box_rows(isa, src, ss, tmp, (size_t)cols, rows, cols, wr, strips);
            glimpse_box_columns(isa, tmp, (size_t)cols, buffer, (size_t)cols, rows, cols, wc);
        }
        src = buffer;
        ss = (size_t)cols;
    }
    /* Last pass: the row filter only at the 64 sampled columns (rows × 64), the column
     * filter on those 64 columns, then the 64 sampled rows. Same values as filtering the
     * whole plane and decimating. `buffer` and `tmp` hold rows × max(cols, 64) floats. */
    float *compact = tmp, *filtered = buffer;
    if (passes == 1 && rows_done) {
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < 64; k++) tmp[(size_t)r * 64 + k] = src[(size_t)r * ss + xs[k]];
    } else
#if GLIMPSE_X86
    if (glimpse_isa_effective(isa) >= GLIMPSE_ISA_AVX2) {
        box_rows_sampled_avx2(src, ss, tmp, rows, cols, wr, xs, 64, strips);
    } else
#endif
    {
        glimpse_box_rows(isa, src, ss, tmp, (size_t)cols, rows, cols, wr, strips);
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < 64; k++) buffer[(size_t)r * 64 + k] = tmp[(size_t)r * cols + xs[k]];
        compact = buffer;
        filtered = tmp;
    }
    glimpse_box_columns(isa, compact, 64, filtered, 64, rows, 64, wc);
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) out64[i * 64 + j] = filtered[(size_t)ys[i] * 64 + j];
}

void glimpse_pdq_filter_decimate(int isa, const float *in, size_t is, int rows, int cols, int window_along_rows,
                                 int window_along_columns, int passes, float *out64, float *buffer, float *tmp,
                                 float *strips) {
    pdq_filter_decimate(isa, in, is, 0, rows, cols, window_along_rows, window_along_columns, passes, out64, buffer,
                        tmp, strips);
}

void glimpse_pdq_first_rows(int isa, const float *in, size_t is, int rows, int cols, int window_along_rows,
                            float *out, float *strips) {
    if (rows <= 0 || cols <= 0) return;
    const int wr = window_along_rows < 1 ? 1 : (window_along_rows > cols ? cols : window_along_rows);
    glimpse_box_rows(isa, in, is, out, (size_t)cols, rows, cols, wr, strips);
}

void glimpse_plane_strips(int isa, const float *in, size_t is, int rows, int cols, float *strips) {
    if (rows <= 0 || cols <= 0) return;
    for (int s = 0; 8 * s < rows; s++) {
        float *a = strips + (size_t)s * cols * 8;
#if GLIMPSE_X86
        if (8 * s + 8 <= rows && glimpse_isa_effective(isa) >= GLIMPSE_ISA_AVX2) {
            strip_in_avx2(in + (size_t)8 * s * is, is, cols, a);
            continue;
        }
#else
        (void)isa;
#endif
        for (int c = 0; c < cols; c++)
            for (int j = 0; j < 8; j++) {
                const int r = 8 * s + j < rows ? 8 * s + j : rows - 1;
                a[(size_t)c * 8 + j] = in[(size_t)r * is + c];
            }
    }
}

#if GLIMPSE_X86
/* Rows 8s … 8s+7 of a filtered strip `b` (cols × 8) that fall in y … y+rows-1, written to
 * `out` (row r at out + (r − y)·cols); `t` (8·cols floats) takes a strip that is only partly
 * inside. */
AVX2_FN static void strip_rows_out_avx2(const float *b, int s, int y, int rows, int cols, float *out, float *t) {
    const int first = 8 * s;
    if (first >= y && first + 8 <= y + rows) {
        strip_out_avx2(b, cols, out + (size_t)(first - y) * cols, (size_t)cols);
        return;
    }
    strip_out_avx2(b, cols, t, (size_t)cols);
    for (int j = 0; j < 8; j++) {
        const int r = first + j;
        if (r >= y && r < y + rows) memcpy(out + (size_t)(r - y) * cols, t + (size_t)j * cols, (size_t)cols * sizeof(float));
    }
}
#endif

void glimpse_pdq_first_rows_from_strips(int isa, const float *strips, int plane_cols, int x, int y, int rows, int cols,
                                        int window_along_rows, float *out, float *scratch) {
    if (rows <= 0 || cols <= 0) return;
    const int wr = window_along_rows < 1 ? 1 : (window_along_rows > cols ? cols : window_along_rows);
#if GLIMPSE_X86
    if (glimpse_isa_effective(isa) >= GLIMPSE_ISA_AVX2) {
        /* Strips s0 … s1 hold the region's rows; two per call, as box_rows_avx2 filters them
         * (two add/sub chains). */
        const int s0 = y / 8, s1 = (y + rows - 1) / 8;
        float *b0 = scratch, *b1 = scratch + (size_t)8 * cols, *t = scratch + (size_t)16 * cols;
        for (int s = s0; s <= s1; s += 2) {
            const float *a0 = strips + ((size_t)s * plane_cols + x) * 8;
            const int two = s + 1 <= s1;
            box_strip8_avx2(a0, b0, two ? a0 + (size_t)plane_cols * 8 : a0, b1, cols, wr);
            strip_rows_out_avx2(b0, s, y, rows, cols, out, t);
            if (two) strip_rows_out_avx2(b1, s + 1, y, rows, cols, out, t);
        }
        return;
    }
#endif
    /* One row at a time: gathered from its strip's lane, then the portable filter along it
     * (box_columns_body over a single lane is box_rows_body's per-lane sequence). */
    for (int r = y; r < y + rows; r++) {
        const float *a = strips + ((size_t)(r / 8) * plane_cols + x) * 8 + r % 8;
        for (int c = 0; c < cols; c++) scratch[c] = a[(size_t)c * 8];
        box_columns_body(scratch, 1, out + (size_t)(r - y) * cols, 1, cols, 1, wr);
    }
}

void glimpse_pdq_filter_decimate_rows_done(int isa, const float *rows_filtered, size_t rs, int rows, int cols,
                                           int window_along_rows, int window_along_columns, int passes,
                                           float *out64, float *buffer, float *tmp, float *strips) {
    pdq_filter_decimate(isa, rows_filtered, rs, 1, rows, cols, window_along_rows, window_along_columns, passes, out64,
                        buffer, tmp, strips);
}

/* Each neighbour difference is the same float expression, truncated to int, on every path;
 * only the integer sum is vectorised (exact in any order). The quality is min(sum / 90, 100)
 * and every term is ≥ 0, so once a partial sum reaches PDQ_QUALITY_FULL_SUM the answer is 100
 * whatever the rest adds: every path may stop there (a detailed view gets there well before
 * the end of the block), and each returns a sum that gives the same quality. */
#define PDQ_QUALITY_FULL_SUM (100 * 90)
BODY int pdq_quality64_body(const float *b) {
    int sum = 0;
    for (int i = 0; i < 63; i++) {
        for (int j = 0; j < 64; j++) {
            const int d = (int)(((b[i * 64 + j] - b[(i + 1) * 64 + j]) * 100.0f) / 255.0f);
            sum += d < 0 ? -d : d;
        }
        if (sum >= PDQ_QUALITY_FULL_SUM) return sum;
    }
    for (int i = 0; i < 64; i++) {
        for (int j = 0; j < 63; j++) {
            const int d = (int)(((b[i * 64 + j] - b[i * 64 + j + 1]) * 100.0f) / 255.0f);
            sum += d < 0 ? -d : d;
        }
        if (sum >= PDQ_QUALITY_FULL_SUM) return sum;
    }
    return sum;
}
static int pdq_quality64_portable(const float *b) { return pdq_quality64_body(b); }

#if GLIMPSE_X86
/* (int)(x / 255.0f) for 16 lanes without a division where it cannot matter. q' = x·fl(1/255)
 * is within 2^-22·|q| of the real quotient q (two roundings), and fl(q) within 2^-24·|q|, so
 * when q' is farther than |q'|·2^-20 from its nearest integer n (and n ≠ 0; |q'| < 0.5 truncates
 * to 0 either way) q, fl(q) and q' all lie strictly between the same two integers and truncate
 * alike. A vector with a lane closer to an integer (e.g. x = 5100, q = 20) is divided
 * instead (vdivps: the portable expression, correctly rounded, lane by lane): every sum is
 * exactly the portable one. The bound was checked exhaustively over every float x in
 * ±25500 (the range of (a − b)·100 for luma in 0…255). Such vectors are not rare (a view
 * of a photo met one in most blocks), which is why they are redone one vector at a time
 * rather than the whole block in scalar code, as before. */
AVX512_FN static inline __m512i trunc_div255_avx512(__m512 x) {
    const __m512 q = _mm512_mul_ps(x, _mm512_set1_ps(1.0f / 255.0f));
    const __m512 n = _mm512_roundscale_ps(q, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 gap = _mm512_abs_ps(_mm512_sub_ps(q, n));
    const __m512 tolerance = _mm512_mul_ps(_mm512_abs_ps(q), _mm512_set1_ps(0x1p-20f));
    /* A quotient within rounding of a nonzero integer (a few vectors per block): this
     * vector's exact divisions, the reference's operation lane by lane. */
    if (_mm512_cmp_ps_mask(gap, tolerance, _CMP_LE_OQ) & _mm512_cmp_ps_mask(n, _mm512_setzero_ps(), _CMP_NEQ_OQ))
        return _mm512_cvttps_epi32(_mm512_div_ps(x, _mm512_set1_ps(255.0f)));
    return _mm512_cvttps_epi32(q);
}
AVX512_FN static int pdq_quality64_avx512(const float *b) {
    __m512i sum = _mm512_setzero_si512();
    const __m512 hundred = _mm512_set1_ps(100.0f);
    for (int i = 0; i < 64; i++) {
        const float *r = b + i * 64;
        for (int v = 0; v < 4; v++) {
            const __m512 a = _mm512_loadu_ps(r + 16 * v);
            if (i < 63) {   /* vertical neighbour: the row below */
                const __m512 x = _mm512_mul_ps(_mm512_sub_ps(a, _mm512_loadu_ps(r + 64 + 16 * v)), hundred);
                sum = _mm512_add_epi32(sum, _mm512_abs_epi32(trunc_div255_avx512(x)));
            }
            /* horizontal neighbour: the next column (63 pairs per row; lane 15 of the last
             * vector has none and counts 0) */
            const __mmask16 m = v == 3 ? (__mmask16)0x7FFF : (__mmask16)0xFFFF;
            const __m512 right = _mm512_maskz_loadu_ps(m, r + 16 * v + 1);
            const __m512 x = _mm512_maskz_mul_ps(m, _mm512_sub_ps(a, right), hundred);
            sum = _mm512_add_epi32(sum, _mm512_abs_epi32(trunc_div255_avx512(x)));
        }
        if ((i & 7) == 7 && _mm512_reduce_add_epi32(sum) >= PDQ_QUALITY_FULL_SUM) break;
    }
    return _mm512_reduce_add_epi32(sum);
}

AVX2_FN static inline __m256i trunc_div255_avx2(__m256 x) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 q = _mm256_mul_ps(x, _mm256_set1_ps(1.0f / 255.0f));
    const __m256 n = _mm256_round_ps(q, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256 gap = _mm256_andnot_ps(sign, _mm256_sub_ps(q, n));
    const __m256 tolerance = _mm256_mul_ps(_mm256_andnot_ps(sign, q), _mm256_set1_ps(0x1p-20f));
    const __m256 near = _mm256_and_ps(_mm256_cmp_ps(gap, tolerance, _CMP_LE_OQ), _mm256_cmp_ps(n, _mm256_setzero_ps(), _CMP_NEQ_OQ));
    /* Within rounding of a nonzero integer: this vector's exact divisions (see the AVX-512 path). */
    if (_mm256_movemask_ps(near) != 0) return _mm256_cvttps_epi32(_mm256_div_ps(x, _mm256_set1_ps(255.0f)));
    return _mm256_cvttps_epi32(q);
}
AVX2_FN static inline int sum_epi32_avx2(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}
AVX2_FN static int pdq_quality64_avx2(const float *b) {
    __m256i sum = _mm256_setzero_si256();
    const __m256 hundred = _mm256_set1_ps(100.0f);
    const __m256i last = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0);
    for (int i = 0; i < 64; i++) {
        const float *r = b + i * 64;
        for (int v = 0; v < 8; v++) {
            const __m256 a = _mm256_loadu_ps(r + 8 * v);
            if (i < 63) {
                const __m256 x = _mm256_mul_ps(_mm256_sub_ps(a, _mm256_loadu_ps(r + 64 + 8 * v)), hundred);
                sum = _mm256_add_epi32(sum, _mm256_abs_epi32(trunc_div255_avx2(x)));
            }
            __m256 x;
            if (v == 7) {
                const __m256 right = _mm256_maskload_ps(r + 8 * v + 1, last);
                x = _mm256_and_ps(_mm256_mul_ps(_mm256_sub_ps(a, right), hundred), _mm256_castsi256_ps(last));
            } else {
                x = _mm256_mul_ps(_mm256_sub_ps(a, _mm256_loadu_ps(r + 8 * v + 1)), hundred);
            }
            sum = _mm256_add_epi32(sum, _mm256_abs_epi32(trunc_div255_avx2(x)));
        }
        if ((i & 7) == 7 && sum_epi32_avx2(sum) >= PDQ_QUALITY_FULL_SUM) break;
    }
    return sum_epi32_avx2(sum);
}
#endif

int glimpse_pdq_quality64(const float *b) {
    int sum;
    sum = VARIANT(GLIMPSE_ISA_AVX512, pdq_quality64)(b);
    const int q = sum / 90;
    return q > 100 ? 100 : q;
}

/* How many of the 64 decimated samples land on each of the n ≤ 64 pixels of a side (the
 * sampling of glimpse_decimate_f32); each is at least 1. */
static void pdq_folded_multiplicities(int n, int *mult) {
    for (int p = 0; p < n; p++) mult[p] = 0;
    for (int k = 0; k < 64; k++) mult[(int)((((double)k + 0.5) * (double)n) / 64.0)]++;
}

/* In the 64×64 decimation of a region of at most 64×64 pixels, block rows i and i + 1 sample
 * the same region row or two neighbouring ones, and each pair of neighbouring region rows is
 * sampled by exactly one such pair of block rows (the sampling is non-decreasing with steps
 * of 0 or 1 and reaches every row); the same for columns. So the block's vertical sum is the
 * sum over neighbouring region rows of each column's term times the column's multiplicity,
 * and its horizontal sum that of each region row's neighbouring-column terms times the row's
 * multiplicity; equal samples add 0. */
BODY int pdq_quality_term(float a, float b) {
    const int d = (int)(((a - b) * 100.0f) / 255.0f);
    return d < 0 ? -d : d;
}
static int pdq_quality_folded_portable(const float *in, size_t is, int rows, int cols, const int *mr, const int *mc) {
    int sum = 0;
    for (int m = 0; m < rows; m++) {
        const float *r = in + (size_t)m * is;
        if (m + 1 < rows)
            for (int c = 0; c < cols; c++) sum += mc[c] * pdq_quality_term(r[c], r[is + c]);
        int h = 0;
        for (int c = 0; c + 1 < cols; c++) h += pdq_quality_term(r[c], r[c + 1]);
        sum += mr[m] * h;
        if (sum >= PDQ_QUALITY_FULL_SUM) return sum;
    }
    return sum;
}
#if GLIMPSE_X86
AVX2_FN static int pdq_quality_folded_avx2(const float *in, size_t is, int rows, int cols, const int *mr, const int *mc) {
    const __m256 hundred = _mm256_set1_ps(100.0f);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i sum = _mm256_setzero_si256();
    for (int m = 0; m < rows; m++) {
        const float *r = in + (size_t)m * is;
        const __m256i weight = _mm256_set1_epi32(mr[m]);
        for (int c = 0; c < cols; c += 8) {
            /* Lanes past the row (vertical) or past its last neighbour pair (horizontal) are
             * masked out of the loads, so they read nothing and add 0. */
            const __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32(cols - c), lane);
            const __m256i pairs = _mm256_cmpgt_epi32(_mm256_set1_epi32(cols - 1 - c), lane);
            const __m256 a = _mm256_maskload_ps(r + c, inside);
            if (m + 1 < rows) {
                const __m256 below = _mm256_maskload_ps(r + is + c, inside);
                const __m256i t = _mm256_abs_epi32(trunc_div255_avx2(_mm256_mul_ps(_mm256_sub_ps(a, below), hundred)));
                sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(t, _mm256_maskload_epi32(mc + c, inside)));
            }
            const __m256 right = _mm256_maskload_ps(r + c + 1, pairs);
            const __m256 x = _mm256_and_ps(_mm256_mul_ps(_mm256_sub_ps(a, right), hundred), _mm256_castsi256_ps(pairs));
            sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(_mm256_abs_epi32(trunc_div255_avx2(x)), weight));
        }
        if ((m & 7) == 7 && sum_epi32_avx2(sum) >= PDQ_QUALITY_FULL_SUM) break;
    }
    return sum_epi32_avx2(sum);
}
/* AVX-512 adds nothing to this kernel: its variant is the AVX2 one. */
AVX512_FN static int pdq_quality_folded_avx512(const float *in, size_t is, int rows, int cols, const int *mr, const int *mc) {
    return pdq_quality_folded_avx2(in, is, rows, cols, mr, mc);
}
#endif

int glimpse_pdq_quality_folded(int isa, const float *in, size_t is, int rows, int cols) {
    if (rows < 1 || cols < 1 || rows > 64 || cols > 64) return 0;
    int mr[64], mc[64];
    pdq_folded_multiplicities(rows, mr);
    pdq_folded_multiplicities(cols, mc);
    int sum;
    sum = VARIANT(isa, pdq_quality_folded)(in, is, rows, cols, mr, mc);
    const int q = sum / 90;
    return q > 100 ? 100 : q;
}

/* Mean and population variance of n floats in double, summed strictly left to right (as
 * the Swift reference `PerceptualHashes.contrast` does): the exact figure, latency-bound. */
static void moments_sequential(const float *v, int n, double *mean, double *variance) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (double)v[i];
    const double m = s / (double)n;
    double q = 0.0;
    for (int i = 0; i < n; i++) q += ((double)v[i] - m) * ((double)v[i] - m);
    *mean = m;
    *variance = q / (double)n;
}

/* The same moments with 8 interleaved partial sums (vectorisable, ~8x less latency). They
 * differ from the sequential sums only by rounding: for n ≤ 4096 values in 0…255 well below
 * 1e-9 in the variance. */
BODY double variance_fast_body(const float *v, int n) {
    double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; j++) acc[j] += (double)v[i + j];
    double s = 0.0;
    for (int j = 0; j < 8; j++) s += acc[j];
    for (; i < n; i++) s += (double)v[i];
    const double m = s / (double)n;
    double q8[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    i = 0;
    for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; j++) q8[j] += ((double)v[i + j] - m) * ((double)v[i + j] - m);
    double q = 0.0;
    for (int j = 0; j < 8; j++) q += q8[j];
    for (; i < n; i++) q += ((double)v[i] - m) * ((double)v[i] - m);
    return q / (double)n;
}
VARIANTS_RETURNING(double, variance_fast, (const float *v, int n), (v, n))

int glimpse_below_contrast(int isa, const float *values, int n, double threshold) {
    if (n <= 0) return 0.0 < threshold;
    double variance;
    variance = VARIANT(isa, variance_fast)(values, n);
    /* Far from the threshold the fast figure decides; near it, the exact one. */
    const double t2 = threshold * threshold;
    const double margin = 1e-6 * (t2 > 1.0 ? t2 : 1.0);
    if (n <= 4096 && variance < t2 - margin) return 1;
    if (n <= 4096 && variance > t2 + margin) return 0;
    double mean, exact;
    moments_sequential(values, n, &mean, &exact);
    return sqrt(exact) < threshold;
}


/* ---- Selection ------------------------------------------------------------------------------ */

/* A float's bits mapped to an unsigned integer that sorts as the float does (-0 just below
 * +0, which compare equal as floats: the k-th smallest is then the same value up to the sign
 * of a zero, and `v > median` gives the same answer for either zero). */
static inline uint32_t sortable_key(float v) {
    uint32_t b;
    memcpy(&b, &v, 4);
    return b ^ ((uint32_t)((int32_t)b >> 31) | 0x80000000u);
}

/* The k-th smallest key of n by bisection over the key's bits, from the top: 32 counting
 * passes, each a compare per element that vectorises on every path. Exact. */
BODY uint32_t kth_key_body(const uint32_t *keys, int n, int k) {
    uint32_t answer = 0;
    for (int bit = 31; bit >= 0; bit--) {
        const uint32_t candidate = answer | (1u << bit);
        int below = 0;
        for (int i = 0; i < n; i++) below += keys[i] < candidate;
        if (below <= k) answer = candidate;
    }
    return answer;
}
static uint32_t kth_key_portable(const uint32_t *keys, int n, int k) {
    return kth_key_body(keys, n, k);
}
#if GLIMPSE_X86
/* For each 8-bit lane mask, the lanes of its set bits in order, 4 bits each (the i-th at bits
 * 4i … 4i+3): the permutation that packs a ymm's selected lanes to its front, as AVX-512's
 * vpcompressd does in one instruction. */
static const uint32_t packed_lanes[256] = {
    0x00000000, 0x00000000, 0x00000001, 0x00000010, 0x00000002, 0x00000020, 0x00000021, 0x00000210,
    0x00000003, 0x00000030, 0x00000031, 0x00000310, 0x00000032, 0x00000320, 0x00000321, 0x00003210,
    0x00000004, 0x00000040, 0x00000041, 0x00000410, 0x00000042, 0x00000420, 0x00000421, 0x00004210,
    0x00000043, 0x00000430, 0x00000431, 0x00004310, 0x00000432, 0x00004320, 0x00004321, 0x00043210,
    0x00000005, 0x00000050, 0x00000051, 0x00000510, 0x00000052, 0x00000520, 0x00000521, 0x00005210,
    0x00000053, 0x00000530, 0x00000531, 0x00005310, 0x00000532, 0x00005320, 0x00005321, 0x00053210,
    0x00000054, 0x00000540, 0x00000541, 0x00005410, 0x00000542, 0x00005420, 0x00005421, 0x00054210,
    0x00000543, 0x00005430, 0x00005431, 0x00054310, 0x00005432, 0x00054320, 0x00054321, 0x00543210,
    0x00000006, 0x00000060, 0x00000061, 0x00000610, 0x00000062, 0x00000620, 0x00000621, 0x00006210,
    0x00000063, 0x00000630, 0x00000631, 0x00006310, 0x00000632, 0x00006320, 0x00006321, 0x00063210,
    0x00000064, 0x00000640, 0x00000641, 0x00006410, 0x00000642, 0x00006420, 0x00006421, 0x00064210,
    0x00000643, 0x00006430, 0x00006431, 0x00064310, 0x00006432, 0x00064320, 0x00064321, 0x00643210,
    0x00000065, 0x00000650, 0x00000651, 0x00006510, 0x00000652, 0x00006520, 0x00006521, 0x00065210,
    0x00000653, 0x00006530, 0x00006531, 0x00065310, 0x00006532, 0x00065320, 0x00065321, 0x00653210,
    0x00000654, 0x00006540, 0x00006541, 0x00065410, 0x00006542, 0x00065420, 0x00065421, 0x00654210,
    0x00006543, 0x00065430, 0x00065431, 0x00654310, 0x00065432, 0x00654320, 0x00654321, 0x06543210,
    0x00000007, 0x00000070, 0x00000071, 0x00000710, 0x00000072, 0x00000720, 0x00000721, 0x00007210,
    0x00000073, 0x00000730, 0x00000731, 0x00007310, 0x00000732, 0x00007320, 0x00007321, 0x00073210,
    0x00000074, 0x00000740, 0x00000741, 0x00007410, 0x00000742, 0x00007420, 0x00007421, 0x00074210,
    0x00000743, 0x00007430, 0x00007431, 0x00074310, 0x00007432, 0x00074320, 0x00074321, 0x00743210,
    0x00000075, 0x00000750, 0x00000751, 0x00007510, 0x00000752, 0x00007520, 0x00007521, 0x00075210,
    0x00000753, 0x00007530, 0x00007531, 0x00075310, 0x00007532, 0x00075320, 0x00075321, 0x00753210,
    0x00000754, 0x00007540, 0x00007541, 0x00075410, 0x00007542, 0x00075420, 0x00075421, 0x00754210,
    0x00007543, 0x00075430, 0x00075431, 0x00754310, 0x00075432, 0x00754320, 0x00754321, 0x07543210,
    0x00000076, 0x00000760, 0x00000761, 0x00007610, 0x00000762, 0x00007620, 0x00007621, 0x00076210,
    0x00000763, 0x00007630, 0x00007631, 0x00076310, 0x00007632, 0x00076320, 0x00076321, 0x00763210,
    0x00000764, 0x00007640, 0x00007641, 0x00076410, 0x00007642, 0x00076420, 0x00076421, 0x00764210,
    0x00007643, 0x00076430, 0x00076431, 0x00764310, 0x00076432, 0x00764320, 0x00764321, 0x07643210,
    0x00000765, 0x00007650, 0x00007651, 0x00076510, 0x00007652, 0x00076520, 0x00076521, 0x00765210,
    0x00007653, 0x00076530, 0x00076531, 0x00765310, 0x00076532, 0x00765320, 0x00765321, 0x07653210,
    0x00007654, 0x00076540, 0x00076541, 0x00765410, 0x00076542, 0x00765420, 0x00765421, 0x07654210,
    0x00076543, 0x00765430, 0x00765431, 0x07654310, 0x00765432, 0x07654320, 0x07654321, 0x76543210,
};

/* The lanes of `v` selected by `mask`, packed to the front (the other lanes: any of v's). */
AVX2_FN static inline __m256i pack_lanes_avx2(__m256i v, unsigned mask) {
    const __m256i shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    const __m256i lanes = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)packed_lanes[mask]), shifts),
                                           _mm256_set1_epi32(7));
    return _mm256_permutevar8x32_epi32(v, lanes);
}

/* kth_key_avx512 on AVX2: the same three-way partitions around a median-of-three pivot,
 * the keys packed by a permutation from packed_lanes instead of vpcompressd, and their sign
 * bits flipped once so that AVX2's signed compares order them as unsigned. In a C harness:
 * 0.14 µs for 256 random keys and 0.07 µs for 64 (the bisection: 0.85 and 0.35 µs), 0.34–0.50
 * µs for 256 DCT-like keys (about 16 rounds; the bisection 1.16 µs). The exact k-th key, as the
 * bisection's. */
AVX2_FN static uint32_t kth_key_avx2(const uint32_t *keys, int n, int k) {
    uint32_t buffers[3][256 + 8];
    const __m256i sign = _mm256_set1_epi32((int)0x80000000u);
    int i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_si256((__m256i *)(buffers[0] + i), _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(keys + i)), sign));
    for (; i < n; i++) buffers[0][i] = keys[i] ^ 0x80000000u;
    const int32_t *src = (const int32_t *)buffers[0];
    int in = 0;
    while (n > 1) {
        const int32_t x = src[0], y = src[n / 2], z = src[n - 1];
        const int32_t pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        const __m256i pv = _mm256_set1_epi32(pivot);
        uint32_t *below = buffers[in == 0 ? 1 : 0], *above = buffers[in == 2 ? 1 : 2];
        int nb = 0, na = 0;
        for (int j = 0; j < n; j += 8) {
            /* Lanes past n read the buffer's slack or stale keys; the valid mask drops them. */
            const unsigned valid = n - j >= 8 ? 0xFFu : (1u << (n - j)) - 1;
            const __m256i v = _mm256_loadu_si256((const __m256i *)(src + j));
            const unsigned lt = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(pv, v))) & valid;
            const unsigned gt = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, pv))) & valid;
            _mm256_storeu_si256((__m256i *)(below + nb), pack_lanes_avx2(v, lt));
            _mm256_storeu_si256((__m256i *)(above + na), pack_lanes_avx2(v, gt));
            nb += __builtin_popcount(lt);
            na += __builtin_popcount(gt);
        }
        if (k < nb) {
            src = (const int32_t *)below;
            in = below == buffers[0] ? 0 : 1;
            n = nb;
        } else if (k < n - na) {
            return (uint32_t)pivot ^ 0x80000000u;
        } else {
            k -= n - na;
            src = (const int32_t *)above;
            in = above == buffers[2] ? 2 : 1;
            n = na;
        }
    }
    return (uint32_t)src[0] ^ 0x80000000u;
}
/* The k-th smallest of n ≤ 256 keys on AVX-512 by three-way partitions (quickselect): the keys
 * below and above a median-of-three pivot are packed into two buffers with vpcompressd, and
 * only the side holding rank k is kept (the pivot itself when k falls among its copies). Each
 * round drops the pivot's copies, so it ends; the answer is the exact k-th key, as the
 * bisection's. About 9 short rounds for 256 keys instead of 32 counting passes over all of
 * them, each ending in a horizontal sum: 0.18 against 0.50 µs for 256 keys, 0.10 against 0.35
 * µs for 64. Three buffers, so a round never writes the one it reads; 16 keys of slack each
 * for the full-vector stores of packed keys. */
AVX512_FN static uint32_t kth_key_avx512(const uint32_t *keys, int n, int k) {
    uint32_t buffers[3][256 + 16];
    const uint32_t *src = keys;
    int in = -1;   /* which buffer src is (−1: the caller's keys) */
    while (n > 1) {
        const uint32_t x = src[0], y = src[n / 2], z = src[n - 1];
        const uint32_t pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        const __m512i pv = _mm512_set1_epi32((int)pivot);
        uint32_t *below = buffers[in == 0 ? 1 : 0], *above = buffers[in == 2 ? 1 : 2];
        int nb = 0, na = 0;
        for (int i = 0; i < n; i += 16) {
            const __mmask16 valid = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1);
            const __m512i v = _mm512_maskz_loadu_epi32(valid, src + i);
            const __mmask16 lt = _mm512_mask_cmplt_epu32_mask(valid, v, pv), gt = _mm512_mask_cmpgt_epu32_mask(valid, v, pv);
            _mm512_storeu_si512(below + nb, _mm512_maskz_compress_epi32(lt, v));
            _mm512_storeu_si512(above + na, _mm512_maskz_compress_epi32(gt, v));
            nb += __builtin_popcount(lt);
            na += __builtin_popcount(gt);
        }
        if (k < nb) {
            src = below;
            in = below == buffers[0] ? 0 : 1;
            n = nb;
        } else if (k < n - na) {
            return pivot;
        } else {
            k -= n - na;
            src = above;
            in = above == buffers[2] ? 2 : 1;
            n = na;
        }
    }
    return src[0];
}
#endif

void glimpse_median_bits_f32(int isa, const float *values, int n, uint64_t *words) {
    uint32_t keys[256];
    if (n <= 0 || n > 256 || n % 64 != 0) return;
    for (int i = 0; i < n; i++) keys[i] = sortable_key(values[i]);
    const int k = n / 2 - 1;
    uint32_t median;
    median = VARIANT(isa, kth_key)(keys, n, k);
    /* Back to the float, and the comparison made as floats (so either zero thresholds alike). */
    uint32_t mb = median ^ ((median & 0x80000000u) ? 0x80000000u : 0xFFFFFFFFu);
    float m;
    memcpy(&m, &mb, 4);
    for (int w = 0; w < n / 64; w++) {
        uint64_t bits = 0;
        for (int j = 0; j < 64; j++) bits |= (uint64_t)(values[w * 64 + j] > m) << j;
        words[w] = bits;
    }
}

float glimpse_kth_smallest_f32(const float *values, int n, int k) {
    /* Quickselect (Hoare partition, median-of-three pivot) on a copy: the value a full sort
     * would put at position k, found in O(n). n is small (the DCT coefficients of a hash). */
    float a[256];
    if (n <= 0 || k < 0 || k >= n || n > 256) return 0.0f;
    for (int i = 0; i < n; i++) a[i] = values[i];
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        float x = a[lo], y = a[mid], z = a[hi];
        const float pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        int i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (pivot < a[j]) j--;
            if (i <= j) {
                const float t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return a[k];
    }
    return a[k];
}
