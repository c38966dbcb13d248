// The C API (include/terragrid/terragrid.h) over terragrid::Map: argument checks, the
// translation of exceptions to status codes and the thread's last error. No exception leaves
// a C function.

#include "terragrid/terragrid.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <tbb/task_arena.h>

#include "terragrid/app/map.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/model/window.hpp"
#include "terragrid/version.hpp"

struct terragrid_map {
    explicit terragrid_map(terragrid::LoadedConfig config) : map(std::move(config)) {}
    terragrid::Map map;
};

namespace {

thread_local std::string lastError;

terragrid_status fail(terragrid_status status, std::string message) {
    lastError = std::move(message);
    return status;
}

/// Runs `body` (which returns a status), turning every exception into its status and message.
template <typename Body>
terragrid_status guarded(Body body) noexcept {
    try {
        lastError.clear();
        return body();
    } catch (const terragrid::ConfigError& e) {
        return fail(TERRAGRID_ERROR_CONFIG, e.what());
    } catch (const terragrid::WindowError& e) {
        return fail(TERRAGRID_ERROR_WINDOW, e.what());
    } catch (const terragrid::LayerError& e) {
        return fail(TERRAGRID_ERROR_LAYER, e.what());
    } catch (const std::bad_alloc&) {
        return fail(TERRAGRID_ERROR_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(TERRAGRID_ERROR_INTERNAL, e.what());
    } catch (...) {
        return fail(TERRAGRID_ERROR_INTERNAL, "unknown error");
    }
}

// C callers may pass any int as a layer; in C++ a value outside the enum's range is undefined
// once loaded as the enum (UBSan: "not a valid value"), so a layer is judged by its bytes.
long long layerValue(const terragrid_layer& layer) {
    std::underlying_type_t<terragrid_layer> bits;
    std::memcpy(&bits, &layer, sizeof bits);
    return static_cast<long long>(bits);
}

bool knownLayer(const terragrid_layer& layer) {
    const long long value = layerValue(layer);
    return value >= 0 && value < TERRAGRID_LAYER_COUNT;
}

}  // namespace

extern "C" {

const char* terragrid_version(void) { return terragrid::kVersion; }

const char* terragrid_status_name(terragrid_status status) {
    switch (status) {
        case TERRAGRID_OK: return "TERRAGRID_OK";
        case TERRAGRID_ERROR_CONFIG: return "TERRAGRID_ERROR_CONFIG";
        case TERRAGRID_ERROR_WINDOW: return "TERRAGRID_ERROR_WINDOW";
        case TERRAGRID_ERROR_LAYER: return "TERRAGRID_ERROR_LAYER";
        case TERRAGRID_ERROR_ARGUMENT: return "TERRAGRID_ERROR_ARGUMENT";
        case TERRAGRID_ERROR_MEMORY: return "TERRAGRID_ERROR_MEMORY";
        case TERRAGRID_ERROR_INTERNAL: return "TERRAGRID_ERROR_INTERNAL";
    }
    return "unknown";
}

const char* terragrid_last_error(void) { return lastError.c_str(); }

const char* terragrid_layer_name(terragrid_layer layer) {
    return knownLayer(layer) ? terragrid::kLayers[std::size_t(layer)].name.data() : nullptr;
}

size_t terragrid_layer_cell_bytes(terragrid_layer layer) {
    return knownLayer(layer) ? terragrid::kLayers[std::size_t(layer)].cellBytes : 0;
}

terragrid_status terragrid_map_create(const char* config_json, const char* const* overrides,
                                      size_t override_count, terragrid_map** out_map) {
    if (out_map) *out_map = nullptr;
    return guarded([&] {
        if (!out_map) return fail(TERRAGRID_ERROR_ARGUMENT, "out_map must not be NULL");
        if (override_count > 0 && !overrides)
            return fail(TERRAGRID_ERROR_ARGUMENT,
                        "overrides must not be NULL with override_count " +
                            std::to_string(override_count));
        std::vector<std::string> sets;
        for (size_t i = 0; i < override_count; ++i) {
            if (!overrides[i])
                return fail(TERRAGRID_ERROR_ARGUMENT,
                            "overrides[" + std::to_string(i) + "] must not be NULL");
            sets.emplace_back(overrides[i]);
        }
        const bool builtin = !config_json || !*config_json;
        terragrid::LoadedConfig config = builtin
                                             ? terragrid::defaultConfig(sets)
                                             : terragrid::parseConfig(config_json, "JSON text", sets);
        *out_map = new terragrid_map(std::move(config));
        return TERRAGRID_OK;
    });
}

void terragrid_map_free(terragrid_map* map) { delete map; }

terragrid_status terragrid_map_size(const terragrid_map* map, int64_t* width, int64_t* height) {
    return guarded([&] {
        if (!map || !width || !height)
            return fail(TERRAGRID_ERROR_ARGUMENT, "map, width and height must not be NULL");
        *width = map->map.config().map.width;
        *height = map->map.config().map.height;
        return TERRAGRID_OK;
    });
}

int terragrid_map_has_layer(const terragrid_map* map, terragrid_layer layer) {
    return map && knownLayer(layer) && map->map.hasLayer(terragrid::Layer(layer)) ? 1 : 0;
}

const char* terragrid_map_config_json(const terragrid_map* map) {
    return map ? map->map.config().resolvedJson.c_str() : nullptr;
}

terragrid_status terragrid_map_class_count(const terragrid_map* map, size_t* count) {
    return guarded([&] {
        if (!map || !count) return fail(TERRAGRID_ERROR_ARGUMENT, "map and count must not be NULL");
        *count = map->map.terrain().classes().size();
        return TERRAGRID_OK;
    });
}

terragrid_status terragrid_map_class_info(const terragrid_map* map, size_t index,
                                          const char** name, uint32_t* rgb, int* walkable) {
    return guarded([&] {
        if (!map) return fail(TERRAGRID_ERROR_ARGUMENT, "map must not be NULL");
        const auto& classes = map->map.terrain().classes();
        if (index >= classes.size())
            return fail(TERRAGRID_ERROR_ARGUMENT, "class index must be below " +
                                                      std::to_string(classes.size()) + " (got " +
                                                      std::to_string(index) + ")");
        const terragrid::TerrainClass& c = classes[index];
        if (name) *name = c.name.c_str();
        if (rgb) *rgb = uint32_t(c.colour.r) << 16 | uint32_t(c.colour.g) << 8 | c.colour.b;
        if (walkable) *walkable = c.walkable ? 1 : 0;
        return TERRAGRID_OK;
    });
}

terragrid_status terragrid_map_generate(const terragrid_map* map, terragrid_window window,
                                        const terragrid_layer* layers, void* const* buffers,
                                        size_t layer_count, int threads) {
    return guarded([&] {
        if (!map) return fail(TERRAGRID_ERROR_ARGUMENT, "map must not be NULL");
        if (layer_count > 0 && (!layers || !buffers))
            return fail(TERRAGRID_ERROR_ARGUMENT, "layers and buffers must not be NULL");
        if (threads < 0)
            return fail(TERRAGRID_ERROR_ARGUMENT,
                        "threads must be 0 (every core) or more (got " + std::to_string(threads) +
                            ")");
        terragrid::WindowArrays out;
        for (size_t i = 0; i < layer_count; ++i) {
            if (!knownLayer(layers[i]))
                return fail(TERRAGRID_ERROR_ARGUMENT, "layers[" + std::to_string(i) +
                                                          "] is not a layer (got " +
                                                          std::to_string(layerValue(layers[i])) +
                                                          ")");
            const auto layer = terragrid::Layer(layers[i]);
            if (out[layer])
                return fail(TERRAGRID_ERROR_ARGUMENT,
                            "layer " + terragrid::layerName(layer) + " is given twice");
            if (!buffers[i])
                return fail(TERRAGRID_ERROR_ARGUMENT,
                            "buffers[" + std::to_string(i) + "] (layer " +
                                terragrid::layerName(layer) + ") must not be NULL");
            out[layer] = buffers[i];
        }
        const terragrid::CellWindow cells{window.col, window.row, window.width, window.height};
        if (threads == 0) {
            map->map.generate(cells, out);
        } else {
            tbb::task_arena arena(threads);
            arena.execute([&] { map->map.generate(cells, out); });
        }
        return TERRAGRID_OK;
    });
}

}  // extern "C"
