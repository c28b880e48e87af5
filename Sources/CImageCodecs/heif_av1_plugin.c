/*
 * Glimpse's AV1 decoder plugin for libheif 1.15, over dav1d, registered with a higher
 * priority than libheif's built-in dav1d plugin. Why: libheif's plugin opens dav1d with its
 * default settings, whose logger prints to stderr ("Error parsing frame header", "Unknown
 * OBU type 13 ...") on damaged files, behind the caller's back (found by feeding mutated
 * AVIFs to `glimpse inspect`).
 *
 * This plugin: no logger; one thread, no frame delay (decodes on the calling thread); the
 * frame size limited to what the file declares for the picture when that is known
 * (glimpse_heif_expect_picture_size, else libheif's 32768 x 32768) and checked after
 * decoding. Otherwise it does what libheif's plugin does (the item's OBUs sent at once,
 * planes copied into a heif_image, nclx from the sequence header), so undamaged files
 * decode to the same pixels.
 */
#include "codecs_internal.h"

#include <dav1d/dav1d.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include "heif_library.h" /* after the libraries' headers: calls go through the loaded table */
#include <stdlib.h>
#include <string.h>

/** Above libheif's own dav1d (150) and aom (100) plugins. */
#define GLIMPSE_AV1_PLUGIN_PRIORITY 200

typedef struct {
    Dav1dContext *context;
    Dav1dData data;
    int strict;
} av1_decoder;

static const char *plugin_name(void) { return "Glimpse dav1d (silent, single-threaded)"; }
static void plugin_init(void) {}
static void plugin_deinit(void) {}

static int supports(enum heif_compression_format format) {
    return format == heif_compression_AV1 ? GLIMPSE_AV1_PLUGIN_PRIORITY : 0;
}

static struct heif_error ok(void) { return (struct heif_error){heif_error_Ok, heif_suberror_Unspecified, "Success"}; }

static struct heif_error failure(const char *what) {
    return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Unspecified, what};
}

static struct heif_error new_decoder(void **out) {
    av1_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    Dav1dSettings settings;
    dav1d_default_settings(&settings);
    settings.logger.callback = NULL; /* dav1d's default logger writes to stderr */
    settings.n_threads = 1;
    settings.max_frame_delay = 1;
    settings.all_layers = 0;
    int width, height;
    glimpse_heif_expected_picture_size(&width, &height);
    settings.frame_size_limit = width > 0 && height > 0 ? (unsigned)width * (unsigned)height : 32768u * 32768u;
    if (dav1d_open(&decoder->context, &settings) != 0) {
        free(decoder);
        return failure("cannot open a dav1d decoder");
    }
    *out = decoder;
    return ok();
}

static void free_decoder(void *raw) {
    av1_decoder *decoder = raw;
    if (decoder == NULL) return;
    /* By its reference, not its size: data dav1d has partly consumed, or none, still owns it. */
    if (decoder->data.ref != NULL) dav1d_data_unref(&decoder->data);
    if (decoder->context) dav1d_close(&decoder->context);
    free(decoder);
}

static void set_strict(void *raw, int strict) { ((av1_decoder *)raw)->strict = strict; }

