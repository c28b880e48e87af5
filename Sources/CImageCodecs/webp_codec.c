/*
 * WebP half of the shim, over libwebp (decode) and libwebpdemux (animation, EXIF).
 *
 * libwebp never exits or prints and, with use_threads unset, decodes on the caller's
 * thread. Its advanced API crops first and scales afterwards, both inside the decoder:
 * only the macroblocks under the crop are reconstructed, and the scaler works row by row.
 *
 * Region at full scale: libwebp snaps crop_left/crop_top down to even values, and its
 * fancy chroma upsampler treats the crop's edges as image edges, so we crop with a margin
 * of GLIMPSE_WEBP_MARGIN pixels on each side (even-aligned) and trim it: the region then
 * equals the same rectangle of a full decode, pixel for pixel (tested).
 * Region at a reduced scale: the full-resolution rectangle under the scaled region is
 * cropped (libwebp snaps its corner to even) and scaled to the region's size.
 *
 * Animated WebP: the first frame, composed on a transparent black canvas (what
 * WebPAnimDecoder produces for frame 1: over a transparent canvas, blending is a copy).
 * A first frame that covers the whole canvas is decoded like a still image (crop and
 * scale in the decoder); a smaller one is decoded whole, placed, and the region copied.
 *
 * EXIF orientation: from the EXIF chunk of an extended (VP8X) file.
 */
#include "codecs_internal.h"

#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

/** Pixels of margin around a full-scale crop (even, >= 2: one chroma sample). */
#define GLIMPSE_WEBP_MARGIN 2

static const char *status_text(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data";
    default: return "unknown error";
    }
}

static glimpse_status classify(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: return GLIMPSE_ERR_MEMORY;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return GLIMPSE_ERR_UNSUPPORTED;
    case VP8_STATUS_NOT_ENOUGH_DATA: return GLIMPSE_ERR_TRUNCATED;
    case VP8_STATUS_INVALID_PARAM: return GLIMPSE_ERR_ARGUMENT;
    default: return GLIMPSE_ERR_CORRUPT;
    }
}

/** The RIFF size field says more bytes than the file has: a truncated file. */
static int riff_truncated(const uint8_t *data, size_t size) {
    if (size < 12) return 1;
    uint32_t riff = (uint32_t)data[4] | ((uint32_t)data[5] << 8) | ((uint32_t)data[6] << 16) | ((uint32_t)data[7] << 24);
    return (uint64_t)riff + 8 > size;
}

/** The first frame's bitstream and placement (the whole file for a still image). */
typedef struct {
    const uint8_t *data;
    size_t size;
    uint32_t x, y, width, height; /* on the canvas */
    int has_alpha;
} webp_frame;

/**
 * Reads the header: canvas size, alpha, animation, EXIF orientation, the first frame.
 * The demuxer only indexes chunks (no pixel memory).
 */
