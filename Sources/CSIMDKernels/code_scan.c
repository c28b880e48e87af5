/*
 * The first stage's kernels over 128-bit codes (two 64-bit words each, struct of codes):
 * distances to a table of centroids, and the scan of one inverted list for one or several
 * query codes into each owner's nearest distance. Each has a portable, an AVX2 (scalar POPCNT) and an AVX-512 (VPOPCNTDQ)
 * variant with identical results (integer arithmetic only).
 */
#include "kernel_variants.h"

/* Lowers an owner's nearest distance to d, keeping `counts` (owners per nearest distance
 * within the radius) in step. */
#define CODE_LOWER(owner, d)                                                                  \
    do {                                                                                      \
        uint8_t old = nearest[owner];                                                         \
        if ((d) < old) {                                                                      \
            if (old <= radius) counts[old]--;                                                 \
            counts[(d)]++;                                                                    \
            nearest[owner] = (uint8_t)(d);                                                    \
        }                                                                                     \
    } while (0)

static void code_distances_portable(uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out) {
    for (size_t k = 0; k < count; k++) out[k] = (uint8_t)(popcount64_portable(codes2[2 * k] ^ low) + popcount64_portable(codes2[2 * k + 1] ^ high));
}

/* The tail of the many-query kernel for code k: its nearest distance over the query codes. */
#define CODE_NEAREST_MANY_TAIL(popcount)                                                      \
    for (; k < count; k++) {                                                                  \
        unsigned d = 129;                                                                     \
        for (size_t q = 0; q < nq; q++) {                                                     \
            unsigned e = popcount(codes2[2 * k] ^ queries2[2 * q]) + popcount(codes2[2 * k + 1] ^ queries2[2 * q + 1]); \
            d = e < d ? e : d;                                                                \
        }                                                                                     \
        if (d <= radius) {                                                                    \
            uint32_t owner = refs[k] & mask;                                                  \
            within++;                                                                         \
            if (owner < owners) CODE_LOWER(owner, d);                                         \
        }                                                                                     \
    }

static size_t code_nearest_many_portable(const uint64_t *queries2, size_t nq, const uint64_t *codes2, const uint32_t *refs, size_t count,
                                         uint32_t mask, unsigned radius, uint8_t *nearest, size_t owners, uint32_t *counts) {
    size_t within = 0, k = 0;
    CODE_NEAREST_MANY_TAIL(popcount64_portable)
    return within;
}

#if GLIMPSE_X86
AVX2_FN static inline unsigned code_popcnt(uint64_t x) { return (unsigned)__builtin_popcountll(x); }

