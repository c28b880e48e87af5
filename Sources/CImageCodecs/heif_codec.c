/*
 * HEIF and AVIF half of the shim, over libheif 1.15 (HEVC through libde265, AV1 through
 * dav1d or aom).
 *
 * What libheif does for us: parses the boxes, picks the primary image of a multi-image
 * file, assembles grids, decodes the alpha plane, converts YCbCr (8, 10 or 12 bits) to
 * 8-bit RGBA (convert_hdr_to_8bit) and applies the file's transformations (clap, irot,
 * imir) in the order the file lists them. libheif 1.15 prints nothing outside debug
 * builds; it may decode grid tiles on worker threads, which it joins before returning.
 *
 * What we add (heif_boxes.c reads what libheif 1.15 neither exposes nor checks first):
 * - the pixel cap, from every declared size before any decode: the primary image's size,
 *   a grid's output size (libheif allocates it from the grid descriptor, not from ispe),
 *   and the sum of the tiles' declared sizes (a grid may reference one tile 65535 times);
 *   plus libheif's own per-dimension limit set to min(cap, 32768);
 * - orientation exactly once: libheif applies irot/imir; the EXIF Orientation tag is
 *   reported (for the caller to apply) only when the primary image has neither, as in
 *   files whose writer kept the camera's tag without irot (heif-enc 1.15 does that).
 *
 * Regions: libheif 1.15 has no tile or region decode in its API (heif_context_get_image_handle
 * returns top-level images only; per-tile decoding arrived in libheif 1.19), so the whole
 * primary image is decoded and the region copied out of it.
 */
#include "codecs_internal.h"
#include "heif_boxes.h"

#include <libheif/heif.h>
#include <stdlib.h>
#include <string.h>

/** libheif's own hard dimension limit (MAX_IMAGE_WIDTH / MAX_IMAGE_HEIGHT). */
#define GLIMPSE_HEIF_MAX_DIMENSION 32768
/** EXIF blocks larger than this are not read for the orientation. */
#define GLIMPSE_HEIF_MAX_EXIF (1u << 20)

static glimpse_status classify(struct heif_error error) {
    switch (error.code) {
    case heif_error_Ok: return GLIMPSE_OK;
    case heif_error_Invalid_input:
        return error.subcode == heif_suberror_End_of_data ? GLIMPSE_ERR_TRUNCATED : GLIMPSE_ERR_CORRUPT;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature:
        return GLIMPSE_ERR_UNSUPPORTED;
    case heif_error_Memory_allocation_error:
        return error.subcode == heif_suberror_Security_limit_exceeded ? GLIMPSE_ERR_TOO_LARGE : GLIMPSE_ERR_MEMORY;
    case heif_error_Usage_error:
        return GLIMPSE_ERR_CORRUPT; /* e.g. a referenced item that does not exist */
    default:
        return GLIMPSE_ERR_CORRUPT;
    }
}

static glimpse_status fail(const glimpse_request *request, struct heif_error error, const char *what) {
    glimpse_set_message(request, "%s: %s", what, error.message ? error.message : "unknown libheif error");
    return classify(error);
}

/** The EXIF orientation of the primary image (1 when absent or unreadable). */
static int exif_orientation(const struct heif_image_handle *handle) {
    heif_item_id id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) != 1) return 1;
    size_t size = heif_image_handle_get_metadata_size(handle, id);
    if (size < 8 || size > GLIMPSE_HEIF_MAX_EXIF) return 1;
    uint8_t *exif = malloc(size);
    if (exif == NULL) return 1;
    int orientation = 1;
    if (heif_image_handle_get_metadata(handle, id, exif).code == heif_error_Ok) {
        /* ExifDataBlock: a 4-byte offset to the TIFF header, then the EXIF bytes. */
        uint32_t offset = ((uint32_t)exif[0] << 24) | ((uint32_t)exif[1] << 16) | ((uint32_t)exif[2] << 8) | exif[3];
        if (offset <= size - 4) orientation = glimpse_exif_orientation(exif + 4 + offset, size - 4 - offset);
    }
    free(exif);
    return orientation;
}

