/*
 * The cores this process may run on. sched_getaffinity needs _GNU_SOURCE before any
 * system header, hence a file of its own.
 */
#define _GNU_SOURCE
#include <sched.h>

#include "CSIMDKernels.h"

int glimpse_cpu_available_cores(void) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    const int cores = CPU_COUNT(&set);
    return cores > 0 ? cores : 1;
#else
    return 1;
#endif
}
