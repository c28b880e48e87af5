/*
 * jpeg_limit FILE SCALE_DENOM REPEAT
 *
 * Times libjpeg-turbo's own decode of FILE the way `djpeg -scale 1/SCALE_DENOM` does
 * (default ISLOW IDCT, fancy upsampling, RGB output), from memory, REPEAT times after
 * one warm-up, and prints one line: `median_ms min_ms width height`.
 * No process start-up and no file write is included: this is the library's limit.
 */
#include <stdio.h>
#include <setjmp.h>
#include <jpeglib.h>
#include "timing.h"

struct error_manager { struct jpeg_error_mgr pub; jmp_buf jump; };

static void error_exit(j_common_ptr cinfo) {
    struct error_manager *err = (struct error_manager *)cinfo->err;
    (*cinfo->err->output_message)(cinfo);
    longjmp(err->jump, 1);
}

static int decode_once(const unsigned char *data, size_t size, int denom, unsigned char **rows_buf,
                       size_t *capacity, unsigned *w, unsigned *h) {
    struct jpeg_decompress_struct cinfo;
    struct error_manager err;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = error_exit;
    if (setjmp(err.jump)) { jpeg_destroy_decompress(&cinfo); return 0; }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned)denom;
    cinfo.out_color_space = JCS_RGB;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    size_t need = stride * cinfo.output_height;
    if (need > *capacity) { free(*rows_buf); *rows_buf = malloc(need); *capacity = need; }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = *rows_buf + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    *w = cinfo.output_width;
    *h = cinfo.output_height;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: jpeg_limit FILE SCALE_DENOM REPEAT\n"); return 1; }
    int denom = atoi(argv[2]), repeat = atoi(argv[3]);
    if (repeat < 1 || (denom != 1 && denom != 2 && denom != 4 && denom != 8)) {
        fprintf(stderr, "jpeg_limit: SCALE_DENOM must be 1, 2, 4 or 8 and REPEAT >= 1\n");
        return 1;
    }
    size_t size;
    unsigned char *data = read_file(argv[1], &size);
    unsigned char *pixels = NULL;
    size_t capacity = 0;
    unsigned w = 0, h = 0;
    if (!decode_once(data, size, denom, &pixels, &capacity, &w, &h)) {
        fprintf(stderr, "%s: decode failed\n", argv[1]);
        return 1;
    }
    uint64_t *t = malloc(sizeof(uint64_t) * (size_t)repeat);
    for (int i = 0; i < repeat; i++) {
        uint64_t t0 = now_ns();
        decode_once(data, size, denom, &pixels, &capacity, &w, &h);
        t[i] = now_ns() - t0;
    }
    double med = median_ns(t, repeat);
    printf("%.4f %.4f %u %u\n", med / 1e6, (double)t[0] / 1e6, w, h);
    return 0;
}
