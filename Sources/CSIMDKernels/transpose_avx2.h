/*
 * 8 × 8 float transposes in AVX2 registers, and the strips built from them: shared by the
 * box filters (pdq_hash.c) and the weighted column sums (resample.c). Private to the module.
 */
#ifndef GLIMPSE_TRANSPOSE_AVX2_H
#define GLIMPSE_TRANSPOSE_AVX2_H

#include "kernel_variants.h"

#if GLIMPSE_X86
/* out[k][j] = in[j][k] for an 8x8 block of floats (rows `is` / `os` floats apart).
 * The cross-lane step is done by the loads (each ymm gets four floats of row k and four of
 * row k + 4), and half of the in-lane 4x4 step by blends, so only 12 of the shuffles
 * compete for the shuffle port (24 with perm2f128 for the cross-lane step). */
AVX2_FN static inline __m256 load_halves(const float *lo, const float *hi) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1);
}
/* The transpose of the 8x8 block whose row k is the 8 floats at p[k]. */
AVX2_FN static inline void transpose8x8_rows_avx2(const float *const p[8], float *out, size_t os) {
    /* rk = [p[k][0..3], p[k+4][0..3]], r(k+4) = [p[k][4..7], p[k+4][4..7]] for k < 4: a
     * 4x4 transpose inside each 128-bit lane of (r0, r1, r2, r3) gives out rows 0..3 whole,
     * of (r4 … r7) out rows 4..7. */
    const __m256 r0 = load_halves(p[0], p[4]), r1 = load_halves(p[1], p[5]), r2 = load_halves(p[2], p[6]),
                 r3 = load_halves(p[3], p[7]), r4 = load_halves(p[0] + 4, p[4] + 4), r5 = load_halves(p[1] + 4, p[5] + 4),
                 r6 = load_halves(p[2] + 4, p[6] + 4), r7 = load_halves(p[3] + 4, p[7] + 4);
    /* Per lane, (a, b, c, d) → t0 = a0 b0 a1 b1, t1 = a2 b2 a3 b3, t2 = c0 d0 c1 d1, t3 = c2 d2 c3 d3;
     * v = a1 b1 c0 d0; out0 = a0 b0 c0 d0 = blend(t0, v); out1 = a1 b1 c1 d1 = blend(v, t2). */
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
                 t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
                 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 v0 = _mm256_shuffle_ps(t0, t2, 0x4E), v1 = _mm256_shuffle_ps(t1, t3, 0x4E),
                 v2 = _mm256_shuffle_ps(t4, t6, 0x4E), v3 = _mm256_shuffle_ps(t5, t7, 0x4E);
    _mm256_storeu_ps(out, _mm256_blend_ps(t0, v0, 0xCC));
    _mm256_storeu_ps(out + os, _mm256_blend_ps(v0, t2, 0xCC));
    _mm256_storeu_ps(out + 2 * os, _mm256_blend_ps(t1, v1, 0xCC));
    _mm256_storeu_ps(out + 3 * os, _mm256_blend_ps(v1, t3, 0xCC));
    _mm256_storeu_ps(out + 4 * os, _mm256_blend_ps(t4, v2, 0xCC));
    _mm256_storeu_ps(out + 5 * os, _mm256_blend_ps(v2, t6, 0xCC));
    _mm256_storeu_ps(out + 6 * os, _mm256_blend_ps(t5, v3, 0xCC));
    _mm256_storeu_ps(out + 7 * os, _mm256_blend_ps(v3, t7, 0xCC));
}
/* out[k][j] = in[j][k] for an 8x8 block of floats (rows `is` / `os` floats apart). */
AVX2_FN static inline void transpose8x8_avx2(const float *in, size_t is, float *out, size_t os) {
    const float *const p[8] = {in, in + is, in + 2 * is, in + 3 * is, in + 4 * is, in + 5 * is, in + 6 * is, in + 7 * is};
    transpose8x8_rows_avx2(p, out, os);
}

/* Transposes rows r0 … r0+7 of `in` into an n×8 strip `a` (a[c*8 + j] = in[r0+j][c]). */
AVX2_FN static inline void strip_in_avx2(const float *s, size_t is, int cols, float *a) {
    const int cols8 = cols & ~7;
    for (int c = 0; c < cols8; c += 8) transpose8x8_avx2(s + c, is, a + (size_t)c * 8, 8);
    for (int c = cols8; c < cols; c++)
        for (int j = 0; j < 8; j++) a[(size_t)c * 8 + j] = s[(size_t)j * is + c];
}
/* The inverse of strip_in_avx2. */
AVX2_FN static inline void strip_out_avx2(const float *b, int cols, float *d, size_t os) {
    const int cols8 = cols & ~7;
    for (int c = 0; c < cols8; c += 8) transpose8x8_avx2(b + (size_t)c * 8, 8, d + c, os);
    for (int c = cols8; c < cols; c++)
        for (int j = 0; j < 8; j++) d[(size_t)j * os + c] = b[(size_t)c * 8 + j];
}
#endif

#endif /* GLIMPSE_TRANSPOSE_AVX2_H */
