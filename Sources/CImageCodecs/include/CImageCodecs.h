/*
 * CImageCodecs: a narrow C shim over libpng, libjpeg-turbo, libwebp and libheif for Glimpse.
 *
 * Everything that needs setjmp/longjmp (libjpeg's error_exit, libpng's classic API)
 * or a codec's own types (libwebp's configs, libheif's contexts and handles) lives
 * behind these few functions. No function here exits, aborts or prints: every
 * failure comes back as a glimpse_status code plus a one-line message.
 *
 * Coordinates are in the *stored* orientation (EXIF orientation is the caller's job;
 * glimpse_probe only reports the tag). HEIF/AVIF: "stored" means after the file's own
 * transformations (clap, irot, imir), which libheif applies; the reported orientation is
 * then the EXIF tag only when the primary image has no irot/imir, otherwise 1. Output is RGBA8 (4 bytes per pixel) or, for
 * grayscale JPEG when the caller allows it, Gray8 (1 byte per pixel).
 */
#ifndef GLIMPSE_CIMAGECODECS_H
#define GLIMPSE_CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Container format, detected from the leading bytes only. */
typedef enum {
    GLIMPSE_FORMAT_UNKNOWN = 0,
    GLIMPSE_FORMAT_PNG = 1,
    GLIMPSE_FORMAT_JPEG = 2,
    /** RIFF....WEBP (lossy VP8, lossless VP8L, extended VP8X with alpha or animation). */
    GLIMPSE_FORMAT_WEBP = 3,
    /** ISO BMFF with an `ftyp` of a HEIF brand (heic, heix, mif1, ...): HEVC through libheif. */
    GLIMPSE_FORMAT_HEIF = 4,
    /** ISO BMFF with an `ftyp` of an AVIF brand (avif, avis): AV1 through libheif. */
    GLIMPSE_FORMAT_AVIF = 5,
} glimpse_format;

/** Outcome of a shim call. The message buffer says more. */
typedef enum {
    GLIMPSE_OK = 0,
    /** Zero bytes of input. */
    GLIMPSE_ERR_EMPTY = 1,
    /** No signature of a supported format. */
    GLIMPSE_ERR_UNRECOGNIZED = 2,
    /** The codec found invalid data (bad marker, CRC, Huffman code, ...). */
    GLIMPSE_ERR_CORRUPT = 3,
    /** The data ends before the image does. */
    GLIMPSE_ERR_TRUNCATED = 4,
    /** Valid but not supported here (12-bit JPEG, ...). */
    GLIMPSE_ERR_UNSUPPORTED = 5,
    /** The declared width x height exceeds the caller's pixel cap. */
    GLIMPSE_ERR_TOO_LARGE = 6,
    /** The region is empty or not inside the (scaled) image. */
    GLIMPSE_ERR_REGION = 7,
    /** malloc failed, or the caller's buffer is too small. */
    GLIMPSE_ERR_MEMORY = 8,
    /** An argument is invalid (bad scale, null pointer). */
    GLIMPSE_ERR_ARGUMENT = 9,
} glimpse_status;

/** What a header says about an image. Filled by glimpse_probe. */
typedef struct {
    glimpse_format format;
    /** Stored width and height in pixels. */
    uint32_t width;
    uint32_t height;
    /** Channels in the file: 1 gray, 2 gray+alpha, 3 colour, 4 colour+alpha or CMYK. */
    int components;
    /** Bits per sample as stored (PNG 1..16, JPEG 8 or 12). */
    int bit_depth;
    /** EXIF orientation tag 1..8; 1 when absent or unreadable. */
    int orientation;
    /** 1 when the file is interlaced PNG or progressive JPEG. */
    int interlaced;
    /** 1 when decoding yields Gray8 if the caller allows gray output (gray JPEG). */
    int is_gray;
    /** 1 when the pixels carry alpha (PNG with alpha channel or tRNS, WebP/HEIF alpha). */
    int has_alpha;
    /** 1 when the primary image of a HEIF/AVIF is a grid of tiles. */
    int is_grid;
    /** Number of frames (animated WebP) or top-level images (HEIF); 1 otherwise. */
    int image_count;
    /** 1 when glimpse_decode accepts scale_num other than 8 (JPEG DCT scaling, WebP scaler). */
    int can_scale;
} glimpse_image_info;

