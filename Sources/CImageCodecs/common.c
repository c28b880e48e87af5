/* Format detection, EXIF parsing, messages and the public entry points. */
#include "codecs_internal.h"

#include <stdarg.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

static int brand_is(const uint8_t *brand, const char *const *list) {
    for (; *list; list++) if (memcmp(brand, *list, 4) == 0) return 1;
    return 0;
}

/**
 * HEIF or AVIF from the `ftyp` box: the major brand, else the compatible brands.
 * Brands that only say "some HEIF" (mif1, msf1) count as HEIF unless an AVIF brand is listed;
 * the shim refines the choice from the primary item's codec once the boxes are read.
 */
static glimpse_format detect_ftyp(const uint8_t *data, size_t size) {
    static const char *const avif[] = {"avif", "avis", NULL};
    static const char *const heic[] = {"heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", NULL};
    static const char *const heif[] = {"mif1", "msf1", "mif2", "miaf", "heif", NULL};
    if (size < 12 || memcmp(data + 4, "ftyp", 4) != 0) return GLIMPSE_FORMAT_UNKNOWN;
    uint32_t box = ((uint32_t)data[0] << 24) | ((uint32_t)data[1] << 16) | ((uint32_t)data[2] << 8) | data[3];
    size_t end = box < 16 || box > size ? size : box;
    if (end > 4096) end = 4096;
    if (brand_is(data + 8, avif)) return GLIMPSE_FORMAT_AVIF;
    if (brand_is(data + 8, heic)) return GLIMPSE_FORMAT_HEIF;
    int generic = brand_is(data + 8, heif);
    for (size_t at = 16; at + 4 <= end; at += 4) {
        if (brand_is(data + at, avif)) return GLIMPSE_FORMAT_AVIF;
        if (brand_is(data + at, heic)) return GLIMPSE_FORMAT_HEIF;
        generic |= brand_is(data + at, heif);
    }
    return generic ? GLIMPSE_FORMAT_HEIF : GLIMPSE_FORMAT_UNKNOWN;
}

glimpse_format glimpse_detect_format(const uint8_t *data, size_t size) {
    if (data == NULL) return GLIMPSE_FORMAT_UNKNOWN;
    if (size >= 8 && memcmp(data, png_signature, 8) == 0) return GLIMPSE_FORMAT_PNG;
    if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return GLIMPSE_FORMAT_JPEG;
    if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0) return GLIMPSE_FORMAT_WEBP;
    return detect_ftyp(data, size);
}

uint8_t *glimpse_output_buffer(const glimpse_request *request, size_t needed, glimpse_status *status) {
    if (request->destination != NULL) {
        if (request->destination_size < needed) {
            glimpse_set_message(request, "destination holds %zu bytes, %zu needed", request->destination_size, needed);
            *status = GLIMPSE_ERR_MEMORY;
            return NULL;
        }
        return request->destination;
    }
    uint8_t *pixels = malloc(needed == 0 ? 1 : needed);
    if (pixels == NULL) {
        glimpse_set_message(request, "cannot allocate %zu bytes for the pixels", needed);
        *status = GLIMPSE_ERR_MEMORY;
    }
    return pixels;
}

/** A PNG signature with a byte or two damaged (text-mode transfer, bit flips). */
static int looks_like_damaged_png(const uint8_t *data, size_t size) {
    if (size < 8) return 0;
    int same = 0;
    for (int i = 0; i < 8; i++) same += data[i] == png_signature[i];
    if (same >= 5) return 1;
    /* A text-mode transfer may insert or drop bytes: look for "PNG" near the start. */
    return (data[1] == 'P' && data[2] == 'N' && data[3] == 'G');
}

