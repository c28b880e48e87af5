/*
 * CSIMDKernels implementation. See include/CSIMDKernels.h for the contract.
 *
 * How the paths are kept identical:
 *  - Float kernels are written once as an always-inline "body" and instantiated three
 *    times: plain (x86-64 baseline), target("avx2,popcnt") and target("avx512f,...").
 *    The compiler vectorises the bodies across independent outputs; without -ffast-math
 *    it may not reassociate, and FP_CONTRACT OFF forbids fusing a*b+c into an FMA, so
 *    every output is the same sequence of IEEE operations on every path.
 *  - Integer kernels (popcount, SAD) use explicit intrinsics where that pays and are
 *    exact by construction.
 */
#pragma STDC FP_CONTRACT OFF

#include "CSIMDKernels.h"

#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
#define GLIMPSE_X86 1
#include <immintrin.h>
#define AVX2_FN __attribute__((target("avx2,popcnt")))
#define AVX512_FN __attribute__((target("avx512f,avx512bw,avx512vpopcntdq,avx2,popcnt")))
#else
#define GLIMPSE_X86 0
#endif

#define BODY static inline __attribute__((always_inline))

int glimpse_kernels_version(void) { return 2; }

/* ---- CPU probe ------------------------------------------------------------------- */

static _Atomic int cached_best_isa = -1;

int glimpse_cpu_best_isa(void) {
    int isa = atomic_load_explicit(&cached_best_isa, memory_order_relaxed);
    if (isa >= 0) return isa;
    isa = GLIMPSE_ISA_PORTABLE;
#if GLIMPSE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("popcnt")) {
        isa = GLIMPSE_ISA_AVX512;
    } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) {
        isa = GLIMPSE_ISA_AVX2;
    }
#endif
    atomic_store_explicit(&cached_best_isa, isa, memory_order_relaxed);
    return isa;
}

int glimpse_isa_effective(int requested) {
    int best = glimpse_cpu_best_isa();
    if (requested < 0) return GLIMPSE_ISA_PORTABLE;
    return requested < best ? requested : best;
}

/* Instantiates `name` three times around `name##_body` and dispatches on isa. */
#if GLIMPSE_X86
#define VARIANTS(ret, name, params, args)                                             \
    static ret name##_portable params { name##_body args; }                           \
    AVX2_FN static ret name##_avx2 params { name##_body args; }                       \
    AVX512_FN static ret name##_avx512 params { name##_body args; }
#define DISPATCH(name, args)                                                          \
    switch (glimpse_isa_effective(isa)) {                                             \
    case GLIMPSE_ISA_AVX512: name##_avx512 args; return;                              \
    case GLIMPSE_ISA_AVX2: name##_avx2 args; return;                                  \
    default: name##_portable args; return;                                            \
    }
#else
#define VARIANTS(ret, name, params, args)                                             \
    static ret name##_portable params { name##_body args; }
#define DISPATCH(name, args) name##_portable args;
#endif

/* ---- Hamming ------------------------------------------------------------------------ */

static inline unsigned popcount64_portable(uint64_t x) {
    /* Explicit bit trick so the portable path never depends on a POPCNT instruction. */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (unsigned)((x * 0x0101010101010101ULL) >> 56);
}

static void hamming64_portable(uint64_t q, const uint64_t *codes, size_t n, uint16_t *out) {
    for (size_t i = 0; i < n; i++) out[i] = (uint16_t)popcount64_portable(q ^ codes[i]);
}
static void hamming256_portable(const uint64_t *q, const uint64_t *codes, size_t n, uint16_t *out) {
    for (size_t i = 0; i < n; i++) {
        const uint64_t *c = codes + 4 * i;
        out[i] = (uint16_t)(popcount64_portable(q[0] ^ c[0]) + popcount64_portable(q[1] ^ c[1]) +
                            popcount64_portable(q[2] ^ c[2]) + popcount64_portable(q[3] ^ c[3]));
    }
}

#if GLIMPSE_X86
AVX2_FN static void hamming64_avx2(uint64_t q, const uint64_t *codes, size_t n, uint16_t *out) {
    for (size_t i = 0; i < n; i++) out[i] = (uint16_t)_mm_popcnt_u64(q ^ codes[i]);
}
AVX2_FN static void hamming256_avx2(const uint64_t *q, const uint64_t *codes, size_t n, uint16_t *out) {
    const uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    for (size_t i = 0; i < n; i++) {
        const uint64_t *c = codes + 4 * i;
        out[i] = (uint16_t)(_mm_popcnt_u64(q0 ^ c[0]) + _mm_popcnt_u64(q1 ^ c[1]) +
                            _mm_popcnt_u64(q2 ^ c[2]) + _mm_popcnt_u64(q3 ^ c[3]));
    }
}

