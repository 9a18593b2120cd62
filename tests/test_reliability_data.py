"""Hostile card data ends in a located finding and exit 1 or 2, never an internal error (issue 14).

Each case breaks a copy of the mini fixture game, runs ``deckpress check --format json`` and
asserts the exit code, the finding code and its file:line:column.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine import limits
from pipeline.cli.app import app

runner = CliRunner()


def _check(folder) -> tuple[int, list[dict]]:
    result = runner.invoke(app, ["check", str(folder), "--format", "json"])
    assert "internal error" not in result.output and result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)["findings"]


def _append(folder, name: str, text: str) -> int:
    """Append ``text`` to ``folder/name``; returns the line number its first line lands on."""
    path = folder / name
    old = path.read_text()
    path.write_text(old + text)
    return old.count("\n") + 1


def _replace(folder, name: str, old: str, new: str) -> int:
    """Replace the first ``old`` in ``folder/name``; returns the line it is on."""
    path = folder / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return text[: text.index(old)].count("\n") + 1


def _one(findings: list[dict], code: str) -> dict:
    [f] = [f for f in findings if f["code"] == code]
    return f


def _at(finding: dict) -> tuple:
    loc = finding["location"]
    return loc["file"].rsplit("/", 1)[-1], loc["line"], loc["column"]


@pytest.mark.parametrize("value, reason", [
    ("2026-02-30", "day is out of range for month"),
    ("2026-13-01", "month must be in 1..12"),
    ("2026-01-01 25:00:00", "hour must be in 0..23"),
])
def test_an_impossible_date_is_da003_at_its_value(game_copy, value, reason):
    folder = game_copy("mini")
    line = _append(folder, "game.yaml", f"date: {value}\n")
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert code == 1
    assert _at(f) == ("game.yaml", line, 7)
    assert f["message"] == f"{value!r} reads as a date but is not a real one ({reason})"


def test_an_integer_of_thousands_of_digits_is_da003_not_a_conversion_error(game_copy):
    # Python refuses int(str) past 4,300 digits (sys.int_info); the loader stops at 15.
    folder = game_copy("mini")
    line = _replace(folder, "cards.yaml", "power: 5", "power: " + "9" * 5000)
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert (code, _at(f)) == (1, ("cards.yaml", line, 12))
    assert f["message"] == f"the number {'9' * 20}... has 5000 digits; card data allows at most {limits.MAX_INT_DIGITS}"


@pytest.mark.parametrize("depth", [100, 990])
def test_yaml_nested_deeply_is_da001_not_a_recursion_error(game_copy, depth):
    folder = game_copy("mini")
    line = _append(folder, "game.yaml", "quickstart: " + "[" * depth + "]" * depth + "\n")
    code, findings = _check(folder)
    f = _one(findings, "DA001")
    # the value starts at column 13; the 65th bracket is the first past the limit of 64
    assert (code, _at(f)) == (2, ("game.yaml", line, 13 + limits.MAX_YAML_DEPTH))
    assert f["message"] == f"YAML nested more than {limits.MAX_YAML_DEPTH} levels deep (card data needs at most 6)"


@pytest.mark.parametrize("char", ["\x01", "\x07", "\x1b", "\x7f"])
def test_a_raw_control_character_is_da001_at_its_line_and_column(game_copy, char):
    folder = game_copy("mini")
    line = _append(folder, "game.yaml", f"quickstart: ab{char}c\n")
    code, findings = _check(folder)
    f = _one(findings, "DA001")
    assert (code, _at(f)) == (2, ("game.yaml", line, 15))
    assert f["message"] == f"YAML cannot contain the control character U+{ord(char):04X}"


def test_a_nul_character_is_da005_at_its_line_and_column(game_copy):
    folder = game_copy("mini")
    line = _append(folder, "cards.yaml", "# a note\x00\n")
    code, findings = _check(folder)
    f = _one(findings, "DA005")
    assert (code, _at(f)) == (2, ("cards.yaml", line, 9))


def test_an_extends_loop_is_da003_at_the_extends_value_that_closes_it(tmp_path, game_copy):
    a, b = game_copy("mini"), tmp_path / "other"
    import shutil

    shutil.copytree(a, b)
    _append(a, "game.yaml", "extends: {game: ../other}\n")
    line = _append(b, "game.yaml", "extends: {game: ../mini}\n")
    code, findings = _check(a)
    f = _one(findings, "DA003")
    assert (code, _at(f)) == (1, ("game.yaml", line, 17))
    assert f["location"]["file"].endswith("other/game.yaml")
    assert f["message"] == "'extends' makes a loop (mini -> other -> mini): a game cannot be its own base"


def test_an_expansion_extending_itself_is_a_loop(game_copy):
    folder = game_copy("mini")
    line = _append(folder, "game.yaml", "extends: {game: .}\n")
    code, findings = _check(folder)
    assert (code, _at(_one(findings, "DA003"))) == (1, ("game.yaml", line, 17))


@pytest.mark.parametrize("bad", ['"ember-ranger\\n"', '"ember-ranger\\n\\n"', "x" * (limits.MAX_ID_LENGTH + 1)])
def test_an_id_is_checked_as_a_whole_string(game_copy, bad):
    # re.match("^...$") accepts "ember-ranger\n": $ matches before a trailing newline.
    folder = game_copy("mini")
    line = _replace(folder, "cards.yaml", "id: ember-ranger", f"id: {bad}")
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert (code, _at(f)) == (1, ("cards.yaml", line, 5))
    assert "cards.1.id" in f["message"]


def test_a_copies_count_past_the_limit_is_refused_stating_it(game_copy):
    folder = game_copy("mini")
    line = _replace(folder, "cards.yaml", "copies: 2", "copies: 1000000000")
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert (code, _at(f)) == (1, ("cards.yaml", line, 5))  # at the key, where the value is written
    assert (f["message"], f["location"]["card"]) == (f"cards.0.copies: expected at most {limits.MAX_COPIES} (got 1000000000)", "ember-apprentice")


@pytest.mark.parametrize("numbers, message", [
    ("{min: 1, max: 100000000}", f"power values are at most {limits.MAX_POWER_MAGNITUDE} in size, got 1..100000000"),
    ("{min: 1, max: 1.0e+8}", f"power values are at most {limits.MAX_POWER_MAGNITUDE} in size, got 1..100000000"),
    ("{min: 1, max: 5000}", f"a power range holds at most {limits.MAX_POWER_VALUES} values (each is translated to braille and compared), got 5000"),
    ("{min: 9, max: 1}", "min must not be above max, got 9..1"),
    ("{min: 1}", "expected both ends of the range, {min: 1, max: 11}, got {'min': 1}"),
])
def test_a_power_range_past_the_limit_is_refused_stating_it(game_copy, numbers, message):
    folder = game_copy("mini")
    line = _replace(folder, "game.yaml", "numbers: {min: 1, max: 11}", f"numbers: {numbers}")
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert (code, _at(f)) == (1, ("game.yaml", line, 3))
    assert f["message"] == f"power.numbers: {message}"


def test_more_printed_cards_than_the_limit_is_refused_at_the_card_that_passes_it(game_copy):
    folder = game_copy("mini")
    text = (folder / "cards.yaml").read_text().replace("copies: 2", f"copies: {limits.MAX_COPIES}")
    card = text[text.index("  - id: fireball"):]
    extra = "".join(card.replace("id: fireball", f"id: fireball-{n}") for n in range(limits.MAX_PRINTED_CARDS // limits.MAX_COPIES))
    (folder / "cards.yaml").write_text(text + extra)
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert code == 1 and f["location"]["card"] == "fireball-96"  # 4 + 96 cards of 200 make 20,000: the 101st (fireball-96) passes it
    assert f["message"].endswith(f"deckpress imposes at most {limits.MAX_PRINTED_CARDS}")


_URL_CHARS = ("may use only letters, digits, '-', '.', '_', '~' and '/', not {}: a browser percent-decodes or re-encodes "
              "anything else ('%2e%2e' is '..') and would open another file than the one written, got {!r}")


@pytest.mark.parametrize("card_path, odd", [
    ("cards/%2e%2e/{id}.html", "'%'"),  # WHATWG URL: %2e%2e is a double-dot segment, the page would be ../
    ("cards/.%2E/{id}.html", "'%'"),
    ("cards/caf\u00e9/{id}.html", "'\u00e9'"),
    ("my cards/{id}.html", "' '"),
    ("{{cards}}/{id}.html", "'{', '}'"),
])
def test_an_archive_path_a_browser_would_resolve_elsewhere_is_refused(game_copy, card_path, odd):
    folder = game_copy("mini")
    line = _replace(folder, "game.yaml", 'archive: {base_url: "https://cards.example.invalid/mini/"}',
                    f'archive: {{base_url: "https://cards.example.invalid/mini/", card_path: "{card_path}"}}')
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert (code, _at(f)) == (1, ("game.yaml", line, 60))  # at the card_path key
    assert f["message"] == "archive.card_path: " + _URL_CHARS.format(odd, card_path)


@pytest.mark.parametrize("base_url, words", [
    ("https://", "the base URL needs a host"),
    ("https:///mini/", "the base URL needs a host"),
    ("https://:8080/", "the base URL needs a host"),
    ("https://cards.example.org/mini/?v=1", "may hold no '?', '#' or user name"),
    ("https://cards.example.org/mini/#top", "may hold no '?', '#' or user name"),
    ("https://user@cards.example.org/", "may hold no '?', '#' or user name"),
    ("https://cards.example.org/%2e%2e/", "may hold no space, control character, backslash, '%' or non-ASCII letter"),
    ("https://cards.example.org:port/", "is not a URL"),
])
def test_a_base_url_needs_a_host_and_nothing_after_the_path(game_copy, base_url, words):
    folder = game_copy("mini")
    line = _replace(folder, "game.yaml", '"https://cards.example.invalid/mini/"', f'"{base_url}"')
    code, findings = _check(folder)
    f = _one(findings, "DA003")
    assert (code, _at(f)) == (1, ("game.yaml", line, 11))  # at the base_url key
    assert words in f["message"]


def test_a_url_too_long_for_any_qr_version_is_qr001_not_an_encoder_error(game_copy):
    # 3,000 characters: past a version-40 QR code's byte capacity at error correction M (2,331 bytes,
    # ISO/IEC 18004 Table 7), so no version holds it; zxing-cpp's encoder would raise.
    folder = game_copy("mini")
    url = "https://cards.example.invalid/" + "a" * 2970 + "/"
    _replace(folder, "game.yaml", 'base_url: "https://cards.example.invalid/mini/"', f'base_url: "{url}"')
    code, findings = _check(folder)
    assert code == 1
    qr = [f for f in findings if f["code"] == "QR001"]
    assert qr and all(f["location"]["card"] for f in qr)
    assert {f["location"]["file"].rsplit("/", 1)[-1] for f in qr} == {"cards.yaml"}
