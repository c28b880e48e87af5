/* JPEG encoder behind glimpse_jpeg_encode.h: libjpeg compress API, setjmp error exit. */
#include "glimpse_jpeg_encode.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    size_t message_size;
    /* Written by libjpeg's memory destination through their addresses; kept here, in
       memory that outlives longjmp, rather than in locals that setjmp may not restore. */
    unsigned char *buffer;
    unsigned long size;
} encode_error_mgr;

static void put_message(char *message, size_t size, const char *text) {
    if (message == NULL || size == 0) return;
    snprintf(message, size, "%s", text);
}

static void encode_error_exit(j_common_ptr cinfo) {
    encode_error_mgr *err = (encode_error_mgr *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    put_message(err->message, err->message_size, text);
    longjmp(err->jump, 1);
}

/* libjpeg's default prints warnings and trace messages to stderr: stay silent. */
static void encode_output_message(j_common_ptr cinfo) { (void)cinfo; }

glimpse_jpeg_encode_status glimpse_jpeg_encode(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
    int channels, int quality, uint8_t **out, size_t *out_size,
    char *message, size_t message_size) {
    if (out != NULL) *out = NULL;
    if (out_size != NULL) *out_size = 0;
    if (pixels == NULL || out == NULL || out_size == NULL) {
        put_message(message, message_size, "null argument");
        return GLIMPSE_JPEG_ENCODE_ARGUMENT;
    }
    if (width == 0 || height == 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        put_message(message, message_size, "size must be 1...65500 pixels on each side");
        return GLIMPSE_JPEG_ENCODE_ARGUMENT;
    }
    if (channels != 1 && channels != 3 && channels != 4) {
        put_message(message, message_size, "channels must be 1, 3 or 4");
        return GLIMPSE_JPEG_ENCODE_ARGUMENT;
    }
    if (bytes_per_row < (size_t)width * (size_t)channels) {
        put_message(message, message_size, "bytes_per_row is less than width * channels");
        return GLIMPSE_JPEG_ENCODE_ARGUMENT;
    }
    if (quality < 1 || quality > 100) {
        put_message(message, message_size, "quality must be 1...100");
        return GLIMPSE_JPEG_ENCODE_ARGUMENT;
    }

    /* RGBA rows are repacked to RGB one at a time unless libjpeg-turbo takes RGBA directly. */
    JSAMPLE *scratch = NULL;
    int direct = channels != 4;
#ifdef JCS_EXTENSIONS
    direct = 1;
#endif
    if (!direct) {
        scratch = (JSAMPLE *)malloc((size_t)width * 3);
        if (scratch == NULL) {
            put_message(message, message_size, "out of memory");
            return GLIMPSE_JPEG_ENCODE_MEMORY;
        }
    }

    struct jpeg_compress_struct cinfo;
    encode_error_mgr err;
    memset(&cinfo, 0, sizeof cinfo);
    memset(&err, 0, sizeof err);
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = encode_error_exit;
    err.base.output_message = encode_output_message;
    err.message = message;
    err.message_size = message_size;

    /* The error path reads only err (in memory) and scratch (not changed after setjmp). */
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(err.buffer);
        free(scratch);
        return GLIMPSE_JPEG_ENCODE_FAILED;
    }

    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &err.buffer, &err.size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    if (channels == 1) {
        cinfo.input_components = 1;
        cinfo.in_color_space = JCS_GRAYSCALE;
    } else if (channels == 3 || !direct) {
        cinfo.input_components = 3;
        cinfo.in_color_space = JCS_RGB;
    } else {
#ifdef JCS_EXTENSIONS
        cinfo.input_components = 4;
        cinfo.in_color_space = JCS_EXT_RGBA;
#endif
    }
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        const uint8_t *row = pixels + (size_t)cinfo.next_scanline * bytes_per_row;
        JSAMPROW rows[1];
        if (scratch != NULL) {
            for (uint32_t x = 0; x < width; x++) {
                scratch[3 * x] = row[4 * x];
                scratch[3 * x + 1] = row[4 * x + 1];
                scratch[3 * x + 2] = row[4 * x + 2];
            }
            rows[0] = scratch;
        } else {
            rows[0] = (JSAMPROW)row;
        }
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(scratch);

    *out = err.buffer;
    *out_size = (size_t)err.size;
    return GLIMPSE_JPEG_ENCODE_OK;
}

void glimpse_jpeg_encode_free(uint8_t *buffer) { free(buffer); }
