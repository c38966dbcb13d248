#!/usr/bin/python3
"""What GDAL and QGIS read from terragrid's output directory besides the pixels.

Usage: gis_styles_check.py OUTDIR
Reads OUTDIR/stats.json (the classes: index, name, colour) and checks, printing one line
"FAIL: ..." per problem and "ok" at the end when there is none (exit 0, else 1):
  - classes.tif: GDAL's band.GetCategoryNames() lists the class names by index (once the
    dataset's metadata is read, see check_classes_tif), and
    band.GetDefaultRAT() has a row per class with its value, name and colour;
  - classes.qml: well-formed XML in QGIS 3's form: <qgis><pipe><rasterrenderer
    type="paletted" band="1"><colorPalette><paletteEntry value color label>, one per class;
  - height.qml: <qgis><pipe><rasterrenderer type="singlebandpseudocolor"><rastershader>
    <colorrampshader colorRampType="INTERPOLATED"><item value color label>, values rising.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

from osgeo import gdal

gdal.UseExceptions()
problems = []


def fail(text):
    problems.append(text)
    print("FAIL: " + text)


def check_classes_tif(path, classes):
    dataset = gdal.Open(path)
    # GDAL 3.6's GTiff driver loads the PAM sidecar lazily, and GetCategoryNames() alone does
    # not trigger the load (it returns None on a fresh dataset, for GDAL's own files too);
    # reading any metadata first does, as gdalinfo and QGIS do.
    dataset.GetMetadata()
    band = dataset.GetRasterBand(1)
    names = band.GetCategoryNames()
    expected = [c["name"] for c in classes]
    if names != expected:
        fail(f"GetCategoryNames() is {names}, expected {expected}")
    rat = band.GetDefaultRAT()
    if rat is None:
        fail("GetDefaultRAT() is None")
        return
    columns = {rat.GetNameOfCol(i): i for i in range(rat.GetColumnCount())}
    usages = {rat.GetUsageOfCol(i) for i in range(rat.GetColumnCount())}
    for usage, what in ((gdal.GFU_Name, "name"), (gdal.GFU_Red, "red"), (gdal.GFU_MinMax, "value")):
        if usage not in usages:
            fail(f"the attribute table has no {what} column")
    if rat.GetRowCount() != len(classes):
        fail(f"the attribute table has {rat.GetRowCount()} rows for {len(classes)} classes")
        return
    for c in classes:
        i = c["index"]
        row = (rat.GetValueAsInt(i, columns["Value"]), rat.GetValueAsString(i, columns["Class"]),
               "#%02x%02x%02x" % tuple(rat.GetValueAsInt(i, columns[k]) for k in ("Red", "Green", "Blue")))
        if row != (i, c["name"], c["colour"]):
            fail(f"attribute table row {i} is {row}, expected {(i, c['name'], c['colour'])}")


def renderer(path, kind):
    root = ET.parse(path).getroot()
    if root.tag != "qgis":
        fail(f"{path}: root element <{root.tag}>, expected <qgis>")
    found = root.find("pipe/rasterrenderer")
    if found is None or found.get("type") != kind or found.get("band") != "1":
        fail(f"{path}: no <pipe><rasterrenderer type=\"{kind}\" band=\"1\">")
        return None
    return found


def check_classes_qml(path, classes):
    r = renderer(path, "paletted")
    if r is None:
        return
    entries = [(int(e.get("value")), e.get("label"), e.get("color"))
               for e in r.findall("colorPalette/paletteEntry")]
    expected = [(c["index"], c["name"], c["colour"]) for c in classes]
    if entries != expected:
        fail(f"{path}: palette {entries}, expected {expected}")


def check_height_qml(path):
    r = renderer(path, "singlebandpseudocolor")
    if r is None:
        return
    shader = r.find("rastershader/colorrampshader")
    if shader is None or shader.get("colorRampType") != "INTERPOLATED":
        fail(f"{path}: no interpolated <rastershader><colorrampshader>")
        return
    items = shader.findall("item")
    values = [float(i.get("value")) for i in items]
    if len(items) < 2 or values != sorted(values):
        fail(f"{path}: ramp values {values} are not at least two, rising")
    for i in items:
        if not re.fullmatch(r"#[0-9a-f]{6}", i.get("color", "")) or not i.get("label"):
            fail(f"{path}: item {i.attrib} lacks a #rrggbb colour or a label")


def main():
    out = sys.argv[1]
    with open(os.path.join(out, "stats.json")) as f:
        classes = json.load(f)["classes"]
    check_classes_tif(os.path.join(out, "classes.tif"), classes)
    check_classes_qml(os.path.join(out, "classes.qml"), classes)
    check_height_qml(os.path.join(out, "height.qml"))
    if not problems:
        print("ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
