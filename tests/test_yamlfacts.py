"""game.yaml's id and extends.game remembered by the file's sha256 (pipeline/build/yamlfacts.py)."""

from __future__ import annotations

import hashlib
import json

import pytest

from pipeline.build import manifest, yamlfacts


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Each test starts with nothing remembered in this process."""
    monkeypatch.setattr(yamlfacts, "_facts", {})
    monkeypatch.setattr(yamlfacts, "_new", set())


def test_facts_are_the_yaml_and_follow_every_edit(game_copy, mini_plus_dir):
    game = game_copy("mini")
    assert manifest.game_id_of(game) == "mini"
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("id: mini", "id: mini-two"))
    assert manifest.game_id_of(game) == "mini-two"
    (game / "game.yaml").write_text(text.replace("id: mini", "id: [mini]"))
    assert manifest.game_id_of(game) is None
    (game / "game.yaml").write_bytes(b"id: \xff")
    assert manifest.game_id_of(game) is None and yamlfacts.facts(game / "game.yaml") is None
    plus = yamlfacts.facts(mini_plus_dir / "game.yaml")
    assert plus is not None and plus[1] is not None
    assert any(p.parent.name == "mini" for p in manifest.game_sources(mini_plus_dir))


def test_facts_are_saved_and_read_back_for_the_same_parser_only(game_copy, tmp_path, monkeypatch):
    game, out = game_copy("mini"), tmp_path / "out"
    digest = hashlib.sha256((game / "game.yaml").read_bytes()).hexdigest()
    assert manifest.game_id_of(game) == "mini"
    yamlfacts.save(out, "6.0.1")
    saved = json.loads((out / ".deckpress-stat" / "game-yaml.json").read_text())
    assert saved == {"parser": "6.0.1", "facts": {digest: ["mini", None]}}
    saved["facts"][digest] = ["remembered", None]  # proves the next answer comes from the file
    (out / ".deckpress-stat" / "game-yaml.json").write_text(json.dumps(saved))
    monkeypatch.setattr(yamlfacts, "_facts", {})
    yamlfacts.load(out, "6.0.2")
    assert manifest.game_id_of(game) == "mini"  # another parser's record is not used
    monkeypatch.setattr(yamlfacts, "_facts", {})
    yamlfacts.load(out, "6.0.1")
    assert manifest.game_id_of(game) == "remembered"


def test_a_game_yaml_that_is_not_a_regular_file_gives_no_facts_and_is_not_read(tmp_path):
    # /dev/zero would be read without end (a new user's build was killed at 24 GB); a FIFO would block.
    import os

    (tmp_path / "zero").mkdir()
    (tmp_path / "zero" / "game.yaml").symlink_to("/dev/zero")
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "game.yaml")
    big = tmp_path / "big.yaml"
    big.write_bytes(b"id: big\n" + b"#" * 5_000_000)  # over the loader's 5 MB data-file limit
    assert [yamlfacts.facts(p) for p in (tmp_path / "zero" / "game.yaml", tmp_path / "fifo" / "game.yaml", big)] == [None, None, None]
