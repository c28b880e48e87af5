/*
 * Per-pixel maps shared by the histogram kernels (histogram.c) and the working planes
 * (resample.c): luma weights (ITU-R BT.601) and the HSV bin of one pixel. Private.
 */
#ifndef GLIMPSE_PIXEL_MAPS_H
#define GLIMPSE_PIXEL_MAPS_H

#include "kernel_variants.h"

static const float kLumaR = 0.299f, kLumaG = 0.587f, kLumaB = 0.114f;

/* Bin of one pixel; branch-free so that it vectorises. Layout (documented in
 * ColorHistogram.swift): 0…15 achromatic by value, 16 + hue*4 + sat*2 + val chromatic. */
BODY int hsv_bin(float r, float g, float b) {
    const float mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const float mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    const float delta = mx - mn;
    const int grey_level = (int)(mx * 0.0625f);                 /* 0…15 (mx ≤ 255) */
    const int achromatic = (mx < 51.0f) | (delta < 0.2f * mx);
    const float safe = delta > 0.0f ? delta : 1.0f;
    /* Hue sextant: (g-b)/delta when max is r, 2 + (b-r)/delta when g, 4 + (r-g)/delta when b.
     * The numerator is chosen first so that only one division runs; 0 + x for the red case
     * equals x for every x the test below can tell apart (only -0 becomes +0). */
    const float num = (mx == r) ? (g - b) : ((mx == g) ? (b - r) : (r - g));
    const float base = (mx == r) ? 0.0f : ((mx == g) ? 2.0f : 4.0f);
    float h = base + num / safe;
    h = h < 0.0f ? h + 6.0f : h;
    int hue = (int)(h * 2.0f + 0.5f);
    hue = hue >= 12 ? hue - 12 : hue;
    const int sat = delta >= 0.55f * mx;
    const int val = mx >= 153.0f;
    const int chroma_bin = 16 + hue * 4 + sat * 2 + val;
    const int grey_bin = grey_level > 15 ? 15 : grey_level;
    return achromatic ? grey_bin : chroma_bin;
}

#endif /* GLIMPSE_PIXEL_MAPS_H */
