"""Map.generate: windows, layers and threads, bit for bit the CLI's rasters (read by GDAL)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from conftest import read_raster, run_cli, same_bits, write_config

import terragrid

# 200 x 150 cells in tiles of 64: windows cut across tiles and the GeoTIFFs' blocks; a coverage
# threshold, which a window must take from the whole map as the CLI does.
SMALL = {
    "seed": 11,
    "map": {"width": 200, "height": 150, "tile_size": 64},
    "terrain": {"mountain_above": {"coverage": 0.2}},
    "output": {"files": ["height.tif", "classes.tif", "walkable.tif"]},
}
WINDOWS = [(0, 0, 200, 150), (37, 11, 64, 50), (190, 140, 10, 10), (0, 149, 200, 1), (63, 0, 2, 150)]


def test_the_issue_line_prints_256_by_256():
    line = "import terragrid; print(terragrid.Map({}).generate(window=(0,0,256,256))['height'].shape)"
    out = subprocess.run([sys.executable, "-c", line], capture_output=True, text=True, check=True)
    assert out.stdout == "(256, 256)\n"


@pytest.mark.parametrize("threads", [1, 2, None])
def test_windows_equal_the_cli_rasters(tmp, threads):
    config = write_config(tmp, SMALL)
    run_cli("--config", str(config), "--out-dir", str(tmp / "out"), "--quiet")
    rasters = {name: read_raster(tmp / "out" / f"{name}.tif") for name in ("height", "classes", "walkable")}
    assert rasters["height"].dtype == np.float32 and rasters["classes"].dtype == np.uint8
    m = terragrid.Map(SMALL)
    for col, row, width, height in WINDOWS:
        arrays = m.generate(window=(col, row, width, height), layers=("height", "classes", "walkable"), threads=threads)
        for name, raster in rasters.items():
            want = raster[row : row + height, col : col + width]
            assert same_bits(arrays[name], np.ascontiguousarray(want)), (name, col, row, width, height)


def test_whole_map_is_the_default_window(tmp):
    m = terragrid.Map(SMALL)
    whole = m.generate(layers=["height"])["height"]
    assert whole.shape == m.shape == (150, 200)
    assert same_bits(whole, m.generate(window=(0, 0, 200, 150), layers="height")["height"])


def test_windows_mosaic_into_the_map_whatever_the_tile_size():
    """Any cut of the map into windows, under any map.tile_size, gives the same cells."""
    whole = terragrid.Map(SMALL).generate(layers=("height", "classes", "moisture"))
    for tile_size in (16, 37, 256):
        m = terragrid.Map(SMALL, **{"map.tile_size": tile_size})
        for name in whole:
            mosaic = np.empty_like(whole[name])
            for row in range(0, 150, 50):
                for col in range(0, 200, 70):
                    w, h = min(70, 200 - col), min(50, 150 - row)
                    mosaic[row : row + h, col : col + w] = m.generate(window=(col, row, w, h), layers=[name])[name]
            assert same_bits(mosaic, whole[name]), (name, tile_size)


def test_a_window_far_from_the_origin_equals_the_region_run(tmp):
    """Cell size 30, origin 3e10: the map's cells are 10^9 cells from the world's origin."""
    far = {"map": {"width": 512, "height": 512, "origin": [3e10, -3e10]},
           "output": {"files": ["height.tif", "classes.tif"]}}
    run_cli("--config", str(write_config(tmp, far)), "--out-dir", str(tmp / "far"), "--quiet",
            "--region", "301,97,80,48")
    arrays = terragrid.Map(far).generate(window=(301, 97, 80, 48), layers=("height", "classes"))
    assert same_bits(arrays["height"], read_raster(tmp / "far" / "height.tif"))
    assert same_bits(arrays["classes"], read_raster(tmp / "far" / "classes.tif"))
    assert np.unique(arrays["height"]).size > 1000  # sharp, not blocky, so far out


def test_water_layers_equal_the_cli_rasters(tmp):
    wet = {"map": {"width": 128, "height": 96, "tile_size": 48}, "hydrology": {"enabled": True},
           "output": {"files": ["height.tif", "classes.tif", "water.tif", "water_depth.tif", "flow.tif"]}}
    run_cli("--config", str(write_config(tmp, wet)), "--out-dir", str(tmp / "wet"), "--quiet")
    m = terragrid.Map(wet)
    assert m.layers == ["height", "classes", "walkable", "moisture", "water", "depth", "flow", "order"]
    arrays = m.generate(window=(5, 7, 100, 80))
    for name, file in [("height", "height"), ("classes", "classes"), ("water", "water"),
                       ("depth", "water_depth"), ("flow", "flow")]:
        want = read_raster(tmp / "wet" / f"{file}.tif")[7:87, 5:105]
        assert same_bits(arrays[name], np.ascontiguousarray(want)), name
    # Strahler orders on river cells (water 2), and nowhere else.
    assert ((arrays["order"] > 0) == (arrays["water"] == 2)).all()
    assert (arrays["water"] == 2).any()


def test_layers_have_their_types_and_ranges():
    arrays = terragrid.Map(SMALL).generate(window=(0, 0, 64, 64))
    assert list(arrays) == ["height", "classes", "walkable", "moisture"]
    assert arrays["height"].dtype == np.float32 and arrays["moisture"].dtype == np.float32
    assert arrays["classes"].dtype == np.uint8 and arrays["walkable"].dtype == np.uint8
    assert all(a.flags.c_contiguous and a.shape == (64, 64) for a in arrays.values())
    assert 0.0 <= arrays["moisture"].min() and arrays["moisture"].max() <= 1.0
    assert 0.0 <= arrays["height"].min() and arrays["height"].max() <= 1000.0
    classes = terragrid.Map(SMALL).classes
    assert [c["name"] for c in classes] == ["lake", "mountain", "forest", "desert", "ground"]
    walkable = np.array([c["walkable"] for c in classes], dtype=np.uint8)
    assert (walkable[arrays["classes"]] == arrays["walkable"]).all()


def test_connectivity_largest_keeps_the_largest_region_as_walkable_tif(tmp):
    largest = dict(SMALL, terrain={"connectivity": "largest", "lake_below": 0.45})
    run_cli("--config", str(write_config(tmp, largest)), "--out-dir", str(tmp / "l"), "--quiet")
    arrays = terragrid.Map(largest).generate(layers=["walkable"])
    assert same_bits(arrays["walkable"], read_raster(tmp / "l" / "walkable.tif"))
    with pytest.raises(terragrid.WindowError, match="connectivity"):
        terragrid.Map(largest).generate(window=(0, 0, 10, 10))


def test_bad_layers_and_windows_are_named():
    m = terragrid.Map(SMALL)
    with pytest.raises(terragrid.LayerError, match="layer 'water' needs hydrology.enabled true"):
        m.generate(window=(0, 0, 8, 8), layers=("height", "water"))
    with pytest.raises(terragrid.LayerError, match="layer 'heigth' is not one of height, classes"):
        m.generate(window=(0, 0, 8, 8), layers=["heigth"])
    with pytest.raises(terragrid.LayerError, match="'height' is given twice"):
        m.generate(window=(0, 0, 8, 8), layers=["height", "height"])
    with pytest.raises(terragrid.WindowError, match="right edge"):
        m.generate(window=(190, 0, 20, 8))
    with pytest.raises(terragrid.WindowError, match="at least 1 cell"):
        m.generate(window=(0, 0, 0, 8))
    with pytest.raises(terragrid.WindowError, match="at least 0"):
        m.generate(window=(-1, 0, 8, 8))
    with pytest.raises(terragrid.WindowError):
        m.generate(window=(2**62, 2**62, 2**62, 2**62))
    with pytest.raises(terragrid.WindowError, match="64 bits"):
        m.generate(window=(2**64, 0, 1, 1))
    with pytest.raises(TypeError):
        m.generate(window=(0, 0, 8))
    with pytest.raises(TypeError):
        m.generate(window=(0, 0, 8.0, 8))
    with pytest.raises(terragrid.LayerError, match="'threads' must be at least 1"):
        m.generate(window=(0, 0, 8, 8), threads=0)