static glimpse_status read_header(const glimpse_request *request, webp_frame *frame) {
    glimpse_image_info *info = request->info;
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(request->data, request->size, &features);
    if (code != VP8_STATUS_OK) {
        glimpse_status status = classify(code);
        if (code == VP8_STATUS_NOT_ENOUGH_DATA || riff_truncated(request->data, request->size)) {
            status = GLIMPSE_ERR_TRUNCATED;
        }
        glimpse_set_message(request, "cannot read the WebP header: %s", status_text(code));
        return status;
    }
    info->width = (uint32_t)features.width;
    info->height = (uint32_t)features.height;
    info->components = features.has_alpha ? 4 : 3;
    info->bit_depth = 8;
    info->has_alpha = features.has_alpha;
    info->image_count = 1;
    info->can_scale = 1;
    frame->data = request->data;
    frame->size = request->size;
    frame->x = frame->y = 0;
    frame->width = info->width;
    frame->height = info->height;
    frame->has_alpha = features.has_alpha;
    if (request->options != NULL) {
        /* The pixel cap, from the (canvas) size, before the demuxer indexes any frame. */
        glimpse_status status = glimpse_check_cap(request, info->width, info->height);
        if (status != GLIMPSE_OK) return status;
    }

    /* Simple files (VP8 / VP8L) have no chunks to demux. */
    if (request->size < 16 || memcmp(request->data + 12, "VP8X", 4) != 0) return GLIMPSE_OK;
    WebPData whole = {request->data, request->size};
    WebPDemuxState state;
    WebPDemuxer *demux = WebPDemuxPartial(&whole, &state);
    if (demux == NULL || state != WEBP_DEMUX_DONE) {
        if (demux) WebPDemuxDelete(demux);
        int truncated = state == WEBP_DEMUX_PARSED_HEADER || state == WEBP_DEMUX_PARSING_HEADER
            || riff_truncated(request->data, request->size);
        glimpse_set_message(request, truncated ? "the WebP chunks end early" : "invalid WebP chunk structure");
        return truncated ? GLIMPSE_ERR_TRUNCATED : GLIMPSE_ERR_CORRUPT;
    }
    uint32_t flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS);
    if (flags & EXIF_FLAG) {
        WebPChunkIterator chunk;
        if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
            const uint8_t *exif = chunk.chunk.bytes;
            size_t exif_size = chunk.chunk.size;
            /* Some writers keep the JPEG APP1 prefix. */
            if (exif_size >= 6 && memcmp(exif, "Exif\0\0", 6) == 0) { exif += 6; exif_size -= 6; }
            info->orientation = glimpse_exif_orientation(exif, exif_size);
            WebPDemuxReleaseChunkIterator(&chunk);
        }
    }
    glimpse_status status = GLIMPSE_OK;
    if (flags & ANIMATION_FLAG) {
        info->image_count = (int)WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
        WebPIterator iter;
        if (!WebPDemuxGetFrame(demux, 1, &iter)) {
            glimpse_set_message(request, "animated WebP without a first frame");
            status = GLIMPSE_ERR_CORRUPT;
        } else {
            if (!iter.complete) {
                glimpse_set_message(request, "the first frame of the animated WebP is incomplete");
                status = GLIMPSE_ERR_TRUNCATED;
            } else if (iter.width <= 0 || iter.height <= 0 || iter.x_offset < 0 || iter.y_offset < 0
                       || (uint64_t)iter.x_offset + (uint64_t)iter.width > info->width
                       || (uint64_t)iter.y_offset + (uint64_t)iter.height > info->height) {
                glimpse_set_message(request, "the first frame (%dx%d at %d,%d) lies outside the %ux%u canvas",
                                    iter.width, iter.height, iter.x_offset, iter.y_offset, info->width, info->height);
                status = GLIMPSE_ERR_CORRUPT;
            } else {
                /* The fragment points into request->data, which outlives the demuxer. */
                frame->data = iter.fragment.bytes;
                frame->size = iter.fragment.size;
                frame->x = (uint32_t)iter.x_offset;
                frame->y = (uint32_t)iter.y_offset;
                frame->width = (uint32_t)iter.width;
                frame->height = (uint32_t)iter.height;
                frame->has_alpha = iter.has_alpha;
                info->has_alpha = 1; /* the canvas around a frame is transparent */
                info->components = 4;
                info->can_scale = frame->x == 0 && frame->y == 0 && frame->width == info->width
                    && frame->height == info->height;
            }
            WebPDemuxReleaseIterator(&iter);
        }
    }
    WebPDemuxDelete(demux);
    return status;
}

