/* terragrid's C API: a map from a JSON config, and any window of it generated into the
 * caller's buffers, cell for cell the bits of the command line's rasters (height.tif,
 * classes.tif, ...) for the same cells. For engine plugins (Godot GDExtension, Unity native
 * plugins, Unreal modules) and any language with a C FFI. C99; no C++ type crosses it.
 *
 * Link: pkg-config --cflags --libs terragrid, or find_package(terragrid) and
 * target_link_libraries(... terragrid::terragrid) in CMake. docs/c-api.md is the guide.
 *
 * Conventions
 * - Every function that can fail returns a terragrid_status; TERRAGRID_OK is 0. The sentence
 *   that says why (naming the key, layer or argument, the rule and the value) is then
 *   terragrid_last_error(): per thread, valid until that thread's next call into the library.
 * - Handles are opaque; terragrid_map_free releases one (NULL is fine).
 * - Buffers are the caller's: one per layer, row-major, tightly packed (row pitch = window
 *   width, unit stride), window width x height cells of the layer's type: float (4 bytes:
 *   height, moisture, depth, flow) or uint8_t (classes, walkable, water, order).
 *   terragrid_layer_cell_bytes tells which.
 *
 * Thread-safety
 * - A terragrid_map is immutable once created: any number of threads may call
 *   terragrid_map_generate (and the queries) on the same map at once. The whole-map stages a
 *   window needs (coverage thresholds of terrain classes, the hydrology stage) are computed
 *   once, by the first call that needs them; the others wait for it.
 * - terragrid_map_free must not run while another call uses that map.
 * - Generation runs on a TBB thread pool shared by the process; `threads` caps how many of
 *   its threads one call uses.
 */
#ifndef TERRAGRID_TERRAGRID_H
#define TERRAGRID_TERRAGRID_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TERRAGRID_API __attribute__((visibility("default")))
#else
#define TERRAGRID_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The library's version, "MAJOR.MINOR.PATCH"; the shared library's SONAME carries the ABI
 * number TERRAGRID_ABI_VERSION. */
#define TERRAGRID_ABI_VERSION 0
TERRAGRID_API const char* terragrid_version(void);

typedef enum terragrid_status {
    TERRAGRID_OK = 0,
    TERRAGRID_ERROR_CONFIG = 1,   /**< bad JSON, an unknown key, a value out of range, ... */
    TERRAGRID_ERROR_WINDOW = 2,   /**< the window does not lie inside the map, or the config
                                       needs the whole map (terrain.connectivity "largest") */
    TERRAGRID_ERROR_LAYER = 3,    /**< a layer this config cannot make (water without hydrology) */
    TERRAGRID_ERROR_ARGUMENT = 4, /**< a NULL pointer, an unknown layer, a layer given twice */
    TERRAGRID_ERROR_MEMORY = 5,   /**< out of memory */
    TERRAGRID_ERROR_INTERNAL = 6  /**< anything else (a bug: please report it) */
} terragrid_status;

/** "TERRAGRID_OK", "TERRAGRID_ERROR_CONFIG", ...; "unknown" for another value. */
TERRAGRID_API const char* terragrid_status_name(terragrid_status status);

/** Why the calling thread's last failing call failed ("" when it did not fail). Valid until
 * the thread's next call into the library. Multi-line for config errors: one problem a line,
 * each "config: 'key' must ... (got ...)", the command line's messages. */
TERRAGRID_API const char* terragrid_last_error(void);

