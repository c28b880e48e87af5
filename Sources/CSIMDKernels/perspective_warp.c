/*
 * The perspective warp of a float plane (a tilted print rectified for the query's tilt
 * views): every output pixel sampled bilinearly, clamped at the edges, where a 3x3
 * projective map sends it. Written once as a body and instantiated per path (VARIANTS);
 * each output is the same sequence of IEEE single-precision operations on every path.
 */
#include "kernel_variants.h"

BODY void perspective_warp_body(const float *src, int width, int height, const float *m, float *out) {
    const float max_x = (float)(width - 1), max_y = (float)(height - 1);
    for (int y = 0; y < height; y++) {
        const float yf = (float)y;
        const float u0 = m[1] * yf + m[2], v0 = m[4] * yf + m[5], z0 = m[7] * yf + m[8];
        float *row = out + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            const float xf = (float)x;
            const float r = 1.0f / (m[6] * xf + z0);
            float fx = (m[0] * xf + u0) * r, fy = (m[3] * xf + v0) * r;
            /* NaN and negatives go to 0, then the far edge caps. */
            fx = fx > 0.0f ? fx : 0.0f;
            fy = fy > 0.0f ? fy : 0.0f;
            fx = fx < max_x ? fx : max_x;
            fy = fy < max_y ? fy : max_y;
            const int x0 = (int)fx, y0 = (int)fy;
            const int x1 = x0 + 1 < width ? x0 + 1 : width - 1, y1 = y0 + 1 < height ? y0 + 1 : height - 1;
            const float ax = fx - (float)x0, ay = fy - (float)y0;
            const float *r0 = src + (size_t)y0 * (size_t)width, *r1 = src + (size_t)y1 * (size_t)width;
            const float top = r0[x0] + (r0[x1] - r0[x0]) * ax;
            const float bottom = r1[x0] + (r1[x1] - r1[x0]) * ax;
            row[x] = top + (bottom - top) * ay;
        }
    }
}

VARIANTS(void, perspective_warp, (const float *src, int width, int height, const float *m, float *out),
         (src, width, height, m, out))

void glimpse_perspective_warp(int isa, const float *src, int width, int height, const float *matrix9, float *out) {
    if (width <= 0 || height <= 0) return;
    VARIANT(isa, perspective_warp)(src, width, height, matrix9, out);
}