/** Decodes `frame` (cropped and scaled as `config` says) into `out` (RGBA8, `stride` bytes per row). */
static glimpse_status decode_into(const glimpse_request *request, const webp_frame *frame, WebPDecoderConfig *config,
                                  uint8_t *out, int width, int height, size_t stride) {
    config->output.colorspace = MODE_RGBA;
    config->output.is_external_memory = 1;
    config->output.width = width;
    config->output.height = height;
    config->output.u.RGBA.rgba = out;
    config->output.u.RGBA.stride = (int)stride;
    config->output.u.RGBA.size = stride * (size_t)height;
    VP8StatusCode code = WebPDecode(frame->data, frame->size, config);
    WebPFreeDecBuffer(&config->output); /* external memory: frees nothing of ours */
    if (code != VP8_STATUS_OK) {
        glimpse_status status = classify(code);
        int truncated = riff_truncated(request->data, request->size);
        if (truncated) status = GLIMPSE_ERR_TRUNCATED;
        else if (code == VP8_STATUS_NOT_ENOUGH_DATA) status = GLIMPSE_ERR_CORRUPT; /* a partition overruns its chunk */
        glimpse_set_message(request, "cannot decode the WebP image: %s", !truncated && code == VP8_STATUS_NOT_ENOUGH_DATA
                            ? "a partition or chunk ends before its data does" : status_text(code));
        return status;
    }
    return GLIMPSE_OK;
}

