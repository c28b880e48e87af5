/*
 * JPEG half of the shim, over libjpeg-turbo.
 *
 * Errors: error_exit longjmps back here; emit_message turns warnings (corrupt data,
 * premature end) into errors unless the caller allows damaged output; output_message
 * never prints.
 *
 * Resource limits (decompression bombs): a progress monitor caps the number of scans,
 * both absolutely and as scans x pixels, so a small progressive file with hundreds of
 * scans over a large image cannot make the decoder loop for minutes (each scan walks
 * every block); libjpeg's working memory (the whole-image coefficient buffer of a
 * progressive file) is capped at GLIMPSE_JPEG_MEMORY_PER_PIXEL bytes per allowed pixel;
 * APP1 markers are read by our own processor, which keeps only the first EXIF segment
 * (jpeg_save_markers appends each saved marker by walking the whole list: 200 000 APP1
 * markers, 3.5 MB, took over four minutes).
 *
 * Region: jpeg_crop_scanline widens the crop to iMCU boundaries (and fancy upsampling
 * treats the crop edges as image edges), so we ask for a margin of one iMCU on each side
 * and trim it ourselves; jpeg_skip_scanlines skips the rows above.
 */
#include "codecs_internal.h"

#include <stdio.h> /* jpeglib.h needs FILE and size_t first */
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/** More scans than this is an attack, not a photo (libjpeg-turbo's fuzzers use 500). */
#define GLIMPSE_JPEG_MAX_SCANS 1000
/** Scans x declared pixels allowed (each scan walks every block; 10^9 is under a second)... */
#define GLIMPSE_JPEG_SCAN_PIXEL_BUDGET 1000000000ULL
/** ...but at least this many scans (libjpeg's own progressive script uses 10). */
#define GLIMPSE_JPEG_MIN_SCANS 32
/** Working memory libjpeg may use per allowed pixel (4 components x 2 bytes of coefficients)... */
#define GLIMPSE_JPEG_MEMORY_PER_PIXEL 8
/** ...plus this for tables and buffers. */
#define GLIMPSE_JPEG_MEMORY_BASE (16L << 20)
/** Working memory when no pixel cap is given. */
#define GLIMPSE_JPEG_MEMORY_UNCAPPED (2048L << 20)

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    const glimpse_request *request;
    int allow_damaged;
    int damaged;
    glimpse_status status;
} glimpse_jpeg_error;

typedef struct {
    struct jpeg_progress_mgr pub;
    glimpse_jpeg_error *error;
    /** Scans allowed for this image (GLIMPSE_JPEG_MAX_SCANS until the header is read). */
    int max_scans;
} glimpse_jpeg_progress;

/** Scans allowed for an image of `width` x `height` pixels. */
static int scan_limit(JDIMENSION width, JDIMENSION height) {
    unsigned long long pixels = (unsigned long long)width * height;
    unsigned long long by_budget = pixels == 0 ? GLIMPSE_JPEG_MAX_SCANS : GLIMPSE_JPEG_SCAN_PIXEL_BUDGET / pixels;
    if (by_budget < GLIMPSE_JPEG_MIN_SCANS) return GLIMPSE_JPEG_MIN_SCANS;
    if (by_budget > GLIMPSE_JPEG_MAX_SCANS) return GLIMPSE_JPEG_MAX_SCANS;
    return (int)by_budget;
}

static glimpse_status classify_error(int code) {
    switch (code) {
    case JERR_INPUT_EMPTY: return GLIMPSE_ERR_EMPTY;
    case JERR_INPUT_EOF: return GLIMPSE_ERR_TRUNCATED;
    case JERR_BAD_PRECISION:
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOTIMPL:
        return GLIMPSE_ERR_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
    case JERR_TFILE_CREATE:
    case JERR_NO_BACKING_STORE: /* working memory over max_memory_to_use */
        return GLIMPSE_ERR_MEMORY;
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return GLIMPSE_ERR_TOO_LARGE;
    case JERR_NO_SOI:
        return GLIMPSE_ERR_UNRECOGNIZED;
    default:
        return GLIMPSE_ERR_CORRUPT;
    }
}

