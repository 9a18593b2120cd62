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


def test_where_falls_back_to_the_model_then_to_nothing_and_reads_the_table_pydantic_keeps(mini_dir):
    from engine.fields import Location, locations

    fireball = load_game(mini_dir).card_by_id("fireball")
    # the table engine.fields.locations reads is the private attribute itself, filled by the loader
    assert locations(fireball) is fireball._where and fireball._where["power"] == fireball.where("power")
    # a field the YAML did not write (a default) falls back to the card's own mapping (line 28 of mini/cards.yaml, "  - id: fireball")
    assert fireball.where("braille_rules") == fireball.where() and fireball.where().line == 28
    built = type(fireball).model_validate(fireball.model_dump(by_alias=True))  # built in code: no locations
    assert built.where("name") == built.where() == Location()


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


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
@pytest.mark.parametrize("name", ["cards.yaml", "game.yaml"])
def test_a_data_file_that_is_not_a_regular_file_is_unreadable_without_reading_it(game_copy, kind, name):
    # /dev/zero never ends (it was read until the kernel killed deckpress at 24 GB) and a FIFO
    # blocks the open until a writer comes: both are refused from their stat, before any read.
    import os

    game = game_copy("mini")
    (game / name).unlink()
    if kind == "device":
        (game / name).symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(game / name)
    else:
        (game / name).mkdir()
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert info.value.unreadable and (f.code, f.message) == ("DA005", f"{name} is not a regular file")
    assert f.location.file.endswith(f"mini/{name}") and f.hint == f"make {name} a plain text file (YAML)"


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


def test_every_duplicate_key_of_a_file_is_reported_at_once(game_copy):
    """Three duplicate keys, at three depths and in two styles (block and flow), plus a control
    file with none: one read names all three, each at its own line, in file order."""
    game = game_copy("mini")
    path = game / "cards.yaml"
    clean = path.read_text()
    assert clean.count("    power: 5\n") >= 1
    text = clean.replace("    power: 5\n", "    power: 5\n    power: 6\n", 1)
    text = "extra: {a: 1, a: 2}\nextra: 3\n" + text
    path.write_text(text)
    with pytest.raises(DataError) as info:
        load_game(game)
    found = [(f.code, f.location.line, f.message) for f in info.value.findings]
    power_line = text.splitlines().index("    power: 6") + 1
    assert found == [
        ("DA001", 1, "duplicate key 'a' (first written at line 1)"),
        ("DA001", 2, "duplicate key 'extra' (first written at line 1)"),
        ("DA001", power_line, f"duplicate key 'power' (first written at line {power_line - 1})"),
    ]
    assert info.value.unreadable and all(f.hint == "remove or rename one of the two" for f in info.value.findings)
    path.write_text(clean)  # control: the same file without them reads
    assert load_game(game).cards


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
        (8, 5): ("DA003", "cards.0.copies: must be a whole number written as digits, not text (got 'two')"),
        (15, 5): ("DA003", 'cards.1.power: a power value is text such as "7", "?" or "x2", or a whole number (got 5.5)'),
    }


def test_a_player_range_upside_down_is_refused_and_equal_ends_pass(game_copy):
    """players: {min: 4, max: 2} was accepted (a box printing "4-2 players"); power ranges already refused it."""
    found = _broken_game(game_copy, game_edits=[("min: 2, max: 2", "min: 4, max: 2")], card_edits=[])
    assert found == {(5, 19): ("DA003", "players.max: max must not be below min, got 4..2 players")}
    from conftest import GAMES

    assert load_game(GAMES / "mini").game.players.max == 2  # control: min 2, max 2


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
    assert f.message == "cards.yaml is not UTF-8 text (byte 0xC8 at line 1, column 9 cannot be read; a binary file or another encoding, such as Latin-1)"
    assert (f.location.file, f.location.line, f.location.column) == ("mini/cards.yaml", 1, 9)
    # Latin-1 text deep in a file: located by its line and column (the text reader's offset is
    # within its own buffer); the reference is the byte's place in the raw file.
    latin = ("cards:\n" + "# a comment line to push the byte past the reader's first buffer\n" * 200).encode() + "  - id: café\n".encode("latin-1")
    (game / "cards.yaml").write_bytes(latin)
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert (f.location.line, f.location.column) == (202, 12) and "byte 0xE9 at line 202, column 12" in f.message
    (game / "cards.yaml").write_text("cards:\x00\n")  # valid UTF-8 but a NUL byte: binary
    with pytest.raises(DataError) as info:
        load_game(game)
    assert info.value.findings[0].message == "cards.yaml holds a NUL character (U+0000) at line 1, column 7: a binary file, or a stray control character"
    assert (info.value.findings[0].location.line, info.value.findings[0].location.column) == (1, 7)
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