/** Refuses what is declared larger than the cap, from the boxes alone. */
static glimpse_status check_declared(const glimpse_request *request, const glimpse_heif_layout *layout,
                                     uint32_t width, uint32_t height) {
    glimpse_status status = glimpse_check_cap(request, width, height);
    if (status != GLIMPSE_OK) return status;
    if (!layout->found) return GLIMPSE_OK;
    if (layout->ispe_width && layout->ispe_height) {
        status = glimpse_check_cap(request, layout->ispe_width, layout->ispe_height);
        if (status != GLIMPSE_OK) return status;
    }
    if (layout->is_grid) {
        status = glimpse_check_cap(request, layout->grid_width, layout->grid_height);
        if (status != GLIMPSE_OK) {
            request->info->width = layout->grid_width;
            request->info->height = layout->grid_height;
            return status;
        }
        uint64_t cap = request->options ? request->options->max_pixels : 0;
        uint64_t area = (uint64_t)layout->grid_width * layout->grid_height;
        /* Tiles may overhang the output (iPhone: 512x512 tiles over 4032x3024), not double it. */
        if (cap != 0 && layout->tile_area > 2 * area + (1u << 20)) {
            glimpse_set_message(request, "grid of %u tiles declares %llu tile pixels for a %ux%u image: refusing a grid bomb",
                                layout->tile_count, (unsigned long long)layout->tile_area, layout->grid_width,
                                layout->grid_height);
            return GLIMPSE_ERR_TOO_LARGE;
        }
        if (cap != 0 && (uint64_t)layout->tile_max_width * layout->tile_max_height > cap) {
            request->info->width = layout->tile_max_width;
            request->info->height = layout->tile_max_height;
            return glimpse_check_cap(request, layout->tile_max_width, layout->tile_max_height);
        }
    }
    return GLIMPSE_OK;
}

