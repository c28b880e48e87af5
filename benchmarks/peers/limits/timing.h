/*
 * Shared helpers for the hardware-limit timing programs of compare-peers.sh:
 * a monotonic clock, reading a whole file, and the median of a sample.
 * Measurement tools only; they are built by the script into a temporary folder.
 */
#ifndef PEERS_TIMING_H
#define PEERS_TIMING_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/** Monotonic time in nanoseconds. */
static inline uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/** Reads the whole file into a malloc'd buffer; exits with a message on failure (tool, not library). */
static inline unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "%s: cannot open\n", path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n <= 0) { fprintf(stderr, "%s: empty\n", path); exit(1); }
    unsigned char *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "%s: cannot read\n", path); exit(1); }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/** Sorts the sample in place and returns its median (mean of the middle two for even n). */
static inline double median_ns(uint64_t *t, int n) {
    qsort(t, (size_t)n, sizeof t[0], compare_u64);
    return n % 2 ? (double)t[n / 2] : 0.5 * ((double)t[n / 2 - 1] + (double)t[n / 2]);
}

#endif