def _rendered(game_copy, monkeypatch, tmp_path, game_edits=(), card_edits=()):
    """Break a copy of the mini game; return its findings as ``file:line:col: CODE message`` lines, sorted."""
    monkeypatch.chdir(tmp_path)
    game = game_copy("mini")
    for path, edits in ((game / "game.yaml", game_edits), (game / "cards.yaml", card_edits)):
        text = path.read_text()
        for old, new in edits:
            assert old in text
            text = text.replace(old, new, 1)
        path.write_text(text)
    with pytest.raises(DataError) as info:
        load_game(game)
    assert not info.value.unreadable
    return sorted(f"{f.location}: {f.code} {f.message}" for f in info.value.findings)


_ARCHIVE = 'archive: {base_url: "https://cards.example.invalid/mini/"}'


@pytest.mark.parametrize(("card_path", "message"), [
    ("cards/{name}.html", "may use only {id} and {class_id}, not {name}, got 'cards/{name}.html'"),
    ("cards/{id}{.html", "is not a path template such as 'cards/{id}.html' (expected '}' before end of string; write a literal brace as '{{' or '}}'), got 'cards/{id}{.html'"),
    ("cards/{id.__class__}.html", "may use {id} only as it is, not {id.__class__}, got 'cards/{id.__class__}.html'"),
    ("cards/{class_id[0]}/{id}.html", "may use {class_id} only as it is, not {class_id[0]}, got 'cards/{class_id[0]}/{id}.html'"),
    ("cards/{id!r}.html", "may use {id} only as it is, not {id!r}, got 'cards/{id!r}.html'"),
    ("cards/{id:>9}.html", "may use {id} only as it is, not {id:>9}, got 'cards/{id:>9}.html'"),
    ("cards/x.html", "must contain {id}, or every card shares one archive page, got 'cards/x.html'"),
    ("/cards/{id}.html", "must be a relative path inside the archive (no leading '/' or '\\'), got '/cards/{id}.html'"),
    ("cards/../../{id}.html", "must stay inside the archive (no '..', '.' or empty segment), got 'cards/../../{id}.html'"),
    ("cards//{id}.html", "must stay inside the archive (no '..', '.' or empty segment), got 'cards//{id}.html'"),
    ("cards/{id}.html?v=2", "must not contain '?' or '#' (it names a file and the URL a QR code encodes), got 'cards/{id}.html?v=2'"),
])
def test_card_path_must_be_a_safe_template(game_copy, monkeypatch, tmp_path, card_path, message):
    # Each of these was an internal error (KeyError, ValueError), a URL holding "<class 'str'>",
    # one page shared by every card, or a page written outside the archive.
    block = f'archive:\n  base_url: "https://cards.example.invalid/mini/"\n  card_path: "{card_path}"'
    assert _rendered(game_copy, monkeypatch, tmp_path, game_edits=[(_ARCHIVE, block)]) == [f"mini/game.yaml:32:3: DA003 archive.card_path: {message}"]


@pytest.mark.parametrize(("card_path", "url"), [("{class_id}/{id}.html", "https://x.invalid/forest/fireball.html"), ("cards/{id}/", "https://x.invalid/cards/fireball/"),
                                               ("cards_~v1/{id}.x-y.html", "https://x.invalid/cards_~v1/fireball.x-y.html")])
def test_card_path_templates_accepted(game_copy, card_path, url):
    game = game_copy("mini")
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace(_ARCHIVE, f'archive: {{base_url: "https://x.invalid/", card_path: "{card_path}"}}'))
    deck = load_game(game)
    assert deck.game.archive.url_for(deck.card_by_id("fireball")) == url


