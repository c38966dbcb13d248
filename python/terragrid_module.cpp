// terragrid._terragrid: the Python module's compiled half (pybind11). A thin door onto
// terragrid::Map (windows into NumPy arrays) and the batch run (app/run.hpp); the friendly
// surface (dicts, paths, **overrides, docstrings) is python/terragrid/__init__.py.
//
// The GIL is released while a map generates or a run writes, so other Python threads run
// meanwhile; the progress callback takes it back for each call.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include "terragrid/app/map.hpp"
#include "terragrid/app/plan.hpp"
#include "terragrid/app/run.hpp"
#include "terragrid/config/loader.hpp"
#include "terragrid/io/outputs.hpp"
#include "terragrid/model/window.hpp"
#include "terragrid/version.hpp"

namespace py = pybind11;
using namespace terragrid;

namespace {

using Window = std::optional<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>>;

/// A config as the user gave it, kept so write() can load it again with its outputs changed.
struct Source {
    std::string text;
    std::string name;
    std::vector<std::string> overrides;

    LoadedConfig load(const std::vector<std::string>& more = {}) const {
        std::vector<std::string> all = overrides;
        all.insert(all.end(), more.begin(), more.end());
        return parseConfig(text, name, all);
    }
};

/// Runs `body` with at most `threads` TBB threads (none: the process's default arena).
template <typename Body>
void inArena(std::optional<int> threads, Body body) {
    if (!threads) return body();
    if (*threads < 1)
        throw LayerError("'threads' must be at least 1 (got " + std::to_string(*threads) + ")");
    tbb::task_arena arena(*threads);
    arena.execute(body);
}

CellWindow cellWindow(const Window& window, const Config& config) {
    if (!window) return wholeMap(config.map);
    const auto& [col, row, width, height] = *window;
    return {col, row, width, height};
}

Layer layerNamed(const std::string& name) {
    std::string names;
    for (std::size_t i = 0; i < kLayerCount; ++i) {
        if (kLayers[i].name == name) return Layer(i);
        names += (i ? ", " : "") + std::string(kLayers[i].name);
    }
    throw LayerError("layer '" + name + "' is not one of " + names);
}

class PyMap {
public:
    explicit PyMap(Source source) : m_source(std::move(source)), m_map(m_source.load()) {}

    const LoadedConfig& config() const { return m_map.config(); }

    py::dict generate(const Window& window, const std::vector<std::string>& names,
                      std::optional<int> threads) const {
        const CellWindow cells = cellWindow(window, config());
        std::vector<Layer> layers;
        for (const std::string& name : names) {
            const Layer layer = layerNamed(name);
            for (Layer seen : layers)
                if (seen == layer) throw LayerError("layer '" + name + "' is given twice");
            layers.push_back(layer);
        }
        // Checked before any array is allocated, so a bad window never costs a huge one.
        checkWindow(config(), MapWindow{cells, std::nullopt, "window"});
        py::dict arrays;
        WindowArrays out;
        const std::vector<py::ssize_t> shape{cells.height, cells.width};
        for (Layer layer : layers) {
            py::array array = kLayers[std::size_t(layer)].cellBytes == 4
                                  ? py::array(py::array_t<float>(shape))
                                  : py::array(py::array_t<std::uint8_t>(shape));
            out[layer] = array.mutable_data();
            arrays[py::str(std::string(kLayers[std::size_t(layer)].name))] = array;
        }
        {
            py::gil_scoped_release free;
            inArena(threads, [&] { m_map.generate(cells, out); });
        }
        return arrays;
    }

    std::vector<py::dict> classes() const {
        const Terrain* terrain = nullptr;
        {
            py::gil_scoped_release free;  // coverage thresholds may sample the whole map
            terrain = &m_map.terrain();
        }
        std::vector<py::dict> list;
        for (const TerrainClass& c : terrain->classes())
            list.push_back(py::dict(py::arg("name") = c.name,
                                    py::arg("colour") = hexColour(c.colour),
                                    py::arg("walkable") = c.walkable));
        return list;
    }

    std::vector<std::string> layers() const {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < kLayerCount; ++i)
            if (m_map.hasLayer(Layer(i))) names.emplace_back(kLayers[i].name);
        return names;
    }

    /// --dry-run=json's plan of writing `window` into config's output directory.
    std::string planJsonText(const Window& window, std::optional<int> threads) const {
        const MapWindow piece = runWindow(config(), window);
        const RunPlan plan = planRun(config(), piece, threads.value_or(tbb::info::default_concurrency()));
        return planJson(plan, probeResources(config().output.directory));
    }

