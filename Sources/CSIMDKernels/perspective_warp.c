/*
 * The perspective warp of a float plane (a tilted print rectified for the query's tilt
 * views): every output pixel sampled bilinearly, clamped at the edges, where a 3x3
 * projective map sends it. Written once as a body and instantiated per path (VARIANTS);
 * each output is the same sequence of IEEE single-precision operations on every path.
 * Offsets are 32-bit: the plane has under 2^31 pixels (the Swift caller checks).
 */
#include "kernel_variants.h"

/* Output pixels per chunk of a row: the coordinates of a chunk are computed in one pass
 * (arithmetic only, which the compiler vectorises), then sampled in a second (loads). */
enum { PERSPECTIVE_WARP_CHUNK = 64 };

BODY void perspective_warp_body(const float *src, int width, int height, const float *m, float *out) {
    const float max_x = (float)(width - 1), max_y = (float)(height - 1);
    int32_t offset[PERSPECTIVE_WARP_CHUNK], step_x[PERSPECTIVE_WARP_CHUNK], step_y[PERSPECTIVE_WARP_CHUNK];
    float ax[PERSPECTIVE_WARP_CHUNK], ay[PERSPECTIVE_WARP_CHUNK];
    for (int y = 0; y < height; y++) {
        const float yf = (float)y;
        const float u0 = m[1] * yf + m[2], v0 = m[4] * yf + m[5], z0 = m[7] * yf + m[8];
        float *row = out + (size_t)y * (size_t)width;
        for (int start = 0; start < width; start += PERSPECTIVE_WARP_CHUNK) {
            const int n = width - start < PERSPECTIVE_WARP_CHUNK ? width - start : PERSPECTIVE_WARP_CHUNK;
            for (int i = 0; i < n; i++) {
                const float xf = (float)(start + i);
                const float r = 1.0f / (m[6] * xf + z0);
                float fx = (m[0] * xf + u0) * r, fy = (m[3] * xf + v0) * r;
                /* NaN and negatives go to 0, then the far edge caps. */
                fx = fx > 0.0f ? fx : 0.0f;
                fy = fy > 0.0f ? fy : 0.0f;
                fx = fx < max_x ? fx : max_x;
                fy = fy < max_y ? fy : max_y;
                const int32_t x0 = (int32_t)fx, y0 = (int32_t)fy;
                offset[i] = y0 * width + x0;
                step_x[i] = x0 + 1 < width ? 1 : 0;
                step_y[i] = y0 + 1 < height ? width : 0;
                ax[i] = fx - (float)x0;
                ay[i] = fy - (float)y0;
            }
            for (int i = 0; i < n; i++) {
                const float *p = src + offset[i];
                const float a = p[0], b = p[step_x[i]], c = p[step_y[i]], d = p[step_y[i] + step_x[i]];
                const float top = a + (b - a) * ax[i];
                const float bottom = c + (d - c) * ax[i];
                row[start + i] = top + (bottom - top) * ay[i];
            }
        }
    }
}

VARIANTS(void, perspective_warp, (const float *src, int width, int height, const float *m, float *out),
         (src, width, height, m, out))

void glimpse_perspective_warp(int isa, const float *src, int width, int height, const float *matrix9, float *out) {
    if (width <= 0 || height <= 0) return;
    VARIANT(isa, perspective_warp)(src, width, height, matrix9, out);
}
