/*
 * Glimpse's HEVC decoder plugin for libheif 1.15, over libde265, registered with a higher
 * priority than libheif's built-in libde265 plugin. Why: the built-in one ignores
 * libde265's decoding errors and warnings (a damaged slice still returns a picture), and
 * libde265 leaves what it did not decode uninitialised, so a damaged HEIC decoded to
 * different pixels from run to run (found by fuzzing: decode and decodeRows disagreed).
 *
 * This plugin: decodes on the calling thread (no worker threads); zeroes every picture
 * buffer it hands to libde265, so undecoded areas are black, not leftover memory; when
 * libheif asks for strict decoding (Glimpse does unless allowDamaged), turns any libde265
 * error or warning into an error; and refuses a picture whose size differs from the size
 * the file declared for it (glimpse_heif_expect_picture_size): libheif 1.15 pastes grid
 * tiles into an uninitialised canvas without checking their size, so a damaged tile's
 * parameter set that shrinks it left leftover memory in the image. Otherwise it does what libheif's plugin does (NAL units
 * pushed as the item holds them, planes copied into a heif_image, nclx from the VUI), so
 * the pixels of an undamaged file are the same as heif-convert's (tested).
 */
#include "codecs_internal.h"

#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include "heif_library.h" /* after the libraries' headers: calls go through the loaded table */
#include <stdlib.h>
#include <string.h>

/** Above libheif's own libde265 plugin (100). */
#define GLIMPSE_HEVC_PLUGIN_PRIORITY 200

typedef struct {
    de265_decoder_context *context;
    int strict;
} hevc_decoder;


static const char *plugin_name(void) { return "Glimpse libde265 (strict, zeroed buffers)"; }
static void plugin_init(void) {}
static void plugin_deinit(void) {}

static int supports(enum heif_compression_format format) {
    return format == heif_compression_HEVC ? GLIMPSE_HEVC_PLUGIN_PRIORITY : 0;
}

/** The default allocation, then zeroed: undecoded areas are deterministic. */
static int zeroed_buffer(de265_decoder_context *context, struct de265_image_spec *spec, struct de265_image *image,
                         void *userdata) {
    const struct de265_image_allocation *standard = de265_get_default_image_allocation_functions();
    if (!standard->get_buffer(context, spec, image, userdata)) return 0;
    int planes = spec->format == de265_image_format_mono8 ? 1 : 3;
    for (int c = 0; c < planes; c++) {
        int stride = 0;
        uint8_t *plane = (uint8_t *)de265_get_image_plane(image, c, &stride);
        int height = spec->height;
        if (c > 0 && spec->format == de265_image_format_YUV420P8) height = (height + 1) / 2;
        if (plane != NULL && stride > 0 && height > 0) memset(plane, 0, (size_t)stride * (size_t)height);
    }
    return 1;
}

static void release_buffer(de265_decoder_context *context, struct de265_image *image, void *userdata) {
    de265_get_default_image_allocation_functions()->release_buffer(context, image, userdata);
}

static struct de265_image_allocation allocation = {zeroed_buffer, release_buffer};

static struct heif_error ok(void) { return (struct heif_error){heif_error_Ok, heif_suberror_Unspecified, "Success"}; }

static struct heif_error new_decoder(void **out) {
    hevc_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    decoder->context = de265_new_decoder();
    if (decoder->context == NULL) {
        free(decoder);
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "cannot create a libde265 decoder"};
    }
    de265_set_image_allocation_functions(decoder->context, &allocation, NULL);
    *out = decoder;
    return ok();
}

static void free_decoder(void *raw) {
    hevc_decoder *decoder = raw;
    if (decoder == NULL) return;
    de265_free_decoder(decoder->context);
    free(decoder);
}

static void set_strict(void *raw, int strict) { ((hevc_decoder *)raw)->strict = strict; }

/** The item's data: NAL units, each after a 4-byte big-endian length. */
static struct heif_error push_data(void *raw, const void *data, size_t size) {
    hevc_decoder *decoder = raw;
    const uint8_t *bytes = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) break;
        uint32_t length = ((uint32_t)bytes[at] << 24) | ((uint32_t)bytes[at + 1] << 16) | ((uint32_t)bytes[at + 2] << 8) | bytes[at + 3];
        at += 4;
        if (length > size - at) {
            return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_End_of_data,
                                       "an HEVC NAL unit runs past the end of its item"};
        }
        de265_push_NAL(decoder->context, bytes + at, (int)length, 0, NULL);
        at += length;
    }
    if (at != size) {
        return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_End_of_data,
                                   "an HEVC NAL unit length runs past the end of its item"};
    }
    return ok();
}

static struct heif_error damaged(const char *what) {
    /* libheif keeps the message pointer: de265_get_error_text returns static strings. */
    return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Unspecified, what};
}