AVX512_FN static void hamming64_avx512(uint64_t q, const uint64_t *codes, size_t n, uint16_t *out) {
    const __m512i vq = _mm512_set1_epi64((long long)q);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512i p0 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i)));
        __m512i p1 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i + 8)));
        __m512i p2 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i + 16)));
        __m512i p3 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i + 24)));
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi64_epi16(p0));
        _mm_storeu_si128((__m128i *)(out + i + 8), _mm512_cvtepi64_epi16(p1));
        _mm_storeu_si128((__m128i *)(out + i + 16), _mm512_cvtepi64_epi16(p2));
        _mm_storeu_si128((__m128i *)(out + i + 24), _mm512_cvtepi64_epi16(p3));
    }
    for (; i + 8 <= n; i += 8) {
        __m512i p = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i)));
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi64_epi16(p));
    }
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        __m512i p = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_maskz_loadu_epi64(m, codes + i)));
        _mm512_mask_cvtepi64_storeu_epi16(out + i, m, p);
    }
}

/* Sum of the four 64-bit lanes of each 256-bit half, broadcast within that half. */
AVX512_FN static inline __m512i sum_halves(__m512i p) {
    __m512i s = _mm512_add_epi64(p, _mm512_shuffle_epi32(p, _MM_PERM_BADC));
    return _mm512_add_epi64(s, _mm512_shuffle_i64x2(s, s, 0xB1));
}

AVX512_FN static void hamming256_avx512(const uint64_t *q, const uint64_t *codes, size_t n, uint16_t *out) {
    const __m512i vq = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)q));
    const __m512i pick = _mm512_set_epi64(12, 8, 4, 0, 12, 8, 4, 0);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t *c = codes + 4 * i;
        __m512i r0 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c))));
        __m512i r1 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c + 8))));
        __m512i r2 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c + 16))));
        __m512i r3 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c + 24))));
        __m512i lo = _mm512_permutex2var_epi64(r0, pick, r1);
        __m512i hi = _mm512_permutex2var_epi64(r2, pick, r3);
        __m512i all = _mm512_mask_blend_epi64(0xF0, lo, hi);
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi64_epi16(all));
    }
    for (; i < n; i++) {
        const uint64_t *c = codes + 4 * i;
        out[i] = (uint16_t)(_mm_popcnt_u64(q[0] ^ c[0]) + _mm_popcnt_u64(q[1] ^ c[1]) +
                            _mm_popcnt_u64(q[2] ^ c[2]) + _mm_popcnt_u64(q[3] ^ c[3]));
    }
}
#endif

void glimpse_hamming64_distances(int isa, uint64_t query, const uint64_t *codes, size_t count, uint16_t *out) {
#if GLIMPSE_X86
    switch (glimpse_isa_effective(isa)) {
    case GLIMPSE_ISA_AVX512: hamming64_avx512(query, codes, count, out); return;
    case GLIMPSE_ISA_AVX2: hamming64_avx2(query, codes, count, out); return;
    default: break;
    }
#endif
    hamming64_portable(query, codes, count, out);
}

void glimpse_hamming256_distances(int isa, const uint64_t *query4, const uint64_t *codes, size_t count, uint16_t *out) {
#if GLIMPSE_X86
    switch (glimpse_isa_effective(isa)) {
    case GLIMPSE_ISA_AVX512: hamming256_avx512(query4, codes, count, out); return;
    case GLIMPSE_ISA_AVX2: hamming256_avx2(query4, codes, count, out); return;
    default: break;
    }
#endif
    hamming256_portable(query4, codes, count, out);
}

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
#if GLIMPSE_X86
    switch (glimpse_isa_effective(isa)) {
    case GLIMPSE_ISA_AVX512: return l1_avx512(a, b, n);
    case GLIMPSE_ISA_AVX2: return l1_avx2(a, b, n);
    default: break;
    }
#endif
    return l1_portable(a, b, n);
}

void glimpse_l1_u8x64_distances(int isa, const uint8_t *query64, const uint8_t *rows, size_t count, uint16_t *out) {
#if GLIMPSE_X86
    switch (glimpse_isa_effective(isa)) {
    case GLIMPSE_ISA_AVX512: l1x64_avx512(query64, rows, count, out); return;
    case GLIMPSE_ISA_AVX2: l1x64_avx2(query64, rows, count, out); return;
    default: break;
    }
#endif
    for (size_t i = 0; i < count; i++) out[i] = (uint16_t)l1_portable(query64, rows + 64 * i, 64);
}

/* ---- Luma ------------------------------------------------------------------------------ */

