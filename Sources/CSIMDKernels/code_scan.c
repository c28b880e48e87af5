/*
 * The first stage's kernels over 128-bit codes (two 64-bit words each, struct of codes):
 * distances to a table of centroids, and the radius filter over one inverted list. Each
 * has a portable, an AVX2 (scalar POPCNT) and an AVX-512 (VPOPCNTDQ) variant with
 * identical results (integer arithmetic only).
 */
#include "kernel_variants.h"

/* The body of both kernels for one code k at distance d, per variant. */
#define CODE_FILTER_TAIL(popcount)                                                            \
    for (; k < count; k++) {                                                                  \
        unsigned d = popcount(codes2[2 * k] ^ low) + popcount(codes2[2 * k + 1] ^ high);      \
        if ((refs[k] & required) == required && d <= radius) {                                \
            hits[found] = refs[k];                                                            \
            distances[found] = (uint8_t)d;                                                    \
            found++;                                                                          \
        }                                                                                     \
    }

static void code_distances_portable(uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out) {
    for (size_t k = 0; k < count; k++) out[k] = (uint8_t)(popcount64_portable(codes2[2 * k] ^ low) + popcount64_portable(codes2[2 * k + 1] ^ high));
}

static size_t code_within_portable(uint64_t low, uint64_t high, const uint64_t *codes2, const uint32_t *refs, size_t count,
                                   uint32_t required, unsigned radius, uint32_t *hits, uint8_t *distances) {
    size_t found = 0, k = 0;
    CODE_FILTER_TAIL(popcount64_portable)
    return found;
}

#if GLIMPSE_X86
AVX2_FN static inline unsigned code_popcnt(uint64_t x) { return (unsigned)__builtin_popcountll(x); }

AVX2_FN static void code_distances_avx2(uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out) {
    for (size_t k = 0; k < count; k++) out[k] = (uint8_t)(code_popcnt(codes2[2 * k] ^ low) + code_popcnt(codes2[2 * k + 1] ^ high));
}

/* Branch-free: every code's reference and distance are written at `found`, which moves on
 * only for a hit (a hit rate of a few per cent in the lists near a query made the branch
 * of the tail loop mispredict often). Same hits, same order as the other paths. */
AVX2_FN static size_t code_within_avx2(uint64_t low, uint64_t high, const uint64_t *codes2, const uint32_t *refs, size_t count,
                                                uint32_t required, unsigned radius, uint32_t *hits, uint8_t *distances) {
    size_t found = 0;
    for (size_t k = 0; k < count; k++) {
        const unsigned d = code_popcnt(codes2[2 * k] ^ low) + code_popcnt(codes2[2 * k + 1] ^ high);
        const uint32_t ref = refs[k];
        hits[found] = ref;
        distances[found] = (uint8_t)d;
        found += (size_t)((d <= radius) & ((ref & required) == required));
    }
    return found;
}

/* Distances of 8 codes (16 words at p), one per 64-bit lane: popcounts per word, each pair summed. */
AVX512_FN static inline __m512i code_distances8_avx512(const uint64_t *p, __m512i query) {
    __m512i a = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)p), query));
    __m512i b = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(p + 8)), query));
    /* a = (l0,h0,l1,h1,l2,h2,l3,h3): even lanes plus odd lanes, of a then b. */
    const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_add_epi64(_mm512_permutex2var_epi64(a, even, b), _mm512_permutex2var_epi64(a, odd, b));
}

AVX512_FN static void code_distances_avx512(uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out) {
    const __m512i query = _mm512_set_epi64((long long)high, (long long)low, (long long)high, (long long)low,
                                           (long long)high, (long long)low, (long long)high, (long long)low);
    size_t k = 0;
    for (; k + 8 <= count; k += 8) _mm_storel_epi64((__m128i *)(out + k), _mm512_cvtepi64_epi8(code_distances8_avx512(codes2 + 2 * k, query)));
    for (; k < count; k++) out[k] = (uint8_t)(code_popcnt(codes2[2 * k] ^ low) + code_popcnt(codes2[2 * k + 1] ^ high));
}

AVX512_FN static size_t code_within_avx512(uint64_t low, uint64_t high, const uint64_t *codes2, const uint32_t *refs, size_t count,
                                                uint32_t required, unsigned radius, uint32_t *hits, uint8_t *distances) {
    const __m512i query = _mm512_set_epi64((long long)high, (long long)low, (long long)high, (long long)low,
                                           (long long)high, (long long)low, (long long)high, (long long)low);
    const __m512i limit = _mm512_set1_epi64((long long)radius);
    size_t found = 0, k = 0;
    for (; k + 8 <= count; k += 8) {
        __m512i d = code_distances8_avx512(codes2 + 2 * k, query);
        unsigned mask = (unsigned)_mm512_cmple_epu64_mask(d, limit);
        if (!mask) continue;
        uint8_t lanes[16];
        _mm_storeu_si128((__m128i *)lanes, _mm512_cvtepi64_epi8(d));
        while (mask) {
            unsigned j = (unsigned)__builtin_ctz(mask);
            mask &= mask - 1;
            if ((refs[k + j] & required) == required) {
                hits[found] = refs[k + j];
                distances[found] = lanes[j];
                found++;
            }
        }
    }
    CODE_FILTER_TAIL(code_popcnt)
    return found;
}
#endif

void glimpse_code128_distances(int isa, uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out) {
    VARIANT(isa, code_distances)(low, high, codes2, count, out);
}

size_t glimpse_code128_within(int isa, uint64_t low, uint64_t high, const uint64_t *codes2, const uint32_t *refs, size_t count,
                              uint32_t required, int radius, uint32_t *hits, uint8_t *distances) {
    if (radius < 0 || count == 0) return 0;
    const unsigned r = (unsigned)(radius > 128 ? 128 : radius);
    return VARIANT(isa, code_within)(low, high, codes2, refs, count, required, r, hits, distances);
}
