/* Internal helpers shared by the PNG and JPEG halves of the shim. Not part of the API. */
#ifndef GLIMPSE_CODECS_INTERNAL_H
#define GLIMPSE_CODECS_INTERNAL_H

#include "CImageCodecs.h"

/** What a codec run should do: read the header only, plan the output, or decode. */
typedef enum {
    GLIMPSE_MODE_PROBE = 0,
    GLIMPSE_MODE_PLAN = 1,
    GLIMPSE_MODE_DECODE = 2,
} glimpse_mode;

/** One request to a codec, with everything it may fill. */
typedef struct {
    const uint8_t *data;
    size_t size;
    glimpse_mode mode;
    const glimpse_decode_options *options; /* non-NULL for plan and decode */
    glimpse_image_info *info;              /* always non-NULL */
    glimpse_decode_result *result;         /* non-NULL for plan and decode */
    uint8_t *destination;                  /* caller's buffer or NULL */
    size_t destination_size;
    char *message;
    size_t message_size;
    glimpse_row_sink row_sink;             /* glimpse_decode_rows only: rows go here, no buffer */
    void *row_sink_context;
} glimpse_request;

/** printf-style into the request's message buffer (truncating, always terminated). */
void glimpse_set_message(const glimpse_request *request, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/** Checks the declared size against the cap; sets the message and returns TOO_LARGE when over. */
glimpse_status glimpse_check_cap(const glimpse_request *request, uint64_t width, uint64_t height);

/**
 * Validates the region against the scaled image size and fills result->width/height.
 * Region width and height both 0 mean the whole image.
 */
glimpse_status glimpse_resolve_region(const glimpse_request *request, uint32_t scaled_width,
                                      uint32_t scaled_height, uint32_t *x, uint32_t *y,
                                      uint32_t *width, uint32_t *height);

glimpse_status glimpse_png_run(const glimpse_request *request);
glimpse_status glimpse_jpeg_run(const glimpse_request *request);
glimpse_status glimpse_webp_run(const glimpse_request *request);
glimpse_status glimpse_heif_run(const glimpse_request *request);

/**
 * The picture size the HEIF decode running on this thread expects from the codec (the
 * declared ispe or tile size), 0 x 0 when unknown; read by the HEVC and AV1 plugins
 * (heif_hevc_plugin.c, heif_av1_plugin.c), set by heif_codec.c around each decode.
 */
void glimpse_heif_expected_picture_size(int *width, int *height);

/** Scaled length as libjpeg computes it: ceil(length * num / 8). */
static inline uint32_t glimpse_scaled_length(uint32_t length, int num) {
    return (uint32_t)(((uint64_t)length * (uint64_t)num + 7) / 8);
}

/** Output buffer for a decode: the caller's (checked against `needed`) or malloc'd; NULL on failure (message set). */
uint8_t *glimpse_output_buffer(const glimpse_request *request, size_t needed, glimpse_status *status);

#endif
