/* HEIF meta-box reader: see heif_boxes.h. Every read is bounds-checked; nothing prints. */
#include "heif_boxes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** libheif 1.15 refuses boxes with more children than this (MAX_CHILDREN_PER_BOX). */
#define MAX_PROPERTIES 20000

typedef struct {
    const uint8_t *data;
    size_t start, end; /* payload [start, end) in data */
} span;

typedef struct {
    uint32_t type;
    uint32_t width, height; /* ispe only */
} property;

static uint32_t be16(const uint8_t *p) { return ((uint32_t)p[0] << 8) | p[1]; }
static uint32_t be32(const uint8_t *p) { return (be16(p) << 16) | be16(p + 2); }
static uint32_t fourcc(const char *s) { return be32((const uint8_t *)s); }

/** Reads an unsigned big-endian field of `bytes` (0, 1, 2, 4 or 8) at *pos; 0 when it does not fit. */
static int read_field(const span *s, size_t *pos, int bytes, uint64_t *out) {
    *out = 0;
    if (bytes == 0) return 1;
    if (*pos > s->end || s->end - *pos < (size_t)bytes) return 0;
    for (int i = 0; i < bytes; i++) *out = (*out << 8) | s->data[*pos + (size_t)i];
    *pos += (size_t)bytes;
    return 1;
}

/**
 * The box at *pos within `parent`: its type and payload. Advances *pos past it.
 * Returns 0 at the end of the parent, -1 when the box does not fit.
 */
static int next_box(const span *parent, size_t *pos, uint32_t *type, span *payload) {
    if (*pos >= parent->end) return 0;
    if (parent->end - *pos < 8) return -1;
    const uint8_t *p = parent->data + *pos;
    uint64_t size = be32(p);
    *type = be32(p + 4);
    size_t header = 8;
    if (size == 1) {
        if (parent->end - *pos < 16) return -1;
        size = ((uint64_t)be32(p + 8) << 32) | be32(p + 12);
        header = 16;
    } else if (size == 0) {
        size = parent->end - *pos;
    }
    if (size < header || size > parent->end - *pos) return -1;
    payload->data = parent->data;
    payload->start = *pos + header;
    payload->end = *pos + (size_t)size;
    *pos += (size_t)size;
    return 1;
}

