/*
 * The visual index's kernels: the PDQ radius scan over word planes (many query codes in
 * one pass over the catalog's memory) and the snapshot checksum. Each has a portable,
 * an AVX2 and an AVX-512 variant with identical results (integer arithmetic only).
 */
#include "kernel_variants.h"

/* ---- PDQ plane scan ------------------------------------------------------------------ */

/* Emits the hits of code i (all queries, in query order). */
#define PLANE_PUSH(i, j, d)                                                                         \
    do {                                                                                            \
        indices[found] = (uint32_t)(i);                                                             \
        queries_out[found] = (uint16_t)(j);                                                         \
        distances[found] = (uint16_t)(d);                                                           \
        found++;                                                                                    \
    } while (0)

static inline unsigned plane_distance_portable(const uint64_t *q, const uint64_t *p, size_t stride, size_t i) {
    return popcount64_portable(q[0] ^ p[i]) + popcount64_portable(q[1] ^ p[stride + i]) +
           popcount64_portable(q[2] ^ p[2 * stride + i]) + popcount64_portable(q[3] ^ p[3 * stride + i]);
}

static size_t planes_within_portable(const uint64_t *q, size_t nq, const uint64_t *p, size_t stride, size_t n,
                                     unsigned maxd, uint32_t *indices, uint16_t *queries_out, uint16_t *distances,
                                     size_t capacity, size_t *scanned) {
    size_t found = 0, i = 0;
    for (; i < n; i++) {
        if (found + nq > capacity) break;
        const uint64_t w0 = p[i], w1 = p[stride + i], w2 = p[2 * stride + i], w3 = p[3 * stride + i];
        for (size_t j = 0; j < nq; j++) {
            const uint64_t *qj = q + 4 * j;
            const unsigned d = popcount64_portable(qj[0] ^ w0) + popcount64_portable(qj[1] ^ w1) + popcount64_portable(qj[2] ^ w2) +
                               popcount64_portable(qj[3] ^ w3);
            if (d <= maxd) PLANE_PUSH(i, j, d);
        }
    }
    *scanned = i;
    return found;
}

#if GLIMPSE_X86
/* Hits of the codes i0 + k (k a set bit of `any`), code-major then query order, with the
 * distances the vector loop stored (dist[g·j + k], written only for queries with a hit). */
static inline size_t planes_emit_stored(size_t nq, size_t i0, uint32_t any, const uint32_t *masks, const uint64_t *dist,
                                        size_t g, uint32_t *indices, uint16_t *queries_out, uint16_t *distances,
                                        size_t found) {
    while (any) {
        const unsigned k = (unsigned)__builtin_ctz(any);
        any &= any - 1;
        for (size_t j = 0; j < nq; j++)
            if ((masks[j] >> k) & 1u) PLANE_PUSH(i0 + k, j, dist[g * j + k]);
    }
    return found;
}

/* 4 codes per step (one ymm per plane), popcount by nibble lookup (Mula): the catalog words
 * are split into low and high nibbles once per step and every query's nibbles once per call,
 * so per query and word only two xors and two lookups remain; the 8 lookups (≤ 4 each) are
 * added bytewise (≤ 32), one vpsadbw gives the 4 distances, one compare with the radius. */
