"""A build over a previous output gives the bytes of a cold build (issue 22: speed may never
change what is written). Compared: every file of the game's output folder; in manifest.json
everything but the build key (and the ``only`` setting a partial build records, which is what
the user asked for, not what was built)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

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
    original, stamp = cards.read_text(encoding="utf-8"), cards.stat()
    assert _build(game, tmp_path / "cold") == "built"
    warm = tmp_path / "warm"
    cards.write_text(original.replace("name: Ember Ranger", "name: Ember Rangers"), encoding="utf-8")
    assert _build(game, warm) == "built"
    edited = _tree(warm / "mini")
    cards.write_text(original, encoding="utf-8")
    # and back to the same file: its modification time too, which the PEF's dc:date reads for a
    # game without a date: (pipeline.emboss.write.pef_date; the copy's is the checkout's, the
    # edit's today: after midnight they name two days)
    os.utime(cards, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
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


# --- A one-card edit renders that card's per-card files only (pipeline.build.cardkeys) ---------------

SHIPPED = Path(__file__).resolve().parents[1] / "carddata"


def _run(game: Path, out: Path, **settings):
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), papers=("letter",), **settings))
    assert outcome.status == "built", [f.render() for f in outcome.findings]
    return outcome


def _rendered(outcome) -> dict[str, int]:
    """How many per-card files of each kind the build rendered (the rest it kept)."""
    return {noun: c["rendered"] for nouns in outcome.per_card.values() for noun, c in nouns.items()}


@pytest.fixture(scope="module")
def enchant_cold(tmp_path_factory):
    """A cold build of a copy of the shipped Enchant (57 unique cards): ``(game folder, output folder)``."""
    base = tmp_path_factory.mktemp("enchant-cold")
    game = base / "enchant"
    shutil.copytree(SHIPPED / "enchant", game)
    outcome = _run(game, base / "out")
    assert _rendered(outcome) == {"card proofs": 57, "card faces": 57, "card pages": 57, "height maps": 57}
    return game, base / "out"


def _edit_then_rebuild(enchant_cold, tmp_path, file: str, old: str, new: str):
    """Edit a copy of the cold build's data, rebuild over a copy of its output, build the edit cold too;
    returns the rebuild's outcome after asserting the two outputs are the same bytes."""
    game, out = enchant_cold
    edited = tmp_path / "enchant"
    shutil.copytree(game, edited)
    text = (edited / file).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (edited / file).write_text(text.replace(old, new), encoding="utf-8")
    shutil.copytree(out, tmp_path / "warm")
    outcome = _run(edited, tmp_path / "warm")
    cold_outcome = _run(edited, tmp_path / "cold")
    rebuilt, cold = _tree(tmp_path / "warm" / "enchant"), _tree(tmp_path / "cold" / "enchant")
    assert set(rebuilt) == set(cold)
    assert [name for name in cold if rebuilt[name] != cold[name]] == []
    assert cold_outcome.per_card["proof"]["card proofs"] == {"rendered": 57, "kept": 0, "total": 57}
    return outcome


def test_a_name_edit_renders_that_card_and_its_neighbours_pages_only(enchant_cold, tmp_path):
    # "J" is in no other card's name, rules, power or keywords: the fronts PDF embeds one font subset
    # for the whole deck, and the proofs and faces kept from before the edit must still be the bytes
    # a cold build rasterises from the edited deck's PDF.
    outcome = _edit_then_rebuild(enchant_cold, tmp_path, "cards.yaml", 'name: "Hatchling"', 'name: "Hatchling Jr"')
    # The card's proof, face and height map (its braille name changed); its page and the pages of the
    # cards before and after it, which link to it by name.
    assert _rendered(outcome) == {"card proofs": 1, "card faces": 1, "card pages": 3, "height maps": 1}
    assert outcome.per_card["proof"]["card proofs"] == {"rendered": 1, "kept": 56, "total": 57}


def test_a_power_edit_renders_that_card_only(enchant_cold, tmp_path):
    outcome = _edit_then_rebuild(enchant_cold, tmp_path, "cards.yaml", "    power: 2\n    copies: 1\n    description:\n"
                                 "      alt: \"A tiny green dragon", "    power: 3\n    copies: 1\n    description:\n"
                                 "      alt: \"A tiny green dragon")
    assert _rendered(outcome) == {"card proofs": 1, "card faces": 1, "card pages": 1, "height maps": 1}


def test_a_deck_wide_edit_renders_every_card(enchant_cold, tmp_path):
    # The archive's base URL is in every card's QR code: game.yaml is in every card key.
    outcome = _edit_then_rebuild(enchant_cold, tmp_path, "game.yaml", "https://cards.example.invalid/enchant/",
                                 "https://cards.example.invalid/enchant-2/")
    assert _rendered(outcome) == {"card proofs": 57, "card faces": 57, "card pages": 57, "height maps": 57}


def test_a_template_or_code_change_renders_every_card(game_copy, tmp_path, monkeypatch):
    import pipeline.build.cardkeys as cardkeys
    import pipeline.build.manifest as manifest

    game = game_copy("mini")
    first = _run(game, tmp_path / "out")
    assert _rendered(first) == {"card proofs": 4, "card faces": 4, "card pages": 4, "height maps": 4}
    before = _tree(tmp_path / "out" / "mini")
    changed = manifest.code_digest() + b"a template edited"  # what editing any file under templates/ does to the digest
    monkeypatch.setattr(manifest, "code_digest", lambda: changed)
    monkeypatch.setattr(cardkeys, "code_digest", lambda: changed)
    again = _run(game, tmp_path / "out")
    assert _rendered(again) == {"card proofs": 4, "card faces": 4, "card pages": 4, "height maps": 4}
    assert {k: v["kept"] for nouns in again.per_card.values() for k, v in nouns.items()} == {
        "card proofs": 0, "card faces": 0, "card pages": 0, "height maps": 0}
    after = _tree(tmp_path / "out" / "mini")
    assert [name for name in before if not name.endswith("manifest.json") and after[name] != before[name]] == []


def test_a_changed_file_in_the_previous_output_is_rendered_again(game_copy, tmp_path):
    game = game_copy("mini")
    _run(game, tmp_path / "out")
    proof = tmp_path / "out" / "mini" / "proofs" / "fronts" / "fireball.png"
    good = proof.read_bytes()
    proof.write_bytes(good[:-1] + b"!")  # someone touched the file after the build
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("alt: A ranger with a bow.", "alt: A ranger with a long bow."), encoding="utf-8")
    outcome = _run(game, tmp_path / "out")
    assert proof.read_bytes() == good
    assert outcome.per_card["proof"]["card proofs"] == {"rendered": 2, "kept": 2, "total": 4}
    # The alt text is on the card's archive page (and in its data, which every key of the card
    # covers), not in its braille: its height map is kept.
    said = ("tactile: 0 of 4 height maps rendered, 4 kept; archive: 1 of 4 card faces rendered, 3 kept, "
            "1 of 4 card pages rendered, 3 kept; proof: 2 of 4 card proofs rendered, 2 kept")
    assert json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["games"]["mini"]["per_card_summary"] == said
    from pipeline.cli.unchanged import summary_line

    assert summary_line(outcome).endswith("; " + said)