    py::dict write(const std::vector<std::string>& outputOverrides, const Window& window,
                   const std::function<void(std::int64_t, std::int64_t)>& progress,
                   std::optional<int> threads) const {
        const LoadedConfig config = m_source.load(outputOverrides);
        const MapWindow piece = runWindow(config, window);
        const int planned = threads.value_or(tbb::info::default_concurrency());
        RunReport report;
        {
            py::gil_scoped_release free;
            // The CLI's order: the plan refuses a run that cannot fit before anything exists.
            const RunPlan plan = planRun(config, piece, planned);
            const std::vector<std::string> shortfalls =
                planShortfalls(plan, probeResources(config.output.directory));
            if (!shortfalls.empty()) throw PlanError(shortfalls);
            ProgressFn onTile;
            if (progress)
                onTile = [&](std::int64_t done, std::int64_t total) {
                    py::gil_scoped_acquire hold;
                    progress(done, total);
                };
            inArena(threads, [&] {
                report = window ? runMap(config, piece, onTile) : runMap(config, onTile);
            });
        }
        py::dict result;
        result["files"] = report.files;
        result["tiles"] = report.tiles;
        result["elevation_min"] = report.elevationMin;
        result["elevation_max"] = report.elevationMax;
        result["seconds"] = report.seconds;
        return result;
    }

private:
    static MapWindow runWindow(const Config& config, const Window& window) {
        if (!window) return MapWindow{wholeMap(config.map), std::nullopt};
        return regionWindow(config, cellWindow(window, config));
    }

    Source m_source;
    Map m_map;
};

/// Every problem of the config, [] when it loads.
std::vector<std::string> validate(const Source& source) {
    try {
        source.load();
        return {};
    } catch (const ConfigError& e) {
        return e.problems();
    }
}

/// Raises the Python exception class `name` of terragrid._errors with `args`.
template <typename... Args>
void raise(const char* name, Args&&... args) {
    py::object cls = py::module_::import("terragrid._errors").attr(name);
    py::object error = cls(std::forward<Args>(args)...);
    PyErr_SetObject(cls.ptr(), error.ptr());
}

void translateErrors(std::exception_ptr p) {
    try {
        if (p) std::rethrow_exception(p);
    } catch (const ConfigError& e) {
        raise("ConfigError", e.what(), e.problems());
    } catch (const WindowError& e) {
        raise("WindowError", e.what());
    } catch (const LayerError& e) {
        raise("LayerError", e.what());
    } catch (const PlanError& e) {
        raise("PlanError", e.what(), e.shortfalls());
    } catch (const OutputError& e) {
        raise("OutputError", e.what());
    }
}

}  // namespace

PYBIND11_MODULE(_terragrid, m) {
    m.doc() = "terragrid's compiled core; use the terragrid package (terragrid.Map).";
    m.attr("__version__") = kVersion;
    py::register_exception_translator(translateErrors);

    py::class_<Source>(m, "_Source")
        .def(py::init<std::string, std::string, std::vector<std::string>>(), py::arg("text"),
             py::arg("name"), py::arg("overrides"));

    py::class_<PyMap>(m, "_Map")
        .def(py::init<Source>(), py::arg("source"))
        .def_property_readonly("resolved_json",
                               [](const PyMap& map) { return map.config().resolvedJson; })
        .def_property_readonly("notes", [](const PyMap& map) { return map.config().notes; })
        .def_property_readonly("width", [](const PyMap& map) { return map.config().map.width; })
        .def_property_readonly("height", [](const PyMap& map) { return map.config().map.height; })
        .def_property_readonly("config_hash", [](const PyMap& map) { return map.config().hash; })
        .def_property_readonly("layers", &PyMap::layers)
        .def("classes", &PyMap::classes)
        .def("generate", &PyMap::generate, py::arg("window"), py::arg("layers"),
             py::arg("threads"))
        .def("plan_json", &PyMap::planJsonText, py::arg("window"), py::arg("threads"))
        .def("write", &PyMap::write, py::arg("output_overrides"), py::arg("window"),
             py::arg("progress"), py::arg("threads"));

    m.def("_validate", &validate, py::arg("source"));
    m.def("_read_config", &readConfigFile, py::arg("path"));
    m.def("_schema_json", &configSchemaJson);
    m.def("_builtin_config", [] { return std::string(builtinConfigText()); });
}