AVX2_FN static size_t planes_within_avx2(const uint64_t *q, size_t nq, const uint64_t *p, size_t stride, size_t n,
                                              unsigned maxd, uint32_t *indices, uint16_t *queries_out,
                                              uint16_t *distances, size_t capacity, size_t *scanned) {
    size_t found = 0, i = 0;
    const __m256i vmax = _mm256_set1_epi64x((long long)maxd), zero = _mm256_setzero_si256();
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                                         2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0F);
    /* Query nibbles, split once: nib[8j + 2w] = low nibbles of word w, nib[8j + 2w + 1] = high. */
    __m256i nib[8 * GLIMPSE_PLANE_SCAN_MAX_QUERIES];
    for (size_t j = 0; j < nq; j++)
        for (int w = 0; w < 4; w++) {
            const __m256i v = _mm256_set1_epi64x((long long)q[4 * j + w]);
            nib[8 * j + 2 * w] = _mm256_and_si256(v, low);
            nib[8 * j + 2 * w + 1] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
        }
    uint32_t masks[GLIMPSE_PLANE_SCAN_MAX_QUERIES];
    uint64_t dist[4 * GLIMPSE_PLANE_SCAN_MAX_QUERIES];
    for (; i + 4 <= n; i += 4) {
        if (found + 4 * nq > capacity) { *scanned = i; return found; }
        __m256i c[8];
        for (int w = 0; w < 4; w++) {
            const __m256i v = _mm256_loadu_si256((const __m256i *)(p + w * stride + i));
            c[2 * w] = _mm256_and_si256(v, low);
            c[2 * w + 1] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
        }
        uint32_t any = 0;
        for (size_t j = 0; j < nq; j++) {
            const __m256i *qn = nib + 8 * j;
            __m256i s0 = _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_xor_si256(c[0], qn[0])),
                                         _mm256_shuffle_epi8(lut, _mm256_xor_si256(c[1], qn[1])));
            __m256i s1 = _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_xor_si256(c[2], qn[2])),
                                         _mm256_shuffle_epi8(lut, _mm256_xor_si256(c[3], qn[3])));
            __m256i s2 = _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_xor_si256(c[4], qn[4])),
                                         _mm256_shuffle_epi8(lut, _mm256_xor_si256(c[5], qn[5])));
            __m256i s3 = _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_xor_si256(c[6], qn[6])),
                                         _mm256_shuffle_epi8(lut, _mm256_xor_si256(c[7], qn[7])));
            const __m256i d = _mm256_sad_epu8(_mm256_add_epi8(_mm256_add_epi8(s0, s1), _mm256_add_epi8(s2, s3)), zero);
            const uint32_t m = (~(uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(d, vmax)))) & 0xFu;
            masks[j] = m;
            if (__builtin_expect(m != 0, 0)) _mm256_storeu_si256((__m256i *)(dist + 4 * j), d);
            any |= m;
        }
        if (__builtin_expect(any != 0, 0))
            found = planes_emit_stored(nq, i, any, masks, dist, 4, indices, queries_out, distances, found);
    }
    for (; i < n; i++) {
        if (found + nq > capacity) break;
        for (size_t j = 0; j < nq; j++) {
            const unsigned d = plane_distance_portable(q + 4 * j, p, stride, i);
            if (d <= maxd) PLANE_PUSH(i, j, d);
        }
    }
    *scanned = i;
    return found;
}


/* 8 codes per step (one zmm per plane): VPOPCNTQ of the four planes added, one unsigned
 * compare with the radius per query; only the rare hits leave the vector unit (their
 * distances stored as computed, never recomputed). */
AVX512_FN static size_t planes_within_avx512(const uint64_t *q, size_t nq, const uint64_t *p, size_t stride,
                                                  size_t n, unsigned maxd, uint32_t *indices, uint16_t *queries_out,
                                                  uint16_t *distances, size_t capacity, size_t *scanned) {
    size_t found = 0, i = 0;
    const __m512i vmax = _mm512_set1_epi64((long long)maxd);
    uint32_t masks[GLIMPSE_PLANE_SCAN_MAX_QUERIES];
    uint64_t dist[8 * GLIMPSE_PLANE_SCAN_MAX_QUERIES];
    for (; i + 8 <= n; i += 8) {
        if (found + 8 * nq > capacity) { *scanned = i; return found; }
        const __m512i w0 = _mm512_loadu_si512(p + i);
        const __m512i w1 = _mm512_loadu_si512(p + stride + i);
        const __m512i w2 = _mm512_loadu_si512(p + 2 * stride + i);
        const __m512i w3 = _mm512_loadu_si512(p + 3 * stride + i);
        uint32_t any = 0;
        for (size_t j = 0; j < nq; j++) {
            const uint64_t *qj = q + 4 * j;
            const __m512i a = _mm512_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(w0, _mm512_set1_epi64((long long)qj[0]))),
                                               _mm512_popcnt_epi64(_mm512_xor_si512(w1, _mm512_set1_epi64((long long)qj[1]))));
            const __m512i b = _mm512_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(w2, _mm512_set1_epi64((long long)qj[2]))),
                                               _mm512_popcnt_epi64(_mm512_xor_si512(w3, _mm512_set1_epi64((long long)qj[3]))));
            const __m512i d = _mm512_add_epi64(a, b);
            const uint32_t m = (uint32_t)_mm512_cmple_epu64_mask(d, vmax);
            masks[j] = m;
            if (__builtin_expect(m != 0, 0)) _mm512_storeu_si512(dist + 8 * j, d);
            any |= m;
        }
        if (__builtin_expect(any != 0, 0))
            found = planes_emit_stored(nq, i, any, masks, dist, 8, indices, queries_out, distances, found);
    }
    for (; i < n; i++) {
        if (found + nq > capacity) break;
        for (size_t j = 0; j < nq; j++) {
            const unsigned d = plane_distance_portable(q + 4 * j, p, stride, i);
            if (d <= maxd) PLANE_PUSH(i, j, d);
        }
    }
    *scanned = i;
    return found;
}
#endif
#undef PLANE_PUSH