/** How to decode. Zero-initialise, then set what you need. */
typedef struct {
    /** Scale numerator over 8: 1, 2, 4 or 8 (0 means 8); only where info.can_scale (JPEG, WebP). */
    int scale_num;
    /** Region in the coordinates of the *scaled* stored image; width 0 means the whole image. */
    uint32_t region_x;
    uint32_t region_y;
    uint32_t region_width;
    uint32_t region_height;
    /** Refuse images whose declared width*height exceeds this (0 means no cap). */
    uint64_t max_pixels;
    /** 1: return a damaged image (corrupt data / premature end) instead of failing. */
    int allow_damaged;
    /** 1: gray JPEGs decode to Gray8; 0: everything decodes to RGBA8. */
    int allow_gray;
} glimpse_decode_options;

/** What glimpse_decode produced. */
typedef struct {
    /** The pixels: shim-malloc'd (free with glimpse_free) unless the caller passed a buffer. */
    uint8_t *pixels;
    uint32_t width;
    uint32_t height;
    /** 4 (RGBA8) or 1 (Gray8). */
    int channels;
    /** Bytes per row; always width * channels. */
    size_t bytes_per_row;
    /** Size of the scaled stored image the region was taken from. */
    uint32_t scaled_width;
    uint32_t scaled_height;
    /** 1 when allow_damaged was set and the codec reported damage; message holds the first warning. */
    int damaged;
} glimpse_decode_result;

/** Detects the format from the first bytes. O(1). */
glimpse_format glimpse_detect_format(const uint8_t *data, size_t size);

/**
 * Reads the header (and, for JPEG, markers up to the first scan; for PNG, chunks up
 * to IDAT) and fills *info. Allocates only small codec state. Returns GLIMPSE_OK or
 * an error with a message in message[0..message_size).
 */
glimpse_status glimpse_probe(const uint8_t *data, size_t size, glimpse_image_info *info,
                             char *message, size_t message_size);

/**
 * Works out the output of a decode without decoding (info, if non-NULL, gets the header): the scaled image size, the output
 * width/height/channels and the bytes needed. Checks the pixel cap and the region.
 */
glimpse_status glimpse_plan(const uint8_t *data, size_t size, const glimpse_decode_options *options,
                            glimpse_image_info *info, glimpse_decode_result *plan, char *message, size_t message_size);

/**
 * Decodes (a region of) the image. If destination is non-NULL it must hold at least
 * destination_size bytes (see glimpse_plan); otherwise the shim mallocs the pixels and
 * the caller frees them with glimpse_free. The pixel cap is checked from the header
 * before any pixel memory is allocated.
 */
glimpse_status glimpse_decode(const uint8_t *data, size_t size, const glimpse_decode_options *options,
                              uint8_t *destination, size_t destination_size,
                              glimpse_image_info *info, glimpse_decode_result *result, char *message, size_t message_size);

/** Receives one decoded row: `row` holds width * channels bytes, valid only during the call. */
typedef void (*glimpse_row_sink)(void *context, uint32_t y, const uint8_t *row);

/**
 * Decodes a whole, non-interlaced PNG or a whole JPEG (region and allow_damaged unset; a
 * JPEG at options->scale_num, Gray8 rows when grey and allow_gray, else RGBA8) and hands
 * each row, top to bottom, to sink(context, y, row) instead of storing it: no pixel buffer
 * is allocated (result->pixels stays NULL; the other result fields are set as by
 * glimpse_decode; a JPEG is decoded in bands of at most 16 rows). The rows equal those
 * glimpse_decode writes. Anything else (another format, an interlaced PNG, a region,
 * allow_damaged) returns GLIMPSE_ERR_UNSUPPORTED before decoding: decode into a buffer
 * instead. On failure the sink may already have received some rows.
 */
glimpse_status glimpse_decode_rows(const uint8_t *data, size_t size, const glimpse_decode_options *options,
                                   glimpse_row_sink sink, void *context, glimpse_image_info *info,
                                   glimpse_decode_result *result, char *message, size_t message_size);

/** Frees pixels malloc'd by glimpse_decode. NULL is fine. */
void glimpse_free(void *pixels);

/**
 * Reads the EXIF orientation (1..8) from a TIFF structure (the body of an EXIF APP1
 * after "Exif\0\0", or a PNG eXIf chunk). Returns 1 when absent or malformed. Never
 * reads outside [data, data+size).
 */
int glimpse_exif_orientation(const uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
