/* PNG encoder behind glimpse_png_encode.h: libpng's simplified write-to-memory API. */
#include "glimpse_png_encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

static void put_message(char *message, size_t size, const char *text) {
    if (message == NULL || size == 0) return;
    snprintf(message, size, "%s", text);
}

glimpse_png_encode_status glimpse_png_encode(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row, int channels,
    uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    if (out != NULL) *out = NULL;
    if (out_size != NULL) *out_size = 0;
    if (pixels == NULL || out == NULL || out_size == NULL) {
        put_message(message, message_size, "null argument");
        return GLIMPSE_PNG_ENCODE_ARGUMENT;
    }
    if (width == 0 || height == 0 || width > 0x7fffffffu / 4 || height > 0x7fffffffu) {
        put_message(message, message_size, "size must be positive and below 2^29 x 2^31");
        return GLIMPSE_PNG_ENCODE_ARGUMENT;
    }
    if (channels != 1 && channels != 4) {
        put_message(message, message_size, "channels must be 1 or 4");
        return GLIMPSE_PNG_ENCODE_ARGUMENT;
    }
    if (bytes_per_row < (size_t)width * (size_t)channels || bytes_per_row > 0x7fffffffu) {
        put_message(message, message_size, "bytes_per_row is less than width * channels or too large");
        return GLIMPSE_PNG_ENCODE_ARGUMENT;
    }

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGBA;

    /* First pass sizes the output, second pass writes it. */
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, (png_int_32)bytes_per_row, NULL)) {
        put_message(message, message_size, image.message[0] ? image.message : "libpng could not size the output");
        png_image_free(&image);
        return GLIMPSE_PNG_ENCODE_FAILED;
    }
    uint8_t *buffer = (uint8_t *)malloc(size > 0 ? size : 1);
    if (buffer == NULL) {
        put_message(message, message_size, "out of memory");
        png_image_free(&image);
        return GLIMPSE_PNG_ENCODE_MEMORY;
    }
    if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, (png_int_32)bytes_per_row, NULL)) {
        put_message(message, message_size, image.message[0] ? image.message : "libpng could not write the image");
        png_image_free(&image);
        free(buffer);
        return GLIMPSE_PNG_ENCODE_FAILED;
    }
    png_image_free(&image);
    *out = buffer;
    *out_size = (size_t)size;
    return GLIMPSE_PNG_ENCODE_OK;
}

void glimpse_png_encode_free(uint8_t *buffer) { free(buffer); }