size_t glimpse_pdq_planes_within(int isa, const uint64_t *queries4, size_t query_count, int max_distance,
                                 const uint64_t *planes, size_t plane_stride, size_t count, uint32_t *indices,
                                 uint16_t *query_indices, uint16_t *distances, size_t capacity, size_t *scanned) {
    *scanned = count;
    if (max_distance < 0 || count == 0 || query_count == 0) return 0;
    if (query_count > GLIMPSE_PLANE_SCAN_MAX_QUERIES || capacity < GLIMPSE_PLANE_SCAN_MIN_CAPACITY(query_count)) {
        *scanned = 0;
        return 0;
    }
    const unsigned maxd = (unsigned)max_distance;
    return VARIANT(isa, planes_within)(queries4, query_count, planes, plane_stride, count, maxd, indices, query_indices,
                                  distances, capacity, scanned);
}

/* ---- Checksum ------------------------------------------------------------------------ */

/* 8 lanes of 64-bit accumulators over 64-byte blocks, each word w of lane l:
 *   v = w ^ key[l];  acc[l] += (v & 0xFFFFFFFF) * (v >> 32) + w;
 * every 16 blocks (1 KiB) each lane is scrambled: acc ^= acc >> 47; acc = lo32(acc)·P + (hi32(acc)·P << 32)
 * (order-dependent across kilobytes). The tail (< 64 bytes) is zero-padded into one more block;
 * the length and the lanes are mixed at the end. Integer-exact on every path. */
static const uint64_t checksum_keys[8] = {
    0xbe4ba423396cfeb8ULL, 0x1cad21f72c81017cULL, 0xdb979083e96dd4deULL, 0x1f67b3b7a4a44072ULL,
    0x78e5c0cc4ee679cbULL, 0x2172ffcc7dd05a82ULL, 0x8e2443f7744608b8ULL, 0x4c263a81e69035e0ULL,
};
#define CHECKSUM_PRIME 0x9E3779B1ULL
#define CHECKSUM_STRIPE 16

static inline uint64_t checksum_scramble(uint64_t a) {
    a ^= a >> 47;
    return (a & 0xFFFFFFFFULL) * CHECKSUM_PRIME + (((a >> 32) * CHECKSUM_PRIME) << 32);
}

static inline void checksum_block_portable(uint64_t acc[8], const uint8_t *b) {
    for (int l = 0; l < 8; l++) {
        uint64_t w;
        __builtin_memcpy(&w, b + 8 * l, 8);
        const uint64_t v = w ^ checksum_keys[l];
        acc[l] += (v & 0xFFFFFFFFULL) * (v >> 32) + w;
    }
}

