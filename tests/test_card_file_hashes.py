"""The per-card files are hashed by the stage that renders them (pipeline.build.cardkeys.CardReuse.save),
not again by the manifest. Reference: hashlib.sha256 of every file on disk after the build."""

from __future__ import annotations

import hashlib
import json
import re

from pipeline.build import manifest
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings


def test_the_manifest_takes_the_per_card_files_as_their_stages_hashed_them(game_copy, tmp_path, monkeypatch):
    read: list[str] = []
    real = manifest.sha256_file
    monkeypatch.setattr(manifest, "sha256_file", lambda path: (read.append(str(path)), real(path))[1])
    game, out = game_copy("mini"), tmp_path / "out"
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), only=("archive", "faces", "tactile")))
    assert outcome.status == "built"
    entries = json.loads((out / "mini" / "manifest.json").read_text())["files"]
    per_card = [e for e in entries if "card_key" in e]
    assert {e["path"].rsplit("/", 1)[0] for e in per_card} >= {"archive/images", "archive/cards", "uv/heightmap"}
    for e in entries:  # every recorded sha256 is the file's, whoever computed it
        data = (out / "mini" / e["path"]).read_bytes()
        assert (e["bytes"], e["sha256"]) == (len(data), hashlib.sha256(data).hexdigest()), e["path"]
    staged = {re.search(r"/\.staging-mini-\d+/(.+)$", r).group(1) for r in read}  # the staged files the manifest hashed
    assert not staged & {e["path"] for e in per_card}
    assert staged & {e["path"] for e in entries if "card_key" not in e}  # the whole-deck files it still hashes
