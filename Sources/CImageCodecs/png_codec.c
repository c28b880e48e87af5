/*
 * PNG half of the shim, over libpng's classic API (setjmp/longjmp error handling).
 *
 * Every colour type and bit depth becomes RGBA8: palette expanded, tRNS to alpha,
 * low bit depths rescaled (libpng's expansion is exact: v * 255 / (2^d - 1)), 16-bit
 * scaled with png_set_scale_16 (rounded, not truncated), opaque alpha 255. gAMA, cHRM,
 * sBIT and iCCP are ignored: raw sample values.
 *
 * Region: a non-interlaced image is read row by row and only the region's rows are
 * kept; reading stops after the region's last row. An interlaced image needs the full
 * frame (Adam7 spreads every row over seven passes).
 *
 * Resource limits (decompression bombs): every ancillary chunk except tRNS and eXIf is
 * skipped unread (no zTXt/iTXt/iCCP inflation, no text piling up in memory); at most
 * GLIMPSE_PNG_MAX_CHUNK_BYTES are allocated for one chunk; and while the last row is
 * decoded, at most one raw row plus GLIMPSE_PNG_MAX_IDAT_AFTER_ROWS bytes of compressed
 * image data are read: after the last row libpng inflates whatever data remains, to
 * check there is none, and 1 MB of zlib data can hold 1 GB of zeros.
 */
#include "codecs_internal.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
/* Four RGB pixels (one 16-byte load, 12 bytes used) to four RGBA pixels per step. */
__attribute__((target("ssse3"))) static uint32_t rgb_to_rgba_ssse3(const uint8_t *src, uint8_t *dst, uint32_t n) {
    const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
    uint32_t x = 0;
    /* The load reads bytes 3x … 3x + 15: stop while the row still has them (x + 6 ≤ n). */
    for (; x + 6 <= n; x += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 3 * (size_t)x));
        _mm_storeu_si128((__m128i *)(void *)(dst + 4 * (size_t)x), _mm_or_si128(_mm_shuffle_epi8(v, spread), alpha));
    }
    return x;
}
#endif

/* An opaque RGB row to RGBA8: the bytes libpng's filler (png_set_add_alpha 0xffff, after)
 * writes, by shuffles where the CPU has them (libpng adds the filler one byte at a time,
 * about 8 % of a 1080p decode), the rest one pixel at a time. */
static void rgb_to_rgba(const uint8_t *src, uint8_t *dst, uint32_t n) {
    uint32_t x = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("ssse3")) x = rgb_to_rgba_ssse3(src, dst, n);
#endif
    for (; x < n; x++) {
        dst[4 * (size_t)x] = src[3 * (size_t)x];
        dst[4 * (size_t)x + 1] = src[3 * (size_t)x + 1];
        dst[4 * (size_t)x + 2] = src[3 * (size_t)x + 2];
        dst[4 * (size_t)x + 3] = 255;
    }
}

/** Largest single chunk libpng may allocate (eXIf, PLTE, ...). */
#define GLIMPSE_PNG_MAX_CHUNK_BYTES (8u << 20)
/** Most ancillary chunks libpng may keep (it keeps none of the ones we skip). */
#define GLIMPSE_PNG_MAX_CACHED_CHUNKS 64
/** Compressed IDAT bytes allowed beyond the last row's own (a conforming file has a few). */
#define GLIMPSE_PNG_MAX_IDAT_AFTER_ROWS (16u << 10)

typedef struct {
    const glimpse_request *request;
    const uint8_t *data;
    size_t size;
    size_t position;
    int truncated;
    int damaged;
    int allow_damaged;
    /* Chunk tracking: libpng reads the stream strictly in order, and each chunk header
       as one 8-byte read at the chunk's start. */
    size_t next_chunk;          /* offset of the next chunk header */
    int in_idat;                /* the bytes being read belong to an IDAT chunk */
    int final_row;              /* the last row (of the last pass) is being decoded */
    size_t idat_final;          /* IDAT bytes read since it began */
    size_t idat_final_budget;   /* how many it may read */
} glimpse_png_state;

