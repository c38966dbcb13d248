"""Shared helpers of the Python module's tests: the CLI beside the module (TERRAGRID_CLI, set by
ctest) and GDAL to read what it writes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

CLI = os.environ.get("TERRAGRID_CLI", "terragrid")


def run_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Runs the terragrid CLI; returns its result (stdout, stderr, returncode)."""
    result = subprocess.run([CLI, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"terragrid {' '.join(args)} failed:\n{result.stderr}")
    return result


def write_config(directory: Path, config: dict, name: str = "config.json") -> Path:
    path = directory / name
    path.write_text(json.dumps(config))
    return path


def read_raster(path: Path) -> np.ndarray:
    """The first band of a GeoTIFF, read by GDAL's Python bindings (python3-gdal)."""
    from osgeo import gdal

    gdal.UseExceptions()
    dataset = gdal.Open(str(path))
    return dataset.GetRasterBand(1).ReadAsArray()


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal bit for bit: floats compared as their bytes (so -0.0 != 0.0 and NaN == NaN)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    return tmp_path