glimpse_status glimpse_heif_run(const glimpse_request *request) {
    glimpse_image_info *info = request->info;
    glimpse_heif_layout layout;
    if (glimpse_heif_read_layout(request->data, request->size, &layout, request->message, request->message_size) != 0) {
        return GLIMPSE_ERR_CORRUPT;
    }
    if (layout.found) {
        info->is_grid = layout.is_grid;
        const char *codec = layout.is_grid ? layout.tile_type : layout.item_type;
        if (strcmp(codec, "av01") == 0) info->format = GLIMPSE_FORMAT_AVIF;
        else if (strcmp(codec, "hvc1") == 0) info->format = GLIMPSE_FORMAT_HEIF;
    }

    struct heif_context *context = heif_context_alloc();
    if (context == NULL) {
        glimpse_set_message(request, "cannot allocate a libheif context");
        return GLIMPSE_ERR_MEMORY;
    }
    uint64_t cap = request->options ? request->options->max_pixels : 0;
    heif_context_set_maximum_image_size_limit(
        context, (int)(cap != 0 && cap < GLIMPSE_HEIF_MAX_DIMENSION ? cap : GLIMPSE_HEIF_MAX_DIMENSION));
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    uint8_t *pixels = NULL;
    glimpse_status status;

    struct heif_error error = heif_context_read_from_memory_without_copy(context, request->data, request->size, NULL);
    if (error.code != heif_error_Ok) {
        status = fail(request, error, "cannot read the HEIF structure");
        if (layout.truncated && status == GLIMPSE_ERR_CORRUPT) status = GLIMPSE_ERR_TRUNCATED;
        goto done;
    }
    error = heif_context_get_primary_image_handle(context, &handle);
    if (error.code != heif_error_Ok) {
        status = fail(request, error, "no primary image");
        goto done;
    }
    int width = heif_image_handle_get_width(handle), height = heif_image_handle_get_height(handle);
    if (width <= 0 || height <= 0) {
        glimpse_set_message(request, "the primary image declares no size (%dx%d)", width, height);
        status = GLIMPSE_ERR_CORRUPT;
        goto done;
    }
    info->width = (uint32_t)width;
    info->height = (uint32_t)height;
    info->has_alpha = heif_image_handle_has_alpha_channel(handle) != 0;
    info->components = info->has_alpha ? 4 : 3;
    int bits = heif_image_handle_get_luma_bits_per_pixel(handle);
    info->bit_depth = bits > 0 ? bits : 8;
    int images = heif_context_get_number_of_top_level_images(context);
    info->image_count = images > 0 ? images : 1;
    info->can_scale = 0;
    if (!layout.found || !layout.has_rotation_or_mirror) info->orientation = exif_orientation(handle);
    if (request->mode == GLIMPSE_MODE_PROBE) {
        status = GLIMPSE_OK;
        goto done;
    }

    const glimpse_decode_options *options = request->options;
    glimpse_decode_result *result = request->result;
    status = check_declared(request, &layout, info->width, info->height);
    if (status != GLIMPSE_OK) goto done;
    if (options->scale_num != 0 && options->scale_num != 8) {
        glimpse_set_message(request, "scale %d/8: HEIF and AVIF decode at full size only", options->scale_num);
        status = GLIMPSE_ERR_ARGUMENT;
        goto done;
    }
    uint32_t rx, ry, rw, rh;
    status = glimpse_resolve_region(request, info->width, info->height, &rx, &ry, &rw, &rh);
    if (status != GLIMPSE_OK) goto done;
    result->width = rw;
    result->height = rh;
    result->channels = 4;
    result->bytes_per_row = (size_t)rw * 4;
    result->scaled_width = info->width;
    result->scaled_height = info->height;
    if (request->mode == GLIMPSE_MODE_PLAN) goto done;

    struct heif_decoding_options *decoding = heif_decoding_options_alloc();
    if (decoding == NULL) {
        glimpse_set_message(request, "cannot allocate libheif decoding options");
        status = GLIMPSE_ERR_MEMORY;
        goto done;
    }
    decoding->convert_hdr_to_8bit = 1;
    decoding->ignore_transformations = 0;
    /* Strict: invalid data is an error, not a decoding warning with a best-effort picture. */
    decoding->strict_decoding = options->allow_damaged ? 0 : 1;
    error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decoding);
    heif_decoding_options_free(decoding);
    if (error.code != heif_error_Ok) {
        status = fail(request, error, "cannot decode the primary image");
        goto done;
    }
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int got_width = heif_image_get_primary_width(image), got_height = heif_image_get_primary_height(image);
    if (plane == NULL || got_width != width || got_height != height || stride < width * 4
        || heif_image_get_bits_per_pixel(image, heif_channel_interleaved) != 32) {
        glimpse_set_message(request, "libheif decoded %dx%d (%d bits per pixel) for an image declared %dx%d",
                            got_width, got_height, heif_image_get_bits_per_pixel(image, heif_channel_interleaved),
                            width, height);
        status = GLIMPSE_ERR_CORRUPT;
        goto done;
    }
    struct heif_error warning;
    if (heif_image_get_decoding_warnings(image, 0, &warning, 1) > 0) {
        if (!options->allow_damaged) {
            status = fail(request, warning, "damaged image");
            if (status == GLIMPSE_OK) status = GLIMPSE_ERR_CORRUPT;
            goto done;
        }
        result->damaged = 1;
        glimpse_set_message(request, "%s", warning.message ? warning.message : "decoding warning");
    }
    size_t needed = result->bytes_per_row * rh;
    pixels = glimpse_output_buffer(request, needed, &status);
    if (pixels == NULL) goto done;
    for (uint32_t y = 0; y < rh; y++) {
        memcpy(pixels + (size_t)y * result->bytes_per_row, plane + (size_t)(ry + y) * (size_t)stride + (size_t)rx * 4,
               result->bytes_per_row);
    }
    result->pixels = pixels;
    pixels = NULL;
    status = GLIMPSE_OK;

done:
    if (pixels != NULL && pixels != request->destination) free(pixels);
    if (image) heif_image_release(image);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}