static struct heif_error push_data(void *raw, const void *data, size_t size) {
    av1_decoder *decoder = raw;
    if (decoder->data.ref != NULL) return failure("AV1 data pushed twice");
    /* An empty item (found by fuzzing): dav1d would allocate an empty buffer, then refuse it in
     * dav1d_send_data with a line on stderr, and the buffer's reference would leak. */
    if (size == 0) return failure("the AV1 item holds no data");
    uint8_t *copy = dav1d_data_create(&decoder->data, size);
    if (copy == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    memcpy(copy, data, size);
    return ok();
}

static struct heif_error decode_image(void *raw, struct heif_image **out) {
    av1_decoder *decoder = raw;
    *out = NULL;
    Dav1dPicture frame;
    memset(&frame, 0, sizeof frame);
    int flushed = 0;
    for (;;) {
        int status = dav1d_send_data(decoder->context, &decoder->data);
        if (status < 0 && status != DAV1D_ERR(EAGAIN)) return failure("invalid AV1 data");
        status = dav1d_get_picture(decoder->context, &frame);
        if (!flushed && status == DAV1D_ERR(EAGAIN)) {
            if (decoder->data.sz == 0) flushed = 1;
            continue;
        }
        if (status < 0) return failure("the AV1 data holds no picture");
        break;
    }
    int width, height;
    glimpse_heif_expected_picture_size(&width, &height);
    if (width > 0 && (frame.p.w != width || frame.p.h != height)) {
        dav1d_picture_unref(&frame);
        return failure("an AV1 picture's size differs from the size its item declares (ispe)");
    }
    enum heif_chroma chroma;
    enum heif_colorspace colorspace = heif_colorspace_YCbCr;
    switch (frame.p.layout) {
    case DAV1D_PIXEL_LAYOUT_I420: chroma = heif_chroma_420; break;
    case DAV1D_PIXEL_LAYOUT_I422: chroma = heif_chroma_422; break;
    case DAV1D_PIXEL_LAYOUT_I444: chroma = heif_chroma_444; break;
    case DAV1D_PIXEL_LAYOUT_I400: chroma = heif_chroma_monochrome; colorspace = heif_colorspace_monochrome; break;
    default:
        dav1d_picture_unref(&frame);
        return failure("unknown AV1 pixel layout");
    }
    struct heif_image *image = NULL;
    struct heif_error error = heif_image_create(frame.p.w, frame.p.h, colorspace, chroma, &image);
    if (error.code != heif_error_Ok) {
        dav1d_picture_unref(&frame);
        return error;
    }
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx != NULL && frame.seq_hdr != NULL) {
        struct heif_error e1 = heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)frame.seq_hdr->pri);
        struct heif_error e2 = heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)frame.seq_hdr->trc);
        struct heif_error e3 = heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)frame.seq_hdr->mtrx);
        struct heif_error bad = e1.code ? e1 : e2.code ? e2 : e3;
        if (bad.code != heif_error_Ok && decoder->strict) {
            heif_nclx_color_profile_free(nclx);
            heif_image_release(image);
            dav1d_picture_unref(&frame);
            return bad;
        }
        if (bad.code != heif_error_Ok) heif_image_add_decoding_warning(image, bad);
        nclx->full_range_flag = frame.seq_hdr->color_range != 0;
        heif_image_set_nclx_color_profile(image, nclx);
    }
    if (nclx != NULL) heif_nclx_color_profile_free(nclx);
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    int planes = chroma == heif_chroma_monochrome ? 1 : 3;
    for (int c = 0; c < planes; c++) {
        int w = frame.p.w, h = frame.p.h;
        if (c > 0 && (chroma == heif_chroma_420 || chroma == heif_chroma_422)) w = (w + 1) / 2;
        if (c > 0 && chroma == heif_chroma_420) h = (h + 1) / 2;
        error = heif_image_add_plane(image, channels[c], w, h, frame.p.bpc);
        if (error.code != heif_error_Ok) {
            heif_image_release(image);
            dav1d_picture_unref(&frame);
            return error;
        }
        int stride = 0;
        uint8_t *destination = heif_image_get_plane(image, channels[c], &stride);
        const uint8_t *source = frame.data[c];
        ptrdiff_t source_stride = frame.stride[c > 0 ? 1 : 0];
        size_t row = (size_t)w * (size_t)((frame.p.bpc + 7) / 8);
        for (int y = 0; y < h; y++) memcpy(destination + (size_t)y * (size_t)stride, source + y * source_stride, row);
    }
    dav1d_picture_unref(&frame);
    *out = image;
    return ok();
}

const struct heif_decoder_plugin glimpse_av1_plugin = {
    3, plugin_name, plugin_init, plugin_deinit, supports, new_decoder, free_decoder, push_data, decode_image,
    set_strict, "glimpse-dav1d",
};
