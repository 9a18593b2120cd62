"""A build over a previous output gives the bytes of a cold build (issue 22: speed may never
change what is written). Compared: every file of the game's output folder; in manifest.json
everything but the build key (and the ``only`` setting a partial build records, which is what
the user asked for, not what was built)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path; the manifest without its build key and ``only``."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name == "manifest.json":
            manifest = json.loads(data)
            manifest.pop("build_key")
            manifest.get("settings", {}).pop("only", None)
            data = json.dumps(manifest, sort_keys=True).encode()
        out[path.relative_to(folder).as_posix()] = data
    return out


def _build(game: Path, out: Path, **settings) -> str:
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), papers=("letter",), **settings))
    assert outcome.status in ("built", "cached"), [f.render() for f in outcome.findings]
    return outcome.status


def test_rebuild_after_a_one_card_edit_and_back_equals_a_cold_build(game_copy, tmp_path):
    game = game_copy("mini")
    cards = game / "cards.yaml"
    original = cards.read_text(encoding="utf-8")
    assert _build(game, tmp_path / "cold") == "built"
    warm = tmp_path / "warm"
    cards.write_text(original.replace("name: Ember Ranger", "name: Ember Rangers"), encoding="utf-8")
    assert _build(game, warm) == "built"
    edited = _tree(warm / "mini")
    cards.write_text(original, encoding="utf-8")
    assert _build(game, warm) == "built"  # over the edited build's output
    rebuilt, cold = _tree(warm / "mini"), _tree(tmp_path / "cold" / "mini")
    assert edited != cold  # the edit did change outputs, so the rebuild had something to undo
    assert set(rebuilt) == set(cold)
    assert [name for name in cold if rebuilt[name] != cold[name]] == []


def test_partial_rebuild_over_a_cold_build_equals_it(game_copy, tmp_path):
    game = game_copy("mini")
    assert _build(game, tmp_path / "cold") == "built"
    shutil.copytree(tmp_path / "cold", tmp_path / "warm")
    assert _build(game, tmp_path / "warm", only=("archive", "proof")) == "built"
    rebuilt, cold = _tree(tmp_path / "warm" / "mini"), _tree(tmp_path / "cold" / "mini")
    assert set(rebuilt) == set(cold)
    assert [name for name in cold if rebuilt[name] != cold[name]] == []
