"""terragrid: procedural, tile-based terrain maps as NumPy arrays.

A map is a pure function of its config and each cell's index, so any window of any map is a
cheap, exact call: ``Map(config).generate(window=(col, row, width, height))`` returns the very
bits the command line writes into height.tif, classes.tif and the other rasters for those cells.

    >>> import terragrid
    >>> m = terragrid.Map({"map": {"width": 512, "height": 512}}, seed=42)
    >>> arrays = m.generate(window=(0, 0, 256, 256), layers=("height", "classes"))
    >>> arrays["height"].shape, arrays["height"].dtype
    ((256, 256), dtype('float32'))

The guide is docs/python.md.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import _terragrid
from ._errors import ConfigError, LayerError, OutputError, PlanError, WindowError

__version__: str = _terragrid.__version__
__all__ = [
    "Map",
    "validate",
    "schema",
    "default_config",
    "ConfigError",
    "WindowError",
    "LayerError",
    "PlanError",
    "OutputError",
    "__version__",
]


def _non_finite_key(value: Any, path: str = "") -> str | None:
    """The dotted key of the first NaN or infinite number in `value`, else None."""
    if isinstance(value, float) and not math.isfinite(value):
        return path or "(the config)"
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = _non_finite_key(item, f"{path}.{key}" if path else str(key))
            if found:
                return found
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = _non_finite_key(item, f"{path}[{index}]")
            if found:
                return found
    return None


def _json(value: Any, key: str) -> str:
    """`value` as JSON text; NaN and infinities, which JSON cannot hold, are a ConfigError."""
    bad = _non_finite_key(value, key)
    if bad is not None:
        message = f"config: '{bad}' must be a finite number (got a NaN or infinity, which JSON cannot hold)"
        raise ConfigError(message, [message])
    try:
        return json.dumps(value, allow_nan=False)
    except TypeError as error:
        message = f"config: '{key or '(the config)'}' must be JSON data ({error})"
        raise ConfigError(message, [message]) from None


def _override_key(name: str) -> str:
    """A keyword argument's config key: ``height__octaves`` is ``height.octaves``."""
    return name.replace("__", ".")


def _source(config: Any, overrides: Mapping[str, Any]) -> Any:
    """The compiled module's config source: text, the name messages give it, the overrides."""
    sets = [f"{_override_key(key)}={_json(value, _override_key(key))}" for key, value in overrides.items()]
    if config is None:
        return _terragrid._Source("{}", "built-in default", sets)
    if isinstance(config, Mapping):
        return _terragrid._Source(_json(dict(config), ""), "dict", sets)
    if isinstance(config, os.PathLike):
        path = os.fspath(config)
        return _terragrid._Source(_terragrid._read_config(path), path, sets)
    if isinstance(config, str):
        # JSON text starts with '{' (after blanks and comments); anything else names a file.
        stripped = config.lstrip()
        if stripped.startswith(("{", "//", "/*")):
            return _terragrid._Source(config, "JSON text", sets)
        return _terragrid._Source(_terragrid._read_config(config), config, sets)
    raise TypeError(
        f"config must be a dict, JSON text, a path or None (got {type(config).__name__})"
    )


def _window(window: Any) -> tuple[int, int, int, int] | None:
    if window is None:
        return None
    try:
        col, row, width, height = window
    except (TypeError, ValueError):
        raise TypeError(f"window must be (col, row, width, height) (got {window!r})") from None
    values = (col, row, width, height)
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"window must hold four integers (got {window!r})")
        if not -(2**63) <= value < 2**63:
            raise WindowError(f"window {window!r} holds a value beyond 64 bits")
    return values


def validate(config: Any = None, **overrides: Any) -> list[str]:
    """Every problem of ``config`` with ``overrides``, one sentence each (the command line's
    ``terragrid validate`` messages); ``[]`` when it is valid. Never raises for a bad config."""
    try:
        return list(_terragrid._validate(_source(config, overrides)))
    except ConfigError as error:
        return error.problems


def schema() -> dict[str, Any]:
    """The config's JSON Schema (draft 2020-12): every key, its type, default and range
    (``terragrid schema``)."""
    return json.loads(_terragrid._schema_json())


def default_config() -> dict[str, Any]:
    """The built-in default config (configs/default.json as compiled in)."""
    text = _terragrid._builtin_config()
    return json.loads(text)


