/*
 * libheif, libde265 and dav1d, loaded on first use (dlopen) instead of at process start.
 *
 * Why: linking them made every glimpse process pay for them before main, whatever it
 * decoded: the dynamic loader maps libheif and its encoders (x265, aom) and runs libde265's
 * table-building constructor, about 3.4 ms of a 14 ms `glimpse --version` on the Intel VM
 * of docs/PERFORMANCE.md. Now only a process that meets a HEIF or AVIF file loads them.
 *
 * How: each function the shim calls is listed once below; the table holds a pointer of the
 * function's own declared type (__typeof__), and a macro of the function's name reads the
 * pointer, so the code that calls libheif, libde265 and dav1d is written as if they were
 * linked. Include this header after <libheif/heif.h>, <libde265/de265.h> and
 * <dav1d/dav1d.h>, and call glimpse_heif_libraries_load() before the first call.
 * Internal to CImageCodecs; not part of the API.
 */
#ifndef GLIMPSE_HEIF_LIBRARY_H
#define GLIMPSE_HEIF_LIBRARY_H

#include <dav1d/dav1d.h>
#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <stddef.h>

/* The Debian 12 sonames (libheif1, libde265-0, libdav1d6). */
#define GLIMPSE_LIBHEIF_SONAME "libheif.so.1"
#define GLIMPSE_LIBDE265_SONAME "libde265.so.0"
#define GLIMPSE_LIBDAV1D_SONAME "libdav1d.so.6"

#define GLIMPSE_LIBHEIF_FUNCTIONS(X)                                                                \
    X(heif_context_alloc) X(heif_context_free) X(heif_context_get_number_of_top_level_images)       \
    X(heif_context_get_primary_image_handle) X(heif_context_read_from_memory_without_copy)         \
    X(heif_context_set_max_decoding_threads) X(heif_context_set_maximum_image_size_limit)          \
    X(heif_decode_image) X(heif_decoding_options_alloc) X(heif_decoding_options_free)               \
    X(heif_image_add_decoding_warning) X(heif_image_add_plane) X(heif_image_create)                 \
    X(heif_image_get_bits_per_pixel) X(heif_image_get_decoding_warnings) X(heif_image_get_plane)    \
    X(heif_image_get_plane_readonly) X(heif_image_get_primary_height) X(heif_image_get_primary_width) \
    X(heif_image_handle_get_height) X(heif_image_handle_get_luma_bits_per_pixel)                    \
    X(heif_image_handle_get_list_of_metadata_block_IDs) X(heif_image_handle_get_metadata)           \
    X(heif_image_handle_get_metadata_size)                                                          \
    X(heif_image_handle_get_width) X(heif_image_handle_has_alpha_channel)                           \
    X(heif_image_handle_release) X(heif_image_release) X(heif_image_set_nclx_color_profile)         \
    X(heif_nclx_color_profile_alloc) X(heif_nclx_color_profile_free)                                \
    X(heif_nclx_color_profile_set_color_primaries) X(heif_nclx_color_profile_set_matrix_coefficients) \
    X(heif_nclx_color_profile_set_transfer_characteristics) X(heif_register_decoder_plugin)

#define GLIMPSE_LIBDE265_FUNCTIONS(X)                                                               \
    X(de265_decode) X(de265_flush_data) X(de265_free_decoder) X(de265_get_bits_per_pixel)           \
    X(de265_get_chroma_format) X(de265_get_default_image_allocation_functions) X(de265_get_error_text) \
    X(de265_get_image_colour_primaries) X(de265_get_image_full_range_flag) X(de265_get_image_height) \
    X(de265_get_image_matrix_coefficients) X(de265_get_image_plane)                                 \
    X(de265_get_image_transfer_characteristics) X(de265_get_image_width) X(de265_get_next_picture)  \
    X(de265_get_warning) X(de265_isOK) X(de265_new_decoder) X(de265_push_NAL)                       \
    X(de265_release_next_picture) X(de265_set_image_allocation_functions)

#define GLIMPSE_LIBDAV1D_FUNCTIONS(X)                                                               \
    X(dav1d_close) X(dav1d_data_create) X(dav1d_data_unref) X(dav1d_default_settings)               \
    X(dav1d_get_picture) X(dav1d_open) X(dav1d_picture_unref) X(dav1d_send_data)