def test_power_prefixes_must_be_braille_cells(game_copy, monkeypatch, tmp_path):
    found = _rendered(game_copy, monkeypatch, tmp_path, game_edits=[("  number_style: single-letter\n", '  number_style: single-letter\n  number_prefix: "#"\n  symbol_prefix: ""\n  overrides: {"0": "#j"}\n')])
    assert found == [
        "mini/game.yaml:30:3: DA003 power.number_prefix: a prefix must be six-dot Unicode braille cells (U+2800-U+283F) such as '⠼', got '#'",
        "mini/game.yaml:31:3: DA003 power.symbol_prefix: a prefix must be six-dot Unicode braille cells (U+2800-U+283F) such as '⠼', got ''",
        "mini/game.yaml:32:3: DA003 power.overrides: override for '0' must be six-dot Unicode braille cells (U+2800-U+283F) such as '⠼', got '#j'",
    ]


def test_names_and_titles_must_not_be_blank(game_copy, monkeypatch, tmp_path):
    found = _rendered(
        game_copy, monkeypatch, tmp_path,
        game_edits=[("title: Mini ICG", 'title: "  "'), ("name: D12,", 'name: "",'), ("    name: Ember\n", '    name: " "\n'),
                    ("summary: Play another card into the battle.", 'summary: ""')],
        card_edits=[("    name: Ember Ranger\n", '    name: ""\n')],
    )
    assert found == [
        "mini/cards.yaml:12:5: DA003 cards.1.name: must not be empty (got '')",
        "mini/game.yaml:10:5: DA003 classes.0.name: must not be empty (got ' ')",
        "mini/game.yaml:24:22: DA003 keywords.0.summary: must not be empty (got '')",
        "mini/game.yaml:3:1: DA003 title: must not be empty (got '  ')",
        "mini/game.yaml:7:15: DA003 dice.0.name: must not be empty (got '')",
    ]


def test_pydantic_wording_is_replaced(game_copy, monkeypatch, tmp_path):
    found = _rendered(
        game_copy, monkeypatch, tmp_path,
        game_edits=[("indicator: E", "indicator: FF"), ("indicator: F\n", 'indicator: ""\n'), ("background: {cmyk: [0, 0, 0, 0]", "background: {cmyk: [0, 0, 0]"),
                    ("text: {cmyk: [0, 0, 0, 100]", "text: {cmyk: [0, 0, 0, 100, 5]")],
        card_edits=[("    power: 5\n", "    power: 1.5\n")],
    )
    assert found == [
        "mini/cards.yaml:15:5: DA003 cards.1.power: a power value is text such as \"7\", \"?\" or \"x2\", or a whole number (got 1.5)",
        "mini/game.yaml:11:5: DA003 classes.0.indicator: expected a single character (got 'FF')",
        "mini/game.yaml:14:20: DA003 classes.0.palette.background.cmyk: expected 4 values C, M, Y, K (percentages 0-100) such as [0, 0, 0, 100], got [0, 0, 0]",
        "mini/game.yaml:15:14: DA003 classes.0.palette.text.cmyk: expected 4 values C, M, Y, K (percentages 0-100) such as [0, 0, 0, 100], got [0, 0, 0, 100, 5]",
        "mini/game.yaml:18:5: DA003 classes.1.indicator: must not be empty (got '')",
    ]


def test_a_tuple_short_of_items_is_reported_once():
    # No model field is a bare tuple any more (cmyk checks its length itself); a future one must not
    # read "missing required field '3'" once per absent item.
    from pydantic import BaseModel, ValidationError

    from engine.validation import schema_findings as _schema_findings
    from engine.yamlsource import load_yaml

    class Point(BaseModel):
        xyz: tuple[float, float, float]

    data, source = load_yaml("xyz: [1]\n", "p.yaml")
    with pytest.raises(ValidationError) as info:
        Point.model_validate(data)
    assert [(str(f.location), f.code, f.message) for f in _schema_findings(info.value, source, Point, data)] == [("p.yaml:1:1", "DA003", "xyz: item 2 is missing (got [1])")]