void glimpse_set_message(const glimpse_request *request, const char *format, ...) {
    if (request->message == NULL || request->message_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(request->message, request->message_size, format, args);
    va_end(args);
}

glimpse_status glimpse_check_cap(const glimpse_request *request, uint64_t width, uint64_t height) {
    uint64_t cap = request->options ? request->options->max_pixels : 0;
    if (cap != 0 && width * height > cap) { /* both < 2^32, the product fits */
        glimpse_set_message(request, "declared size %llux%llu (%llu pixels) exceeds the limit of %llu pixels",
                            (unsigned long long)width, (unsigned long long)height,
                            (unsigned long long)(width * height), (unsigned long long)cap);
        return GLIMPSE_ERR_TOO_LARGE;
    }
    return GLIMPSE_OK;
}

glimpse_status glimpse_resolve_region(const glimpse_request *request, uint32_t scaled_width,
                                      uint32_t scaled_height, uint32_t *x, uint32_t *y,
                                      uint32_t *width, uint32_t *height) {
    const glimpse_decode_options *o = request->options;
    if (o->region_width == 0 && o->region_height == 0) {
        *x = 0; *y = 0; *width = scaled_width; *height = scaled_height;
        return GLIMPSE_OK;
    }
    if (o->region_width == 0 || o->region_height == 0) {
        glimpse_set_message(request, "region %u,%u %ux%u is empty", o->region_x, o->region_y,
                            o->region_width, o->region_height);
        return GLIMPSE_ERR_REGION;
    }
    if ((uint64_t)o->region_x + o->region_width > scaled_width ||
        (uint64_t)o->region_y + o->region_height > scaled_height) {
        glimpse_set_message(request, "region %u,%u %ux%u lies outside the %ux%u image", o->region_x,
                            o->region_y, o->region_width, o->region_height, scaled_width, scaled_height);
        return GLIMPSE_ERR_REGION;
    }
    *x = o->region_x; *y = o->region_y; *width = o->region_width; *height = o->region_height;
    return GLIMPSE_OK;
}

static uint32_t read16(const uint8_t *p, int little) {
    return little ? (uint32_t)p[0] | ((uint32_t)p[1] << 8) : ((uint32_t)p[0] << 8) | (uint32_t)p[1];
}

static uint32_t read32(const uint8_t *p, int little) {
    return little ? read16(p, 1) | (read16(p + 2, 1) << 16) : (read16(p, 0) << 16) | read16(p + 2, 0);
}

int glimpse_exif_orientation(const uint8_t *data, size_t size) {
    if (data == NULL || size < 8) return 1;
    int little;
    if (data[0] == 'I' && data[1] == 'I') little = 1;
    else if (data[0] == 'M' && data[1] == 'M') little = 0;
    else return 1;
    if (read16(data + 2, little) != 42) return 1;
    uint32_t ifd = read32(data + 4, little);
    if (ifd > size || size - ifd < 2) return 1;
    uint32_t count = read16(data + ifd, little);
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry > size || size - entry < 12) break;
        if (read16(data + entry, little) != 0x0112) continue;
        uint32_t type = read16(data + entry + 2, little);
        uint32_t value;
        if (type == 3) value = read16(data + entry + 8, little);        /* SHORT */
        else if (type == 4) value = read32(data + entry + 8, little);   /* LONG, non-standard */
        else return 1;
        return (value >= 1 && value <= 8) ? (int)value : 1;
    }
    return 1;
}

static glimpse_status dispatch(glimpse_request *request) {
    if (request->message && request->message_size) request->message[0] = 0;
    if (request->data == NULL && request->size != 0) {
        glimpse_set_message(request, "no input buffer");
        return GLIMPSE_ERR_ARGUMENT;
    }
    if (request->size == 0) {
        glimpse_set_message(request, "the file is empty");
        return GLIMPSE_ERR_EMPTY;
    }
    if (request->options) {
        int s = request->options->scale_num;
        if (!(s == 0 || s == 1 || s == 2 || s == 4 || s == 8)) {
            glimpse_set_message(request, "scale %d/8 is not one of 1/8, 2/8, 4/8, 8/8", s);
            return GLIMPSE_ERR_ARGUMENT;
        }
    }
    memset(request->info, 0, sizeof *request->info);
    request->info->orientation = 1;
    request->info->image_count = 1;
    switch (glimpse_detect_format(request->data, request->size)) {
    case GLIMPSE_FORMAT_PNG:
        request->info->format = GLIMPSE_FORMAT_PNG;
        return glimpse_png_run(request);
    case GLIMPSE_FORMAT_JPEG:
        request->info->format = GLIMPSE_FORMAT_JPEG;
        return glimpse_jpeg_run(request);
    case GLIMPSE_FORMAT_WEBP:
        request->info->format = GLIMPSE_FORMAT_WEBP;
        return glimpse_webp_run(request);
    case GLIMPSE_FORMAT_HEIF:
    case GLIMPSE_FORMAT_AVIF:
        request->info->format = glimpse_detect_format(request->data, request->size);
        return glimpse_heif_run(request);
    default:
        if (looks_like_damaged_png(request->data, request->size)) {
            request->info->format = GLIMPSE_FORMAT_PNG;
            glimpse_set_message(request, "damaged PNG signature (was the file transferred in text mode?)");
            return GLIMPSE_ERR_CORRUPT;
        }
        if (request->size >= 2 && request->data[0] == 0xFF && request->data[1] == 0xD8) {
            request->info->format = GLIMPSE_FORMAT_JPEG;
            if (request->size < 3) {
                glimpse_set_message(request, "JPEG file ends after its first marker");
                return GLIMPSE_ERR_TRUNCATED;
            }
            glimpse_set_message(request, "JPEG start-of-image is not followed by a marker");
            return GLIMPSE_ERR_CORRUPT;
        }
        if (request->size >= 2) {
            glimpse_set_message(request, "not PNG, JPEG, WebP, HEIF or AVIF: starts with 0x%02x 0x%02x",
                                request->data[0], request->data[1]);
        } else {
            glimpse_set_message(request, "not PNG, JPEG, WebP, HEIF or AVIF: only %zu byte", request->size);
        }
        return GLIMPSE_ERR_UNRECOGNIZED;
    }
}

