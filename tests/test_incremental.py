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
    assert _rendered(outcome) == {"dice files": 4, "card proofs": 57, "card faces": 57, "card pages": 57, "height maps": 57,
                                  "box files": 8}
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
    assert _rendered(outcome) == {"dice files": 0, "card proofs": 1, "card faces": 1, "card pages": 3, "height maps": 1,
                                  "box files": 0}
    assert outcome.per_card["proof"]["card proofs"] == {"rendered": 1, "kept": 56, "total": 57}


def test_a_power_edit_renders_that_card_only(enchant_cold, tmp_path):
    outcome = _edit_then_rebuild(enchant_cold, tmp_path, "cards.yaml", "    power: 2\n    copies: 1\n    description:\n"
                                 "      alt: \"A tiny green dragon", "    power: 3\n    copies: 1\n    description:\n"
                                 "      alt: \"A tiny green dragon")
    assert _rendered(outcome) == {"dice files": 0, "card proofs": 1, "card faces": 1, "card pages": 1, "height maps": 1,
                                  "box files": 0}


def test_a_copies_edit_renders_the_boxes_but_keeps_the_dice(enchant_cold, tmp_path):
    # The box prints how many cards it holds (a class's copies of the run): its key covers the counts.
    # One more copy breaks the game's composition (an error): built with --force, before the edit too
    # (--force is in every key).
    game, _ = enchant_cold
    edited = tmp_path / "enchant"
    shutil.copytree(game, edited)
    forced = BuildSettings(out_dir=str(tmp_path / "warm"), papers=("letter",), force=True)
    text = (edited / "cards.yaml").read_text(encoding="utf-8")
    old = '    power: 2\n    copies: 1\n    description:\n      alt: "A tiny green dragon'
    assert text.count(old) == 1
    assert run_build([str(edited)], forced)[0].per_card["boxes"]["box files"]["rendered"] == 8
    (edited / "cards.yaml").write_text(text.replace(old, old.replace("copies: 1", "copies: 2")), encoding="utf-8")
    (outcome,) = run_build([str(edited)], forced)
    assert outcome.status == "built"
    assert outcome.per_card["boxes"] == {"box files": {"rendered": 8, "kept": 0, "total": 8}}
    assert outcome.per_card["dice"] == {"dice files": {"rendered": 0, "kept": 4, "total": 4}}


def test_a_deck_wide_edit_renders_every_card(enchant_cold, tmp_path):
    # The archive's base URL is in every card's QR code: game.yaml is in every card key.
    outcome = _edit_then_rebuild(enchant_cold, tmp_path, "game.yaml", "https://cards.example.invalid/enchant/",
                                 "https://cards.example.invalid/enchant-2/")
    # game.yaml is in the dice and box keys too (the deck digest): their files are rendered again.
    assert _rendered(outcome) == {"dice files": 4, "card proofs": 57, "card faces": 57, "card pages": 57, "height maps": 57,
                                  "box files": 8}


def test_a_template_or_code_change_renders_every_card(game_copy, tmp_path, monkeypatch):
    import pipeline.build.cardkeys as cardkeys
    import pipeline.build.manifest as manifest

    game = game_copy("mini")
    first = _run(game, tmp_path / "out")
    assert _rendered(first) == {"dice files": 4, "card proofs": 4, "card faces": 4, "card pages": 4, "height maps": 4}
    before = _tree(tmp_path / "out" / "mini")
    changed = manifest.code_digest() + b"a template edited"  # what editing any file under templates/ does to the digest
    monkeypatch.setattr(manifest, "code_digest", lambda: changed)
    monkeypatch.setattr(cardkeys, "code_digest", lambda: changed)
    again = _run(game, tmp_path / "out")
    assert _rendered(again) == {"dice files": 4, "card proofs": 4, "card faces": 4, "card pages": 4, "height maps": 4}
    assert {k: v["kept"] for nouns in again.per_card.values() for k, v in nouns.items()} == {
        "dice files": 0, "card proofs": 0, "card faces": 0, "card pages": 0, "height maps": 0}
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
    said = ("dice: 0 of 4 dice files rendered, 4 kept; tactile: 0 of 4 height maps rendered, 4 kept; archive: 1 of 4 card faces rendered, 3 kept, "
            "1 of 4 card pages rendered, 3 kept; proof: 2 of 4 card proofs rendered, 2 kept")
    assert json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["games"]["mini"]["per_card_summary"] == said
    from pipeline.cli.plain import summary_line

    # and that the files holding every card were rendered again (no page-level reuse in them)
    assert summary_line(outcome).endswith("; " + said + "; the whole-deck files of the stages run (print PDFs, sheets, UV plates, BRF/PEF, archive index) rendered again")


# --- A card edit keeps the dice stage's files whole (pipeline.build.kept_stages) ---------------------


def _dice_inodes(out: Path) -> dict[str, int]:
    return {p.name: p.stat().st_ino for p in sorted((out / "mini" / "dice").iterdir())}