_SECOND_CLASS = "  - id: forest\n    name: Forest\n    indicator: F\n"


def test_duplicates_in_game_yaml(game_copy, monkeypatch, tmp_path):
    found = _rendered(
        game_copy, monkeypatch, tmp_path,
        game_edits=[(_SECOND_CLASS, "  - id: ember\n    name: Forest\n    indicator: F\n"),
                    ("  - {id: d12, name: D12,", "  - {id: d12, name: D6, faces: 6, size: 16mm, shape: d6-cube, encoding: letters}\n  - {id: d12, name: D12,"),
                    ("  - {name: \"Enchant!\"", "  - {name: \"Rally!\", summary: Again.}\n  - {name: \"Enchant!\"")],
    )
    assert found == [
        "mini/game.yaml:17:9: DA003 two classes have the id 'ember' (Ember and Forest)",
        "mini/game.yaml:26:12: DA003 keyword 'Rally!' is defined twice",
        "mini/game.yaml:8:10: DA003 two dice have the id 'd12'; both sheets would be written as die-d12.pdf",
    ]


def test_shared_class_indicator(game_copy, monkeypatch, tmp_path):
    found = _rendered(game_copy, monkeypatch, tmp_path, game_edits=[(_SECOND_CLASS, "  - id: forest\n    name: Forest\n    indicator: e\n")])
    assert found == ["mini/game.yaml:18:16: DA003 classes Ember and Forest share the indicator 'e'; blind players tell the classes apart by its braille cell"]


def test_expansion_replacing_a_class_is_no_duplicate_but_repeating_one_is(game_copy, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    game_copy("mini")
    plus = game_copy("mini-plus")
    text = (plus / "game.yaml").read_text()
    ember = "  - id: ember\n    name: Ember Reborn\n    indicator: E\n    emblem: Flame\n    palette:\n      background: {cmyk: [0, 0, 0, 0], srgb: \"#ffffff\"}\n      text: {cmyk: [0, 0, 0, 100], srgb: \"#000000\"}\n"
    (plus / "game.yaml").write_text(text.replace("classes:\n", "classes:\n" + ember, 1))
    deck = load_game(plus)  # the expansion's ember replaces the base's
    assert [(c.id, c.name) for c in deck.game.classes] == [("ember", "Ember Reborn"), ("forest", "Forest"), ("crystal", "Power Crystal")]
    (plus / "game.yaml").write_text(text.replace("classes:\n", "classes:\n" + ember + ember.replace("Ember Reborn", "Ember Again").replace("indicator: E", "indicator: R"), 1))
    with pytest.raises(DataError) as info:
        load_game(plus)
    (f,) = info.value.findings
    assert (str(f.location), f.code, f.message) == ("mini-plus/game.yaml:15:9", "DA003", "two classes have the id 'ember' (Ember Reborn and Ember Again)")
    assert [str(r) for r in f.related] == ["mini-plus/game.yaml:8:9"]


def test_a_folder_that_lost_its_game_yaml_is_listed_and_reported_not_passed_over(tmp_path):
    # A default build (every game in carddata/) skipped such a folder in silence and exited 0
    # while report.json still called it built (new-user try). Controls: an art folder, a stray file.
    from engine.paths import find_games

    for name, files in {"kept": ["game.yaml", "cards.yaml"], "lost": ["cards.yaml"], "typo": ["game.yml", "cards.yaml"],
                        "capital": ["Game.yaml"], "art": ["dragon.png"], "notes": []}.items():
        (tmp_path / name).mkdir()
        for file in files:
            (tmp_path / name / file).write_text("id: x\n")
    (tmp_path / "readme.yaml").write_text("x: 1\n")
    assert [p.name for p in find_games(tmp_path)] == ["capital", "kept", "lost", "typo"]
    hints = {}
    for name in ("lost", "typo", "capital"):
        with pytest.raises(DataError) as info:
            load_game(tmp_path / name)
        (f,) = info.value.findings
        assert info.value.unreadable and f.code == "DA005" and f.message.startswith("game.yaml not found in ")
        hints[name] = f.hint
    assert hints == {"lost": "create game.yaml; see README 'Card data: adding a game'",
                     "typo": "rename game.yml to game.yaml (deckpress reads only that name)",
                     "capital": "rename Game.yaml to game.yaml (deckpress reads only that name)"}


def test_a_quote_left_open_is_reported_with_where_its_mapping_began(game_copy):
    # `name: "Ember Rogue` (closing quote lost) on line 8 of a card: the parser gives up lines
    # below, where the string finally ends; the message names the block mapping's first line too.
    # Reference: PyYAML's own context mark for the same text (the card's "- id:" line).
    import yaml

    game = game_copy("mini")
    path = game / "cards.yaml"
    lines = path.read_text().splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if line.strip().startswith("name:") and '"' not in line)
    lines[number] = lines[number].replace("name: ", 'name: "', 1)
    path.write_text("".join(lines))
    with pytest.raises(yaml.MarkedYAMLError) as parsed:
        yaml.load(path.read_text(), Loader=yaml.SafeLoader)
    start = parsed.value.context_mark
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert f.code == "DA001" and start.line < number
    assert f.message.endswith(f"(while parsing a block mapping that starts at line {start.line + 1}, column {start.column + 1})")
    assert f.hint == f"check indentation, colons and quotes from line {start.line + 1} to this line: a quote left open runs on to the next quote"


