#!/usr/bin/python3
"""The explorer in a real browser (issue 26): Debian's Chromium, headless, driven by Selenium
with Debian's chromedriver, against a real `terragrid serve` on a free port.

Checks that the map shows tiles whose on-screen pixels are the batch preview.png's where it has
one pixel per cell, that an indexed tile (the classes layer) drawn by the browser has
classes.tif's palette colours, that clicking a cell shows the class classes.tif gives it, that a new seed
typed into the panel changes the tiles, that an invalid value shows the server's message naming
the key, and that the 3D view (MapLibre GL on SwiftShader's WebGL) renders without errors.

Usage: serve_browser_check.py TERRAGRID_CLI
Environment: TERRAGRID_SCREENSHOT_DIR, when set, receives serve-2d.png, serve-inspector.png,
serve-error.png and serve-3d.png (docs/images/ holds the ones the guide shows).
Prints "browser: ok" and exits 0, or says what failed and exits 1.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from osgeo import gdal
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

WIDTH, HEIGHT, SEED = 512, 384, 5
# What Chromium needs on a machine without a display, a GPU or a network (issue 26): the
# fresh profile and no background traffic keep it from waiting on a network it cannot reach;
# SwiftShader gives WebGL in software.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--window-size=1400,900",
    "--force-device-scale-factor=1", "--hide-scrollbars",
]


class Failure(Exception):
    pass


STARTED = time.time()


def step(name):
    """Says how long the test took so far: a slow step shows where the time goes."""
    print(f"browser: {name} at {time.time() - STARTED:.1f} s", flush=True)


def check(condition, message):
    if not condition:
        raise Failure(message)



class Picture:
    """An RGB(A) PNG read by GDAL's PNG driver; at(x, y) is the pixel's (r, g, b)."""

    def __init__(self, path):
        self.bands = gdal.Open(path).ReadAsArray()  # bands x rows x columns

    def at(self, x, y):
        return tuple(int(self.bands[b][y][x]) for b in range(3))


def wait_for(driver, script, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    raise Failure(f"timed out after {seconds} s waiting for {what}")


def wait_for_tiles(driver, what, fresh=True):
    """Every requested tile loaded (or failed), then Leaflet's fade-in over. `fresh`: tiles of
    a new config, which must have loaded at least once since it came."""
    condition = "!v.loading() && v.loads > 0" if fresh else "!v.loading()"
    wait_for(driver, "const v = window.terragrid && window.terragrid.mapView;"
             f"return v && v.map && {condition};", 60, what)
    time.sleep(0.6)


def screenshot(driver, work):
    path = os.path.join(work, "screen.png")
    driver.save_screenshot(path)
    return Picture(path)


def save(driver, name):
    directory = os.environ.get("TERRAGRID_SCREENSHOT_DIR")
    if directory:
        driver.save_screenshot(os.path.join(directory, name))


def type_into(field, text):
    """Replaces a field's text as a user does (select all, type, leave the field), so the page
    sees one change."""
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text + Keys.TAB)


def map_origin(driver):
    rect = driver.execute_script(
        "const r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top];")
    return int(rect[0]), int(rect[1])


def cell_on_screen(driver, x, y):
    """The screen pixel (in the map's element) showing cell (x, y): its north-west corner's,
    a whole pixel (Leaflet rounds points to pixels, so a cell's centre, half a pixel in, would
    round onto its neighbour)."""
    p = driver.execute_script(
        "const v = terragrid.mapView;"
        "const p = v.map.latLngToContainerPoint(v.map.unproject([arguments[0], arguments[1]], terragrid.state.info.zoom.max));"
        "return [p.x, p.y];", x, y)
    return int(p[0]), int(p[1])


class Screen:
    """Where cells lie on screen at the highest zoom (one pixel per cell): the screen pixel
    of cell (x, y) is the top-left one's plus (x, y)."""

    def __init__(self, driver):
        self.ox, self.oy = map_origin(driver)
        self.x0, self.y0 = cell_on_screen(driver, 0, 0)
        # One pixel per cell: the cells far apart agree.
        x1, y1 = cell_on_screen(driver, 300, 200)
        check((x1 - self.x0, y1 - self.y0) == (300, 200), "not one screen pixel per cell")

    def at(self, picture, x, y):
        return picture.at(self.ox + self.x0 + x, self.oy + self.y0 + y)


def run(cli):
    work = tempfile.mkdtemp(prefix="terragrid-browser-")
    server = None
    driver = None
    try:
        common = ["--width", str(WIDTH), "--height", str(HEIGHT), "--seed", str(SEED)]
        subprocess.run([cli, "-q", "--out-dir", "ref", *common, "--set", "output.preview_max_size=4096",
                        "--set", "output.preview_legend=off",
                        "--set", 'output.files=["preview.png","classes.tif","stats.json"]'], cwd=work, check=True)
        step("batch run")
        preview = Picture(os.path.join(work, "ref", "preview.png"))
        classes_tif = gdal.Open(os.path.join(work, "ref", "classes.tif"))  # kept while its band is read
        class_index = classes_tif.GetRasterBand(1).ReadAsArray()
        with open(os.path.join(work, "ref", "stats.json")) as f:
            class_names = [c["name"] for c in json.load(f)["classes"]]

        server = subprocess.Popen([cli, "serve", "--port", "0", "--quiet", "--threads", "2", *common],
                                  cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url = server.stdout.readline().strip()
        check(url.startswith("http://127.0.0.1:"), f"no URL from terragrid serve: {url!r}")

        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in CHROMIUM_FLAGS + ["--user-data-dir=" + os.path.join(work, "profile")]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        step("chromium started")
        driver.set_page_load_timeout(60)
        driver.get(url)
        wait_for(driver, "return window.terragrid && window.terragrid.ready", 60, "the page to start")
        wait_for_tiles(driver, "the first tiles")
        save(driver, "serve-2d.png")
        step("page and first tiles")

        # 1. One pixel per cell: what the screen shows is the batch picture.
        top = driver.execute_script("return terragrid.state.info.zoom.max")
        driver.execute_script("const v = terragrid.mapView;"
                              "v.map.setView(v.latLngOf(arguments[0], arguments[1]), arguments[2], {animate: false});",
                              WIDTH // 2, HEIGHT // 2, top)
        wait_for_tiles(driver, "the tiles at the highest zoom", fresh=False)
        shot = screenshot(driver, work)
        screen = Screen(driver)
        cells = [(x, y) for y in range(HEIGHT // 2 - 150, HEIGHT // 2 + 150, 3)
                 for x in range(WIDTH // 2 - 200, WIDTH // 2 + 200, 5)]
        for x, y in cells:
            got = screen.at(shot, x, y)
            check(got == preview.at(x, y),
                  f"cell {x},{y} shows {got} on screen, preview.png has {preview.at(x, y)}")
        check(len({screen.at(shot, x, y) for x, y in cells}) > 20, "the map looks blank")

        step("pixels compared")
        # 1b. A layer of few colours comes as an indexed PNG (colour type 3); drawn by the
        # browser, its pixels are classes.tif's palette colours of the cells.
        tile_url = urllib.parse.urljoin(url, f"/tiles/classes/{top}/0/0.png?config="
                                             + driver.execute_script("return terragrid.state.info.hash"))
        with urllib.request.urlopen(tile_url, timeout=30) as reply:
            tile = reply.read()
        check(tile[:8] == b"\x89PNG\r\n\x1a\n" and tile[25] == 3,
              f"the classes tile is not an indexed PNG (colour type {tile[25]})")
        drawn = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const img = new Image();
            img.onload = () => {
                const canvas = document.createElement('canvas');
                canvas.width = img.width; canvas.height = img.height;
                const g = canvas.getContext('2d');
                g.drawImage(img, 0, 0);
                done(Array.from(g.getImageData(0, 0, img.width, img.height).data));
            };
            img.onerror = () => done(null);
            img.src = arguments[0];""", tile_url)
        check(drawn is not None and len(drawn) == 256 * 256 * 4, "the browser could not draw the classes tile")
        palette = classes_tif.GetRasterBand(1).GetColorTable()
        for y in range(min(256, HEIGHT)):
            for x in range(min(256, WIDTH)):
                at = 4 * (y * 256 + x)
                want = list(palette.GetColorEntry(int(class_index[y][x]))[:3]) + [255]
                check(drawn[at:at + 4] == want, f"the browser draws cell {x},{y} of the classes tile as "
                                                f"{drawn[at:at + 4]}; classes.tif's palette has {want}")
        step("indexed tile drawn")
        # 2. Clicking a cell shows its class.
        x, y = WIDTH // 2 + 37, HEIGHT // 2 - 21
        sx, sy = cell_on_screen(driver, x, y)
        element = driver.find_element(By.ID, "map")
        # The click lands on the cell's pixel: (sx, sy) is its north-west corner.
        ActionChains(driver).move_to_element_with_offset(element, 0, 0).move_by_offset(
            sx - element.size["width"] // 2, sy - element.size["height"] // 2).click().perform()
        shown = wait_for(driver, "const e = document.querySelector('.cell-popup .class');"
                         "return e ? e.dataset.class : null;", 30, "the cell inspector")
        expected = class_names[int(class_index[y][x])]
        check(shown == expected, f"the inspector shows class {shown!r} for cell {x},{y}; classes.tif has {expected!r}")
        cell = driver.execute_script("return terragrid.lastCell")
        check(cell["x"] == x and cell["y"] == y, f"the inspector asked for {cell['x']},{cell['y']}, not {x},{y}")
        save(driver, "serve-inspector.png")
        driver.execute_script("terragrid.mapView.map.closePopup()")

        step("cell inspected")
        # 3. A new seed in the panel changes the tiles.
        before_hash = driver.execute_script("return terragrid.state.info.hash")
        type_into(driver.find_element(By.ID, "seed"), "4242")
        deadline = time.time() + 30
        while driver.execute_script("return terragrid.state.info.hash") == before_hash:
            check(time.time() < deadline, "the seed change did not reach the server")
            time.sleep(0.1)
        check(driver.execute_script("return terragrid.state.config.seed") == 4242, "seed not 4242")
        wait_for_tiles(driver, "the new seed's tiles")
        after = screenshot(driver, work)
        changed = sum(1 for x, y in cells if screen.at(after, x, y) != preview.at(x, y))
        check(changed > len(cells) // 2, f"only {changed} of {len(cells)} cells changed with the seed")

        step("seed changed")
        # 4. An invalid value shows the server's message naming the key; the map stays.
        good_hash = driver.execute_script("return terragrid.state.info.hash")
        type_into(driver.find_element(By.ID, "field-height-octaves"), "40")
        text = wait_for(driver, "const e = document.getElementById('errors'); return e.hidden ? null : e.textContent;",
                        30, "the server's message")
        check("'height.octaves'" in text and "40" in text, f"the message does not name the key and value: {text!r}")
        check(driver.execute_script("return terragrid.state.info.hash") == good_hash, "an invalid value changed the map")
        save(driver, "serve-error.png")

        step("invalid value shown")
        # 5. The 3D view renders on WebGL without errors. The log so far is read and dropped:
        # it holds the 400s of the invalid values above, which the page asked for.
        driver.get_log("browser")
        if not os.environ.get("TERRAGRID_SCREENSHOT_DIR"):
            # SwiftShader draws every pixel on the CPU: a smaller window renders the same
            # scene in a fraction of the time (the screenshots for the guide keep the size).
            driver.set_window_size(800, 520)
        driver.find_element(By.ID, "view3d").click()
        wait_for(driver, "return terragrid.view3d && terragrid.view3d.ready", 120, "the 3D view to render")
        step("3D view rendered")
        time.sleep(0.3)
        errors = driver.execute_script("return terragrid.view3d.errors")
        check(not errors, f"the 3D view reported errors: {errors}")
        stats = driver.execute_script("""
            const gl = terragrid.view3d.map.getCanvas();
            const c = document.createElement('canvas');
            c.width = gl.width; c.height = gl.height;
            const g = c.getContext('2d');
            g.drawImage(gl, 0, 0);
            const d = g.getImageData(0, 0, c.width, c.height).data;
            const seen = new Set();
            let lit = 0;
            for (let i = 0; i < d.length; i += 4 * 97) {
              seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
              if (!(d[i] === 0x20 && d[i + 1] === 0x23 && d[i + 2] === 0x2a)) lit++;
            }
            return [seen.size, lit / (d.length / (4 * 97))];""")
        check(stats[0] > 50 and stats[1] > 0.1, f"the 3D view looks blank: {stats}")
        # Errors: any script error, any failed request, any WebGL error or lost context. The
        # driver's performance notes ("GPU stall due to ReadPixels", from reading the canvas
        # back above) are not errors.
        logged = [e["message"] for e in driver.get_log("browser")
                  if (e["level"] == "SEVERE" and "GL Driver Message" not in e["message"])
                  or ("GL" in e["message"] and "Performance" not in e["message"]
                      and any(w in e["message"].lower() for w in ("error", "invalid", "lost")))]
        check(not logged, f"the browser logged errors: {logged}")
        save(driver, "serve-3d.png")
        print("browser: ok")
        return 0
    except Failure as e:
        print(f"browser: FAILED: {e}")
        if driver:
            for entry in driver.get_log("browser"):
                print("  console:", entry["message"])
        return 1
    finally:
        if driver:
            driver.quit()
        if server:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(run(os.path.abspath(sys.argv[1])))