static void read_bytes(png_structp png, png_bytep out, size_t count) {
    glimpse_png_state *state = (glimpse_png_state *)png_get_io_ptr(png);
    if (count > state->size - state->position) {
        state->truncated = 1;
        png_error(png, "the file ends before the image does");
    }
    if (state->position == state->next_chunk && count >= 8) {
        const uint8_t *header = state->data + state->position;
        uint32_t length = ((uint32_t)header[0] << 24) | ((uint32_t)header[1] << 16) | ((uint32_t)header[2] << 8) | header[3];
        state->in_idat = memcmp(header + 4, "IDAT", 4) == 0;
        state->next_chunk = state->position + 12 + (size_t)length;
    } else if (state->final_row && state->in_idat && state->position + 4 < state->next_chunk) {
        state->idat_final += count; /* chunk data, not the CRC after it */
        if (state->idat_final > state->idat_final_budget) {
            png_error(png, "too much compressed image data after the last row (a decompression bomb?)");
        }
    }
    memcpy(out, state->data + state->position, count);
    state->position += count;
}

/** Called just before the last png_read_row: that call also inflates whatever image data
    follows the last row, so from here on IDAT reads are budgeted. A raw row is at most
    8 bytes per pixel plus the filter byte; stored deflate blocks add 5 bytes per 64 KiB. */
static void begin_final_row(glimpse_png_state *state, uint32_t width) {
    size_t raw_row = (size_t)width * 8 + 1;
    state->final_row = 1;
    state->idat_final = 0;
    state->idat_final_budget = raw_row + raw_row / 4096 + GLIMPSE_PNG_MAX_IDAT_AFTER_ROWS;
}