typedef enum terragrid_layer {
    TERRAGRID_LAYER_HEIGHT = 0,      /**< float, metres (height.tif) */
    TERRAGRID_LAYER_CLASSES = 1,     /**< uint8_t, terrain class index (classes.tif) */
    TERRAGRID_LAYER_WALKABLE = 2,    /**< uint8_t, 1 walkable, 0 not (walkable.tif) */
    TERRAGRID_LAYER_MOISTURE = 3,    /**< float, 0..1, what the classes read */
    TERRAGRID_LAYER_WATER = 4,       /**< uint8_t, 0 land, 1 lake or sea, 2 river (water.tif) */
    TERRAGRID_LAYER_WATER_DEPTH = 5, /**< float, metres of standing water (water_depth.tif) */
    TERRAGRID_LAYER_FLOW = 6,        /**< float, flow accumulation in cells (flow.tif) */
    TERRAGRID_LAYER_RIVER_ORDER = 7, /**< uint8_t, Strahler order of river cells, else 0 */
    TERRAGRID_LAYER_COUNT = 8
} terragrid_layer;

/** The layer's name ("height", "classes", ...), NULL for an unknown layer. */
TERRAGRID_API const char* terragrid_layer_name(terragrid_layer layer);
/** Bytes per cell of the layer's buffers: 4 (float) or 1 (uint8_t); 0 for an unknown layer. */
TERRAGRID_API size_t terragrid_layer_cell_bytes(terragrid_layer layer);

typedef struct terragrid_map terragrid_map;

/** Creates a map from a JSON config (comments allowed; NULL or "" is the built-in default),
 * merged over the built-in default like a config file, then `override_count` overrides
 * "key.path=value" (value JSON or a bare string; the command line's --set). On success
 * *out_map is the new map; on failure it is NULL and every problem is in
 * terragrid_last_error(). The config's outputs (output.*) are checked but not used. */
TERRAGRID_API terragrid_status terragrid_map_create(const char* config_json,
                                                    const char* const* overrides,
                                                    size_t override_count,
                                                    terragrid_map** out_map);

/** Releases a map; NULL does nothing. */
TERRAGRID_API void terragrid_map_free(terragrid_map* map);

/** The configured map's width and height in cells (a window lies inside them). */
TERRAGRID_API terragrid_status terragrid_map_size(const terragrid_map* map, int64_t* width,
                                                  int64_t* height);

/** 1 when the map can make `layer` (the water layers need hydrology.enabled), else 0. */
TERRAGRID_API int terragrid_map_has_layer(const terragrid_map* map, terragrid_layer layer);

/** The fully resolved config as JSON (every default filled in, keys sorted); owned by the
 * map, valid until terragrid_map_free. */
TERRAGRID_API const char* terragrid_map_config_json(const terragrid_map* map);

/** The terrain classes TERRAGRID_LAYER_CLASSES indexes: how many, and class `index`'s name
 * (owned by the map), colour (0xRRGGBB) and walkability. The first call may compute coverage
 * thresholds over the whole map. */
TERRAGRID_API terragrid_status terragrid_map_class_count(const terragrid_map* map,
                                                         size_t* count);
TERRAGRID_API terragrid_status terragrid_map_class_info(const terragrid_map* map, size_t index,
                                                        const char** name, uint32_t* rgb,
                                                        int* walkable);

/** Cells [col, col + width) x [row, row + height) of the map. */
typedef struct terragrid_window {
    int64_t col;
    int64_t row;
    int64_t width;
    int64_t height;
} terragrid_window;

/** Generates `window` of the map: for each i < layer_count, layer layers[i] into buffers[i]
 * (width x height cells, tightly packed, row-major, of terragrid_layer_cell_bytes each).
 * `threads`: at most this many threads work on the call; 0 lets the pool decide (every core).
 * Each cell is the command line's cell at the same map index, bit for bit, whatever the
 * window, threads or map.tile_size. A call refused for its arguments (window, layers)
 * writes no cell. The first call may
 * compute the whole-map stages (coverage thresholds, hydrology), which later calls reuse. */
TERRAGRID_API terragrid_status terragrid_map_generate(const terragrid_map* map,
                                                      terragrid_window window,
                                                      const terragrid_layer* layers,
                                                      void* const* buffers, size_t layer_count,
                                                      int threads);

#ifdef __cplusplus
}
#endif

#endif /* TERRAGRID_TERRAGRID_H */
