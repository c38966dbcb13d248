#!/usr/bin/python3
"""Renders classes.tif as a GIS reads it, for the README: its pixels through the colour table
GDAL reports, and a legend of the category names GDAL returns (band.GetCategoryNames(), from
classes.tif.aux.xml), drawn in terragrid's own 5x7 font (read from src/io/png/legend.cpp, so the
glyphs have one source).

Usage: scripts/render_classes.py CLASSES_TIF OUT_PNG [MAX_SIDE]
The picture is downsampled through GDAL's overviews (nearest) to at most MAX_SIDE pixels
(default 512) on its longer side. Needs python3-gdal and numpy (Debian's /usr/bin/python3).
"""
import os
import re
import sys

import numpy as np
from osgeo import gdal

gdal.UseExceptions()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def font():
    with open(os.path.join(ROOT, "src", "io", "png", "legend.cpp")) as f:
        text = f.read()
    glyphs = {}
    for char, rows in re.findall(r"\{'(.)', \{((?:0x[0-9A-F]{2},? ?){7})\}\}", text):
        glyphs[char] = [int(v, 16) for v in rows.replace(" ", "").split(",") if v]
    return glyphs


def main():
    source, target = sys.argv[1], sys.argv[2]
    max_side = int(sys.argv[3]) if len(sys.argv) > 3 else 512
    dataset = gdal.Open(source)
    band = dataset.GetRasterBand(1)
    scale = max(1, -(-max(band.XSize, band.YSize) // max_side))
    width, height = -(-band.XSize // scale), -(-band.YSize // scale)
    values = band.ReadAsArray(buf_xsize=width, buf_ysize=height,
                              resample_alg=gdal.GRIORA_NearestNeighbour)
    table = band.GetColorTable()
    lut = np.zeros((256, 3), dtype=np.uint8)
    for i in range(table.GetCount()):
        lut[i] = table.GetColorEntry(i)[:3]
    image = lut[values]

    names = band.GetCategoryNames() or []
    glyphs = font()
    s = 2 if width >= 1024 else 1
    pad, swatch_w, swatch_h, row_h = 4 * s, 12 * s, 9 * s, 12 * s
    box_w = 2 + 2 * pad + swatch_w + 4 * s + max(len(n) for n in names) * 6 * s
    box_h = 2 + 2 * pad + len(names) * row_h - 3 * s
    x0, y0 = 8 * s, height - 8 * s - box_h
    image[y0:y0 + box_h, x0:x0 + box_w] = (30, 30, 30)
    image[y0 + 1:y0 + box_h - 1, x0 + 1:x0 + box_w - 1] = (248, 248, 244)
    for i, name in enumerate(names):
        sy, sx = y0 + 1 + pad + i * row_h, x0 + 1 + pad
        image[sy:sy + swatch_h, sx:sx + swatch_w] = lut[i]
        tx, ty = sx + swatch_w + 4 * s, sy + (swatch_h - 7 * s) // 2
        for char in name.upper():
            rows = glyphs.get(char, glyphs["?"])
            for gy, bits in enumerate(rows):
                for gx in range(5):
                    if (bits >> (4 - gx)) & 1:
                        image[ty + gy * s:ty + (gy + 1) * s, tx + gx * s:tx + (gx + 1) * s] = (30, 30, 30)
            tx += 6 * s

    memory = gdal.GetDriverByName("MEM").Create("", width, height, 3, gdal.GDT_Byte)
    for c in range(3):
        memory.GetRasterBand(c + 1).WriteArray(image[:, :, c])
    gdal.GetDriverByName("PNG").CreateCopy(target, memory)
    if os.path.exists(target + ".aux.xml"):
        os.remove(target + ".aux.xml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
