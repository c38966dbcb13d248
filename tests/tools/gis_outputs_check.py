#!/usr/bin/python3
"""Whether terragrid's outputs agree with each other as GDAL reads them.

Usage: gis_outputs_check.py COMMAND OUTDIR [ARGS]
Prints one line "FAIL: ..." per problem and "ok" at the end when there is none (exit 0, else 1).

  heights OUTDIR
      height.r16 (through height.r16.json's levels), height16.tif (GDAL's offset and scale)
      and height16.png (its .aux.xml's offset and scale) each hold every cell of height.tif
      to within half a 16-bit step: no height is clipped; height.qml's ramp spans height.tif's
      range; the sidecars' range holds every height.
  georef OUTDIR PNG SCALE [PNG SCALE ...]
      each PNG's geotransform (from its world file or .aux.xml, as GDAL picks) is height.tif's
      with pixels SCALE cells a side, and its CRS height.tif's.
  vectors OUTDIR GEOJSON_CRS
      rivers.geojson and lakes.geojson against water.tif: with GEOJSON_CRS "map" the files
      carry water.tif's CRS; with "wgs84" they are RFC 7946 (no "crs" member, longitude and
      latitude in range) and are taken back to water.tif's CRS with osr. Every river vertex
      lies on a cell centre (to a hundredth of a cell) of a water cell, or on the map's edge
      where a river leaves it; every lake vertex on a cell corner, and each lake's cells
      (those whose centre lies in its polygons) are lake in water.tif.
"""
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

import numpy as np
from osgeo import gdal, ogr, osr

gdal.UseExceptions()
problems = []


def fail(text):
    problems.append(text)
    print("FAIL: " + text)


def raster(path):
    ds = gdal.Open(path)
    band = ds.GetRasterBand(1)
    return ds, band.ReadAsArray().astype(np.float64), band


def check_heights(out):
    _, heights, _ = raster(os.path.join(out, "height.tif"))
    lo, hi = float(heights.min()), float(heights.max())
    with open(os.path.join(out, "height.r16.json")) as f:
        sidecar = json.load(f)
    levels = sidecar["levels"]
    v0, v1 = levels["value_0_m"], levels["value_65535_m"]
    if not (v0 <= lo and hi <= v1):
        fail(f"height.r16.json maps {v0}..{v1} m, the map has {lo}..{hi} m")
    raw = np.fromfile(os.path.join(out, "height.r16"), dtype="<u2").reshape(heights.shape)
    if sidecar["rows"] == "bottom-to-top":
        raw = raw[::-1]
    step = (v1 - v0) / 65535
    metres = v0 + raw.astype(np.float64) * step
    worst = float(np.abs(metres - heights).max())
    if worst > step / 2 * 1.001 + 1e-9:
        fail(f"height.r16 is up to {worst} m off height.tif (a step is {step} m)")
    for name in ("height16.tif", "height16.png"):
        ds, values, band = raster(os.path.join(out, name))
        offset, scale = band.GetOffset(), band.GetScale()
        if offset is None or scale is None or band.GetUnitType() != "metre":
            fail(f"{name}: GDAL reads no offset, scale or unit ({offset}, {scale}, "
                 f"{band.GetUnitType()!r})")
            continue
        worst = float(np.abs(offset + values * scale - heights).max())
        if worst > scale / 2 * 1.001 + 1e-9:
            fail(f"{name} is up to {worst} m off height.tif (a step is {scale} m)")
    qml = ET.parse(os.path.join(out, "height.qml")).getroot()
    shader = qml.find("pipe/rasterrenderer/rastershader/colorrampshader")
    values = [float(i.get("value")) for i in shader.findall("item")]
    if not (values[0] <= lo and hi <= values[-1]):
        fail(f"height.qml's ramp spans {values[0]}..{values[-1]} m, the map {lo}..{hi} m")


def geotransform_of(path):
    ds = gdal.Open(path)
    srs = ds.GetSpatialRef()
    return ds.GetGeoTransform(), srs


def check_georef(out, pairs):
    ref, ref_srs = geotransform_of(os.path.join(out, "height.tif"))
    for name, scale in pairs:
        scale = float(scale)
        path = os.path.join(out, name)
        gt, srs = geotransform_of(path)
        want = (ref[0], ref[1] * scale, 0.0, ref[3], 0.0, ref[5] * scale)
        if gt == (0.0, 1.0, 0.0, 0.0, 0.0, 1.0) or any(
                abs(a - b) > 1e-9 * max(1.0, abs(b)) for a, b in zip(gt, want)):
            fail(f"{name}: geotransform {gt}, expected {want}")
        if srs is None or not srs.IsSame(ref_srs):
            fail(f"{name}: CRS {srs.ExportToWkt() if srs else None}, expected height.tif's")


def vertices(geometry):
    """Every vertex of an OGR geometry, rings and parts included."""
    if geometry.GetGeometryCount() > 0:
        for i in range(geometry.GetGeometryCount()):
            yield from vertices(geometry.GetGeometryRef(i))
    else:
        for i in range(geometry.GetPointCount()):
            yield geometry.GetPoint_2D(i)


