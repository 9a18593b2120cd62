"""The loader: fixture games, expansions, and bad input reported with its exact location."""

from __future__ import annotations

import pytest

from engine.load import DataError, load_game
from engine.model import Provenance
from engine.units import parse_length


def test_mini_loads_with_counts(mini_dir):
    deck = load_game(mini_dir)
    assert deck.game.title == "Mini ICG"
    assert [c.id for c in deck.game.classes] == ["ember", "forest"]
    assert {k: deck.copies_of(k) for k in ("ember", "forest")} == {"ember": 4, "forest": 4}
    assert deck.total_copies == 8
    assert [c.id for c in deck.provisional()] == ["ember-ranger"]
    # Lengths are parsed from their units into points.
    assert deck.game.card.width == 216.0 and deck.game.card.height == 360.0 and deck.game.card.bleed == 9.0
    assert deck.game.dice[0].size == pytest.approx(35 * 72 / 25.4)
    # YAML integers become power text; "?" stays.
    assert [c.power for c in deck.cards] == ["1", "5", "1", "?"]
    assert deck.card_by_id("fireball").keywords == ["Rally!", "Enchant!"]


def test_locations_point_at_the_yaml(mini_dir):
    deck = load_game(mini_dir)
    fireball = deck.card_by_id("fireball")
    loc = fireball.where("power")
    assert loc.file.endswith("mini/cards.yaml") and loc.line == 32 and loc.column == 12
    assert loc.card == "fireball"
    assert deck.game.classes[1].where().line == 16


def test_expansion_resolves_per_class(mini_plus_dir):
    deck = load_game(mini_plus_dir)
    assert deck.game.title == "Mini ICG Plus"
    assert deck.card_by_id("ember-ranger") is None  # removed by the expansion
    assert {k: deck.copies_of(k) for k in ("ember", "forest", "crystal")} == {"ember": 4, "forest": 4, "crystal": 2}
    assert [k.name for k in deck.game.keywords] == ["Rally!", "Enchant!", "Boon!"]
    assert deck.game.power.allowed()[0] == "0"
    # Base cards keep their base file; added cards point at the expansion's file.
    assert deck.card_by_id("fireball").where().file.endswith("mini/cards.yaml")
    assert deck.card_by_id("ember-delver").where().file.endswith("mini-plus/cards.yaml")
    assert deck.card_by_id("crystal-rally").provenance is Provenance.provisional


def _replace_line(path, number, text):
    lines = path.read_text().splitlines()
    lines[number - 1] = text
    path.write_text("\n".join(lines) + "\n")


def test_yaml_syntax_error_names_line(game_copy):
    game = game_copy("mini")
    _replace_line(game / "cards.yaml", 7, "    keywords: Enchant!: Rally!")
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert info.value.unreadable
    assert (f.code, f.name) == ("DA001", "yaml-syntax-error")
    assert f.location.file.endswith("cards.yaml") and (f.location.line, f.location.column) == (7, 23)
    assert "mapping values are not allowed" in f.message


def test_typo_in_key_on_line_7(game_copy):
    game = game_copy("mini")
    _replace_line(game / "cards.yaml", 7, "    powr: 1")
    with pytest.raises(DataError) as info:
        load_game(game)
    assert not info.value.unreadable
    (f,) = info.value.findings
    assert (f.code, f.name, f.location.line, f.location.column) == ("DA004", "unknown-key", 7, 5)
    assert f.location.card == "ember-apprentice"
    assert "did you mean 'power'" in f.hint


def test_missing_field_and_wrong_type(game_copy):
    game = game_copy("mini")
    text = (game / "cards.yaml").read_text()
    text = text.replace("    provenance: provisional\n", "", 1).replace("    copies: 2\n", "    copies: two\n", 1)
    (game / "cards.yaml").write_text(text)
    with pytest.raises(DataError) as info:
        load_game(game)
    by_code = {f.code: f for f in info.value.findings}
    assert by_code["DA002"].name == "missing-field" and "provenance" in by_code["DA002"].message
    assert by_code["DA002"].location.line == 11  # the card mapping that lacks it (ember-ranger)
    assert by_code["DA003"].location.line == 8 and "copies" in by_code["DA003"].message