glimpse_status glimpse_webp_run(const glimpse_request *request) {
    glimpse_image_info *info = request->info;
    webp_frame frame;
    glimpse_status status = read_header(request, &frame);
    if (status != GLIMPSE_OK || request->mode == GLIMPSE_MODE_PROBE) return status;

    const glimpse_decode_options *options = request->options;
    glimpse_decode_result *result = request->result;
    int num = options->scale_num == 0 ? 8 : options->scale_num;
    if (num != 8 && !info->can_scale) {
        glimpse_set_message(request, "this animated WebP's first frame does not cover the canvas: scale %d/8 unsupported", num);
        return GLIMPSE_ERR_ARGUMENT;
    }
    uint32_t sw = glimpse_scaled_length(info->width, num), sh = glimpse_scaled_length(info->height, num);
    uint32_t rx, ry, rw, rh;
    status = glimpse_resolve_region(request, sw, sh, &rx, &ry, &rw, &rh);
    if (status != GLIMPSE_OK) return status;
    result->width = rw;
    result->height = rh;
    result->channels = 4;
    result->bytes_per_row = (size_t)rw * 4;
    result->scaled_width = sw;
    result->scaled_height = sh;
    if (request->mode == GLIMPSE_MODE_PLAN) return GLIMPSE_OK;

    size_t needed = result->bytes_per_row * rh;
    uint8_t *pixels = glimpse_output_buffer(request, needed, &status);
    if (pixels == NULL) return status;

    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        glimpse_set_message(request, "libwebp version mismatch");
        status = GLIMPSE_ERR_UNSUPPORTED;
        goto fail;
    }
    int whole_frame = frame.x == 0 && frame.y == 0 && frame.width == info->width && frame.height == info->height;
    if (whole_frame && num != 8) {
        /* The full-resolution rectangle under the scaled region, scaled by the decoder. */
        uint32_t x0 = (uint32_t)((uint64_t)rx * 8 / (uint32_t)num), y0 = (uint32_t)((uint64_t)ry * 8 / (uint32_t)num);
        uint64_t x1 = ((uint64_t)(rx + rw) * 8 + (uint32_t)num - 1) / (uint32_t)num;
        uint64_t y1 = ((uint64_t)(ry + rh) * 8 + (uint32_t)num - 1) / (uint32_t)num;
        if (x1 > info->width) x1 = info->width;
        if (y1 > info->height) y1 = info->height;
        if (x1 <= x0) x1 = x0 + 1;
        if (y1 <= y0) y1 = y0 + 1;
        config.options.use_cropping = 1;
        config.options.crop_left = (int)x0;
        config.options.crop_top = (int)y0;
        config.options.crop_width = (int)(x1 - x0);
        config.options.crop_height = (int)(y1 - y0);
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)rw;
        config.options.scaled_height = (int)rh;
        status = decode_into(request, &frame, &config, pixels, (int)rw, (int)rh, result->bytes_per_row);
        if (status != GLIMPSE_OK) goto fail;
    } else if (whole_frame && rw == info->width && rh == info->height) {
        status = decode_into(request, &frame, &config, pixels, (int)rw, (int)rh, result->bytes_per_row);
        if (status != GLIMPSE_OK) goto fail;
    } else if (whole_frame) {
        /* A region at full scale: crop with an even-aligned margin, then trim it. */
        uint32_t x0 = rx >= GLIMPSE_WEBP_MARGIN ? ((rx - GLIMPSE_WEBP_MARGIN) & ~1u) : 0;
        uint32_t y0 = ry >= GLIMPSE_WEBP_MARGIN ? ((ry - GLIMPSE_WEBP_MARGIN) & ~1u) : 0;
        uint32_t x1 = rx + rw + GLIMPSE_WEBP_MARGIN, y1 = ry + rh + GLIMPSE_WEBP_MARGIN;
        if (x1 > info->width) x1 = info->width;
        if (y1 > info->height) y1 = info->height;
        uint32_t cw = x1 - x0, ch = y1 - y0;
        size_t crop_stride = (size_t)cw * 4;
        uint8_t *crop = malloc(crop_stride * ch);
        if (crop == NULL) {
            glimpse_set_message(request, "cannot allocate %ux%u pixels for the WebP crop", cw, ch);
            status = GLIMPSE_ERR_MEMORY;
            goto fail;
        }
        config.options.use_cropping = 1;
        config.options.crop_left = (int)x0;
        config.options.crop_top = (int)y0;
        config.options.crop_width = (int)cw;
        config.options.crop_height = (int)ch;
        status = decode_into(request, &frame, &config, crop, (int)cw, (int)ch, crop_stride);
        if (status == GLIMPSE_OK) {
            for (uint32_t y = 0; y < rh; y++) {
                memcpy(pixels + (size_t)y * result->bytes_per_row, crop + (size_t)(ry - y0 + y) * crop_stride + (size_t)(rx - x0) * 4,
                       result->bytes_per_row);
            }
        }
        free(crop);
        if (status != GLIMPSE_OK) goto fail;
    } else {
        /* An animation's first frame smaller than the canvas: decode it, place it on a
         * transparent canvas, copy the region. */
        size_t frame_stride = (size_t)frame.width * 4;
        uint8_t *decoded = malloc(frame_stride * frame.height);
        if (decoded == NULL) {
            glimpse_set_message(request, "cannot allocate %ux%u pixels for the first frame", frame.width, frame.height);
            status = GLIMPSE_ERR_MEMORY;
            goto fail;
        }
        status = decode_into(request, &frame, &config, decoded, (int)frame.width, (int)frame.height, frame_stride);
        if (status == GLIMPSE_OK) {
            for (uint32_t y = 0; y < rh; y++) {
                uint8_t *row = pixels + (size_t)y * result->bytes_per_row;
                memset(row, 0, result->bytes_per_row);
                uint32_t cy = ry + y;
                if (cy < frame.y || cy >= frame.y + frame.height) continue;
                uint32_t a = rx > frame.x ? rx : frame.x;
                uint32_t b = rx + rw < frame.x + frame.width ? rx + rw : frame.x + frame.width;
                if (b <= a) continue;
                memcpy(row + (size_t)(a - rx) * 4, decoded + (size_t)(cy - frame.y) * frame_stride + (size_t)(a - frame.x) * 4,
                       (size_t)(b - a) * 4);
            }
        }
        free(decoded);
        if (status != GLIMPSE_OK) goto fail;
    }
    result->pixels = pixels;
    return GLIMPSE_OK;

fail:
    if (pixels != request->destination) free(pixels);
    return status;
}
