"""Fuzzing (issue 14): hypothesis drives the loader with generated YAML documents and with
mutations of the shipped cards.yaml and game.yaml, and the braille translator with random
Unicode. The only exceptions allowed are deckpress's own typed errors (DataError from the
loader, UntranslatableCharacter / ControlCharacter from the translator); translated braille is
never a cell outside U+2800-U+283F (no 8-dot cell).

A fixed seed (``derandomize``) and a bounded example count keep it to seconds in ``make
test``; ``DECKPRESS_FUZZ_EXAMPLES=20000`` runs each test that many times.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.checks import run_checks
from engine.load import DataError, load_game
from pipeline.braille.translate import ControlCharacter, UntranslatableCharacter, translate
from tests.conftest import CARDDATA, GAMES

EXAMPLES = int(os.environ.get("DECKPRESS_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SHIPPED_CARDS = (CARDDATA / "apprentice" / "cards.yaml").read_text()
SHIPPED_GAME = (CARDDATA / "apprentice" / "game.yaml").read_text()
MINI_GAME = (GAMES / "mini" / "game.yaml").read_text()
MINI_CARDS = (GAMES / "mini" / "cards.yaml").read_text()

# YAML-ish scalars: the values YAML turns into Python objects (dates, huge numbers, nulls).
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30),
    st.sampled_from(["2026-02-30", "2026-13-01", "9" * 5000, "1e400", "-.inf", ".nan", "~", "0x1F", "0o17", "2026-01-01 25:00:00",
                     "ember", "ember-apprentice", "Enchant!", "3in", "-1mm", "1e8", "⠼⠁", "\u202e", "x2", "?"]),
)
KEYS = st.one_of(st.sampled_from(["id", "name", "class", "kind", "power", "copies", "cards", "classes", "dice", "keywords", "image",
                                  "extends", "game", "remove", "numbers", "min", "max", "archive", "base_url", "card_path", "date",
                                  "palette", "cmyk", "srgb", "faces", "size", "braille", "grade", "description", "alt", "long"]),
                 st.text(max_size=8))
DOCUMENTS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=6), max_leaves=40)


#: One scratch folder per test process: ``fuzz/`` is rewritten for every example, ``mini/``
#: beside it is a base game for an ``extends: {game: ../mini}`` a mutation may write.
_SCRATCH = Path(tempfile.mkdtemp(prefix="deckpress-fuzz-"))
shutil.copytree(GAMES / "mini", _SCRATCH / "mini")
(_SCRATCH / "fuzz").mkdir()


def _load(game_text: str, cards_text: str) -> None:
    """Write the scratch game folder and load it (and run the engine checks on what loads): DataError is the only error allowed."""
    folder = _SCRATCH / "fuzz"
    (folder / "game.yaml").write_text(game_text, encoding="utf-8", errors="surrogatepass")
    (folder / "cards.yaml").write_text(cards_text, encoding="utf-8", errors="surrogatepass")
    try:
        deck = load_game(folder)
    except DataError as exc:
        assert exc.findings and all(f.code.startswith("DA") for f in exc.findings)
        return
    run_checks(deck)


def _dump(value: object) -> str:
    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False)


@FUZZ
@given(DOCUMENTS, DOCUMENTS)
def test_generated_yaml_documents_load_or_raise_data_error(game, cards):
    _load(_dump(game), _dump(cards))


@FUZZ
@given(st.dictionaries(KEYS, DOCUMENTS, max_size=4), st.integers(0, 3))
def test_generated_values_in_a_real_game_load_or_raise_data_error(overrides, card_index):
    game = yaml.safe_load(MINI_GAME)
    cards = yaml.safe_load(MINI_CARDS)
    game.update(overrides)
    cards["cards"][card_index].update(overrides)
    _load(_dump(game), _dump(cards))


MUTATION = st.tuples(st.sampled_from(["insert", "delete", "replace", "duplicate-line", "swap-lines", "indent"]),
                     st.floats(0, 1), st.floats(0, 1),
                     st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=6)
                     | st.sampled_from([":", "- ", "&a ", "*a", "!!python/object:os.system", "{", "[", "\t", "\x00", "\x07", '"', "'",
                                        "2026-02-30", "9" * 5000, "<<: *a", "? ", "|", ">", "%YAML 1.1\n", "---\n", "...\n"]))


def _mutate(text: str, mutations: list[tuple]) -> str:
    """Apply text mutations at relative positions: insert or replace a snippet, delete a span, duplicate, swap or re-indent lines."""
    for kind, at, other, snippet in mutations:
        i, j = sorted((int(at * len(text)), int(other * len(text))))
        lines = text.split("\n")
        a, b = int(at * (len(lines) - 1)), int(other * (len(lines) - 1))
        if kind == "insert":
            text = text[:i] + snippet + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + min(j - i, 40):]
        elif kind == "replace":
            text = text[:i] + snippet + text[i + len(snippet):]
        elif kind == "duplicate-line":
            text = "\n".join(lines[: a + 1] + [lines[a]] + lines[a + 1:])
        elif kind == "swap-lines":
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        else:
            lines[a] = " " * (len(snippet) % 5) + lines[a]
            text = "\n".join(lines)
    return text


@FUZZ
@given(st.lists(MUTATION, min_size=1, max_size=4))
def test_mutations_of_the_shipped_cards_yaml_load_or_raise_data_error(mutations):
    _load(SHIPPED_GAME, _mutate(SHIPPED_CARDS, mutations))


@FUZZ
@given(st.lists(MUTATION, min_size=1, max_size=4))
def test_mutations_of_the_shipped_game_yaml_load_or_raise_data_error(mutations):
    _load(_mutate(SHIPPED_GAME, mutations), SHIPPED_CARDS)


@settings(FUZZ, max_examples=EXAMPLES * 5)  # a translation costs microseconds
@given(st.text(alphabet=st.characters(), max_size=40), st.sampled_from([1, 2]))
def test_the_braille_translator_gives_six_dot_cells_or_a_typed_error(text, grade):
    try:
        cells = translate(text, grade)
    except (UntranslatableCharacter, ControlCharacter) as exc:  # BR008 reports the control characters
        assert exc.char in text or exc.char in exc.text
        return
    assert all("\u2800" <= ch <= "\u283f" for ch in cells), (text, cells)


def test_the_harness_fails_on_an_exception_that_is_not_a_data_error(monkeypatch):
    # control: an untyped exception from the loader is not swallowed by _load
    import pytest

    def broken(folder):
        raise KeyError("max")

    monkeypatch.setitem(globals(), "load_game", broken)
    with pytest.raises(KeyError):
        _load(MINI_GAME, MINI_CARDS)
