/*
 * JPEG encoding for Glimpse (used by the accuracy evaluation to make re-encoded queries).
 *
 * A narrow wrapper over libjpeg's compress API with setjmp/longjmp error handling:
 * no function here exits, aborts or prints. Kept apart from the decoder shim.
 */
#ifndef GLIMPSE_JPEG_ENCODE_H
#define GLIMPSE_JPEG_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome of glimpse_jpeg_encode. The message buffer says more. */
typedef enum {
    GLIMPSE_JPEG_ENCODE_OK = 0,
    /** A null pointer, a zero or too large size, a short row stride, bad channel count or quality. */
    GLIMPSE_JPEG_ENCODE_ARGUMENT = 1,
    /** Memory could not be allocated. */
    GLIMPSE_JPEG_ENCODE_MEMORY = 2,
    /** libjpeg reported an error while compressing. */
    GLIMPSE_JPEG_ENCODE_FAILED = 3,
} glimpse_jpeg_encode_status;

/**
 * Compresses 8-bit pixels to a baseline JPEG (4:2:0 chroma subsampling for colour).
 *
 * pixels:        row 0 first; row y starts at pixels + y * bytes_per_row.
 * channels:      1 (gray, encoded as a grayscale JPEG), 3 (RGB) or 4 (RGBA; alpha ignored).
 * quality:       1...100 (libjpeg's scale).
 * out, out_size: on success *out is a malloc'd buffer of *out_size bytes that the caller
 *                releases with glimpse_jpeg_encode_free; on failure *out is NULL.
 * message:       receives a NUL-terminated one-line reason on failure (may be NULL).
 *
 * Cost: O(width * height): one pass over the pixels, no copy of the input.
 */
glimpse_jpeg_encode_status glimpse_jpeg_encode(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
    int channels, int quality, uint8_t **out, size_t *out_size,
    char *message, size_t message_size);

/** Releases a buffer returned by glimpse_jpeg_encode. NULL is allowed. */
void glimpse_jpeg_encode_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif

#endif
