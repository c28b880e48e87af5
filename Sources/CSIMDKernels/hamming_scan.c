/*
 * Hamming distances over 64- and 256-bit codes and the radius filters over them (only
 * the codes within a radius come out). Integer arithmetic: every path gives the same answers.
 */
#include "kernel_variants.h"

/* ---- Hamming ------------------------------------------------------------------------ */


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
    VARIANT(isa, hamming64)(query, codes, count, out);
}

void glimpse_hamming256_distances(int isa, const uint64_t *query4, const uint64_t *codes, size_t count, uint16_t *out) {
    VARIANT(isa, hamming256)(query4, codes, count, out);
}

/* ---- Hamming filters: only the codes within a radius come out -------------------------------- */

/* Each variant scans codes in index order and appends (index, distance) of every code within
 * max_distance until `capacity` entries are written; *scanned tells how far it got. */
#define WITHIN_PUSH(i, d)                                                                          \
    do {                                                                                           \
        indices[found] = (uint32_t)(i);                                                            \
        distances[found] = (uint16_t)(d);                                                          \
        if (++found == capacity) { *scanned = (size_t)(i) + 1; return found; }                    \
    } while (0)

static size_t within64_portable(uint64_t q, const uint64_t *codes, size_t n, unsigned maxd, uint32_t *indices,
                                uint16_t *distances, size_t capacity, size_t *scanned) {
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned d = popcount64_portable(q ^ codes[i]);
        if (d <= maxd) WITHIN_PUSH(i, d);
    }
    *scanned = n;
    return found;
}
static inline unsigned popcount256_portable(const uint64_t *q, const uint64_t *c) {
    return popcount64_portable(q[0] ^ c[0]) + popcount64_portable(q[1] ^ c[1]) + popcount64_portable(q[2] ^ c[2]) +
           popcount64_portable(q[3] ^ c[3]);
}
static size_t within256_portable(const uint64_t *q, const uint64_t *codes, size_t n, unsigned maxd, uint32_t *indices,
                                 uint16_t *distances, size_t capacity, size_t *scanned) {
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned d = popcount256_portable(q, codes + 4 * i);
        if (d <= maxd) WITHIN_PUSH(i, d);
    }
    *scanned = n;
    return found;
}

#if GLIMPSE_X86
AVX2_FN static size_t within64_avx2(uint64_t q, const uint64_t *codes, size_t n, unsigned maxd, uint32_t *indices,
                                    uint16_t *distances, size_t capacity, size_t *scanned) {
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned d = (unsigned)_mm_popcnt_u64(q ^ codes[i]);
        if (__builtin_expect(d <= maxd, 0)) WITHIN_PUSH(i, d);
    }
    *scanned = n;
    return found;
}
AVX2_FN static inline unsigned popcount256_popcnt(const uint64_t *q, const uint64_t *c) {
    return (unsigned)(_mm_popcnt_u64(q[0] ^ c[0]) + _mm_popcnt_u64(q[1] ^ c[1]) + _mm_popcnt_u64(q[2] ^ c[2]) +
                      _mm_popcnt_u64(q[3] ^ c[3]));
}
AVX2_FN static size_t within256_avx2(const uint64_t *q, const uint64_t *codes, size_t n, unsigned maxd,
                                     uint32_t *indices, uint16_t *distances, size_t capacity, size_t *scanned) {
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned d = popcount256_popcnt(q, codes + 4 * i);
        if (__builtin_expect(d <= maxd, 0)) WITHIN_PUSH(i, d);
    }
    *scanned = n;
    return found;
}

/* 32 codes per step: VPOPCNTQ, one unsigned compare against the radius per 8 codes, and
 * the four masks tested together; only the (rare) hits leave the vector unit. */
