/*
 * The dense matrix product behind the DCTs of pHash and PDQ.
 */
#include "kernel_variants.h"

/* ---- Dense matrix product (DCT) --------------------------------------------------------- */

/* Each output is summed from 0.0f in k order. Blocks of 16 (then 8) outputs of a row keep
 * their sums in registers across the whole k loop; the order of every sum is unchanged. */
BODY void matmul_body(const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs, int m, int k, int n) {
    for (int i = 0; i < m; i++) {
        float *ci = c + (size_t)i * cs;
        const float *ai = a + (size_t)i * as;
        int j0 = 0;
        for (; j0 + 16 <= n; j0 += 16) {
            float acc[16];
            for (int j = 0; j < 16; j++) acc[j] = 0.0f;
            for (int kk = 0; kk < k; kk++) {
                const float aik = ai[kk];
                const float *bk = b + (size_t)kk * bs + j0;
                for (int j = 0; j < 16; j++) acc[j] += aik * bk[j];
            }
            for (int j = 0; j < 16; j++) ci[j0 + j] = acc[j];
        }
        for (; j0 + 8 <= n; j0 += 8) {
            float acc[8];
            for (int j = 0; j < 8; j++) acc[j] = 0.0f;
            for (int kk = 0; kk < k; kk++) {
                const float aik = ai[kk];
                const float *bk = b + (size_t)kk * bs + j0;
                for (int j = 0; j < 8; j++) acc[j] += aik * bk[j];
            }
            for (int j = 0; j < 8; j++) ci[j0 + j] = acc[j];
        }
        for (; j0 < n; j0++) {
            float acc = 0.0f;
            for (int kk = 0; kk < k; kk++) acc += ai[kk] * b[(size_t)kk * bs + j0];
            ci[j0] = acc;
        }
    }
}
static void matmul_portable(const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs, int m, int k, int n) {
    matmul_body(a, as, b, bs, c, cs, m, k, n);
}

#if GLIMPSE_X86
/* Register-blocked products for the DCT shapes: R rows × V vectors of outputs stay in
 * registers across the whole k loop (R·V independent chains instead of one), each output
 * still `acc = acc + a[i][kk] * b[kk][j]` from 0.0f in kk order (a separate multiply and
 * add, as the plain body): the same bits. */
#define MATMUL_BLOCK(VEC, ZERO, LOAD, STORE, SET1, MUL, ADD, LANES, R, V)                              \
    for (; i + R <= m; i += R) {                                                                      \
        VEC acc[R][V];                                                                                \
        for (int r = 0; r < R; r++)                                                                   \
            for (int v = 0; v < V; v++) acc[r][v] = ZERO();                                           \
        for (int kk = 0; kk < k; kk++) {                                                              \
            const float *bk = b + (size_t)kk * bs + j0;                                               \
            VEC bv[V];                                                                                \
            for (int v = 0; v < V; v++) bv[v] = LOAD(bk + LANES * v);                                 \
            for (int r = 0; r < R; r++) {                                                             \
                const VEC av = SET1(a[(size_t)(i + r) * as + kk]);                                    \
                for (int v = 0; v < V; v++) acc[r][v] = ADD(acc[r][v], MUL(av, bv[v]));               \
            }                                                                                         \
        }                                                                                             \
        for (int r = 0; r < R; r++)                                                                   \
            for (int v = 0; v < V; v++) STORE(c + (size_t)(i + r) * cs + j0 + LANES * v, acc[r][v]); \
    }

AVX512_FN static void matmul_avx512(const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs,
                                            int m, int k, int n) {
    int j0 = 0;
    for (; j0 + 64 <= n; j0 += 64) {
        int i = 0;
        MATMUL_BLOCK(__m512, _mm512_setzero_ps, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_mul_ps,
                     _mm512_add_ps, 16, 4, 4)
        if (i < m) matmul_body(a + (size_t)i * as, as, b + j0, bs, c + (size_t)i * cs + j0, cs, m - i, k, 64);
    }
    for (; j0 + 32 <= n; j0 += 32) {
        int i = 0;
        MATMUL_BLOCK(__m512, _mm512_setzero_ps, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_mul_ps,
                     _mm512_add_ps, 16, 8, 2)
        if (i < m) matmul_body(a + (size_t)i * as, as, b + j0, bs, c + (size_t)i * cs + j0, cs, m - i, k, 32);
    }
    for (; j0 + 16 <= n; j0 += 16) {
        int i = 0;
        MATMUL_BLOCK(__m512, _mm512_setzero_ps, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_mul_ps,
                     _mm512_add_ps, 16, 8, 1)
        if (i < m) matmul_body(a + (size_t)i * as, as, b + j0, bs, c + (size_t)i * cs + j0, cs, m - i, k, 16);
    }
    if (j0 < n) matmul_body(a, as, b + j0, bs, c + j0, cs, m, k, n - j0);
}

AVX2_FN static void matmul_avx2(const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs,
                                        int m, int k, int n) {
    int j0 = 0;
    for (; j0 + 32 <= n; j0 += 32) {
        int i = 0;
        /* 2 rows × 4 vectors: 8 chains, and the DCTs' 16 and 8 rows split evenly (3 rows left
         * one PDQ row in 16 and two pHash rows in 8 to the unblocked body). */
        MATMUL_BLOCK(__m256, _mm256_setzero_ps, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_mul_ps,
                     _mm256_add_ps, 8, 2, 4)
        if (i < m) matmul_body(a + (size_t)i * as, as, b + j0, bs, c + (size_t)i * cs + j0, cs, m - i, k, 32);
    }
    for (; j0 + 8 <= n; j0 += 8) {
        int i = 0;
        MATMUL_BLOCK(__m256, _mm256_setzero_ps, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_mul_ps,
                     _mm256_add_ps, 8, 8, 1)
        if (i < m) matmul_body(a + (size_t)i * as, as, b + j0, bs, c + (size_t)i * cs + j0, cs, m - i, k, 8);
    }
    if (j0 < n) matmul_body(a, as, b + j0, bs, c + j0, cs, m, k, n - j0);
}
#undef MATMUL_BLOCK
#endif

void glimpse_matmul_f32(int isa, const float *a, size_t as, const float *b, size_t bs, float *c, size_t cs, int m, int k, int n) {
    VARIANT(isa, matmul)(a, as, b, bs, c, cs, m, k, n);
}