static void set_message(char *message, size_t message_size, const char *format, ...) {
    if (message == NULL || message_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(message, message_size, format, args);
    va_end(args);
}

static void type_string(uint32_t type, char out[5]) {
    out[0] = (char)(type >> 24); out[1] = (char)(type >> 16); out[2] = (char)(type >> 8); out[3] = (char)type; out[4] = 0;
    for (int i = 0; i < 4; i++) if (out[i] < 0x20 || out[i] > 0x7e) out[i] = '?';
}

/** Item type of `id` from iinf, or 0. */
static uint32_t item_type(const span *iinf, uint32_t id) {
    size_t pos = iinf->start;
    uint64_t version, count;
    if (!read_field(iinf, &pos, 1, &version)) return 0;
    pos += 3;
    if (!read_field(iinf, &pos, version == 0 ? 2 : 4, &count)) return 0;
    uint32_t type;
    span infe;
    while (next_box(iinf, &pos, &type, &infe) == 1) {
        if (type != fourcc("infe")) continue;
        size_t q = infe.start;
        uint64_t v, item, protection, kind;
        if (!read_field(&infe, &q, 1, &v) || v < 2) continue;
        q += 3;
        if (!read_field(&infe, &q, v == 2 ? 2 : 4, &item) || !read_field(&infe, &q, 2, &protection)
            || !read_field(&infe, &q, 4, &kind)) continue;
        if (item == id) return (uint32_t)kind;
    }
    return 0;
}

/** A tile's id and declared area; sorted by id (the id comes first, so compare_ids works). */
typedef struct {
    uint32_t id;
    uint64_t area;
} tile_pair;

static int compare_ids(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int glimpse_heif_read_layout(const uint8_t *data, size_t size, glimpse_heif_layout *layout, char *message,
                             size_t message_size) {
    memset(layout, 0, sizeof *layout);
    span file = {data, 0, size}, meta = {0}, pitm = {0}, iinf = {0}, iloc = {0}, iref = {0}, ipco = {0}, ipma = {0}, idat = {0};
    size_t pos = 0;
    uint32_t type;
    span box;
    int found_meta = 0, r;
    while ((r = next_box(&file, &pos, &type, &box)) == 1) {
        if (type == fourcc("meta") && !found_meta) { meta = box; found_meta = 1; }
    }
    if (r < 0) layout->truncated = 1;
    if (!found_meta) return 0; /* libheif says what is missing */
    if (meta.end - meta.start < 4) return 0;
    pos = meta.start + 4;
    while ((r = next_box(&meta, &pos, &type, &box)) == 1) {
        if (type == fourcc("pitm")) pitm = box;
        else if (type == fourcc("iinf")) iinf = box;
        else if (type == fourcc("iloc")) iloc = box;
        else if (type == fourcc("iref")) iref = box;
        else if (type == fourcc("idat")) idat = box;
        else if (type == fourcc("iprp")) {
            size_t q = box.start;
            span child;
            uint32_t child_type;
            while (next_box(&box, &q, &child_type, &child) == 1) {
                if (child_type == fourcc("ipco")) ipco = child;
                else if (child_type == fourcc("ipma")) ipma = child;
            }
        }
    }
    if (r < 0) {
        set_message(message, message_size, "a box inside the HEIF meta box overruns it");
        return -1;
    }
    if (pitm.data == NULL || iinf.data == NULL) return 0;
    uint64_t version, value;
    pos = pitm.start;
    if (!read_field(&pitm, &pos, 1, &version)) return 0;
    pos += 3;
    if (!read_field(&pitm, &pos, version == 0 ? 2 : 4, &value)) return 0;
    layout->primary_id = (uint32_t)value;
    layout->found = 1;
    uint32_t primary_type = item_type(&iinf, layout->primary_id);
    type_string(primary_type, layout->item_type);
    layout->is_grid = primary_type == fourcc("grid");

    /* Tiles: the primary's dimg references. */
    uint32_t *tiles = NULL;
    uint32_t tile_count = 0;
    if (layout->is_grid && iref.data != NULL) {
        pos = iref.start;
        if (read_field(&iref, &pos, 1, &version)) {
            pos += 3;
            int id_bytes = version == 0 ? 2 : 4;
            while (next_box(&iref, &pos, &type, &box) == 1 && tiles == NULL) {
                size_t q = box.start;
                uint64_t from, count;
                if (type != fourcc("dimg") || !read_field(&box, &q, id_bytes, &from) || from != layout->primary_id
                    || !read_field(&box, &q, 2, &count)) continue;
                if (count == 0) break;
                tiles = malloc(sizeof *tiles * (size_t)count);
                if (tiles == NULL) {
                    set_message(message, message_size, "out of memory reading %llu grid references", (unsigned long long)count);
                    return -1;
                }
                for (uint64_t i = 0; i < count; i++) {
                    uint64_t to;
                    if (!read_field(&box, &q, id_bytes, &to)) break;
                    tiles[tile_count++] = (uint32_t)to;
                }
            }
        }
    }
    layout->tile_count = tile_count;
    if (tile_count > 0) type_string(item_type(&iinf, tiles[0]), layout->tile_type);

    /* Properties: index ipco once, then walk ipma. */
    property *properties = NULL;
    uint32_t property_count = 0;
    uint32_t *sorted = NULL;
    uint32_t *tile_area_ids = NULL; /* sorted tile ids that have an ispe, with areas alongside */
    uint64_t *tile_areas = NULL;
    uint32_t tile_area_count = 0;
    int status = 0;
    if (ipco.data != NULL && ipma.data != NULL) {
        properties = malloc(sizeof *properties * MAX_PROPERTIES);
        if (properties == NULL) { status = -1; set_message(message, message_size, "out of memory"); goto done; }
        pos = ipco.start;
        while ((r = next_box(&ipco, &pos, &type, &box)) == 1) {
            if (property_count == MAX_PROPERTIES) {
                set_message(message, message_size, "more than %d item properties", MAX_PROPERTIES);
                status = -1;
                goto done;
            }
            property *p = &properties[property_count++];
            p->type = type;
            p->width = p->height = 0;
            size_t q = box.start + 4;
            uint64_t w, h;
            if (type == fourcc("ispe") && read_field(&box, &q, 4, &w) && read_field(&box, &q, 4, &h)) {
                p->width = (uint32_t)w;
                p->height = (uint32_t)h;
            }
        }
        if (tile_count > 0) {
            sorted = malloc(sizeof *sorted * tile_count);
            tile_area_ids = malloc(sizeof *tile_area_ids * tile_count);
            tile_areas = malloc(sizeof *tile_areas * tile_count);
            if (sorted == NULL || tile_area_ids == NULL || tile_areas == NULL) {
                status = -1;
                set_message(message, message_size, "out of memory");
                goto done;
            }
            memcpy(sorted, tiles, sizeof *sorted * tile_count);
            qsort(sorted, tile_count, sizeof *sorted, compare_ids);
        }
        pos = ipma.start;
        uint64_t flags, entries;
        if (!read_field(&ipma, &pos, 1, &version) || !read_field(&ipma, &pos, 3, &flags)
            || !read_field(&ipma, &pos, 4, &entries)) goto done;
        for (uint64_t e = 0; e < entries; e++) {
            uint64_t item, associations;
            if (!read_field(&ipma, &pos, version < 1 ? 2 : 4, &item) || !read_field(&ipma, &pos, 1, &associations)) break;
            int is_primary = item == layout->primary_id;
            int is_tile = sorted != NULL && bsearch(&(uint32_t){(uint32_t)item}, sorted, tile_count, sizeof *sorted, compare_ids) != NULL;
            for (uint64_t a = 0; a < associations; a++) {
                uint64_t entry;
                if (!read_field(&ipma, &pos, (flags & 1) ? 2 : 1, &entry)) goto done;
                uint32_t index = (uint32_t)(entry & ((flags & 1) ? 0x7fff : 0x7f));
                if (index == 0 || index > property_count) continue;
                const property *p = &properties[index - 1];
                if (is_primary) {
                    if (p->type == fourcc("irot") || p->type == fourcc("imir")) layout->has_rotation_or_mirror = 1;
                    if (p->type == fourcc("clap")) layout->has_clean_aperture = 1;
                    if (p->type == fourcc("ispe")) { layout->ispe_width = p->width; layout->ispe_height = p->height; }
                }
                if (is_tile && p->type == fourcc("ispe") && tile_area_count < tile_count) {
                    tile_area_ids[tile_area_count] = (uint32_t)item;
                    tile_areas[tile_area_count++] = (uint64_t)p->width * p->height;
                    if (p->width > layout->tile_max_width) layout->tile_max_width = p->width;
                    if (p->height > layout->tile_max_height) layout->tile_max_height = p->height;
                }
            }
        }
    }

    /* Sum of declared tile areas over every reference (a reference may repeat). */
    if (tile_count > 0 && tile_area_count > 0) {
        tile_pair *pairs = malloc(sizeof *pairs * tile_area_count);
        if (pairs == NULL) { status = -1; set_message(message, message_size, "out of memory"); goto done; }
        for (uint32_t k = 0; k < tile_area_count; k++) pairs[k] = (tile_pair){tile_area_ids[k], tile_areas[k]};
        qsort(pairs, tile_area_count, sizeof *pairs, compare_ids);
        for (uint32_t i = 0; i < tile_count; i++) {
            tile_pair key = {tiles[i], 0};
            const tile_pair *found = bsearch(&key, pairs, tile_area_count, sizeof *pairs, compare_ids);
            if (found) layout->tile_area += found->area;
        }
        free(pairs);
    }

    /* The grid descriptor: the primary item's data (iloc), in the file or in idat. */
    if (layout->is_grid && iloc.data != NULL) {
        pos = iloc.start;
        uint64_t sizes, sizes2, count;
        if (!read_field(&iloc, &pos, 1, &version) || version > 2) goto done;
        pos += 3;
        if (!read_field(&iloc, &pos, 1, &sizes) || !read_field(&iloc, &pos, 1, &sizes2)
            || !read_field(&iloc, &pos, version < 2 ? 2 : 4, &count)) goto done;
        int offset_size = (int)(sizes >> 4), length_size = (int)(sizes & 15);
        int base_size = (int)(sizes2 >> 4), index_size = version >= 1 ? (int)(sizes2 & 15) : 0;
        if ((offset_size != 0 && offset_size != 4 && offset_size != 8) || (length_size != 0 && length_size != 4 && length_size != 8)
            || (base_size != 0 && base_size != 4 && base_size != 8) || (index_size != 0 && index_size != 4 && index_size != 8)) {
            goto done;
        }
        for (uint64_t i = 0; i < count; i++) {
            uint64_t item, method = 0, reference, base, extents;
            if (!read_field(&iloc, &pos, version < 2 ? 2 : 4, &item)) goto done;
            if (version >= 1) {
                if (!read_field(&iloc, &pos, 2, &method)) goto done;
                method &= 15;
            }
            if (!read_field(&iloc, &pos, 2, &reference) || !read_field(&iloc, &pos, base_size, &base)
                || !read_field(&iloc, &pos, 2, &extents)) goto done;
            uint64_t first_offset = 0, first_length = 0;
            for (uint64_t x = 0; x < extents; x++) {
                uint64_t index, offset, length;
                if (!read_field(&iloc, &pos, index_size, &index) || !read_field(&iloc, &pos, offset_size, &offset)
                    || !read_field(&iloc, &pos, length_size, &length)) goto done;
                if (x == 0) { first_offset = offset; first_length = length; }
            }
            if (item != layout->primary_id) continue;
            const uint8_t *grid = NULL;
            uint64_t available = 0;
            if (method == 0) {
                uint64_t at = base + first_offset;
                if (at < base || at >= size) break;
                grid = data + at;
                available = size - at;
            } else if (method == 1 && idat.data != NULL) {
                uint64_t at = base + first_offset;
                if (at < base || at >= idat.end - idat.start) break;
                grid = data + idat.start + at;
                available = idat.end - idat.start - at;
            }
            if (first_length != 0 && first_length < available) available = first_length;
            if (grid == NULL || available < 8) break;
            int wide = grid[1] & 1;
            if (wide && available < 12) break;
            layout->grid_rows = (uint32_t)grid[2] + 1;
            layout->grid_columns = (uint32_t)grid[3] + 1;
            layout->grid_width = wide ? be32(grid + 4) : be16(grid + 4);
            layout->grid_height = wide ? be32(grid + 8) : be16(grid + 6);
            break;
        }
    }

done:
    free(tiles);
    free(properties);
    free(sorted);
    free(tile_area_ids);
    free(tile_areas);
    return status;
}