static void store_message(j_common_ptr cinfo) {
    glimpse_jpeg_error *error = (glimpse_jpeg_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    glimpse_set_message(error->request, "%s", text);
}

static void error_exit(j_common_ptr cinfo) {
    glimpse_jpeg_error *error = (glimpse_jpeg_error *)cinfo->err;
    error->status = classify_error(cinfo->err->msg_code);
    if (cinfo->err->msg_code == JERR_NO_BACKING_STORE) {
        glimpse_set_message(error->request, "decoding needs more than the %ld MB of working memory allowed "
                            "for the pixel limit", cinfo->mem->max_memory_to_use >> 20);
    } else {
        store_message(cinfo);
    }
    longjmp(error->jump, 1);
}

static void emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace messages: ignore */
    glimpse_jpeg_error *error = (glimpse_jpeg_error *)cinfo->err;
    cinfo->err->num_warnings++;
    glimpse_status status = cinfo->err->msg_code == JWRN_JPEG_EOF ? GLIMPSE_ERR_TRUNCATED : GLIMPSE_ERR_CORRUPT;
    if (!error->allow_damaged) {
        error->status = status;
        store_message(cinfo);
        longjmp(error->jump, 1);
    }
    if (!error->damaged) {
        error->damaged = 1;
        store_message(cinfo);
    }
}

static void output_message(j_common_ptr cinfo) { (void)cinfo; }

static void progress_monitor(j_common_ptr cinfo) {
    glimpse_jpeg_progress *progress = (glimpse_jpeg_progress *)cinfo->progress;
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > progress->max_scans) {
        progress->error->status = GLIMPSE_ERR_CORRUPT;
        glimpse_set_message(progress->error->request,
                            "more than %d scans for %ux%u pixels: refusing a pathological file",
                            progress->max_scans, dinfo->image_width, dinfo->image_height);
        longjmp(progress->error->jump, 1);
    }
}

/** What the APP1 processor found: the orientation from the first EXIF segment. */
typedef struct {
    int exif_seen;
    int orientation;
} glimpse_jpeg_markers;

/** The next input byte, or -1 if the source suspends (a memory source never does). */
static int next_byte(j_decompress_ptr cinfo) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (src->bytes_in_buffer == 0 && !(*src->fill_input_buffer)(cinfo)) return -1;
    src->bytes_in_buffer--;
    return *src->next_input_byte++;
}

/** APP1 marker processor: parses the first "Exif\0\0" segment for the orientation and
    skips every other APP1 segment without storing it. */
static boolean read_app1(j_decompress_ptr cinfo) {
    glimpse_jpeg_markers *markers = (glimpse_jpeg_markers *)cinfo->client_data;
    int high = next_byte(cinfo);
    int low = high < 0 ? -1 : next_byte(cinfo);
    if (low < 0) return FALSE;
    long length = (((long)high << 8) | low) - 2; /* bytes after the length field */
    if (length <= 0) return TRUE;
    if (!markers->exif_seen && length >= 6) {
        uint8_t header[6];
        for (int i = 0; i < 6; i++) {
            int b = next_byte(cinfo);
            if (b < 0) return FALSE;
            header[i] = (uint8_t)b;
        }
        length -= 6;
        if (memcmp(header, "Exif\0\0", 6) == 0) {
            markers->exif_seen = 1;
            uint8_t *tiff = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, length > 0 ? (size_t)length : 1);
            for (long i = 0; i < length; i++) {
                int b = next_byte(cinfo);
                if (b < 0) return FALSE;
                tiff[i] = (uint8_t)b;
            }
            markers->orientation = glimpse_exif_orientation(tiff, (size_t)length);
            return TRUE;
        }
    }
    if (length > 0) (*cinfo->src->skip_input_data)(cinfo, length);
    return TRUE;
}

/** Adobe CMYK (stored inverted) to RGBA, exactly as djpeg's cmyk_to_rgb rounds it. */
static void cmyk_to_rgba(const uint8_t *src, uint8_t *dst, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        unsigned c = src[0], m = src[1], y = src[2], k = src[3];
        dst[0] = (uint8_t)((c * k + 127) / 255);
        dst[1] = (uint8_t)((m * k + 127) / 255);
        dst[2] = (uint8_t)((y * k + 127) / 255);
        dst[3] = 255;
        src += 4;
        dst += 4;
    }
}

