/*
 * popcount_limit COUNT REPEAT
 *
 * The hardware limit of an index scan: Hamming distances from one 64-bit query to
 * COUNT 64-bit codes (contiguous, deterministic pseudo-random), one distance byte out
 * per code. Each kernel the CPU supports runs REPEAT times after a warm-up; prints one
 * line per kernel: `name best_ms median_ms codes_per_second`. Every kernel's output is
 * checked against the scalar one.
 *   portable  bit-trick popcount (no POPCNT instruction)
 *   popcnt    scalar POPCNT
 *   avx2      AVX2 nibble-table popcount (vpshufb + vpsadbw)
 *   avx512    AVX-512 VPOPCNTQ, 8 codes per instruction, vpmovqb to bytes
 */
#include <immintrin.h>
#include <string.h>
#include "timing.h"

typedef void (*scan_fn)(const uint64_t *, size_t, uint64_t, uint8_t *);

static void scan_portable(const uint64_t *codes, size_t n, uint64_t q, uint8_t *out) {
    for (size_t i = 0; i < n; i++) {
        uint64_t x = codes[i] ^ q;
        x = x - ((x >> 1) & 0x5555555555555555ull);
        x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
        x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
        out[i] = (uint8_t)((x * 0x0101010101010101ull) >> 56);
    }
}

__attribute__((target("popcnt")))
static void scan_popcnt(const uint64_t *codes, size_t n, uint64_t q, uint8_t *out) {
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)__builtin_popcountll(codes[i] ^ q);
}

__attribute__((target("avx2")))
static void scan_avx2(const uint64_t *codes, size_t n, uint64_t q, uint8_t *out) {
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                           0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f), query = _mm256_set1_epi64x((long long)q);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(codes + i)), query);
        __m256i c = _mm256_add_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(x, low)),
                                    _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
        __m256i s = _mm256_sad_epu8(c, _mm256_setzero_si256());
        out[i] = (uint8_t)_mm256_extract_epi8(s, 0);
        out[i + 1] = (uint8_t)_mm256_extract_epi8(s, 8);
        out[i + 2] = (uint8_t)_mm256_extract_epi8(s, 16);
        out[i + 3] = (uint8_t)_mm256_extract_epi8(s, 24);
    }
    for (; i < n; i++) out[i] = (uint8_t)__builtin_popcountll(codes[i] ^ q);
}

__attribute__((target("avx512f,avx512vpopcntdq")))
static void scan_avx512(const uint64_t *codes, size_t n, uint64_t q, uint8_t *out) {
    const __m512i query = _mm512_set1_epi64((long long)q);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i a = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512(codes + i), query));
        __m512i b = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512(codes + i + 8), query));
        _mm_storel_epi64((__m128i *)(out + i), _mm512_cvtepi64_epi8(a));
        _mm_storel_epi64((__m128i *)(out + i + 8), _mm512_cvtepi64_epi8(b));
    }
    for (; i < n; i++) {
        uint64_t x = codes[i] ^ q;
        int c = 0;
        while (x) { x &= x - 1; c++; }
        out[i] = (uint8_t)c;
    }
}

static void run(const char *name, scan_fn fn, const uint64_t *codes, size_t n, const uint8_t *reference,
                uint8_t *out, int repeat) {
    uint64_t *t = malloc(sizeof(uint64_t) * (size_t)repeat);
    uint64_t q = 0x9e3779b97f4a7c15ull;
    fn(codes, n, q, out);
    if (reference && memcmp(out, reference, n) != 0) {
        fprintf(stderr, "popcount_limit: kernel %s disagrees with the scalar kernel\n", name);
        exit(1);
    }
    for (int r = 0; r < repeat; r++) {
        uint64_t t0 = now_ns();
        fn(codes, n, q, out);
        __asm__ volatile("" : : "r"(out) : "memory");
        t[r] = now_ns() - t0;
    }
    double med = median_ns(t, repeat);
    double best = (double)t[0];
    printf("%s %.4f %.4f %.4e\n", name, best / 1e6, med / 1e6, (double)n / (best / 1e9));
    free(t);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: popcount_limit COUNT REPEAT\n"); return 1; }
    size_t n = (size_t)strtoull(argv[1], NULL, 10);
    int repeat = atoi(argv[2]);
    if (n == 0 || repeat < 1) { fprintf(stderr, "popcount_limit: COUNT and REPEAT must be positive\n"); return 1; }
    uint64_t *codes = aligned_alloc(64, (n * 8 + 63) / 64 * 64);
    uint8_t *reference = malloc(n), *out = aligned_alloc(64, (n + 63) / 64 * 64);
    uint64_t s = 0x2545f4914f6cdd1dull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        codes[i] = s;
    }
    scan_portable(codes, n, 0x9e3779b97f4a7c15ull, reference);
    __builtin_cpu_init();
    run("portable", scan_portable, codes, n, reference, out, repeat);
    if (__builtin_cpu_supports("popcnt")) run("popcnt", scan_popcnt, codes, n, reference, out, repeat);
    if (__builtin_cpu_supports("avx2")) run("avx2", scan_avx2, codes, n, reference, out, repeat);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq"))
        run("avx512", scan_avx512, codes, n, reference, out, repeat);
    return 0;
}