def check_vectors(out, geojson_crs):
    water_ds = gdal.Open(os.path.join(out, "water.tif"))
    water = water_ds.GetRasterBand(1).ReadAsArray()
    gt = water_ds.GetGeoTransform()
    height, width = water.shape
    water_srs = water_ds.GetSpatialRef()
    water_srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_map = None
    for name in ("rivers.geojson", "lakes.geojson"):
        path = os.path.join(out, name)
        with open(path) as f:
            document = json.load(f)
        if geojson_crs == "wgs84":
            if "crs" in document:
                fail(f"{name}: a 'crs' member, which RFC 7946 removed")
            wgs84 = osr.SpatialReference()
            wgs84.ImportFromEPSG(4326)
            wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
            to_map = osr.CoordinateTransformation(wgs84, water_srs)
        elif "crs" not in document:
            fail(f"{name}: no 'crs' member naming the map's CRS")

    def cell_units(x, y):
        if to_map is not None:
            if not (-180 <= x <= 180 and -90 <= y <= 90):
                fail(f"({x}, {y}) is no longitude and latitude")
            x, y, _ = to_map.TransformPoint(x, y)
        return (x - gt[0]) / gt[1], (y - gt[3]) / gt[5]

    tolerance = 0.01
    # The datasets stay referenced while their layers are read (GDAL's bindings crash
    # otherwise).
    rivers_ds = ogr.Open(os.path.join(out, "rivers.geojson"))
    rivers = rivers_ds.GetLayer(0)
    count = 0
    for feature in rivers:
        count += 1
        for x, y in vertices(feature.GetGeometryRef()):
            u, v = cell_units(x, y)
            col, row = u - 0.5, v - 0.5
            on_edge = abs(u) < tolerance or abs(u - width) < tolerance or abs(v) < tolerance \
                or abs(v - height) < tolerance
            near_col, near_row = round(col), round(row)
            if on_edge:
                continue
            if abs(col - near_col) > tolerance or abs(row - near_row) > tolerance:
                fail(f"rivers.geojson: vertex ({x}, {y}) is at cell ({col}, {row}), not on a "
                     "cell centre")
                return
            if not (0 <= near_col < width and 0 <= near_row < height) or \
                    water[near_row, near_col] == 0:
                fail(f"rivers.geojson: vertex ({x}, {y}) lies on cell ({near_col}, {near_row}), "
                     "which water.tif says is land")
                return
    if count == 0:
        fail("rivers.geojson has no river")
    lakes_ds = ogr.Open(os.path.join(out, "lakes.geojson"))
    lakes = lakes_ds.GetLayer(0)
    count = 0
    for feature in lakes:
        count += 1
        for x, y in vertices(feature.GetGeometryRef()):
            u, v = cell_units(x, y)
            if abs(u - round(u)) > tolerance or abs(v - round(v)) > tolerance:
                fail(f"lakes.geojson: vertex ({x}, {y}) is at ({u}, {v}) cells, not on a corner")
                return
        # The cells of the lake's bounding box whose centre lies inside it are lake.
        geometry = feature.GetGeometryRef().Clone()
        geometry.AssignSpatialReference(None)
        xmin, xmax, ymin, ymax = geometry.GetEnvelope()
        corners = [cell_units(px, py) for px in (xmin, xmax) for py in (ymin, ymax)]
        cols = [int(math.floor(u)) for u, _ in corners]
        rows = [int(math.floor(v)) for _, v in corners]
        for row in range(max(0, min(rows) - 2), min(height, max(rows) + 3)):
            for col in range(max(0, min(cols) - 2), min(width, max(cols) + 3)):
                cx, cy = gt[0] + (col + 0.5) * gt[1], gt[3] + (row + 0.5) * gt[5]
                point = ogr.Geometry(ogr.wkbPoint)
                if to_map is not None:
                    lon, lat = to_wgs84(water_srs, cx, cy)
                    point.AddPoint_2D(lon, lat)
                else:
                    point.AddPoint_2D(cx, cy)
                if geometry.Contains(point) and water[row, col] != 1:
                    fail(f"lakes.geojson: cell ({col}, {row}) lies in lake "
                         f"{feature.GetField('id')} but water.tif says {water[row, col]}")
                    return
    if count == 0:
        fail("lakes.geojson has no lake")


_to_wgs84 = {}


def to_wgs84(srs, x, y):
    if "t" not in _to_wgs84:
        wgs84 = osr.SpatialReference()
        wgs84.ImportFromEPSG(4326)
        wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        _to_wgs84["t"] = osr.CoordinateTransformation(srs, wgs84)
    lon, lat, _ = _to_wgs84["t"].TransformPoint(x, y)
    return lon, lat


def main():
    command, out = sys.argv[1], sys.argv[2]
    if command == "heights":
        check_heights(out)
    elif command == "georef":
        rest = sys.argv[3:]
        check_georef(out, list(zip(rest[0::2], rest[1::2])))
    elif command == "vectors":
        check_vectors(out, sys.argv[3])
    else:
        fail(f"unknown command {command}")
    if not problems:
        print("ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
