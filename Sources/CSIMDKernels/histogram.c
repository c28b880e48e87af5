/*
 * Colour histograms and their distances: L1 over bytes, the HSV histogram of float
 * pixels, the byte histogram of a bin plane.
 */
#include "kernel_variants.h"
#include "pixel_maps.h"

#include <string.h>

/* ---- L1 over bytes ------------------------------------------------------------------- */

static uint32_t l1_portable(const uint8_t *a, const uint8_t *b, size_t n) {
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) s += (uint32_t)(a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]);
    return s;
}

#if GLIMPSE_X86
AVX2_FN static uint32_t l1_avx2(const uint8_t *a, const uint8_t *b, size_t n) {
    __m256i acc = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        acc = _mm256_add_epi64(acc, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(a + i)),
                                                    _mm256_loadu_si256((const __m256i *)(b + i))));
    }
    uint64_t lanes[4];
    _mm256_storeu_si256((__m256i *)lanes, acc);
    return (uint32_t)(lanes[0] + lanes[1] + lanes[2] + lanes[3]) + l1_portable(a + i, b + i, n - i);
}
AVX512_FN static uint32_t l1_avx512(const uint8_t *a, const uint8_t *b, size_t n) {
    __m512i acc = _mm512_setzero_si512();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        acc = _mm512_add_epi64(acc, _mm512_sad_epu8(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i)));
    }
    if (i < n) {
        __mmask64 m = (__mmask64)((~0ULL) >> (64 - (n - i)));
        acc = _mm512_add_epi64(acc, _mm512_sad_epu8(_mm512_maskz_loadu_epi8(m, a + i), _mm512_maskz_loadu_epi8(m, b + i)));
    }
    return (uint32_t)_mm512_reduce_add_epi64(acc);
}

AVX2_FN static void l1x64_avx2(const uint8_t *q, const uint8_t *rows, size_t n, uint16_t *out) {
    const __m256i q0 = _mm256_loadu_si256((const __m256i *)q);
    const __m256i q1 = _mm256_loadu_si256((const __m256i *)(q + 32));
    for (size_t i = 0; i < n; i++) {
        const uint8_t *r = rows + 64 * i;
        __m256i s = _mm256_add_epi64(_mm256_sad_epu8(q0, _mm256_loadu_si256((const __m256i *)r)),
                                     _mm256_sad_epu8(q1, _mm256_loadu_si256((const __m256i *)(r + 32))));
        __m128i h = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
        out[i] = (uint16_t)_mm_cvtsi128_si64(h);
    }
}
AVX512_FN static void l1x64_avx512(const uint8_t *q, const uint8_t *rows, size_t n, uint16_t *out) {
    const __m512i vq = _mm512_loadu_si512(q);
    size_t i = 0;
    /* Each SAD lane is <= 8*255 and a row's total <= 16320 < 2^16, so four rows can be
     * packed into 16-bit fields of every lane and reduced together without carries. */
    for (; i + 4 <= n; i += 4) {
        const uint8_t *r = rows + 64 * i;
        __m512i s0 = _mm512_sad_epu8(vq, _mm512_loadu_si512(r));
        __m512i s1 = _mm512_slli_epi64(_mm512_sad_epu8(vq, _mm512_loadu_si512(r + 64)), 16);
        __m512i s2 = _mm512_slli_epi64(_mm512_sad_epu8(vq, _mm512_loadu_si512(r + 128)), 32);
        __m512i s3 = _mm512_slli_epi64(_mm512_sad_epu8(vq, _mm512_loadu_si512(r + 192)), 48);
        uint64_t packed = (uint64_t)_mm512_reduce_add_epi64(
            _mm512_add_epi64(_mm512_add_epi64(s0, s1), _mm512_add_epi64(s2, s3)));
        out[i] = (uint16_t)packed;
        out[i + 1] = (uint16_t)(packed >> 16);
        out[i + 2] = (uint16_t)(packed >> 32);
        out[i + 3] = (uint16_t)(packed >> 48);
    }
    for (; i < n; i++) {
        out[i] = (uint16_t)_mm512_reduce_add_epi64(_mm512_sad_epu8(vq, _mm512_loadu_si512(rows + 64 * i)));
    }
}
#endif

uint32_t glimpse_l1_u8(int isa, const uint8_t *a, const uint8_t *b, size_t n) {
    return VARIANT(isa, l1)(a, b, n);
}

static void l1x64_portable(const uint8_t *q, const uint8_t *rows, size_t n, uint16_t *out) {
    for (size_t i = 0; i < n; i++) out[i] = (uint16_t)l1_portable(q, rows + 64 * i, 64);
}

void glimpse_l1_u8x64_distances(int isa, const uint8_t *query64, const uint8_t *rows, size_t count, uint16_t *out) {
    VARIANT(isa, l1x64)(query64, rows, count, out);
}


/* ---- HSV histogram ----------------------------------------------------------------------- */

BODY void hsv_histogram_body(const float *src, size_t ss, int w, int h, uint32_t *counts) {
    uint8_t bins[256];
    for (int y = 0; y < h; y++) {
        const float *s = src + (size_t)y * ss;
        for (int x0 = 0; x0 < w; x0 += 256) {
            const int n = w - x0 < 256 ? w - x0 : 256;
            for (int x = 0; x < n; x++) {
                const float *p = s + 4 * (size_t)(x0 + x);
                bins[x] = (uint8_t)hsv_bin(p[0], p[1], p[2]);
            }
            for (int x = 0; x < n; x++) counts[bins[x]]++;
        }
    }
}
VARIANTS(void, hsv_histogram, (const float *src, size_t ss, int w, int h, uint32_t *counts), (src, ss, w, h, counts))
void glimpse_hsv_histogram_rgbaf(int isa, const float *src, size_t ss, int w, int h, uint32_t counts[64]) {
    VARIANT(isa, hsv_histogram)(src, ss, w, h, counts);
}


/* ---- Byte histogram of a bin plane -------------------------------------------------------- */

void glimpse_bin_counts(const uint8_t *bins, size_t stride, int width, int height, uint32_t counts[64]) {
    /* Eight interleaved tables, fed from one 8-byte load per 8 pixels, so that runs of equal
     * bins (sky, walls) do not serialise on one counter's store-to-load latency: 48.8 µs
     * instead of 62.0 µs for the 121 cells of a 320×240 plane with runs of ~4 equal bins
     * (four tables, one byte load per pixel). Counting is order-free, so the byte order of
     * the load does not matter. */
    uint32_t c[8][64] = {{0}};
    for (int y = 0; y < height; y++) {
        const uint8_t *b = bins + (size_t)y * stride;
        int x = 0;
        for (; x + 8 <= width; x += 8) {
            uint64_t w;
            memcpy(&w, b + x, 8);
            c[0][w & 63]++;
            c[1][(w >> 8) & 63]++;
            c[2][(w >> 16) & 63]++;
            c[3][(w >> 24) & 63]++;
            c[4][(w >> 32) & 63]++;
            c[5][(w >> 40) & 63]++;
            c[6][(w >> 48) & 63]++;
            c[7][(w >> 56) & 63]++;
        }
        for (; x < width; x++) c[x & 7][b[x] & 63]++;
    }
    for (int k = 0; k < 64; k++)
        counts[k] += ((c[0][k] + c[1][k]) + (c[2][k] + c[3][k])) + ((c[4][k] + c[5][k]) + (c[6][k] + c[7][k]));
}