def _one_edit(game_copy, old: str, new: str):
    """mini with ``old`` (a whole line of its cards.yaml) replaced by ``new``: the one finding the
    load raises, the DataError, the edited line's number and the game folder."""
    game = game_copy("mini")
    path = game / "cards.yaml"
    text = path.read_text()
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    return f, info.value, text[: text.index(old)].count("\n") + 1, game


@pytest.mark.parametrize("written, reads, why, hint", [
    ("010", "8", "a leading 0 makes it octal", "write 10 without the leading zeros if that is the number meant, or quote it if it is text"),
    ("-007", "-7", "a leading 0 makes it octal", "write -7 without the leading zeros if that is the number meant, or quote it if it is text"),
    ("0x1F", "31", "a 0x prefix makes it hexadecimal", "write the number in plain decimal digits (31), or quote it if it is text"),
    ("0b11", "3", "a 0b prefix makes it binary", "write the number in plain decimal digits (3), or quote it if it is text"),
    ("1_000", "1000", "digits grouped with '_'", "write the number in plain decimal digits (1000), or quote it if it is text"),
    ("1:30", "90", "base 60", "write the number in plain decimal digits (90), or quote it if it is text"),
])
def test_a_number_yaml_reads_otherwise_than_its_digits_is_refused(game_copy, written, reads, why, hint):
    """PyYAML reads YAML 1.1: `power: 010` was the power 8 and printed so, with no finding (a new
    user's try). The reference for what YAML makes of each: PyYAML's own reading, in the message."""
    f, error, line, _ = _one_edit(game_copy, "    power: 5\n", f"    power: {written}\n")
    assert (f.code, f.location.line, f.location.column) == ("DA003", line, 12)
    assert f.message == f"the number {written} is not written in plain decimal: YAML reads it as {reads} ({why})"
    assert f.hint == hint and not error.unreadable


@pytest.mark.parametrize("written, value", [("10", 10), ("-3", -3), ("0", 0), ("'010'", "010"), ("+7", 7)])
def test_plain_numbers_and_quoted_text_read_as_written(game_copy, written, value):
    game = game_copy("mini")
    path = game / "cards.yaml"
    path.write_text(path.read_text().replace("    power: 5\n", f"    power: {written}\n", 1))
    from engine.yamlsource import load_yaml

    data, _ = load_yaml(path.read_text(), "cards.yaml")
    assert [c["power"] for c in data["cards"] if c["id"] == "ember-ranger"] == [value]


def test_true_or_false_is_no_count(game_copy):
    """`copies: true` printed one copy with no finding (pydantic takes true as 1)."""
    f, _, line, _ = _one_edit(game_copy, "    copies: 2\n", "    copies: true\n")
    assert f.code == "DA003" and "cards.0.copies: must be a whole number, not true or false (got True)" in f.message
    assert f.location.line == line


