/*
 * png_limit FILE MODE REPEAT
 *
 * Times libpng's own decode of FILE from memory, REPEAT times after one warm-up, and
 * prints one line: `median_ms min_ms width height`. MODE is
 *   native  the file's own layout (no transforms beyond 16 -> 8 bit), libpng's floor;
 *   rgba    8-bit RGBA (palette/gray expanded, alpha filled with 0xff), the layout
 *           Glimpse's decoder produces.
 * Classic row API with setjmp error handling; no process start-up included.
 */
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <png.h>
#include "timing.h"

struct memory_reader { const unsigned char *data; size_t size, offset; };

static void read_from_memory(png_structp png, png_bytep out, png_size_t n) {
    struct memory_reader *r = png_get_io_ptr(png);
    if (r->offset + n > r->size) png_error(png, "read past end");
    memcpy(out, r->data + r->offset, n);
    r->offset += n;
}

static int decode_once(const unsigned char *data, size_t size, int rgba, unsigned char **buf,
                       size_t *capacity, unsigned *w, unsigned *h) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) { png_destroy_read_struct(&png, &info, NULL); return 0; }
    struct memory_reader reader = { data, size, 0 };
    png_set_read_fn(png, &reader, read_from_memory);
    png_read_info(png, info);
    png_uint_32 width, height;
    int depth, color, interlace;
    png_get_IHDR(png, info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    if (depth == 16) png_set_strip_16(png);
    if (rgba) {
        if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
        if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
        if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
        if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = png_get_rowbytes(png, info);
    size_t need = stride * height;
    if (need > *capacity) { free(*buf); *buf = malloc(need); *capacity = need; }
    for (int p = 0; p < passes; p++)
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, *buf + (size_t)y * stride, NULL);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    *w = width;
    *h = height;
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: png_limit FILE native|rgba REPEAT\n"); return 1; }
    int rgba = strcmp(argv[2], "rgba") == 0, repeat = atoi(argv[3]);
    if ((!rgba && strcmp(argv[2], "native") != 0) || repeat < 1) {
        fprintf(stderr, "png_limit: MODE must be native or rgba and REPEAT >= 1\n");
        return 1;
    }
    size_t size;
    unsigned char *data = read_file(argv[1], &size);
    unsigned char *pixels = NULL;
    size_t capacity = 0;
    unsigned w = 0, h = 0;
    if (!decode_once(data, size, rgba, &pixels, &capacity, &w, &h)) {
        fprintf(stderr, "%s: decode failed\n", argv[1]);
        return 1;
    }
    uint64_t *t = malloc(sizeof(uint64_t) * (size_t)repeat);
    for (int i = 0; i < repeat; i++) {
        uint64_t t0 = now_ns();
        decode_once(data, size, rgba, &pixels, &capacity, &w, &h);
        t[i] = now_ns() - t0;
    }
    double med = median_ns(t, repeat);
    printf("%.4f %.4f %u %u\n", med / 1e6, (double)t[0] / 1e6, w, h);
    return 0;
}
