/*
 * A small, bounds-checked reader of the HEIF `meta` box, for what libheif 1.15 does not
 * expose or does not check before decoding: the primary item's type, its transformations
 * (irot/imir/clap), whether it is a grid, the grid's declared output size and tile count,
 * and the declared sizes (ispe) of its tiles. Reads only; allocates one small array.
 * Not part of the API.
 */
#ifndef GLIMPSE_HEIF_BOXES_H
#define GLIMPSE_HEIF_BOXES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    /** 1 when a meta box with a primary item was found (the other fields are then valid). */
    int found;
    /** 1 when a top-level box runs past the end of the file. */
    int truncated;
    uint32_t primary_id;
    /** Four-character item type of the primary item ('hvc1', 'av01', 'grid', ...). */
    char item_type[5];
    /** For a grid: the item type of its first tile. */
    char tile_type[5];
    /** The primary item has an irot or imir (or clap) property. */
    int has_rotation_or_mirror;
    int has_clean_aperture;
    /** Primary item's ispe (0 when absent). */
    uint32_t ispe_width, ispe_height;
    /** Grid: 1, with the descriptor's output size and rows x columns, the dimg count, and
     *  the sum of the tiles' declared areas (ispe), over every reference. */
    int is_grid;
    uint32_t grid_width, grid_height;
    uint32_t grid_rows, grid_columns;
    uint32_t tile_count;
    uint64_t tile_area;
    /** Largest declared ispe of any tile. */
    uint32_t tile_max_width, tile_max_height;
} glimpse_heif_layout;

/**
 * Reads the layout. Returns 0 on success (layout->found says whether a primary item was
 * there), or -1 with a message when a box the layout needs is malformed.
 */
int glimpse_heif_read_layout(const uint8_t *data, size_t size, glimpse_heif_layout *layout, char *message,
                             size_t message_size);

#endif
