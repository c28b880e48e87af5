/*
 * The CPU probe: the best instruction set this CPU (and GLIMPSE_ISA) allows, and the
 * effective one for a request. Every kernel dispatches through glimpse_isa_effective.
 */
#include "kernel_variants.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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
    /* GLIMPSE_ISA=portable|avx2|avx512 caps the whole process (benchmarks force each path). */
    const char *cap = getenv("GLIMPSE_ISA");
    if (cap) {
        if (strcmp(cap, "portable") == 0) isa = GLIMPSE_ISA_PORTABLE;
        else if (strcmp(cap, "avx2") == 0 && isa > GLIMPSE_ISA_AVX2) isa = GLIMPSE_ISA_AVX2;
    }
    atomic_store_explicit(&cached_best_isa, isa, memory_order_relaxed);
    return isa;
}

int glimpse_isa_effective(int requested) {
    int best = glimpse_cpu_best_isa();
    if (requested < 0) return GLIMPSE_ISA_PORTABLE;
    return requested < best ? requested : best;
}