def test_a_tab_in_the_indentation_is_named_with_its_place(game_copy):
    """YAML's message for a tab ("found character that cannot start any token", "violates
    indentation") rarely says what to do: the finding points at the tab and says spaces."""
    f, _, line, game = _one_edit(game_copy, "    power: 5\n", "\tpower: 5\n")
    assert (f.code, f.location.line, f.location.column) == ("DA001", line, 1)
    assert f.hint == f"YAML indents with spaces only: replace the tab at line {line}, column 1 with spaces"
    path = game / "cards.yaml"
    path.write_text(path.read_text().replace("\tpower: 5\n", "    power: 5\t# a tab after the value is fine\n", 1))
    assert load_game(game).cards  # control: a tab that is not indentation


def test_a_mistyped_game_folder_names_the_one_meant(tmp_path):
    """`deckpress build carddata/enchan`: the folder beside it of the closest name is offered;
    a name close to none gets the example (control)."""
    for name in ("enchant", "apprentice"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.yaml").write_text("id: x\n")
    with pytest.raises(DataError) as info:
        load_game(tmp_path / "enchan")
    (f,) = info.value.findings
    assert f.code == "DA005" and f.hint == f"did you mean {(tmp_path / 'enchant').as_posix()}? (game folders there: apprentice, enchant)"
    with pytest.raises(DataError) as info:
        load_game(tmp_path / "zzzz")
    assert info.value.findings[0].hint == "give a folder holding game.yaml and cards.yaml, e.g. carddata/apprentice"


@pytest.mark.parametrize("written", ["08", "'2'"])
def test_a_count_written_as_text_is_refused(game_copy, written):
    """YAML 1.1 reads 08 and 09 as text (not octal), which pydantic read as 8: `copies: 08` printed 8
    copies. A quoted count is text too, which the JSON Schema refuses as well (tests/test_schema.py)."""
    f, _, _, _ = _one_edit(game_copy, "    copies: 2\n", f"    copies: {written}\n")
    assert f.code == "DA003" and "cards.0.copies: must be a whole number written as digits, not text" in f.message


@pytest.mark.parametrize("deals, twice", [('{2: 4, "2": 3}', "(2 and '2')"), ('{"3": 2, 3: 2}', "('3' and 3)")])
def test_one_player_count_given_twice_in_deals_is_refused(game_copy, deals, twice):
    """`deals: {2: 4, "2": 3}` is two YAML keys (an int and a string) for one player count; the
    int conversion kept the last deal and dropped the other with no finding (a new user's try).
    Controls: the fixture's own `{2: 4}` loads, and so do two different counts."""
    game = game_copy("mini")
    path = game / "game.yaml"
    text = path.read_text()
    path.write_text(text.replace("  deals: {2: 4}\n", '  deals: {2: 4, "4": 2}\n'))
    assert load_game(game).game.composition.deals == {2: 4, 4: 2}  # control: a string key of its own count is fine
    path.write_text(text.replace("  deals: {2: 4}\n", f"  deals: {deals}\n"))
    with pytest.raises(DataError) as info:
        load_game(game)
    (f,) = info.value.findings
    assert f.code == "DA003" and f.location.line == text[: text.index("  deals:")].count("\n") + 1
    assert f"is listed twice {twice}; give each player count one deal" in f.message


def test_the_folder_of_game_folders_is_named_as_such(tmp_path, monkeypatch):
    """`deckpress check carddata` (the folder holding the games) was told "create game.yaml",
    which would make carddata a game. It now names the game folders in it. Control: a folder
    with no game inside still gets "create game.yaml"."""
    for name in ("alpha", "beta"):
        (tmp_path / "games" / name).mkdir(parents=True)
        (tmp_path / "games" / name / "game.yaml").write_text("id: x\n")
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    hints = {}
    for folder in ("games", "empty"):
        with pytest.raises(DataError) as info:
            load_game(tmp_path / folder)
        (f,) = info.value.findings
        assert f.code == "DA005" and f.message == f"game.yaml not found in {folder}"
        hints[folder] = f.hint
    assert hints == {"games": "games holds game folders, not a game: name one (games/alpha, games/beta)",
                     "empty": "create game.yaml; see README 'Card data: adding a game'"}
