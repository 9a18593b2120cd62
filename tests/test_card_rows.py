"""The loader validates each cards.yaml row as the parser reads it (engine.load._validated_row,
through engine.yamlsource.load_yaml's row hook), so a 10,000-card file's raw rows and their
locations are never held at once (issue 22: 119 -> 51 MiB for the synthetic 10,000-card load).

The reference is the whole-file route the loader took before: parse the file with no hook, then
validate it as one ``CardsFile`` (pydantic validating the list) and attach its locations. Every
card, every location and every finding must be what that route gives."""

from __future__ import annotations

import pytest

from engine.cards import Card, CardsFile
from engine.fields import locations
from engine.cardrows import card_id as _card_id
from engine.load import DataError, load_game
from engine.validation import attach_locations, schema_findings
from engine.yamlsource import Source, _load_whole, load_yaml
from tests.conftest import CARDDATA


def _whole_file_cards(path):
    """The reference: the file parsed whole, validated as one CardsFile, located after."""
    data, source = _load_whole(path.read_text(encoding="utf-8"), str(path))
    parsed = CardsFile.model_validate(data)
    attach_locations(parsed, source, card_of=_card_id)
    return parsed.cards


def _as_compared(card: Card) -> tuple:
    table = {name: (loc.line, loc.column, loc.card) for name, loc in locations(card).items()}
    return card.model_dump(by_alias=True), table


@pytest.mark.parametrize("game", sorted(p.name for p in CARDDATA.iterdir() if (p / "cards.yaml").is_file()))
def test_a_shipped_game_loads_the_cards_and_locations_of_the_whole_file_route(game):
    deck = load_game(CARDDATA / game)
    own = [c for c in deck.cards if c.where().file.endswith(f"{game}/cards.yaml")]
    reference = _whole_file_cards(CARDDATA / game / "cards.yaml")
    assert len(own) == len(reference) > 0
    assert [_as_compared(c) for c in own] == [_as_compared(c) for c in reference]


def test_a_row_hook_gets_each_top_level_row_once_and_its_answer_is_kept():
    text = "title: t\ncards:\n- id: a\n  keywords: [x, y]\n- id: b\n- 7\nother:\n- id: c\n"
    seen = []

    def hook(value, source):
        seen.append((value, source.at.line))
        return ("row", value), Source(source.at)

    data, source = load_yaml(text, "cards.yaml", ("cards", hook))
    # rows of "cards" only (not its keyword lists, not another key's rows), each with its own line
    assert seen == [({"id": "a", "keywords": ["x", "y"]}, 3), ({"id": "b"}, 5), (7, 6)]
    assert data["cards"] == [("row", {"id": "a", "keywords": ["x", "y"]}), ("row", {"id": "b"}), ("row", 7)]
    assert data["other"] == [{"id": "c"}]
    assert source.child("cards").child(0).items == {} and source.child("cards").child(1).at.line == 5


def test_a_nested_cards_key_is_not_hooked():
    data, _ = load_yaml("deck:\n  cards:\n  - id: a\n", "cards.yaml", ("cards", lambda v, s: ("hooked", s)))
    assert data == {"deck": {"cards": [{"id": "a"}]}}


def test_valid_rows_become_cards_and_a_bad_row_is_reported_as_the_whole_file_reports_it(game_copy):
    folder = game_copy()
    path = folder / "cards.yaml"
    lines = path.read_text().splitlines()
    power = next(i for i, line in enumerate(lines) if line.strip().startswith("power:"))
    lines[power] = lines[power].split("power:")[0] + "power: [not, a, power]"
    path.write_text("\n".join(lines) + "\n")
    data, source = _load_whole(path.read_text(), str(path))
    try:
        CardsFile.model_validate(data)
    except Exception as exc:  # noqa: BLE001 - the reference's own findings
        expected = schema_findings(exc, source, CardsFile, data)
    with pytest.raises(DataError) as caught:
        load_game(folder)
    got = [f for f in caught.value.findings if f.location.file.endswith("cards.yaml")]
    assert [(f.code, f.location.line, f.location.column, f.location.card, f.message) for f in got] == \
           [(f.code, f.location.line, f.location.column, f.location.card, f.message) for f in expected]
    assert got[0].code == "DA003" and got[0].location.line == power + 1


def test_a_file_with_an_anchor_is_read_whole_and_loads_the_same_cards(game_copy):
    folder = game_copy()
    path = folder / "cards.yaml"
    streamed = [_as_compared(c) for c in load_game(folder).cards]
    text = path.read_text()
    assert "&" not in text and "\ncards:\n" in "\n" + text
    path.write_text(text.replace("cards:\n", "cards: &rows\n", 1))  # an anchor: load_yaml reads it whole, no hook
    assert [_as_compared(c) for c in load_game(folder).cards] == streamed
