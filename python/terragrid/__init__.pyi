# Type stubs of the terragrid package (python/terragrid/__init__.py; docs/python.md).
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, TypedDict

import numpy as np
import numpy.typing as npt

from ._errors import ConfigError as ConfigError
from ._errors import LayerError as LayerError
from ._errors import OutputError as OutputError
from ._errors import PlanError as PlanError
from ._errors import WindowError as WindowError

__version__: str

ConfigSource = Mapping[str, Any] | str | os.PathLike[str] | None
Window = tuple[int, int, int, int]
LayerName = Literal["height", "classes", "walkable", "moisture", "water", "depth", "flow", "order"]

class TerrainClass(TypedDict):
    name: str
    colour: str
    walkable: bool

class WriteReport(TypedDict):
    files: list[str]
    tiles: int
    elevation_min: float
    elevation_max: float
    seconds: float

def validate(config: ConfigSource = None, **overrides: Any) -> list[str]: ...
def schema() -> dict[str, Any]: ...
def default_config() -> dict[str, Any]: ...

class Map:
    def __init__(self, config: ConfigSource = None, /, **overrides: Any) -> None: ...
    @property
    def config(self) -> dict[str, Any]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def config_hash(self) -> str: ...
    @property
    def layers(self) -> list[LayerName]: ...
    @property
    def classes(self) -> list[TerrainClass]: ...
    @staticmethod
    def validate(config: ConfigSource = None, **overrides: Any) -> list[str]: ...
    @staticmethod
    def schema() -> dict[str, Any]: ...
    def generate(
        self,
        window: Window | None = None,
        layers: Iterable[LayerName] | LayerName | None = None,
        threads: int | None = None,
    ) -> dict[LayerName, npt.NDArray[np.float32] | npt.NDArray[np.uint8]]: ...
    def plan(self, window: Window | None = None, threads: int | None = None) -> dict[str, Any]: ...
    def write(
        self,
        out_dir: str | os.PathLike[str],
        files: Iterable[str] | str | None = None,
        progress: Callable[[int, int], None] | None = None,
        threads: int | None = None,
        window: Window | None = None,
    ) -> WriteReport: ...