/** The loaded functions (filled once by glimpse_heif_libraries_load). */
typedef struct {
#define GLIMPSE_HEIF_POINTER(name) __typeof__(name) *name;
    GLIMPSE_LIBHEIF_FUNCTIONS(GLIMPSE_HEIF_POINTER)
    GLIMPSE_LIBDE265_FUNCTIONS(GLIMPSE_HEIF_POINTER)
    GLIMPSE_LIBDAV1D_FUNCTIONS(GLIMPSE_HEIF_POINTER)
#undef GLIMPSE_HEIF_POINTER
} glimpse_heif_functions;

extern glimpse_heif_functions glimpse_heif_api;

/**
 * Loads the three libraries and every function above, once per process (thread-safe).
 * Returns 0 when they are usable; otherwise -1 with the reason (which library or function
 * is missing, from dlerror) in `message`, on this and every later call.
 */
int glimpse_heif_libraries_load(char *message, size_t message_size);

/* From here on a call such as heif_context_alloc() goes through the table. */
#define GLIMPSE_HEIF_REDIRECT(name) (glimpse_heif_api.name)
#define heif_context_alloc GLIMPSE_HEIF_REDIRECT(heif_context_alloc)
#define heif_context_free GLIMPSE_HEIF_REDIRECT(heif_context_free)
#define heif_context_get_number_of_top_level_images GLIMPSE_HEIF_REDIRECT(heif_context_get_number_of_top_level_images)
#define heif_context_get_primary_image_handle GLIMPSE_HEIF_REDIRECT(heif_context_get_primary_image_handle)
#define heif_context_read_from_memory_without_copy GLIMPSE_HEIF_REDIRECT(heif_context_read_from_memory_without_copy)
#define heif_context_set_max_decoding_threads GLIMPSE_HEIF_REDIRECT(heif_context_set_max_decoding_threads)
#define heif_context_set_maximum_image_size_limit GLIMPSE_HEIF_REDIRECT(heif_context_set_maximum_image_size_limit)
#define heif_decode_image GLIMPSE_HEIF_REDIRECT(heif_decode_image)
#define heif_decoding_options_alloc GLIMPSE_HEIF_REDIRECT(heif_decoding_options_alloc)
#define heif_decoding_options_free GLIMPSE_HEIF_REDIRECT(heif_decoding_options_free)
#define heif_image_add_decoding_warning GLIMPSE_HEIF_REDIRECT(heif_image_add_decoding_warning)
#define heif_image_add_plane GLIMPSE_HEIF_REDIRECT(heif_image_add_plane)
#define heif_image_create GLIMPSE_HEIF_REDIRECT(heif_image_create)
#define heif_image_get_bits_per_pixel GLIMPSE_HEIF_REDIRECT(heif_image_get_bits_per_pixel)
#define heif_image_get_decoding_warnings GLIMPSE_HEIF_REDIRECT(heif_image_get_decoding_warnings)
#define heif_image_get_plane GLIMPSE_HEIF_REDIRECT(heif_image_get_plane)
#define heif_image_get_plane_readonly GLIMPSE_HEIF_REDIRECT(heif_image_get_plane_readonly)
#define heif_image_get_primary_height GLIMPSE_HEIF_REDIRECT(heif_image_get_primary_height)
#define heif_image_get_primary_width GLIMPSE_HEIF_REDIRECT(heif_image_get_primary_width)
#define heif_image_handle_get_height GLIMPSE_HEIF_REDIRECT(heif_image_handle_get_height)
#define heif_image_handle_get_luma_bits_per_pixel GLIMPSE_HEIF_REDIRECT(heif_image_handle_get_luma_bits_per_pixel)
#define heif_image_handle_get_metadata GLIMPSE_HEIF_REDIRECT(heif_image_handle_get_metadata)
#define heif_image_handle_get_list_of_metadata_block_IDs GLIMPSE_HEIF_REDIRECT(heif_image_handle_get_list_of_metadata_block_IDs)
#define heif_image_handle_get_metadata_size GLIMPSE_HEIF_REDIRECT(heif_image_handle_get_metadata_size)
#define heif_image_handle_get_width GLIMPSE_HEIF_REDIRECT(heif_image_handle_get_width)
#define heif_image_handle_has_alpha_channel GLIMPSE_HEIF_REDIRECT(heif_image_handle_has_alpha_channel)
#define heif_image_handle_release GLIMPSE_HEIF_REDIRECT(heif_image_handle_release)
#define heif_image_release GLIMPSE_HEIF_REDIRECT(heif_image_release)
#define heif_image_set_nclx_color_profile GLIMPSE_HEIF_REDIRECT(heif_image_set_nclx_color_profile)
#define heif_nclx_color_profile_alloc GLIMPSE_HEIF_REDIRECT(heif_nclx_color_profile_alloc)
#define heif_nclx_color_profile_free GLIMPSE_HEIF_REDIRECT(heif_nclx_color_profile_free)
#define heif_nclx_color_profile_set_color_primaries GLIMPSE_HEIF_REDIRECT(heif_nclx_color_profile_set_color_primaries)
#define heif_nclx_color_profile_set_matrix_coefficients GLIMPSE_HEIF_REDIRECT(heif_nclx_color_profile_set_matrix_coefficients)
#define heif_nclx_color_profile_set_transfer_characteristics GLIMPSE_HEIF_REDIRECT(heif_nclx_color_profile_set_transfer_characteristics)
#define heif_register_decoder_plugin GLIMPSE_HEIF_REDIRECT(heif_register_decoder_plugin)
#define de265_decode GLIMPSE_HEIF_REDIRECT(de265_decode)
#define de265_flush_data GLIMPSE_HEIF_REDIRECT(de265_flush_data)
#define de265_free_decoder GLIMPSE_HEIF_REDIRECT(de265_free_decoder)
#define de265_get_bits_per_pixel GLIMPSE_HEIF_REDIRECT(de265_get_bits_per_pixel)
#define de265_get_chroma_format GLIMPSE_HEIF_REDIRECT(de265_get_chroma_format)
#define de265_get_default_image_allocation_functions GLIMPSE_HEIF_REDIRECT(de265_get_default_image_allocation_functions)
#define de265_get_error_text GLIMPSE_HEIF_REDIRECT(de265_get_error_text)
#define de265_get_image_colour_primaries GLIMPSE_HEIF_REDIRECT(de265_get_image_colour_primaries)
#define de265_get_image_full_range_flag GLIMPSE_HEIF_REDIRECT(de265_get_image_full_range_flag)
#define de265_get_image_height GLIMPSE_HEIF_REDIRECT(de265_get_image_height)
#define de265_get_image_matrix_coefficients GLIMPSE_HEIF_REDIRECT(de265_get_image_matrix_coefficients)
#define de265_get_image_plane GLIMPSE_HEIF_REDIRECT(de265_get_image_plane)
#define de265_get_image_transfer_characteristics GLIMPSE_HEIF_REDIRECT(de265_get_image_transfer_characteristics)
#define de265_get_image_width GLIMPSE_HEIF_REDIRECT(de265_get_image_width)
#define de265_get_next_picture GLIMPSE_HEIF_REDIRECT(de265_get_next_picture)
#define de265_get_warning GLIMPSE_HEIF_REDIRECT(de265_get_warning)
#define de265_isOK GLIMPSE_HEIF_REDIRECT(de265_isOK)
#define de265_new_decoder GLIMPSE_HEIF_REDIRECT(de265_new_decoder)
#define de265_push_NAL GLIMPSE_HEIF_REDIRECT(de265_push_NAL)
#define de265_release_next_picture GLIMPSE_HEIF_REDIRECT(de265_release_next_picture)
#define de265_set_image_allocation_functions GLIMPSE_HEIF_REDIRECT(de265_set_image_allocation_functions)
#define dav1d_close GLIMPSE_HEIF_REDIRECT(dav1d_close)
#define dav1d_data_create GLIMPSE_HEIF_REDIRECT(dav1d_data_create)
#define dav1d_data_unref GLIMPSE_HEIF_REDIRECT(dav1d_data_unref)
#define dav1d_default_settings GLIMPSE_HEIF_REDIRECT(dav1d_default_settings)
#define dav1d_get_picture GLIMPSE_HEIF_REDIRECT(dav1d_get_picture)
#define dav1d_open GLIMPSE_HEIF_REDIRECT(dav1d_open)
#define dav1d_picture_unref GLIMPSE_HEIF_REDIRECT(dav1d_picture_unref)
#define dav1d_send_data GLIMPSE_HEIF_REDIRECT(dav1d_send_data)

#endif