static struct heif_error copy_picture(const struct de265_image *picture, struct heif_image **out) {
    int expected_width, expected_height;
    glimpse_heif_expected_picture_size(&expected_width, &expected_height);
    if (expected_width > 0 && (de265_get_image_width(picture, 0) != expected_width
                               || de265_get_image_height(picture, 0) != expected_height)) {
        return damaged("an HEVC picture's size differs from the size its item declares (ispe)");
    }
    int mono = de265_get_chroma_format(picture) == de265_chroma_mono;
    struct heif_error error = heif_image_create(de265_get_image_width(picture, 0), de265_get_image_height(picture, 0),
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                (enum heif_chroma)de265_get_chroma_format(picture), out);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    int bits = de265_get_bits_per_pixel(picture, 0);
    for (int c = 0; c < (mono ? 1 : 3); c++) {
        int width = de265_get_image_width(picture, c), height = de265_get_image_height(picture, c);
        if (de265_get_bits_per_pixel(picture, c) != bits || width <= 0 || height <= 0) {
            heif_image_release(*out);
            *out = NULL;
            return damaged("HEVC picture with planes of different bit depths or no size");
        }
        error = heif_image_add_plane(*out, channels[c], width, height, bits);
        if (error.code != heif_error_Ok) {
            heif_image_release(*out);
            *out = NULL;
            return error;
        }
        int source_stride = 0, stride = 0;
        const uint8_t *source = de265_get_image_plane(picture, c, &source_stride);
        uint8_t *destination = heif_image_get_plane(*out, channels[c], &stride);
        size_t row = (size_t)width * (size_t)((bits + 7) / 8);
        for (int y = 0; y < height; y++) {
            memcpy(destination + (size_t)y * (size_t)stride, source + (size_t)y * (size_t)source_stride, row);
        }
    }
    return ok();
}

static struct heif_error decode_image(void *raw, struct heif_image **out) {
    hevc_decoder *decoder = raw;
    *out = NULL;
    de265_flush_data(decoder->context);
    struct heif_error result = ok();
    int more;
    do {
        more = 0;
        de265_error status = de265_decode(decoder->context, &more);
        if (status != DE265_OK && status != DE265_ERROR_WAITING_FOR_INPUT_DATA) {
            if (decoder->strict) {
                result = damaged(de265_get_error_text(status));
                break;
            }
            if (!de265_isOK(status)) break;
        }
        const struct de265_image *picture = de265_get_next_picture(decoder->context);
        if (picture != NULL) {
            if (*out != NULL) heif_image_release(*out);
            result = copy_picture(picture, out);
            if (result.code == heif_error_Ok) {
                struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
                if (nclx != NULL) {
                    struct heif_error e1 = heif_nclx_color_profile_set_color_primaries(
                        nclx, (uint16_t)de265_get_image_colour_primaries(picture));
                    struct heif_error e2 = heif_nclx_color_profile_set_transfer_characteristics(
                        nclx, (uint16_t)de265_get_image_transfer_characteristics(picture));
                    struct heif_error e3 = heif_nclx_color_profile_set_matrix_coefficients(
                        nclx, (uint16_t)de265_get_image_matrix_coefficients(picture));
                    struct heif_error bad = e1.code ? e1 : e2.code ? e2 : e3;
                    if (bad.code != heif_error_Ok && decoder->strict) {
                        result = bad;
                    } else {
                        if (bad.code != heif_error_Ok) heif_image_add_decoding_warning(*out, bad);
                        nclx->full_range_flag = (uint8_t)de265_get_image_full_range_flag(picture);
                        heif_image_set_nclx_color_profile(*out, nclx);
                    }
                    heif_nclx_color_profile_free(nclx);
                }
            }
            de265_release_next_picture(decoder->context);
            if (result.code != heif_error_Ok) break;
        }
    } while (more);
    /* libde265 reports most damage as warnings, and still returns a picture. */
    de265_error warning = de265_get_warning(decoder->context);
    if (result.code == heif_error_Ok && warning != DE265_OK) {
        if (decoder->strict) {
            result = damaged(de265_get_error_text(warning));
        } else if (*out != NULL) {
            heif_image_add_decoding_warning(*out, damaged(de265_get_error_text(warning)));
        }
    }
    while (de265_get_warning(decoder->context) != DE265_OK) {} /* drain */
    if (result.code != heif_error_Ok && *out != NULL) {
        heif_image_release(*out);
        *out = NULL;
    }
    if (result.code == heif_error_Ok && *out == NULL) result = damaged("the HEVC data holds no picture");
    return result;
}

const struct heif_decoder_plugin glimpse_hevc_plugin = {
    3, plugin_name, plugin_init, plugin_deinit, supports, new_decoder, free_decoder, push_data, decode_image,
    set_strict, "glimpse-libde265",
};