def test_a_card_edit_keeps_the_dice_files_and_a_die_edit_renders_them(game_copy, tmp_path, monkeypatch):
    import pipeline.dice.output as output
    import pipeline.dice.sheet as sheet

    game = game_copy("mini")
    _run(game, tmp_path / "out")
    before = _dice_inodes(tmp_path / "out")
    assert sorted(before) == ["die-d12.3mf", "die-d12.pdf", "die-d12.png", "die-d12.stl"]
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Ember Ranger", "name: Ember Rangers"), encoding="utf-8")

    def fail(*args, **kwargs):
        raise AssertionError("the dice were rendered again")

    with monkeypatch.context() as patch:  # the chains' workers are forked from this process: they see the patch
        patch.setattr(sheet, "render_die_sheets", fail)
        patch.setattr(output, "write_die_models", fail)
        kept = _run(game, tmp_path / "out")
    assert _dice_inodes(tmp_path / "out") == before  # the previous files, hard-linked
    assert kept.per_card["dice"] == {"dice files": {"rendered": 0, "kept": 4, "total": 4}}
    from pipeline.build.report import per_card_summary

    assert per_card_summary(kept.per_card).startswith("dice: 0 of 4 dice files rendered, 4 kept; ")
    data = game / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("name: D12, faces: 12", "name: Twelve, faces: 12"), encoding="utf-8")
    edited = _run(game, tmp_path / "out")
    assert edited.per_card["dice"] == {"dice files": {"rendered": 4, "kept": 0, "total": 4}}
    after = _dice_inodes(tmp_path / "out")
    assert sorted(after) == sorted(before) and all(after[n] != before[n] for n in before)


def test_a_changed_die_file_renders_the_dice_again(game_copy, tmp_path):
    game = game_copy("mini")
    _run(game, tmp_path / "out")
    stl = tmp_path / "out" / "mini" / "dice" / "die-d12.stl"
    good = stl.read_bytes()
    stl.write_bytes(good[:-1] + b"!")
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Ember Ranger", "name: Ember Rangers"), encoding="utf-8")
    outcome = _run(game, tmp_path / "out")
    assert outcome.per_card["dice"] == {"dice files": {"rendered": 4, "kept": 0, "total": 4}}
    assert stl.read_bytes() == good


def test_kept_dice_report_the_findings_of_a_cold_build(game_copy, tmp_path):
    """A die too small for its faces (DI002, an error: built with --force): the kept stage's findings,
    printed, in report.json and in the manifest, are those of a cold build of the edited game."""
    game = game_copy("mini")
    data = game / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("size: 35mm", "size: 15mm"), encoding="utf-8")
    (first,) = run_build([str(game)], BuildSettings(out_dir=str(tmp_path / "warm"), papers=("letter",), force=True))
    assert "DI002" in {f.code for f in first.findings}
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Ember Ranger", "name: Ember Rangers"), encoding="utf-8")
    (warm,) = run_build([str(game)], BuildSettings(out_dir=str(tmp_path / "warm"), papers=("letter",), force=True))
    (cold,) = run_build([str(game)], BuildSettings(out_dir=str(tmp_path / "cold"), papers=("letter",), force=True))
    assert warm.per_card["dice"]["dice files"]["kept"] == 4
    assert sorted(f.code for f in warm.findings) == sorted(f.code for f in cold.findings)  # sorted by file: the out folders differ
    shown = [[f.render() for f in o.findings if f.code.startswith("DI")] for o in (warm, cold)]  # located in game.yaml
    assert shown[0] == shown[1] and any("game.yaml" in line and "DI002" in line for line in shown[0])
    reports = [json.loads((tmp_path / o / "report.json").read_text(encoding="utf-8"))["games"]["mini"]["findings"] for o in ("warm", "cold")]
    assert sorted(map(json.dumps, reports[0])) == sorted(map(json.dumps, reports[1]))  # portable; listed by shown file
    rebuilt, fresh = _tree(tmp_path / "warm" / "mini"), _tree(tmp_path / "cold" / "mini")
    assert [name for name in fresh if rebuilt.get(name) != fresh[name]] == []


def test_a_kept_stage_reports_only_its_own_codes_and_those_are_its_modules():
    # The codes a kept stage carries over must be the ones only it gives, or a kept rebuild would
    # report a finding twice (DI001 is the braille stage's, BX001 the loader's) or drop one.
    # Reference: the codes declared in the stages' own packages, read from their source.
    import re

    from pipeline.build.kept_stages import BOX_CODES, DICE_CODES

    root = Path(__file__).resolve().parents[1]

    def declared(package: str) -> set[str]:
        text = "".join(p.read_text(encoding="utf-8") for p in (root / "pipeline" / package).glob("*.py"))
        return set(re.findall(r'declare\(\s*"([A-Z]{2}\d{3})"', text))

    assert (DICE_CODES, BOX_CODES) == (declared("dice"), declared("boxes"))
    assert "DI001" not in DICE_CODES and "BX001" not in BOX_CODES


def test_a_stage_that_gave_a_foreign_code_is_rendered_again_not_kept(game_copy, tmp_path, monkeypatch):
    # A dice render giving a finding of another stage's code records no key, so the next build
    # renders the dice again instead of keeping them without that finding.
    import pipeline.dice.output as output
    from engine.findings import Location
    from pipeline.braille.dice import UNENCODABLE

    game = game_copy("mini")
    real = output.write_die_models

    def with_foreign(*args, **kwargs):
        import dataclasses

        first, *rest = real(*args, **kwargs)
        foreign = UNENCODABLE.finding("a finding the braille stage gives", Location(str(game / "game.yaml"), 1, 1))
        return [dataclasses.replace(first, findings=(*first.findings, foreign)), *rest]

    with monkeypatch.context() as patch:
        patch.setattr(output, "write_die_models", with_foreign)
        _run(game, tmp_path / "out", force=True)
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("name: Ember Ranger", "name: Ember Rangers"), encoding="utf-8")
    again = _run(game, tmp_path / "out", force=True)
    assert again.per_card["dice"] == {"dice files": {"rendered": 4, "kept": 0, "total": 4}}
