#!/usr/bin/python3
"""Checks every internal overview of a single-band GeoTIFF against a reference computed here
from the file's full resolution, level by level, as terragrid defines them: each overview cell
is made from the up to 2x2 cells of the level below that lie inside the raster, read in
reading order (top-left, top-right, bottom-left, bottom-right).

  mean: Float32 summed in double in that order, divided by the count, rounded to float;
        integers rounded half up.
  mode: the most frequent value, a tie going to the value met first.

Usage: overview_reference.py FILE mean|mode
Prints one line per level and exits 0 when every cell matches exactly, 1 at the first
difference (naming level, cell and both values), 2 when the file has no overviews.
"""
import sys

import numpy as np
from osgeo import gdal

gdal.UseExceptions()


def reduce(level, method):
    height, width = level.shape
    out = np.empty(((height + 1) // 2, (width + 1) // 2), dtype=level.dtype)
    for r in range(out.shape[0]):
        for c in range(out.shape[1]):
            values = [level[2 * r + dr, 2 * c + dc] for dr in (0, 1) for dc in (0, 1)
                      if 2 * r + dr < height and 2 * c + dc < width]
            if method == "mode":
                best, best_count = values[0], 0
                for v in values:
                    count = sum(1 for w in values if w == v)
                    if count > best_count:
                        best, best_count = v, count
                out[r, c] = best
            elif level.dtype == np.float32:
                total = 0.0
                for v in values:
                    total += float(v)
                out[r, c] = np.float32(total / len(values))
            else:
                total = sum(int(v) for v in values)
                out[r, c] = (total + len(values) // 2) // len(values)
    return out


def main():
    path, method = sys.argv[1], sys.argv[2]
    dataset = gdal.Open(path)  # kept: the band dies with it
    band = dataset.GetRasterBand(1)
    if band.GetOverviewCount() == 0:
        print(f"{path}: no overviews")
        return 2
    expected = band.ReadAsArray()
    for i in range(band.GetOverviewCount()):
        expected = reduce(expected, method)
        got = band.GetOverview(i).ReadAsArray()
        if got.shape != expected.shape:
            print(f"level {i + 1}: {got.shape[1]}x{got.shape[0]}, expected "
                  f"{expected.shape[1]}x{expected.shape[0]}")
            return 1
        differ = np.argwhere(got != expected)
        if len(differ):
            r, c = differ[0]
            print(f"level {i + 1}: cell ({c}, {r}) is {got[r, c]!r}, expected "
                  f"{expected[r, c]!r} ({len(differ)} cells differ)")
            return 1
        print(f"level {i + 1}: {got.shape[1]}x{got.shape[0]} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
