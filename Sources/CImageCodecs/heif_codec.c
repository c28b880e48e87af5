/*
 * HEIF and AVIF half of the shim, over libheif 1.15 (HEVC through libde265, AV1 through
 * dav1d or aom).
 *
 * What libheif does for us: parses the boxes, picks the primary image of a multi-image
 * file, assembles grids, decodes the alpha plane, converts YCbCr (8, 10 or 12 bits) to
 * 8-bit RGBA (convert_hdr_to_8bit) and applies the file's transformations (clap, irot,
 * imir) in the order the file lists them. libheif 1.15 prints nothing outside debug
 * builds; grid tiles are decoded on the calling thread (max_decoding_threads 0).
 *
 * What we add (heif_boxes.c reads what libheif 1.15 neither exposes nor checks first;
 * heif_hevc_plugin.c and heif_av1_plugin.c replace libheif's libde265 and dav1d plugins):
 * - decoders that never print (libheif's dav1d plugin keeps dav1d's stderr logger), run on
 *   the calling thread, report libde265's errors and warnings, zero libde265's buffers and
 *   refuse pictures whose size differs from the declared one;
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
#include <libheif/heif_plugin.h>
#include "heif_library.h" /* after the libraries' headers: calls go through the loaded table */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Our decoder plugins (heif_hevc_plugin.c, heif_av1_plugin.c), preferred over libheif's own. */
extern const struct heif_decoder_plugin glimpse_hevc_plugin;
extern const struct heif_decoder_plugin glimpse_av1_plugin;

static pthread_once_t plugins_registered = PTHREAD_ONCE_INIT;

static void register_plugins(void) {
    /* On failure libheif keeps using its own plugins. */
    (void)heif_register_decoder_plugin(&glimpse_hevc_plugin);
    (void)heif_register_decoder_plugin(&glimpse_av1_plugin);
}

/** The picture size the decode on this thread expects (0: unknown). */
static _Thread_local int expected_width, expected_height;

static void glimpse_heif_expect_picture_size(int width, int height) {
    expected_width = width;
    expected_height = height;
}

void glimpse_heif_expected_picture_size(int *width, int *height) {
    *width = expected_width;
    *height = expected_height;
}

/** libheif's own hard dimension limit (MAX_IMAGE_WIDTH / MAX_IMAGE_HEIGHT). */
#define GLIMPSE_HEIF_MAX_DIMENSION 32768
/** Tiles a grid may have: each costs a decoder start-up whatever its size, so a grid of
 *  tens of thousands of tiny tiles is slow within any pixel cap (an iPhone photo has 48,
 *  a 100 MP grid of 512x512 tiles about 400; heif-convert takes 7.7 s on 8000 tiles of
 *  64x64). */