static uint64_t checksum_finish(uint64_t acc[8], const uint8_t *tail, size_t tail_len, size_t blocks_done, size_t n) {
    if (tail_len > 0) {
        uint8_t last[64] = {0};
        __builtin_memcpy(last, tail, tail_len);
        checksum_block_portable(acc, last);
        if ((blocks_done + 1) % CHECKSUM_STRIPE == 0)
            for (int l = 0; l < 8; l++) acc[l] = checksum_scramble(acc[l]);
    }
    uint64_t h = (uint64_t)n * 0x9E3779B97F4A7C15ULL;
    for (int l = 0; l < 8; l++) {
        h ^= checksum_scramble(acc[l] + checksum_keys[l]);
        h = (h << 27 | h >> 37) * 0xC2B2AE3D27D4EB4FULL;
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    return h;
}

static uint64_t checksum_portable(const uint8_t *data, size_t n) {
    uint64_t acc[8] = {0};
    const size_t blocks = n / 64;
    for (size_t b = 0; b < blocks; b++) {
        checksum_block_portable(acc, data + 64 * b);
        if ((b + 1) % CHECKSUM_STRIPE == 0)
            for (int l = 0; l < 8; l++) acc[l] = checksum_scramble(acc[l]);
    }
    return checksum_finish(acc, data + 64 * blocks, n % 64, blocks, n);
}

#if GLIMPSE_X86
/* The vector paths take one stripe (16 blocks, 1 KiB) per iteration: a stripe's blocks are
 * summed into the lanes mod 2^64 before its scramble, so they may be summed in any order
 * (here into independent accumulators, so the adds do not wait on each other), and the
 * stripe CHECKSUM_PREFETCH bytes ahead is asked for (a 122 MB snapshot was checked in
 * 10.6–11.9 ms before, 8.6–9.5 ms with both, one core of the Intel VM of docs/PERFORMANCE.md;
 * the same bits). Blocks after the last whole stripe go one at a time, as the portable path. */
#define CHECKSUM_STRIPE_BYTES (64 * CHECKSUM_STRIPE)
#define CHECKSUM_PREFETCH 4096

/* Asks for the stripe CHECKSUM_PREFETCH bytes past stripe `s` when it lies inside the data. */
static inline void checksum_prefetch(const uint8_t *data, size_t n, size_t s) {
    const size_t ahead = CHECKSUM_STRIPE_BYTES * s + CHECKSUM_PREFETCH;
    if (ahead + CHECKSUM_STRIPE_BYTES > n) return;
    for (size_t line = 0; line < CHECKSUM_STRIPE_BYTES; line += 256) _mm_prefetch((const char *)data + ahead + line, _MM_HINT_T0);
}

/* One block's term per lane, (w ^ key)_lo · (w ^ key)_hi + w (checksum_block_portable). */
AVX2_FN static inline __m256i checksum_term_avx2(__m256i w, __m256i key) {
    const __m256i v = _mm256_xor_si256(w, key);
    return _mm256_add_epi64(_mm256_mul_epu32(v, _mm256_srli_epi64(v, 32)), w);
}

AVX2_FN static inline __m256i checksum_scramble_avx2(__m256i a) {
    const __m256i prime = _mm256_set1_epi64x((long long)CHECKSUM_PRIME);
    a = _mm256_xor_si256(a, _mm256_srli_epi64(a, 47));
    const __m256i lo = _mm256_mul_epu32(a, prime);
    const __m256i hi = _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), prime), 32);
    return _mm256_add_epi64(lo, hi);
}