glimpse_status glimpse_jpeg_run(const glimpse_request *request) {
    struct jpeg_decompress_struct cinfo;
    glimpse_jpeg_error error;
    glimpse_jpeg_progress progress;
    glimpse_jpeg_markers markers = {0, 1};
    /* Written after setjmp and read after longjmp: must be volatile. */
    uint8_t *volatile owned = NULL;
    uint8_t *volatile scratch = NULL;

    memset(&cinfo, 0, sizeof cinfo);
    memset(&error, 0, sizeof error);
    cinfo.err = jpeg_std_error(&error.pub);
    error.pub.error_exit = error_exit;
    error.pub.emit_message = emit_message;
    error.pub.output_message = output_message;
    error.request = request;
    error.allow_damaged = request->options ? request->options->allow_damaged : 0;
    error.status = GLIMPSE_ERR_CORRUPT;

    if (setjmp(error.jump)) {
        free(scratch);
        free(owned);
        jpeg_destroy_decompress(&cinfo);
        return error.status;
    }

    jpeg_create_decompress(&cinfo);
    progress.pub.progress_monitor = progress_monitor;
    progress.error = &error;
    progress.max_scans = GLIMPSE_JPEG_MAX_SCANS;
    cinfo.progress = &progress.pub;
    {
        uint64_t cap = request->options ? request->options->max_pixels : 0;
        uint64_t limit = (uint64_t)GLIMPSE_JPEG_MEMORY_UNCAPPED;
        if (cap != 0 && cap < ((uint64_t)1 << 40)) limit = cap * GLIMPSE_JPEG_MEMORY_PER_PIXEL + GLIMPSE_JPEG_MEMORY_BASE;
        cinfo.mem->max_memory_to_use = (long)limit;
    }
    jpeg_mem_src(&cinfo, request->data, (unsigned long)request->size);
    cinfo.client_data = &markers;
    jpeg_set_marker_processor(&cinfo, JPEG_APP0 + 1, read_app1);
    jpeg_read_header(&cinfo, TRUE);
    progress.max_scans = scan_limit(cinfo.image_width, cinfo.image_height);

    glimpse_image_info *info = request->info;
    info->width = cinfo.image_width;
    info->height = cinfo.image_height;
    info->components = cinfo.num_components;
    info->bit_depth = cinfo.data_precision;
    info->orientation = markers.orientation;
    info->interlaced = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    info->is_gray = cinfo.jpeg_color_space == JCS_GRAYSCALE;
    info->can_scale = 1;
    info->has_alpha = 0;

    if (request->mode == GLIMPSE_MODE_PROBE) {
        jpeg_destroy_decompress(&cinfo);
        return GLIMPSE_OK;
    }

    const glimpse_decode_options *options = request->options;
    glimpse_status status = glimpse_check_cap(request, cinfo.image_width, cinfo.image_height);
    if (status != GLIMPSE_OK) {
        jpeg_destroy_decompress(&cinfo);
        return status;
    }

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    int gray_out = info->is_gray && options->allow_gray;
    cinfo.out_color_space = gray_out ? JCS_GRAYSCALE : (cmyk ? JCS_CMYK : JCS_EXT_RGBA);
    cinfo.scale_num = options->scale_num == 0 ? 8 : (unsigned)options->scale_num;
    cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&cinfo);

    uint32_t rx, ry, rw, rh;
    status = glimpse_resolve_region(request, cinfo.output_width, cinfo.output_height, &rx, &ry, &rw, &rh);
    if (status != GLIMPSE_OK) {
        jpeg_destroy_decompress(&cinfo);
        return status;
    }

    glimpse_decode_result *result = request->result;
    int channels = gray_out ? 1 : 4;
    result->width = rw;
    result->height = rh;
    result->channels = channels;
    result->bytes_per_row = (size_t)rw * (size_t)channels;
    result->scaled_width = cinfo.output_width;
    result->scaled_height = cinfo.output_height;
    size_t needed = result->bytes_per_row * rh;

    if (request->mode == GLIMPSE_MODE_PLAN) {
        jpeg_destroy_decompress(&cinfo);
        return GLIMPSE_OK;
    }

    /* glimpse_decode_rows hands the rows to a sink from a band of 16 rows (in `scratch`),
     * never storing the image; glimpse_decode writes them into `pixels`. */
    uint8_t *pixels = NULL, *band = NULL;
    size_t band_row = 0;
    if (request->row_sink != NULL) {
        if (rx != 0 || ry != 0 || rw != cinfo.output_width || rh != cinfo.output_height || error.allow_damaged) {
            glimpse_set_message(request, "row-by-row decoding is for a whole image, not damaged");
            jpeg_destroy_decompress(&cinfo);
            return GLIMPSE_ERR_UNSUPPORTED;
        }
        /* jpeg_calc_output_dimensions (above) has set output_components. Rows start 16
         * bytes past a 32-byte boundary (the row length padded to keep them so):
         * libjpeg-turbo's SIMD colour converters write a 32-byte-aligned output row with
         * non-temporal stores, which bypass the cache, so the sink, reading the row right
         * after, waited for memory (half of the working-plane conversion's time). After the
         * band, one converted row for CMYK. */
        band_row = ((size_t)cinfo.output_width * (size_t)cinfo.output_components + 31) & ~(size_t)31;
        scratch = malloc(64 + band_row * 16 + (cmyk ? result->bytes_per_row : 0));
        if (scratch == NULL) {
            glimpse_set_message(request, "cannot allocate a band of 16 rows of %zu bytes", band_row);
            jpeg_destroy_decompress(&cinfo);
            return GLIMPSE_ERR_MEMORY;
        }
        band = (uint8_t *)(((uintptr_t)scratch + 31) & ~(uintptr_t)31) + 16;
    } else if ((pixels = request->destination) != NULL) {
        if (request->destination_size < needed) {
            glimpse_set_message(request, "destination holds %zu bytes, %zu needed", request->destination_size,
                                needed);
            jpeg_destroy_decompress(&cinfo);
            return GLIMPSE_ERR_MEMORY;
        }
    } else {
        owned = malloc(needed);
        if (owned == NULL) {
            glimpse_set_message(request, "cannot allocate %zu bytes for %ux%u pixels", needed, rw, rh);
            jpeg_destroy_decompress(&cinfo);
            return GLIMPSE_ERR_MEMORY;
        }
        pixels = owned;
    }

    jpeg_start_decompress(&cinfo);

    /* Horizontal crop with a margin of one iMCU each side, trimmed below. */
    JDIMENSION trim = 0;
    int cropped = rx != 0 || rw != cinfo.output_width;
    if (cropped) {
        JDIMENSION margin = (JDIMENSION)cinfo.max_h_samp_factor * (JDIMENSION)cinfo.min_DCT_scaled_size;
        JDIMENSION left = rx > margin ? rx - margin : 0;
        JDIMENSION right = (JDIMENSION)rx + rw + margin;
        if (right > cinfo.output_width) right = cinfo.output_width;
        JDIMENSION crop_x = left, crop_width = right - left;
        jpeg_crop_scanline(&cinfo, &crop_x, &crop_width);
        trim = rx - crop_x;
    }
    if (ry > 0) {
        JDIMENSION skipped = jpeg_skip_scanlines(&cinfo, ry);
        if (skipped != ry) {
            error.status = GLIMPSE_ERR_TRUNCATED;
            glimpse_set_message(request, "could skip only %u of %u rows", skipped, ry);
            longjmp(error.jump, 1);
        }
    }

    int direct = !cropped && !cmyk; /* libjpeg writes straight into the output rows */
    if (!direct && band == NULL) {
        size_t scratch_row = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
        scratch = malloc(scratch_row);
        if (scratch == NULL) {
            error.status = GLIMPSE_ERR_MEMORY;
            glimpse_set_message(request, "cannot allocate a row of %zu bytes", scratch_row);
            longjmp(error.jump, 1);
        }
    }
    size_t out_components = (size_t)cinfo.output_components;
    uint32_t row = 0;
    while (row < rh) {
        if (band != NULL) {
            JSAMPROW rows[16];
            const JDIMENSION want = rh - row < 16 ? rh - row : 16;
            for (JDIMENSION i = 0; i < want; i++) rows[i] = band + (size_t)i * band_row;
            const JDIMENSION got = jpeg_read_scanlines(&cinfo, rows, want);
            if (got == 0) break; /* suspended: cannot happen with a memory source */
            uint8_t *converted = band + band_row * 16;
            for (JDIMENSION i = 0; i < got; i++) {
                const uint8_t *out = rows[i];
                if (cmyk) {
                    cmyk_to_rgba(out, converted, rw);
                    out = converted;
                }
                request->row_sink(request->row_sink_context, row + i, out);
            }
            row += got;
        } else if (direct) {
            JSAMPROW rows[16];
            JDIMENSION want = rh - row < 16 ? rh - row : 16;
            for (JDIMENSION i = 0; i < want; i++) rows[i] = pixels + (size_t)(row + i) * result->bytes_per_row;
            JDIMENSION got = jpeg_read_scanlines(&cinfo, rows, want);
            if (got == 0) break; /* suspended: cannot happen with a memory source */
            row += got;
        } else {
            JSAMPROW rows[1] = {scratch};
            if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) break;
            uint8_t *out = pixels + (size_t)row * result->bytes_per_row;
            const uint8_t *in = scratch + (size_t)trim * out_components;
            if (cmyk) cmyk_to_rgba(in, out, rw);
            else memcpy(out, in, result->bytes_per_row);
            row++;
        }
    }
    if (row < rh) {
        error.status = GLIMPSE_ERR_TRUNCATED;
        glimpse_set_message(request, "decoder stopped after %u of %u rows", row, rh);
        longjmp(error.jump, 1);
    }
    if (cinfo.output_scanline == cinfo.output_height) {
        jpeg_finish_decompress(&cinfo); /* reads to EOI, so trailing damage is reported */
    } else {
        jpeg_abort_decompress(&cinfo); /* rows below the region are never decoded */
    }
    free(scratch);
    scratch = NULL;
    jpeg_destroy_decompress(&cinfo);
    result->pixels = pixels;
    result->damaged = error.damaged;
    owned = NULL;
    return GLIMPSE_OK;
}
