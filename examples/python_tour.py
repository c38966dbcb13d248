"""A notebook-style tour of terragrid's Python module: open a map, look at a window as NumPy
arrays, change a key, analyse, and write the same files the command line writes.

Run it as a script (python3 examples/python_tour.py) or cell by cell in a notebook; each
"# %%" starts a cell. It writes into ./tour. docs/python.md is the guide.
"""

# %% Open a map: a dict (or JSON text, or a path) merged over the built-in default.
import numpy as np

import terragrid

world = terragrid.Map({"seed": 42, "map": {"width": 2048, "height": 2048}})
print(world)
print("layers:", world.layers)
print("classes:", [(c["name"], c["colour"], c["walkable"]) for c in world.classes])

# %% A window of it: 512 x 512 cells from column 768, row 768, as NumPy arrays.
arrays = world.generate(window=(768, 768, 512, 512))
height, classes = arrays["height"], arrays["classes"]
print("height:", height.dtype, height.shape, f"{height.min():.1f} .. {height.max():.1f} m")

# %% Analyse: the share of each class, and the mean height of each, in one pass of NumPy.
counts = np.bincount(classes.ravel(), minlength=len(world.classes))
sums = np.bincount(classes.ravel(), weights=height.ravel(), minlength=len(world.classes))
for index, c in enumerate(world.classes):
    if counts[index]:
        print(f"  {c['name']:>9}: {counts[index] / classes.size:6.1%} of the window, "
              f"mean {sums[index] / counts[index]:7.1f} m")

# %% Change a key: more octaves (dotted keys as **{...}, or __ for the dot), the same window.
rougher = terragrid.Map({"seed": 42, "map": {"width": 2048, "height": 2048}}, height__octaves=9)
detail = rougher.generate(window=(768, 768, 512, 512), layers=["height"])["height"]
print("roughness (mean |d height| between neighbours):",
      f"{np.abs(np.diff(height, axis=1)).mean():.3f} m ->",
      f"{np.abs(np.diff(detail, axis=1)).mean():.3f} m")

# %% Errors name the key, the rule and the value, every problem at once.
try:
    terragrid.Map({"map": {"width": 0}}, height__octaves=40)
except terragrid.ConfigError as error:
    print("refused:", *error.problems, sep="\n  ")

# %% What writing would take, then the files themselves: the command line's run, same bytes.
small = terragrid.Map({"seed": 42, "map": {"width": 256, "height": 256}})
plan = small.plan()
print("plan:", plan["tiles"] if "tiles" in plan else plan.keys())
report = small.write("tour", files=["height.tif", "classes.tif", "preview.png"],
                     progress=lambda done, total: print(f"\r  tile {done}/{total}", end=""))
print("\nwrote", report["files"])