AVX512_FN static size_t within64_avx512(uint64_t q, const uint64_t *codes, size_t n, unsigned maxd,
                                        uint32_t *indices, uint16_t *distances, size_t capacity, size_t *scanned) {
    const __m512i vq = _mm512_set1_epi64((long long)q), vm = _mm512_set1_epi64((long long)maxd);
    size_t found = 0, i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512i p0 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i)));
        const __m512i p1 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i + 8)));
        const __m512i p2 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i + 16)));
        const __m512i p3 = _mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(codes + i + 24)));
        uint32_t m = (uint32_t)_mm512_cmple_epu64_mask(p0, vm) | ((uint32_t)_mm512_cmple_epu64_mask(p1, vm) << 8) |
                     ((uint32_t)_mm512_cmple_epu64_mask(p2, vm) << 16) | ((uint32_t)_mm512_cmple_epu64_mask(p3, vm) << 24);
        while (__builtin_expect(m != 0, 0)) {
            const size_t k = i + (size_t)__builtin_ctz(m);
            m &= m - 1;
            WITHIN_PUSH(k, _mm_popcnt_u64(q ^ codes[k]));
        }
    }
    for (; i < n; i++) {
        const unsigned d = (unsigned)_mm_popcnt_u64(q ^ codes[i]);
        if (d <= maxd) WITHIN_PUSH(i, d);
    }
    *scanned = n;
    return found;
}

/* 8 codes (8 zmm words… 4 loads) per step; distances as in hamming256_avx512. */
AVX512_FN static size_t within256_avx512(const uint64_t *q, const uint64_t *codes, size_t n, unsigned maxd,
                                         uint32_t *indices, uint16_t *distances, size_t capacity, size_t *scanned) {
    const __m512i vq = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)q));
    const __m512i pick = _mm512_set_epi64(12, 8, 4, 0, 12, 8, 4, 0);
    const __m512i vm = _mm512_set1_epi64((long long)maxd);
    size_t found = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t *c = codes + 4 * i;
        const __m512i r0 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c))));
        const __m512i r1 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c + 8))));
        const __m512i r2 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c + 16))));
        const __m512i r3 = sum_halves(_mm512_popcnt_epi64(_mm512_xor_si512(vq, _mm512_loadu_si512(c + 24))));
        const __m512i lo = _mm512_permutex2var_epi64(r0, pick, r1);
        const __m512i hi = _mm512_permutex2var_epi64(r2, pick, r3);
        uint32_t m = (uint32_t)_mm512_cmple_epu64_mask(_mm512_mask_blend_epi64(0xF0, lo, hi), vm);
        while (__builtin_expect(m != 0, 0)) {
            const size_t k = i + (size_t)__builtin_ctz(m);
            m &= m - 1;
            WITHIN_PUSH(k, popcount256_popcnt(q, codes + 4 * k));
        }
    }
    for (; i < n; i++) {
        const unsigned d = popcount256_popcnt(q, codes + 4 * i);
        if (d <= maxd) WITHIN_PUSH(i, d);
    }
    *scanned = n;
    return found;
}
#endif
#undef WITHIN_PUSH

size_t glimpse_hamming64_within(int isa, uint64_t query, const uint64_t *codes, size_t count, int max_distance,
                                uint32_t *indices, uint16_t *distances, size_t capacity, size_t *scanned) {
    *scanned = count;
    if (max_distance < 0 || capacity == 0 || count == 0) return 0;
    const unsigned maxd = (unsigned)max_distance;
    return VARIANT(isa, within64)(query, codes, count, maxd, indices, distances, capacity, scanned);
}

size_t glimpse_hamming256_within(int isa, const uint64_t *query4, const uint64_t *codes, size_t count, int max_distance,
                                 uint32_t *indices, uint16_t *distances, size_t capacity, size_t *scanned) {
    *scanned = count;
    if (max_distance < 0 || capacity == 0 || count == 0) return 0;
    const unsigned maxd = (unsigned)max_distance;
    return VARIANT(isa, within256)(query4, codes, count, maxd, indices, distances, capacity, scanned);
}