static void on_error(png_structp png, png_const_charp text) {
    glimpse_png_state *state = (glimpse_png_state *)png_get_error_ptr(png);
    glimpse_set_message(state->request, "%s", text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    /* Warnings (bad ancillary chunks, unknown profiles) are not damage, except a CRC
       mismatch that allow_damaged asked libpng to accept. Nothing is printed. */
    glimpse_png_state *state = (glimpse_png_state *)png_get_error_ptr(png);
    if (state->allow_damaged && strstr(text, "CRC") != NULL && !state->damaged) {
        state->damaged = 1;
        glimpse_set_message(state->request, "%s", text);
    }
}

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

glimpse_status glimpse_png_run(const glimpse_request *request) {
    glimpse_image_info *info = request->info;
    const glimpse_decode_options *options = request->options;

    /* Check the declared size from IHDR before libpng allocates anything. */
    if (request->size < 8 + 8 + 13) {
        glimpse_set_message(request, "the file ends inside the PNG header (%zu bytes)", request->size);
        return GLIMPSE_ERR_TRUNCATED;
    }
    if (memcmp(request->data + 12, "IHDR", 4) != 0) {
        glimpse_set_message(request, "the first chunk is not IHDR");
        return GLIMPSE_ERR_CORRUPT;
    }
    if (options != NULL) {
        glimpse_status cap = glimpse_check_cap(request, be32(request->data + 16), be32(request->data + 20));
        if (cap != GLIMPSE_OK) {
            info->width = be32(request->data + 16);
            info->height = be32(request->data + 20);
            return cap;
        }
    }

    glimpse_png_state state = {request, request->data, request->size, 0, 0, 0, 0, 8, 0, 0, 0, 0};
    state.allow_damaged = options ? options->allow_damaged : 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    if (png == NULL) {
        glimpse_set_message(request, "cannot allocate libpng state");
        return GLIMPSE_ERR_MEMORY;
    }
    png_infop png_info = png_create_info_struct(png);
    if (png_info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        glimpse_set_message(request, "cannot allocate libpng state");
        return GLIMPSE_ERR_MEMORY;
    }

    /* Written after setjmp and read after longjmp: must be volatile. */
    uint8_t *volatile owned = NULL;
    uint8_t *volatile scratch = NULL;
    png_bytepp volatile row_pointers = NULL;
    volatile uint32_t rows_done = 0;
    uint8_t *volatile pixels = NULL;

    if (setjmp(png_jmpbuf(png))) {
        int salvage = state.allow_damaged && rows_done > 0 && pixels != NULL;
        free(scratch);
        free(row_pointers);
        png_destroy_read_struct(&png, &png_info, NULL);
        if (salvage) {
            /* Rows never read stay zero (transparent black); a missing tail after the
               last row (IEND, trailing chunks) loses nothing. */
            request->result->pixels = pixels;
            request->result->damaged = 1;
            return GLIMPSE_OK;
        }
        free(owned);
        return state.truncated ? GLIMPSE_ERR_TRUNCATED : GLIMPSE_ERR_CORRUPT;
    }

    png_set_read_fn(png, &state, read_bytes);
    png_set_user_limits(png, 0x7fffffffU, 0x7fffffffU); /* our own cap applies instead */
    png_set_chunk_malloc_max(png, GLIMPSE_PNG_MAX_CHUNK_BYTES);
    png_set_chunk_cache_max(png, GLIMPSE_PNG_MAX_CACHED_CHUNKS);
    /* Skip every chunk but IHDR, PLTE, tRNS, IDAT, IEND (libpng's rule for -1)... */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
#ifdef PNG_eXIf_SUPPORTED
    /* ...and eXIf, which carries the orientation. */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, (png_const_bytep) "eXIf", 1);
#endif
    if (state.allow_damaged) png_set_crc_action(png, PNG_CRC_WARN_USE, PNG_CRC_WARN_USE);
    png_read_info(png, png_info);

    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, png_info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    int has_trns = png_get_valid(png, png_info, PNG_INFO_tRNS) != 0;
    info->width = width;
    info->height = height;
    info->bit_depth = bit_depth;
    info->components = png_get_channels(png, png_info);
    info->interlaced = interlace != PNG_INTERLACE_NONE;
    info->is_gray = 0;
    info->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
#ifdef PNG_eXIf_SUPPORTED
    {
        png_uint_32 exif_length = 0;
        png_bytep exif = NULL;
        if (png_get_eXIf_1(png, png_info, &exif_length, &exif) != 0 && exif != NULL) {
            info->orientation = glimpse_exif_orientation(exif, exif_length);
        }
    }
#endif
    if (request->mode == GLIMPSE_MODE_PROBE) {
        png_destroy_read_struct(&png, &png_info, NULL);
        return GLIMPSE_OK;
    }

    if (options->scale_num != 0 && options->scale_num != 8) {
        png_destroy_read_struct(&png, &png_info, NULL);
        glimpse_set_message(request, "PNG has no DCT scaling: scale must be 8/8, not %d/8", options->scale_num);
        return GLIMPSE_ERR_ARGUMENT;
    }
    uint32_t rx, ry, rw, rh;
    glimpse_status status = glimpse_resolve_region(request, width, height, &rx, &ry, &rw, &rh);
    if (status != GLIMPSE_OK) {
        png_destroy_read_struct(&png, &png_info, NULL);
        return status;
    }
    glimpse_decode_result *result = request->result;
    result->width = rw;
    result->height = rh;
    result->channels = 4;
    result->bytes_per_row = (size_t)rw * 4;
    result->scaled_width = width;
    result->scaled_height = height;
    size_t needed = result->bytes_per_row * rh;
    if (request->mode == GLIMPSE_MODE_PLAN) {
        png_destroy_read_struct(&png, &png_info, NULL);
        return GLIMPSE_OK;
    }

    /* Streamed rows of an opaque colour image come from libpng as RGB; the alpha is added
     * here (rgb_to_rgba), faster than libpng's filler, the same bytes. (What may stream is
     * checked once, below.) */
    const int alpha_here = request->row_sink != NULL && (color_type & PNG_COLOR_MASK_COLOR) != 0 &&
                           (color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns;
    png_set_expand(png); /* palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha */
    if (bit_depth == 16) png_set_scale_16(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns && !alpha_here) png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, png_info);
    size_t row_bytes = png_get_rowbytes(png, png_info);
    if (row_bytes != (size_t)width * (alpha_here ? 3 : 4)) {
        glimpse_set_message(request, "unexpected row size %zu after conversion to %s", row_bytes, alpha_here ? "RGB8" : "RGBA8");
        png_error(png, "internal: unexpected row size");
    }

    int whole = rx == 0 && ry == 0 && rw == width && rh == height;
    if (request->row_sink != NULL) {
        /* Rows to a sink, no buffer: whole non-interlaced images only (see glimpse_decode_rows). */
        if (passes > 1 || !whole || state.allow_damaged) {
            glimpse_set_message(request, "row-by-row decoding needs a whole, non-interlaced PNG without allow_damaged");
            png_destroy_read_struct(&png, &png_info, NULL);
            return GLIMPSE_ERR_UNSUPPORTED;
        }
        /* One block: the RGBA row handed over, then (alpha_here) the RGB row libpng writes. */
        const size_t rgba_bytes = (size_t)width * 4;
        scratch = malloc(rgba_bytes + (alpha_here ? row_bytes : 0));
        if (scratch == NULL) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) {
            if (y == height - 1) begin_final_row(&state, width);
            if (alpha_here) {
                png_read_row(png, scratch + rgba_bytes, NULL);
                rgb_to_rgba(scratch + rgba_bytes, scratch, width);
            } else {
                png_read_row(png, scratch, NULL);
            }
            request->row_sink(request->row_sink_context, y, scratch);
        }
        png_read_end(png, NULL); /* checks the chunks after the image data */
        free(scratch);
        scratch = NULL;
        png_destroy_read_struct(&png, &png_info, NULL);
        result->pixels = NULL;
        result->damaged = state.damaged;
        return GLIMPSE_OK;
    }

    if (request->destination != NULL) {
        if (request->destination_size < needed) {
            glimpse_set_message(request, "destination holds %zu bytes, %zu needed", request->destination_size,
                                needed);
            png_destroy_read_struct(&png, &png_info, NULL);
            return GLIMPSE_ERR_MEMORY;
        }
        pixels = request->destination;
    } else {
        owned = calloc(needed, 1);
        if (owned == NULL) {
            glimpse_set_message(request, "cannot allocate %zu bytes for %ux%u pixels", needed, rw, rh);
            png_destroy_read_struct(&png, &png_info, NULL);
            return GLIMPSE_ERR_MEMORY;
        }
        pixels = owned;
    }
    if (state.allow_damaged && request->destination != NULL) memset(pixels, 0, needed);

    if (passes > 1) {
        /* Interlaced: every pass touches every row, so the full frame is needed. */
        uint8_t *frame = pixels;
        if (!whole) {
            scratch = calloc(row_bytes, height);
            if (scratch == NULL) {
                glimpse_set_message(request, "cannot allocate %zu bytes for the interlaced frame",
                                    row_bytes * height);
                png_error(png, "out of memory");
            }
            frame = scratch;
        }
        row_pointers = malloc(sizeof(png_bytep) * height);
        if (row_pointers == NULL) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) row_pointers[y] = frame + (size_t)y * row_bytes;
        for (int pass = 0; pass < passes; pass++) { /* what png_read_image does */
            for (uint32_t y = 0; y < height; y++) {
                if (pass == passes - 1 && y == height - 1) begin_final_row(&state, width);
                png_read_row(png, row_pointers[y], NULL);
            }
        }
        rows_done = rh;
        if (!whole) {
            for (uint32_t y = 0; y < rh; y++) {
                memcpy(pixels + (size_t)y * result->bytes_per_row, frame + (size_t)(ry + y) * row_bytes + (size_t)rx * 4,
                       result->bytes_per_row);
            }
        }
        png_read_end(png, NULL);
    } else if (whole) {
        for (uint32_t y = 0; y < height; y++) {
            if (y == height - 1) begin_final_row(&state, width);
            png_read_row(png, pixels + (size_t)y * row_bytes, NULL);
            rows_done = y + 1;
        }
        png_read_end(png, NULL); /* checks the chunks after the image data */
    } else {
        scratch = malloc(row_bytes);
        if (scratch == NULL) png_error(png, "out of memory");
        for (uint32_t y = 0; y < ry + rh; y++) {
            if (y == height - 1) begin_final_row(&state, width);
            png_read_row(png, scratch, NULL);
            if (y >= ry) {
                memcpy(pixels + (size_t)(y - ry) * result->bytes_per_row, scratch + (size_t)rx * 4,
                       result->bytes_per_row);
                rows_done = y - ry + 1;
            }
        }
        if (ry + rh == height) png_read_end(png, NULL);
    }
    free(scratch);
    scratch = NULL;
    free(row_pointers);
    row_pointers = NULL;
    png_destroy_read_struct(&png, &png_info, NULL);
    result->pixels = pixels;
    result->damaged = state.damaged;
    return GLIMPSE_OK;
}