class Map:
    """A terrain map: a validated config whose windows are generated on demand.

    ``config`` is a dict, JSON text (comments allowed), a path to a config file, or None (the
    built-in default). It is merged over the built-in default key by key, as a config file is
    by the command line. Keyword arguments override single keys, like ``--set``: dotted keys as
    ``**{"height.octaves": 8}``, or with ``__`` for the dot, ``height__octaves=8``; a dict value
    merges into that group (``height={"octaves": 8}``).

    Raises ConfigError listing every problem (``error.problems``) when the config is bad.
    A Map is immutable and thread-safe: several threads may generate windows of it at once.
    """

    def __init__(self, config: Any = None, /, **overrides: Any) -> None:
        self._source = _source(config, overrides)
        self._map = _terragrid._Map(self._source)

    # --- what the map is ------------------------------------------------------------------
    @property
    def config(self) -> dict[str, Any]:
        """The resolved config: every key, every default filled in (``--print-config``)."""
        return json.loads(self._map.resolved_json)

    @property
    def width(self) -> int:
        """Map width in cells (``map.width``)."""
        return self._map.width

    @property
    def height(self) -> int:
        """Map height in cells (``map.height``)."""
        return self._map.height

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``: the shape of a whole-map array."""
        return (self._map.height, self._map.width)

    @property
    def notes(self) -> list[str]:
        """What loading decided for you (a size snapped for ``output.engine``), one sentence each."""
        return list(self._map.notes)

    @property
    def config_hash(self) -> str:
        """The config's hash, as stats.json and the GeoTIFFs' metadata carry it."""
        return self._map.config_hash

    @property
    def layers(self) -> list[str]:
        """The layers this map can make: height, classes, walkable, moisture, and with
        ``hydrology.enabled`` also water, depth, flow and order."""
        return list(self._map.layers)

    @property
    def classes(self) -> list[dict[str, Any]]:
        """The terrain classes the ``classes`` layer indexes: ``{"name", "colour", "walkable"}``
        each (coverage thresholds resolved over the whole map on first use)."""
        return self._map.classes()

    validate = staticmethod(validate)
    schema = staticmethod(schema)

    # --- generating ------------------------------------------------------------------------
    def generate(
        self,
        window: tuple[int, int, int, int] | None = None,
        layers: Iterable[str] | None = None,
        threads: int | None = None,
    ) -> dict[str, Any]:
        """Generates ``window`` = ``(col, row, width, height)`` of the map (None: the whole
        map) and returns ``{layer: numpy array}``, each array ``(height, width)``, C-ordered:

        - ``height``: float32, metres (height.tif)
        - ``classes``: uint8, index into ``Map.classes`` (classes.tif)
        - ``walkable``: uint8, 1 walkable, 0 not (walkable.tif)
        - ``moisture``: float32, 0..1, the moisture the classes read
        - with hydrology: ``water`` uint8 (0 land, 1 lake or sea, 2 river; water.tif),
          ``depth`` float32 metres (water_depth.tif), ``flow`` float32 (flow.tif),
          ``order`` uint8 (Strahler order of river cells)

        ``layers``: the names wanted (default: every layer in ``Map.layers``); height alone is
        about half the work of height with classes. Every array is bit for bit the command
        line's raster for the same cells, whatever the window, ``threads`` or tile size.
        ``threads``: at most this many worker threads (default: every core). The GIL is
        released while the map generates.

        Raises WindowError (outside the map), LayerError (a layer the map cannot make),
        ConfigError (a coverage target no threshold reaches).
        """
        names = list(self._map.layers if layers is None else ([layers] if isinstance(layers, str) else layers))
        return self._map.generate(_window(window), names, threads)

    def plan(self, window: tuple[int, int, int, int] | None = None, threads: int | None = None) -> dict[str, Any]:
        """What writing the map (or ``window`` of it) would take: the cells and tiles, every
        file with an upper bound on its size, the disk and memory estimates against what is
        free (``terragrid --dry-run=json``, as a dict). Writes nothing."""
        return json.loads(self._map.plan_json(_window(window), threads))

    def write(
        self,
        out_dir: str | os.PathLike[str],
        files: Iterable[str] | None = None,
        progress: Callable[[int, int], None] | None = None,
        threads: int | None = None,
        window: tuple[int, int, int, int] | None = None,
    ) -> dict[str, Any]:
        """Writes the map's files into ``out_dir`` exactly as the command line does (the same
        run, the same bytes, one transaction: every file in place, or every older file as it
        was). ``files``: the output file names (``output.files``; default: the config's).
        ``window``: only those cells (``--region``). ``progress(tiles_done, tiles_total)`` is
        called after each tile, in the thread that called write (an exception it raises stops
        the run, which then leaves nothing behind). Returns ``{"files", "tiles",
        "elevation_min", "elevation_max", "seconds"}``.

        Raises PlanError before anything is created when the disk or memory cannot hold the
        run, OutputError when writing fails, ConfigError for bad ``files``.
        """
        sets = [f"output.directory={_json(os.fspath(out_dir), 'output.directory')}"]
        if files is not None:
            sets.append(f"output.files={_json([files] if isinstance(files, str) else list(files), 'output.files')}")
        return self._map.write(sets, _window(window), progress, threads)

    def __repr__(self) -> str:
        return f"terragrid.Map({self.width} x {self.height} cells, seed {self.config['seed']}, hash {self.config_hash})"
