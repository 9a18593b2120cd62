"""`deckpress schema` against the loader, through a second validator: the jsonschema library
(draft 2020-12) reads every shipped and fixture game's YAML as a YAML editor sees it (dates as
text), and must accept exactly what deckpress accepts. A new user's try found the schema typed
lengths as numbers and powers as text only, so every shipped file failed it."""

from __future__ import annotations

import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import GAMES
from engine.load import DataError, load_game
from engine.schema import cards_schema, game_schema

ROOT = Path(__file__).resolve().parent.parent
GAME_DIRS = sorted(p.parent for p in (ROOT / "carddata").glob("*/game.yaml")) + sorted(p.parent for p in GAMES.glob("*/game.yaml"))


class _EditorLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """YAML as an editor's language server validates it: a date is the text it is written as (libyaml
    parses as deckpress does: PyYAML's Python parser refuses a plain "?" inside a flow mapping)."""


_EditorLoader.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node))


def _errors(schema: dict, path: Path) -> list[tuple[list, str]]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_EditorLoader)
    return [(list(e.absolute_path), e.message) for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]


@pytest.mark.parametrize("game", GAME_DIRS, ids=lambda p: p.name)
def test_every_game_the_loader_reads_passes_the_schema(game):
    load_game(game)  # the loader reads it
    assert _errors(game_schema(), game / "game.yaml") == []
    assert _errors(cards_schema(), game / "cards.yaml") == []


@pytest.mark.parametrize("old, new, where, message", [
    ("width: 3in", "width: 3", ["card", "width"], "3 is not of type 'string'"),
    ("width: 3in", "width: 3 inches", ["card", "width"], "'3 inches' does not match"),
    ("players: {min: 2, max: 4}", "players: {min: true, max: 4}", ["players", "min"], "True is not of type 'integer'"),
    ("players: {min: 2, max: 4}", "players: {min: 2, max: 4, most: 6}", ["players"], "Additional properties are not allowed ('most' was unexpected)"),
])
def test_the_schema_refuses_what_the_loader_refuses(tmp_path, old, new, where, message):
    """Controls: each edit of a real game.yaml is an error for both deckpress and the schema, at the same field."""
    game = tmp_path / "enchant"
    shutil.copytree(ROOT / "carddata" / "enchant", game)
    path = game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError):
        load_game(game)
    found = _errors(game_schema(), path)
    assert len(found) == 1 and found[0][0] == where and message in found[0][1], found


def test_an_expansion_names_only_what_it_adds_but_a_base_game_needs_its_card_and_players(tmp_path):
    schema = game_schema()
    expansion = {"id": "x-plus", "title": "X Plus", "extends": {"game": "../x"}}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(expansion)) == []
    missing = sorted(e.message for e in jsonschema.Draft202012Validator(schema).iter_errors({"id": "x", "title": "X"}))
    assert "'card' is a required property" in missing and "'players' is a required property" in missing


def test_a_power_is_text_or_a_whole_number():
    schema = cards_schema()
    card = yaml.safe_load((ROOT / "carddata" / "enchant" / "cards.yaml").read_text(encoding="utf-8"))["cards"][0]
    for power, ok in (("7", True), (7, True), ("x2", True), (None, True), (True, False), (1.5, False)):
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors({"cards": [{**card, "power": power}]}))
        assert (errors == []) is ok, (power, [e.message for e in errors])
