"""Map.write is the CLI's run (same bytes, one transaction); the GIL is released while a map
generates or writes; threads never change a bit."""

from __future__ import annotations

import json
import sys
import threading
import time

import numpy as np
import pytest
from conftest import run_cli, same_bits, write_config

import terragrid

SMALL = {"seed": 9, "map": {"width": 160, "height": 120, "tile_size": 64}}
FILES = ["height.tif", "classes.tif", "walkable.tif", "preview.png", "stats.json"]


def without_timings(stats_path) -> dict:
    stats = json.loads(stats_path.read_text())
    stats.pop("timing_seconds")
    return stats


def test_write_makes_the_cli_files_byte_for_byte(tmp):
    path = write_config(tmp, SMALL)
    run_cli("--config", str(path), "--out-dir", str(tmp / "cli"), "--quiet")
    seen = []
    report = terragrid.Map(path).write(tmp / "py", progress=lambda done, total: seen.append((done, total)))
    assert sorted(p.name for p in (tmp / "py").iterdir()) == sorted(p.name for p in (tmp / "cli").iterdir())
    for name in FILES[:-1]:
        assert (tmp / "py" / name).read_bytes() == (tmp / "cli" / name).read_bytes(), name
    assert without_timings(tmp / "py" / "stats.json") == without_timings(tmp / "cli" / "stats.json")
    assert report["tiles"] == 6 and report["files"][-1].endswith("stats.json")
    assert seen == [(i, 6) for i in range(1, 7)]


def test_write_takes_files_and_a_window_as_the_cli_does(tmp):
    path = write_config(tmp, SMALL)
    run_cli("--config", str(path), "--out-dir", str(tmp / "cli"), "--quiet", "--region", "10,20,100,50",
            "--set", 'output.files=["height.tif"]')
    terragrid.Map(path).write(tmp / "py", files=["height.tif"], window=(10, 20, 100, 50))
    # And manifest.json (output.manifest), as the CLI writes it: the same bytes too.
    assert sorted(p.name for p in (tmp / "py").iterdir()) == ["height.tif", "manifest.json"]
    for name in ("height.tif", "manifest.json"):
        assert (tmp / "py" / name).read_bytes() == (tmp / "cli" / name).read_bytes(), name


def test_a_failing_progress_callback_stops_the_run_and_leaves_the_older_files(tmp):
    m = terragrid.Map(SMALL)
    m.write(tmp, files=["height.tif"])
    before = {name: (tmp / name).read_bytes() for name in ("height.tif", "manifest.json")}

    def stop(done, total):
        if done == 3:
            raise KeyError("stop here")

    with pytest.raises(KeyError, match="stop here"):
        terragrid.Map(SMALL, seed=10).write(tmp, files=["height.tif", "classes.tif"], progress=stop)
    assert sorted(p.name for p in tmp.iterdir()) == ["height.tif", "manifest.json"]
    assert {name: (tmp / name).read_bytes() for name in before} == before


def test_a_run_that_cannot_fit_is_refused_before_anything_exists(tmp):
    huge = terragrid.Map({"map": {"width": 1048576, "height": 1048576}})
    with pytest.raises(terragrid.PlanError) as error:
        huge.write(tmp / "never")
    assert error.value.shortfalls and "the run needs up to" in str(error.value)
    assert not (tmp / "never").exists()


def test_write_errors_are_named(tmp):
    (tmp / "file").write_text("not a directory")
    with pytest.raises(terragrid.OutputError, match="file"):
        terragrid.Map(SMALL).write(tmp / "file" / "sub", files=["height.tif"])
    with pytest.raises(terragrid.ConfigError, match="output.files"):
        terragrid.Map(SMALL).write(tmp / "x", files=["height.bmp"])
    assert not (tmp / "x").exists()


def test_threads_never_change_a_bit():
    m = terragrid.Map(SMALL, terrain={"forest_above": {"coverage": 0.3}})
    runs = [m.generate(threads=t) for t in (1, 2, 3, None)]
    for run in runs[1:]:
        for name in run:
            assert same_bits(run[name], runs[0][name]), name


def test_python_threads_share_one_map():
    """Several Python threads generate windows of one fresh map at once (the first calls race to
    resolve the coverage thresholds) and each gets what a lone call gets."""
    config = dict(SMALL, terrain={"mountain_above": {"coverage": 0.25}})
    shared = terragrid.Map(config)
    windows = [(i * 20, i * 10, 64, 64) for i in range(4)]
    results = [None] * len(windows)

    def work(i):
        results[i] = shared.generate(window=windows[i], layers=("classes",), threads=1)["classes"]

    workers = [threading.Thread(target=work, args=(i,)) for i in range(len(windows))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    alone = terragrid.Map(config)
    for window, got in zip(windows, results):
        assert same_bits(got, alone.generate(window=window, layers=("classes",))["classes"])


class Counter:
    """A Python thread that counts as fast as it can: it runs only while it holds the GIL."""

    def __init__(self):
        self.count = 0
        self.running = True
        self.thread = threading.Thread(target=self.spin)

    def spin(self):
        while self.running:
            self.count += 1

    def __enter__(self):
        self.thread.start()
        time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()


def during(call, at_least: float = 0.0) -> tuple[int, float, int]:
    """How far the counter thread got while this thread ran `call` again and again until
    `at_least` seconds had passed (once at least), the seconds that took, and how many calls."""
    with Counter() as counter:
        start, began, calls = counter.count, time.perf_counter(), 0
        while calls == 0 or time.perf_counter() - began < at_least:
            call()
            calls += 1
        return counter.count - start, time.perf_counter() - began, calls


def released(call) -> float:
    """How much of its pace the counter thread kept while `call` ran (repeated for half a second,
    so a fast machine still gives a share that can tell): its count then over its count while
    this thread slept as long. A call that held the GIL would leave the counter about one switch
    interval per call, between calls (a C call holding it for 0.1 s, repeated: 5 %, against 5 %
    reckoned); the bound asserted is five times that, and never below 10 %. A released GIL leaves the counter most of its pace, less what the other runnable
    threads of a busy machine take (28 % was seen once in eleven runs beside a loaded machine's
    other work)."""
    counted, seconds, calls = during(call, at_least=0.5)
    alone, _, _ = during(lambda: time.sleep(seconds))
    share = counted / max(alone, 1)
    held = calls * sys.getswitchinterval() / seconds
    floor = max(0.1, 5 * held)
    assert share > floor, (
        f"the other thread kept {share:.0%} of its pace ({counted} in {seconds:.3f} s, {calls} calls);"
        f" a held GIL leaves about {held:.0%}, the test asks over {floor:.0%}")
    return share


def test_the_gil_is_released_while_a_map_generates_and_writes(tmp):
    m = terragrid.Map({"map": {"width": 4096, "height": 2048}})
    released(lambda: m.generate(layers=("height", "classes"), threads=1))
    released(lambda: m.write(tmp, files=["height.tif", "classes.tif", "preview.png"], threads=1))


def test_the_example_script_runs(tmp):
    import runpy
    import os
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "python_tour.py"
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        runpy.run_path(str(example), run_name="__main__")
    finally:
        os.chdir(cwd)
    assert (tmp / "tour" / "height.tif").exists()