#define GLIMPSE_HEIF_MAX_TILES 2048
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
    /* Derived images other than grids (iovl overlays, iden) get their canvas or source from
     * data these checks do not read, and a grid's tiles must be coded images: refuse the rest. */
    int coded = strcmp(layout->item_type, "hvc1") == 0 || strcmp(layout->item_type, "av01") == 0;
    int tiles_coded = strcmp(layout->tile_type, "hvc1") == 0 || strcmp(layout->tile_type, "av01") == 0;
    if (!coded && !(layout->is_grid && tiles_coded)) {
        glimpse_set_message(request, "primary image of type '%s'%s%s%s: only HEVC (hvc1) and AV1 (av01) images and "
                            "grids of them are supported", layout->item_type, layout->is_grid ? " with tiles of type '" : "",
                            layout->is_grid ? layout->tile_type : "", layout->is_grid ? "'" : "");
        return GLIMPSE_ERR_UNSUPPORTED;
    }
    if (layout->ispe_width && layout->ispe_height) {
        status = glimpse_check_cap(request, layout->ispe_width, layout->ispe_height);
        if (status != GLIMPSE_OK) return status;
    }
    if (layout->is_grid) {
        if (layout->grid_width == 0 || layout->grid_height == 0) {
            glimpse_set_message(request, "cannot read the grid descriptor (its declared size is needed before decoding)");
            return GLIMPSE_ERR_CORRUPT;
        }
        status = glimpse_check_cap(request, layout->grid_width, layout->grid_height);
        if (status != GLIMPSE_OK) {
            request->info->width = layout->grid_width;
            request->info->height = layout->grid_height;
            return status;
        }
        if (layout->tile_count > GLIMPSE_HEIF_MAX_TILES) {
            glimpse_set_message(request, "grid of %u tiles: more than %d tiles is refused (each costs a decoder start)",
                                layout->tile_count, GLIMPSE_HEIF_MAX_TILES);
            return GLIMPSE_ERR_UNSUPPORTED;
        }
        if (layout->grid_rows * layout->grid_columns != layout->tile_count) {
            glimpse_set_message(request, "grid of %ux%u tiles references %u tile images", layout->grid_rows,
                                layout->grid_columns, layout->tile_count);
            return GLIMPSE_ERR_CORRUPT;
        }
        uint64_t cap = request->options ? request->options->max_pixels : 0;
        uint64_t area = (uint64_t)layout->grid_width * layout->grid_height;
        /* libheif 1.15 leaves what no tile covers uninitialised: refuse such a grid. */
        if (layout->tile_area < area) {
            glimpse_set_message(request, "the grid's %u tiles cover %llu of its %ux%u pixels", layout->tile_count,
                                (unsigned long long)layout->tile_area, layout->grid_width, layout->grid_height);
            return GLIMPSE_ERR_CORRUPT;
        }
        /* Tiles may overhang the output (iPhone: 512x512 tiles over 4032x3024), not double it. */
        if (cap != 0 && layout->tile_area > 2 * area + (1u << 20)) {
            glimpse_set_message(request, "grid of %u tiles declares %llu tile pixels for a %ux%u image: refusing a grid bomb",
                                layout->tile_count, (unsigned long long)layout->tile_area, layout->grid_width,
                                layout->grid_height);
            return GLIMPSE_ERR_CORRUPT;
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

    /* libheif, libde265 and dav1d are loaded by the first HEIF or AVIF decode (heif_library.h). */
    if (glimpse_heif_libraries_load(request->message, request->message_size) != 0) return GLIMPSE_ERR_UNSUPPORTED;
    /* HEVC and AV1 through our plugins: strict, silent, on this thread (see their files). */
    pthread_once(&plugins_registered, register_plugins);
    struct heif_context *context = heif_context_alloc();
    if (context == NULL) {
        glimpse_set_message(request, "cannot allocate a libheif context");
        return GLIMPSE_ERR_MEMORY;
    }
    uint64_t cap = request->options ? request->options->max_pixels : 0;
    /* Grid tiles on the calling thread: libheif 1.15's parallel tile decoding gave
     * different pixels for the same damaged grid from run to run (fuzzing); callers that
     * want parallelism decode several files at once (match, index --jobs). */
    heif_context_set_max_decoding_threads(context, 0);
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
        if (status == GLIMPSE_ERR_TOO_LARGE && layout.found) {
            /* libheif's own dimension limit: report the declared size. */
            info->width = layout.is_grid && layout.grid_width ? layout.grid_width : layout.ispe_width;
            info->height = layout.is_grid && layout.grid_height ? layout.grid_height : layout.ispe_height;
        }
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
    /* Every coded picture must have the size the file declares for it: a grid's tiles (when
     * they all declare one size), or a single image's ispe. */
    int expect_w = 0, expect_h = 0;
    if (layout.found && layout.is_grid && layout.tile_count > 0
        && layout.tile_area == (uint64_t)layout.tile_count * layout.tile_max_width * layout.tile_max_height) {
        expect_w = (int)layout.tile_max_width;
        expect_h = (int)layout.tile_max_height;
    } else if (layout.found && !layout.is_grid) {
        expect_w = (int)layout.ispe_width;
        expect_h = (int)layout.ispe_height;
    }
    glimpse_heif_expect_picture_size(expect_w, expect_h);
    error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decoding);
    glimpse_heif_expect_picture_size(0, 0);
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