def test_wrong_length_unit(game_copy):
    game = game_copy("mini")
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("width: 3in", "width: 3"))
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert f.code == "DA003" and f.location.line == 4 and "unit" in f.message


def test_missing_file_is_unreadable(tmp_path):
    (tmp_path / "game.yaml").write_text("id: x\n")
    with pytest.raises(DataError) as info:
        load_game(tmp_path)
    assert info.value.unreadable and info.value.findings[0].code == "DA005"


def test_duplicate_key_and_alias_bomb(tmp_path, game_copy):
    game = game_copy("mini")
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text().replace("    power: 5\n", "    power: 5\n    power: 6\n"))
    with pytest.raises(DataError) as info:
        load_game(game)
    assert "duplicate key 'power'" in info.value.findings[0].message
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8)
    )
    (game / "cards.yaml").write_text(bomb)
    with pytest.raises(DataError) as info:
        load_game(game)
    assert "alias bomb" in info.value.findings[0].message


def test_python_tags_are_refused(game_copy):
    game = game_copy("mini")
    (game / "cards.yaml").write_text("cards: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(DataError) as info:
        load_game(game)
    assert info.value.findings[0].code == "DA001"


def test_expansion_removing_unknown_card(game_copy):
    game_copy("mini")
    plus = game_copy("mini-plus")
    (plus / "game.yaml").write_text((plus / "game.yaml").read_text().replace("[ember-ranger]", "[ember-rangr]"))
    with pytest.raises(DataError) as info:
        load_game(plus)
    (f,) = info.value.findings
    assert f.code == "DA006" and "ember-rangr" in f.message and f.location.line == 6


@pytest.mark.parametrize("text,pt", [("3in", 216.0), ("25.4mm", 72.0), ("18pt", 18.0), ("0.5cm", 5 * 72 / 25.4)])
def test_parse_length(text, pt):
    assert parse_length(text) == pytest.approx(pt)


@pytest.mark.parametrize("bad", ["3", 3, "3 inches", "in", ""])
def test_parse_length_refuses(bad):
    with pytest.raises(ValueError):
        parse_length(bad)


def test_large_plain_document_is_not_an_alias_bomb():
    from engine.yamlsource import load_yaml

    data, _ = load_yaml("[" + "1, " * 30_000 + "1]", "big.yaml")  # 30,001 values, no alias (more than 1 % of the allowance)
    assert len(data) == 30_001


def test_extends_naming_no_game_folder(game_copy, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    game_copy("mini")
    plus = game_copy("mini-plus")
    (tmp_path / "notes").mkdir()  # a folder without game.yaml is not offered
    (plus / "game.yaml").write_text((plus / "game.yaml").read_text().replace("game: ../mini\n", "game: ../mimi\n"))
    with pytest.raises(DataError) as info:
        load_game(plus)
    assert not info.value.unreadable  # a wrong value in a readable game.yaml: exit 1
    (f,) = info.value.findings
    assert (f.code, f.name) == ("DA003", "invalid-value")
    assert f.message == "extends.game '../mimi' is not a game folder (no game.yaml in mimi)"
    assert (f.location.file, f.location.line, f.location.column) == ("mini-plus/game.yaml", 5, 9)
    assert f.hint == "did you mean '../mini'? (game folders there: mini)"


def _broken_game(game_copy, game_edits=(), card_edits=()):
    game = game_copy("mini")
    for path, edits in ((game / "game.yaml", game_edits), (game / "cards.yaml", card_edits)):
        text = path.read_text()
        for old, new in edits:
            assert old in text
            text = text.replace(old, new, 1)
        path.write_text(text)
    with pytest.raises(DataError) as info:
        load_game(game)
    return {(f.location.line, f.location.column): (f.code, f.message) for f in info.value.findings}


def test_schema_messages_are_plain_and_name_the_value_once(game_copy):
    found = _broken_game(
        game_copy,
        game_edits=[("width: 3in", "width: 3 inches"), ("archive: {base_url", "archive: 3\nold_archive: {base_url"), ("min: 2, max: 2", "min: 0, max: 2")],
        card_edits=[("copies: 2", "copies: two"), ("power: 5", "power: 5.5")],
    )
    assert found == {
        (4, 8): ("DA003", "card.width: expected a length with a unit (pt, in, mm, cm) such as '3in', got '3 inches'"),
        (5, 11): ("DA003", "players.min: expected at least 1 (got 0)"),
        (30, 1): ("DA003", "archive: expected a mapping of keys to values (got 3)"),
        (31, 1): ("DA004", "unknown key 'old_archive' (at old_archive)"),
        (8, 5): ("DA003", "cards.0.copies: expected a whole number (got 'two')"),
        (15, 5): ("DA003", "cards.1.power: expected text (got 5.5)"),
    }


def test_ids_must_be_slugs(game_copy):
    # A game id names the output folder: "../victim" would write outside it.
    found = _broken_game(game_copy, game_edits=[("id: mini", 'id: "../victim"'), ("{id: d12,", "{id: D12,"), ("- id: ember", "- id: Ember Class")])
    assert found == {
        (2, 1): ("DA003", "id: expected a lowercase slug such as 'apprentice', got '../victim'"),
        (7, 6): ("DA003", "dice.0.id: expected a lowercase slug such as 'd12', got 'D12'"),
        (9, 5): ("DA003", "classes.0.id: expected a lowercase slug such as 'ember', got 'Ember Class'"),
    }


def test_binary_and_missing_files_are_unreadable(game_copy, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    game = game_copy("mini")
    (game / "cards.yaml").write_bytes(b"PK\x03\x04\x14\x00\x06\x00\xc8\xf1 spreadsheet")  # a zip (.xlsx) saved as cards.yaml; \xc8 at byte 8 is no UTF-8
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert info.value.unreadable and (f.code, f.name) == ("DA005", "unreadable-data-file")
    assert f.message == "cards.yaml is not UTF-8 text (byte 8 cannot be read; a binary file or another encoding)"
    assert f.location.file == "mini/cards.yaml"
    (game / "cards.yaml").write_text("cards:\x00\n")  # valid UTF-8 but a NUL byte: binary
    with pytest.raises(DataError) as info:
        load_game(game)
    assert info.value.findings[0].message == "cards.yaml is not UTF-8 text (byte 6 cannot be read; a binary file or another encoding)"
    (game / "cards.yaml").unlink()
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert info.value.unreadable and f.message == "cards.yaml not found in mini" and f.location.file == "mini/cards.yaml"


@pytest.mark.parametrize(("text", "line"), [("", 1), ("# nothing yet\n", 1), ("cards: []\n", 1), ("# the cards\n\ncards:\n", 3)])
def test_base_game_without_cards(game_copy, monkeypatch, tmp_path, text, line):
    monkeypatch.chdir(tmp_path)
    game = game_copy("mini")
    (game / "cards.yaml").write_text(text)
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings  # one finding, not a dozen count errors
    assert not info.value.unreadable
    assert (f.code, f.name, f.severity.value) == ("DA007", "no-cards", "error")
    assert f.message == "cards.yaml holds no cards"
    assert (f.location.file, f.location.line, f.location.column) == ("mini/cards.yaml", line, 1)


def test_expansion_may_add_no_cards(game_copy):
    game_copy("mini")
    plus = game_copy("mini-plus")
    (plus / "cards.yaml").write_text("cards: []\n")
    deck = load_game(plus)
    assert [c.id for c in deck.cards] == ["ember-apprentice", "forest-apprentice", "fireball"]  # the base's, minus ember-ranger
