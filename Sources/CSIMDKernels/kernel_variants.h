/*
 * What every kernel file of CSIMDKernels shares, in one place (private to the module): the
 * instruction-set attributes, the one way to instantiate a kernel for each path
 * (VARIANTS), the one way to dispatch to a path (VARIANT), and the portable popcount.
 *
 * How the paths are kept identical:
 *  - Float kernels are written once as an always-inline "body" and instantiated three
 *    times: plain (x86-64 baseline), target("avx2,popcnt") and target("avx512f,...").
 *    The compiler vectorises the bodies across independent outputs; without -ffast-math
 *    it may not reassociate, and FP_CONTRACT OFF (below, so in every file) forbids fusing
 *    a*b+c into an FMA, so every output is the same sequence of IEEE operations on every path.
 *  - Integer kernels (popcount, SAD) use explicit intrinsics where that pays and are
 *    exact by construction.
 *
 * A kernel `name` has the variants name_portable, name_avx2 and name_avx512 (x86; only
 * name_portable elsewhere), written by hand or by VARIANTS; its public function calls
 * VARIANT(isa, name)(arguments).
 */
#ifndef GLIMPSE_KERNEL_VARIANTS_H
#define GLIMPSE_KERNEL_VARIANTS_H

#pragma STDC FP_CONTRACT OFF

#include "CSIMDKernels.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#define GLIMPSE_X86 1
#include <immintrin.h>
#define AVX2_FN __attribute__((target("avx2,popcnt")))
#define AVX512_FN __attribute__((target("avx512f,avx512bw,avx512vpopcntdq,avx2,popcnt")))
#else
#define GLIMPSE_X86 0
#endif

#define BODY static inline __attribute__((always_inline))

/* Instantiates `name` once per path around the always-inline `name##_body`. */
#if GLIMPSE_X86
#define VARIANTS(ret, name, params, args)                                             \
    static ret name##_portable params { name##_body args; }                           \
    AVX2_FN static ret name##_avx2 params { name##_body args; }                       \
    AVX512_FN static ret name##_avx512 params { name##_body args; }
#define VARIANTS_RETURNING(ret, name, params, args)                                   \
    static ret name##_portable params { return name##_body args; }                    \
    AVX2_FN static ret name##_avx2 params { return name##_body args; }                \
    AVX512_FN static ret name##_avx512 params { return name##_body args; }
#else
#define VARIANTS(ret, name, params, args)                                             \
    static ret name##_portable params { name##_body args; }
#define VARIANTS_RETURNING(ret, name, params, args)                                   \
    static ret name##_portable params { return name##_body args; }
#endif

/* The variant of kernel `name` for the instruction set `isa` allows on this CPU
 * (glimpse_isa_effective), as a function: VARIANT(isa, l1)(a, b, n). */
#if GLIMPSE_X86
#define VARIANT(isa, name)                                                            \
    (__extension__({                                                                  \
        const int glimpse_effective_isa_ = glimpse_isa_effective(isa);               \
        glimpse_effective_isa_ == GLIMPSE_ISA_AVX512 ? name##_avx512                  \
        : glimpse_effective_isa_ == GLIMPSE_ISA_AVX2 ? name##_avx2                    \
                                                      : name##_portable;              \
    }))
#else
#define VARIANT(isa, name) name##_portable
#endif

/* Popcount by the bit trick, so the portable path never depends on a POPCNT instruction. */
static inline unsigned popcount64_portable(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (unsigned)((x * 0x0101010101010101ULL) >> 56);
}

#endif /* GLIMPSE_KERNEL_VARIANTS_H */
