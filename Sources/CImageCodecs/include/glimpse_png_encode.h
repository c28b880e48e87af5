/*
 * PNG encoding for Glimpse (lossless copies of evaluation queries, for comparisons with
 * other tools). libpng's simplified write API, which handles its own errors: no function
 * here exits, aborts or prints. Kept apart from the decoder shim.
 */
#ifndef GLIMPSE_PNG_ENCODE_H
#define GLIMPSE_PNG_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome of glimpse_png_encode. The message buffer says more. */
typedef enum {
    GLIMPSE_PNG_ENCODE_OK = 0,
    /** A null pointer, a zero size, a short row stride or a bad channel count. */
    GLIMPSE_PNG_ENCODE_ARGUMENT = 1,
    /** Memory could not be allocated. */
    GLIMPSE_PNG_ENCODE_MEMORY = 2,
    /** libpng reported an error while writing. */
    GLIMPSE_PNG_ENCODE_FAILED = 3,
} glimpse_png_encode_status;

/**
 * Writes 8-bit pixels as a PNG (colour type gray for 1 channel, RGBA for 4).
 *
 * pixels:        row 0 first; row y starts at pixels + y * bytes_per_row.
 * channels:      1 (gray) or 4 (RGBA, alpha kept).
 * out, out_size: on success *out is a malloc'd buffer of *out_size bytes that the caller
 *                releases with glimpse_png_encode_free; on failure *out is NULL.
 * message:       receives a NUL-terminated one-line reason on failure (may be NULL).
 *
 * Cost: O(width * height) plus zlib compression at libpng's default level.
 */
glimpse_png_encode_status glimpse_png_encode(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row, int channels,
    uint8_t **out, size_t *out_size, char *message, size_t message_size);

/** Releases a buffer returned by glimpse_png_encode. NULL is allowed. */
void glimpse_png_encode_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif

#endif