AVX2_FN static void code_distances_avx2(uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out) {
    for (size_t k = 0; k < count; k++) out[k] = (uint8_t)(code_popcnt(codes2[2 * k] ^ low) + code_popcnt(codes2[2 * k + 1] ^ high));
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

AVX2_FN static size_t code_nearest_many_avx2(const uint64_t *queries2, size_t nq, const uint64_t *codes2, const uint32_t *refs, size_t count,
                                             uint32_t mask, unsigned radius, uint8_t *nearest, size_t owners, uint32_t *counts) {
    size_t within = 0, k = 0;
    CODE_NEAREST_MANY_TAIL(code_popcnt)
    return within;
}

/* Eight codes at a time: each query's distances (code_distances8_avx512), their minimum per
 * lane, then each lane within the radius lowers its owner's entry. */
AVX512_FN static size_t code_nearest_many_avx512(const uint64_t *queries2, size_t nq, const uint64_t *codes2, const uint32_t *refs, size_t count,
                                                 uint32_t mask, unsigned radius, uint8_t *nearest, size_t owners, uint32_t *counts) {
    const __m512i limit = _mm512_set1_epi64((long long)radius);
    size_t within = 0, k = 0;
    for (; k + 8 <= count; k += 8) {
        __m512i d = _mm512_set1_epi64(129);
        for (size_t q = 0; q < nq; q++) {
            const __m512i query = _mm512_set_epi64((long long)queries2[2 * q + 1], (long long)queries2[2 * q], (long long)queries2[2 * q + 1], (long long)queries2[2 * q],
                                                   (long long)queries2[2 * q + 1], (long long)queries2[2 * q], (long long)queries2[2 * q + 1], (long long)queries2[2 * q]);
            d = _mm512_min_epu64(d, code_distances8_avx512(codes2 + 2 * k, query));
        }
        unsigned hit = (unsigned)_mm512_cmple_epu64_mask(d, limit);
        if (!hit) continue;
        uint8_t lanes[16];
        _mm_storeu_si128((__m128i *)lanes, _mm512_cvtepi64_epi8(d));
        while (hit) {
            unsigned j = (unsigned)__builtin_ctz(hit);
            hit &= hit - 1;
            uint32_t owner = refs[k + j] & mask;
            within++;
            if (owner < owners) CODE_LOWER(owner, lanes[j]);
        }
    }
    CODE_NEAREST_MANY_TAIL(code_popcnt)
    return within;
}
#endif

void glimpse_code128_distance_histogram(int isa, uint64_t low, uint64_t high, const uint64_t *codes2, size_t count, uint8_t *out,
                                        uint32_t *histogram) {
    VARIANT(isa, code_distances)(low, high, codes2, count, out);
    /* Four partial histograms: neighbouring distances are often equal (most centroids sit
     * near 64), and one table would wait on its own last store at every step. */
    uint32_t part[4][129] = {{0}};
    size_t k = 0;
    for (; k + 4 <= count; k += 4) {
        part[0][out[k]]++;
        part[1][out[k + 1]]++;
        part[2][out[k + 2]]++;
        part[3][out[k + 3]]++;
    }
    for (; k < count; k++) part[0][out[k]]++;
    for (int d = 0; d <= 128; d++) histogram[d] += part[0][d] + part[1][d] + part[2][d] + part[3][d];
}

/* The scalar definition from position k on, n positions already written: every variant's
 * tail, and the whole of the portable one. Writes indices[n] before knowing whether it
 * counts (no branch); n <= k < count, so the write stays inside the room for count. */
static inline size_t bytes_at_most_from(const uint8_t *values, size_t k, size_t count, uint8_t limit, uint32_t *indices, size_t n) {
    for (; k < count; k++) {
        indices[n] = (uint32_t)k;
        n += values[k] <= limit;
    }
    return n;
}

static size_t bytes_at_most_portable(const uint8_t *values, size_t count, uint8_t limit, uint32_t *indices) {
    return bytes_at_most_from(values, 0, count, limit, indices, 0);
}

#if GLIMPSE_X86
/* 32 bytes at a time: min(v, limit) == v where v <= limit, a bit per byte. */
AVX2_FN static size_t bytes_at_most_avx2(const uint8_t *values, size_t count, uint8_t limit, uint32_t *indices) {
    const __m256i bound = _mm256_set1_epi8((char)limit);
    size_t n = 0, k = 0;
    for (; k + 32 <= count; k += 32) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(values + k));
        uint32_t hit = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(v, bound), v));
        while (hit) {
            indices[n++] = (uint32_t)(k + (size_t)__builtin_ctz(hit));
            hit &= hit - 1;
        }
    }
    return bytes_at_most_from(values, k, count, limit, indices, n);
}

/* 64 bytes at a time with one unsigned byte compare into a mask. */
AVX512_FN static size_t bytes_at_most_avx512(const uint8_t *values, size_t count, uint8_t limit, uint32_t *indices) {
    const __m512i bound = _mm512_set1_epi8((char)limit);
    size_t n = 0, k = 0;
    for (; k + 64 <= count; k += 64) {
        uint64_t hit = (uint64_t)_mm512_cmple_epu8_mask(_mm512_loadu_si512((const void *)(values + k)), bound);
        while (hit) {
            indices[n++] = (uint32_t)(k + (size_t)__builtin_ctzll(hit));
            hit &= hit - 1;
        }
    }
    return bytes_at_most_from(values, k, count, limit, indices, n);
}
#endif

size_t glimpse_bytes_at_most(int isa, const uint8_t *values, size_t count, uint8_t limit, uint32_t *indices) {
    if (count == 0) return 0;
    return VARIANT(isa, bytes_at_most)(values, count, limit, indices);
}

size_t glimpse_code128_nearest(int isa, uint64_t low, uint64_t high, const uint64_t *codes2, const uint32_t *refs, size_t count,
                               uint32_t mask, int radius, uint8_t *nearest, size_t owners, uint32_t *counts) {
    const uint64_t query[2] = {low, high};
    return glimpse_code128_nearest_many(isa, query, 1, codes2, refs, count, mask, radius, nearest, owners, counts);
}

size_t glimpse_code128_nearest_many(int isa, const uint64_t *queries2, size_t query_count, const uint64_t *codes2, const uint32_t *refs,
                                    size_t count, uint32_t mask, int radius, uint8_t *nearest, size_t owners, uint32_t *counts) {
    if (radius < 0 || count == 0 || query_count == 0) return 0;
    const unsigned r = (unsigned)(radius > 128 ? 128 : radius);
    return VARIANT(isa, code_nearest_many)(queries2, query_count, codes2, refs, count, mask, r, nearest, owners, counts);
}