static const float kLumaR = 0.299f, kLumaG = 0.587f, kLumaB = 0.114f;

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
    DISPATCH(luma_rgba8, (src, sbpr, w, h, out, os))
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
    DISPATCH(luma_gray8, (src, sbpr, w, h, out, os))
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
    DISPATCH(luma_rgbaf, (src, ss, w, h, out, os))
}

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
        for (int i = 0; i < p3; i++, ri++, li++, oi++) {
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
VARIANTS(void, box_columns, (const float *in, size_t is, float *out, size_t os, int rows, int cols, int window),
         (in, is, out, os, rows, cols, window))
void glimpse_box_columns(int isa, const float *in, size_t is, float *out, size_t os, int rows, int cols, int window) {
    if (rows <= 0 || cols <= 0 || window <= 0 || window > rows) return;
    DISPATCH(box_columns, (in, is, out, os, rows, cols, window))
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
VARIANTS(void, box_rows, (const float *in, size_t is, float *out, size_t os, int rows, int cols, int window, float *scratch),
         (in, is, out, os, rows, cols, window, scratch))
void glimpse_box_rows(int isa, const float *in, size_t is, float *out, size_t os, int rows, int cols, int window,
                      float *scratch) {
    if (rows <= 0 || cols <= 0 || window <= 0 || window > cols) return;
    DISPATCH(box_rows, (in, is, out, os, rows, cols, window, scratch))
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
    DISPATCH(weighted_rows_u8, (src, ss, len, ts, tc, to, w, orows, out, os))
}

BODY void weighted_rows_f32_body(const float *src, size_t ss, int len, const int32_t *ts, const int32_t *tc,
                                 const int32_t *to, const float *w, int orows, float *out, size_t os) {
    for (int o = 0; o < orows; o++) {
        float *d = out + (size_t)o * os;
        for (int x0 = 0; x0 < len; x0 += ROW_CHUNK) {
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
    DISPATCH(weighted_rows_f32, (src, ss, len, ts, tc, to, w, orows, out, os))
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
    WEIGHTED_COLUMNS_BODY(float)
}
VARIANTS(void, weighted_columns_f32,
         (const float *src, size_t ss, int rows, int channels, const int32_t *ts, const int32_t *tc,
          const int32_t *to, const float *w, int ow, float *out, size_t os),
         (src, ss, rows, channels, ts, tc, to, w, ow, out, os))
void glimpse_weighted_columns_f32(int isa, const float *src, size_t ss, int rows, int channels, const int32_t *ts,
                                  const int32_t *tc, const int32_t *to, const float *w, int ow, float *out, size_t os) {
    DISPATCH(weighted_columns_f32, (src, ss, rows, channels, ts, tc, to, w, ow, out, os))
}

/* ---- Dense matrix product (DCT) --------------------------------------------------------- */

BODY void matmul_body(const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs, int m, int k, int n) {
    for (int i = 0; i < m; i++) {
        float *ci = c + (size_t)i * cs;
        for (int j = 0; j < n; j++) ci[j] = 0.0f;
        for (int kk = 0; kk < k; kk++) {
            const float aik = a[(size_t)i * as + kk];
            const float *bk = b + (size_t)kk * bs;
            for (int j = 0; j < n; j++) ci[j] += aik * bk[j];
        }
    }
}
VARIANTS(void, matmul, (const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs, int m, int k, int n),
         (a, as, b, bs, c, cs, m, k, n))
void glimpse_matmul_f32(int isa, const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs, int m, int k, int n) {
    DISPATCH(matmul, (a, as, b, bs, c, cs, m, k, n))
}

/* ---- HSV histogram ----------------------------------------------------------------------- */

/* Bin of one pixel; branch-free so that it vectorises. Layout (documented in
 * ColorHistogram.swift): 0…15 achromatic by value, 16 + hue*4 + sat*2 + val chromatic. */
BODY int hsv_bin(float r, float g, float b) {
    const float mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const float mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    const float delta = mx - mn;
    const int grey_level = (int)(mx * 0.0625f);                 /* 0…15 (mx ≤ 255) */
    const int achromatic = (mx < 51.0f) | (delta < 0.2f * mx);
    const float safe = delta > 0.0f ? delta : 1.0f;
    const float hr = (g - b) / safe;
    const float hg = 2.0f + (b - r) / safe;
    const float hb = 4.0f + (r - g) / safe;
    float h = (mx == r) ? hr : ((mx == g) ? hg : hb);
    h = h < 0.0f ? h + 6.0f : h;
    int hue = (int)(h * 2.0f + 0.5f);
    hue = hue >= 12 ? hue - 12 : hue;
    const int sat = delta >= 0.55f * mx;
    const int val = mx >= 153.0f;
    const int chroma_bin = 16 + hue * 4 + sat * 2 + val;
    const int grey_bin = grey_level > 15 ? 15 : grey_level;
    return achromatic ? grey_bin : chroma_bin;
}

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
    DISPATCH(hsv_histogram, (src, ss, w, h, counts))
}