glimpse_status glimpse_probe(const uint8_t *data, size_t size, glimpse_image_info *info,
                             char *message, size_t message_size) {
    if (info == NULL) return GLIMPSE_ERR_ARGUMENT;
    glimpse_request request = {data, size, GLIMPSE_MODE_PROBE, NULL, info, NULL, NULL, 0, message, message_size};
    return dispatch(&request);
}

static glimpse_status plan_or_decode(glimpse_mode mode, const uint8_t *data, size_t size,
                                     const glimpse_decode_options *options, uint8_t *destination,
                                     size_t destination_size, glimpse_image_info *info_out,
                                     glimpse_decode_result *result, char *message, size_t message_size) {
    if (options == NULL || result == NULL) return GLIMPSE_ERR_ARGUMENT;
    memset(result, 0, sizeof *result);
    glimpse_image_info local_info;
    glimpse_image_info *info = info_out ? info_out : &local_info;
    glimpse_request request = {data, size, mode, options, info, result, destination, destination_size,
                               message, message_size};
    glimpse_status status = dispatch(&request);
    if (status != GLIMPSE_OK && mode == GLIMPSE_MODE_DECODE && result->pixels != NULL) {
        /* Codecs free their own buffers on failure; this is only a safety net. */
        if (result->pixels != destination) free(result->pixels);
        result->pixels = NULL;
    }
    return status;
}

glimpse_status glimpse_plan(const uint8_t *data, size_t size, const glimpse_decode_options *options,
                            glimpse_image_info *info, glimpse_decode_result *plan, char *message,
                            size_t message_size) {
    return plan_or_decode(GLIMPSE_MODE_PLAN, data, size, options, NULL, 0, info, plan, message, message_size);
}

/*
 * Large outputs: ask for transparent huge pages on the whole-page interior of the
 * buffer, so a 48 MB image takes a few dozen page faults instead of twelve thousand.
 * Advisory only; failure (no THP, not Linux) changes nothing.
 */
static void advise_huge_pages(uint8_t *buffer, size_t size) {
#if defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (buffer == NULL || size < 2 * huge) return;
    uintptr_t start = ((uintptr_t)buffer + huge - 1) & ~(uintptr_t)(huge - 1);
    uintptr_t end = ((uintptr_t)buffer + size) & ~(uintptr_t)(huge - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)buffer;
    (void)size;
#endif
}

glimpse_status glimpse_decode(const uint8_t *data, size_t size, const glimpse_decode_options *options,
                              uint8_t *destination, size_t destination_size,
                              glimpse_image_info *info, glimpse_decode_result *result, char *message,
                              size_t message_size) {
    advise_huge_pages(destination, destination_size);
    return plan_or_decode(GLIMPSE_MODE_DECODE, data, size, options, destination, destination_size, info,
                          result, message, message_size);
}

glimpse_status glimpse_decode_rows(const uint8_t *data, size_t size, const glimpse_decode_options *options,
                                   glimpse_row_sink sink, void *context, glimpse_image_info *info_out,
                                   glimpse_decode_result *result, char *message, size_t message_size) {
    if (options == NULL || result == NULL || sink == NULL) return GLIMPSE_ERR_ARGUMENT;
    memset(result, 0, sizeof *result);
    glimpse_image_info local_info;
    glimpse_image_info *info = info_out ? info_out : &local_info;
    glimpse_request request = {data, size, GLIMPSE_MODE_DECODE, options, info, result, NULL, 0,
                               message, message_size, sink, context};
    const glimpse_format format = glimpse_detect_format(data, size);
    if (format != GLIMPSE_FORMAT_PNG && format != GLIMPSE_FORMAT_JPEG) {
        memset(info, 0, sizeof *info);
        info->orientation = 1;
        info->format = format;
        glimpse_set_message(&request, "row-by-row decoding is for PNG and JPEG only");
        return GLIMPSE_ERR_UNSUPPORTED;
    }
    return dispatch(&request);
}

void glimpse_free(void *pixels) { free(pixels); }
