"""Map's config: dicts, JSON text, paths, overrides; validate, schema, config and plan as the CLI
gives them; every error a ConfigError with the CLI's messages; hostile configs refused cleanly."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import run_cli, write_config

import terragrid

SMALL = {"map": {"width": 96, "height": 64}, "seed": 3}


def test_a_dict_json_text_and_a_path_are_the_same_map(tmp):
    path = write_config(tmp, SMALL)
    text = "// a comment\n" + json.dumps(SMALL)
    hashes = {terragrid.Map(c).config_hash for c in (SMALL, text, str(path), Path(path))}
    assert len(hashes) == 1
    assert terragrid.Map(SMALL).config_hash != terragrid.Map().config_hash


def test_overrides_dotted_double_underscore_and_nested_are_one_key():
    maps = [
        terragrid.Map(SMALL, **{"height.octaves": 8}),
        terragrid.Map(SMALL, height__octaves=8),
        terragrid.Map(SMALL, height={"octaves": 8}),
    ]
    assert {m.config["height"]["octaves"] for m in maps} == {8}
    assert len({m.config_hash for m in maps}) == 1
    assert terragrid.Map(SMALL, seed=4).config["seed"] == 4


def test_config_is_the_cli_print_config(tmp):
    path = write_config(tmp, SMALL)
    cli = json.loads(run_cli("--config", str(path), "--set", "height.octaves=5", "--print-config").stdout)
    assert terragrid.Map(path, height__octaves=5).config == cli


def test_schema_is_the_cli_schema():
    assert terragrid.schema() == json.loads(run_cli("schema").stdout)
    assert terragrid.Map.schema() == terragrid.schema()


def test_plan_is_the_cli_dry_run(tmp):
    path = write_config(tmp, SMALL)
    out = str(tmp / "out")
    cli = json.loads(run_cli("--config", str(path), "--out-dir", out, "--dry-run=json", "--threads", "2").stdout)
    plan = terragrid.Map(path, output__directory=out).plan(threads=2)
    # Free disk and memory are read at each call; everything the run itself takes is equal.
    assert without_free(plan) == without_free(cli)
    assert plan["outputs"] and plan["tiles"] == cli["tiles"]


def without_free(value):
    """`value` without the figures of what the machine has free (they change between calls)."""
    if isinstance(value, dict):
        return {k: without_free(v) for k, v in value.items() if "available" not in k and "free" not in k}
    if isinstance(value, list):
        return [without_free(v) for v in value]
    return value


def cli_problems(tmp, config: dict, *sets: str) -> list[str]:
    path = write_config(tmp, config)
    args = ["validate", str(path)]
    for s in sets:
        args += ["--set", s]
    result = run_cli(*args, check=False)
    assert result.returncode == 2
    return result.stderr.splitlines()


def test_errors_are_the_cli_messages_key_by_key(tmp):
    bad = {"map": {"width": 0, "tile_size": "big"}, "height": {"octaves": 40}, "bogus": 1}
    want = cli_problems(tmp, bad, "moisture.noise=cubic")
    assert len(want) >= 4
    with pytest.raises(terragrid.ConfigError) as error:
        terragrid.Map(bad, **{"moisture.noise": "cubic"})
    assert error.value.problems == want
    assert str(error.value) == "\n".join(want)
    assert isinstance(error.value, ValueError)
    assert terragrid.validate(bad, **{"moisture.noise": "cubic"}) == want
    assert terragrid.Map.validate(SMALL) == []
    assert terragrid.validate() == []


def test_files_that_cannot_be_read_are_config_errors_naming_them(tmp):
    with pytest.raises(terragrid.ConfigError, match="missing.json"):
        terragrid.Map(str(tmp / "missing.json"))
    with pytest.raises(terragrid.ConfigError, match="directory"):
        terragrid.Map(tmp)
    (tmp / "broken.json").write_text('{"map": {"width": 12')
    with pytest.raises(terragrid.ConfigError, match="broken.json"):
        terragrid.Map(tmp / "broken.json")


@pytest.mark.parametrize(
    "hostile, key",
    [
        ({"map": {"width": math.nan}}, "map.width"),
        ({"height": {"layers": [{"weight": math.inf}]}}, "height.layers[0].weight"),
        ({"seed": 2**80}, "seed"),
        ({"map": {"width": 2**40, "height": 2**40}}, "map.width"),
        ({"map": {"width": "64"}}, "map.width"),
        ({"map": {"origin": [1e308, -1e308]}}, "map.origin"),
        ({"terrain": {"classes": [{"name": "\u0000" * 3}]}}, "terrain.classes"),
        ({"output": {"files": ["../../etc/passwd"]}}, "output.files"),
        ({"map": None}, "map"),
        ({"a" * 10000: 1}, "unknown key"),
    ],
)
def test_a_hostile_config_is_a_config_error_naming_the_key(hostile, key):
    with pytest.raises(terragrid.ConfigError) as error:
        terragrid.Map(hostile)
    assert key in str(error.value)
    assert all(p.startswith("config: ") for p in error.value.problems)


def test_deep_nesting_and_wrong_types_are_refused():
    deep: dict = {}
    node = deep
    for _ in range(200):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(terragrid.ConfigError, match="more than 64 deep"):
        terragrid.Map(deep)
    with pytest.raises(TypeError, match="config must be"):
        terragrid.Map([1, 2])
    with pytest.raises(terragrid.ConfigError, match="JSON text"):
        terragrid.Map("{ not json")
    with pytest.raises(terragrid.ConfigError, match="JSON data"):
        terragrid.Map(SMALL, seed=object())


def test_notes_say_what_loading_decided():
    m = terragrid.Map({"map": {"width": 1000, "height": 1000}, "output": {"engine": "unity", "engine_snap": True}})
    assert m.shape == (1025, 1025)
    assert any("1025" in note for note in m.notes)