AVX2_FN static uint64_t checksum_avx2(const uint8_t *data, size_t n) {
    const __m256i k0 = _mm256_loadu_si256((const __m256i *)checksum_keys);
    const __m256i k1 = _mm256_loadu_si256((const __m256i *)(checksum_keys + 4));
    __m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
    const size_t blocks = n / 64, stripes = blocks / CHECKSUM_STRIPE;
    for (size_t s = 0; s < stripes; s++) {
        checksum_prefetch(data, n, s);
        const uint8_t *stripe = data + CHECKSUM_STRIPE_BYTES * s;
        __m256i s0[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
        __m256i s1[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
        for (int b = 0; b < CHECKSUM_STRIPE; b++) {
            s0[b & 1] = _mm256_add_epi64(s0[b & 1], checksum_term_avx2(_mm256_loadu_si256((const __m256i *)(stripe + 64 * b)), k0));
            s1[b & 1] = _mm256_add_epi64(s1[b & 1], checksum_term_avx2(_mm256_loadu_si256((const __m256i *)(stripe + 64 * b + 32)), k1));
        }
        a0 = checksum_scramble_avx2(_mm256_add_epi64(a0, _mm256_add_epi64(s0[0], s0[1])));
        a1 = checksum_scramble_avx2(_mm256_add_epi64(a1, _mm256_add_epi64(s1[0], s1[1])));
    }
    for (size_t b = stripes * CHECKSUM_STRIPE; b < blocks; b++) {
        a0 = _mm256_add_epi64(a0, checksum_term_avx2(_mm256_loadu_si256((const __m256i *)(data + 64 * b)), k0));
        a1 = _mm256_add_epi64(a1, checksum_term_avx2(_mm256_loadu_si256((const __m256i *)(data + 64 * b + 32)), k1));
    }
    uint64_t acc[8];
    _mm256_storeu_si256((__m256i *)acc, a0);
    _mm256_storeu_si256((__m256i *)(acc + 4), a1);
    return checksum_finish(acc, data + 64 * blocks, n % 64, blocks, n);
}

AVX512_FN static inline __m512i checksum_term_avx512(__m512i w, __m512i keys) {
    const __m512i v = _mm512_xor_si512(w, keys);
    return _mm512_add_epi64(_mm512_mul_epu32(v, _mm512_srli_epi64(v, 32)), w);
}

AVX512_FN static inline __m512i checksum_scramble_avx512(__m512i a) {
    const __m512i prime = _mm512_set1_epi64((long long)CHECKSUM_PRIME);
    a = _mm512_xor_si512(a, _mm512_srli_epi64(a, 47));
    return _mm512_add_epi64(_mm512_mul_epu32(a, prime), _mm512_slli_epi64(_mm512_mul_epu32(_mm512_srli_epi64(a, 32), prime), 32));
}

AVX512_FN static uint64_t checksum_avx512(const uint8_t *data, size_t n) {
    const __m512i keys = _mm512_loadu_si512(checksum_keys);
    __m512i acc = _mm512_setzero_si512();
    const size_t blocks = n / 64, stripes = blocks / CHECKSUM_STRIPE;
    for (size_t s = 0; s < stripes; s++) {
        checksum_prefetch(data, n, s);
        const uint8_t *stripe = data + CHECKSUM_STRIPE_BYTES * s;
        __m512i sum[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
        for (int b = 0; b < CHECKSUM_STRIPE; b++)
            sum[b & 3] = _mm512_add_epi64(sum[b & 3], checksum_term_avx512(_mm512_loadu_si512(stripe + 64 * b), keys));
        acc = checksum_scramble_avx512(
            _mm512_add_epi64(acc, _mm512_add_epi64(_mm512_add_epi64(sum[0], sum[1]), _mm512_add_epi64(sum[2], sum[3]))));
    }
    for (size_t b = stripes * CHECKSUM_STRIPE; b < blocks; b++)
        acc = _mm512_add_epi64(acc, checksum_term_avx512(_mm512_loadu_si512(data + 64 * b), keys));
    uint64_t lanes[8];
    _mm512_storeu_si512(lanes, acc);
    return checksum_finish(lanes, data + 64 * blocks, n % 64, blocks, n);
}
#endif

uint64_t glimpse_checksum64(int isa, const void *data, size_t n) {
    const uint8_t *bytes = (const uint8_t *)data;
    return VARIANT(isa, checksum)(bytes, n);
}

/* ---- Block checksums -------------------------------------------------------------------- */

static inline uint64_t load_le64(const uint8_t *p) {
    uint64_t v;
    __builtin_memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

void glimpse_block_checksums(int isa, const void *data, size_t n, size_t block_size, void *table) {
    const uint8_t *bytes = (const uint8_t *)data;
    uint8_t *out = (uint8_t *)table;
    if (block_size == 0) return;
    for (size_t b = 0; b * block_size < n; b++) {
        const size_t start = b * block_size, len = n - start < block_size ? n - start : block_size;
        uint64_t v = glimpse_checksum64(isa, bytes + start, len);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v);
#endif
        __builtin_memcpy(out + 8 * b, &v, 8);
    }
}

size_t glimpse_verify_blocks(int isa, const void *data, size_t n, size_t block_size, const void *table,
                             uint64_t *verified, size_t first, size_t end) {
    const uint8_t *bytes = (const uint8_t *)data, *entries = (const uint8_t *)table;
    if (block_size == 0) return end;
    const size_t blocks = (n + block_size - 1) / block_size;
    if (end > blocks) end = blocks;
    for (size_t b = first; b < end; b++) {
        const uint64_t bit = (uint64_t)1 << (b % 64);
        /* Acquire: a bit seen set was set after its block matched (release below). */
        if (__atomic_load_n(&verified[b / 64], __ATOMIC_ACQUIRE) & bit) continue;
        const size_t start = b * block_size, len = n - start < block_size ? n - start : block_size;
        if (glimpse_checksum64(isa, bytes + start, len) != load_le64(entries + 8 * b)) return b;
        __atomic_fetch_or(&verified[b / 64], bit, __ATOMIC_RELEASE);
    }
    return end;
}
