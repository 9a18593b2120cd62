"""``deckpress watch`` and ``deckpress proof``: only changed cards are re-proofed, findings appear as
the data changes, broken data is reported without stopping, and the loop reacts to a saved file."""

from __future__ import annotations

import threading
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.build.watch import change_filter, rebuild, watch


def _set(folder: Path, old: str, new: str) -> None:
    path = folder / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_rebuild_proofs_only_the_changed_card(game_copy, tmp_path):
    game = game_copy("mini")
    out = tmp_path / "proofs"
    state, first = rebuild(game, out)
    assert first.rebuilt == ("ember-apprentice", "ember-ranger", "forest-apprentice", "fireball")
    assert sorted(p.name for p in (out / "fronts").iterdir()) == [".deckpress-files", "ember-apprentice.png", "ember-ranger.png", "fireball.png", "forest-apprentice.png"]
    assert (out / "contact-sheet.html").is_file() and sorted(p.name for p in (out / "backs").iterdir()) == [".deckpress-files", "ember.png", "forest.png"]
    before = {p.name: p.stat().st_mtime_ns for p in (out / "fronts").iterdir()}

    state, idle = rebuild(game, out, state)
    assert idle.rebuilt == () and idle.new_findings == ()

    _set(game, "power: 5", "power: 6")  # ember-ranger
    state, step = rebuild(game, out, state)
    assert step.rebuilt == ("ember-ranger",)
    after = {p.name: p.stat().st_mtime_ns for p in (out / "fronts").iterdir()}
    # The folder's ledger records each file's sha256, so it changes with the one card's proof.
    assert [n for n in before if after[n] != before[n] and n != ".deckpress-files"] == ["ember-ranger.png"]


def test_findings_appear_and_clear_as_the_data_changes(game_copy, tmp_path):
    game = game_copy("mini")
    out = tmp_path / "proofs"
    state, _ = rebuild(game, out)
    _set(game, "name: Fireball", "name: Fireball of the Very Long Burning Winter Night Sky Over the Ember Mountains And The Forest Lake")
    state, step = rebuild(game, out, state)
    assert step.rebuilt == ("fireball",)
    new = {(f.code, f.location.card) for f in step.new_findings}
    assert ("BR001", "fireball") in new  # the braille no longer fits the box
    sheet = (out / "contact-sheet.html").read_text(encoding="utf-8")
    assert "BR001" in sheet
    _set(game, "name: Fireball of the Very Long Burning Winter Night Sky Over the Ember Mountains And The Forest Lake", "name: Fireball")
    state, step = rebuild(game, out, state)
    assert not any(f.code == "BR001" for f in step.findings)


def test_broken_data_is_reported_and_the_next_good_save_rebuilds(game_copy, tmp_path):
    game = game_copy("mini")
    out = tmp_path / "proofs"
    state, _ = rebuild(game, out)
    _set(game, "copies: 2", "copies: two")
    kept, step = rebuild(game, out, state)
    assert step.error and kept is state
    assert [(f.code, f.location.file.endswith("cards.yaml")) for f in step.findings] == [("DA003", True)]
    _set(game, "copies: two", "copies: 3")  # ember-apprentice
    state, step = rebuild(game, out, kept)
    assert not step.error and step.rebuilt == ("ember-apprentice",)


def test_removed_card_loses_its_proof(game_copy, tmp_path):
    game = game_copy("mini")
    out = tmp_path / "proofs"
    state, _ = rebuild(game, out)
    text = (game / "cards.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: ember-ranger")
    end = text.index("  - id: forest-apprentice")
    (game / "cards.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    state, step = rebuild(game, out, state)
    assert step.removed == ("ember-ranger",) and step.rebuilt == ()
    assert not (out / "fronts" / "ember-ranger.png").exists()


def test_filter_ignores_the_proof_folder(tmp_path):
    keep = change_filter(tmp_path / "out")
    assert keep(None, str(tmp_path / "game" / "cards.yaml"))
    assert keep(None, str(tmp_path / "game" / "art" / "a.png"))
    assert not keep(None, str(tmp_path / "out" / "fronts" / "a.png"))
    assert not keep(None, str(tmp_path / "game" / "notes.txt"))


def test_watch_loop_reacts_to_a_saved_file(game_copy, tmp_path):
    game = game_copy("mini")
    out = tmp_path / "proofs"
    reports = []
    changed = threading.Event()
    stop = threading.Event()

    def report(r):
        reports.append(r)
        if r.rebuilt == ("fireball",):
            changed.set()

    thread = threading.Thread(target=watch, args=(game, out, report), kwargs={"stop": stop, "paths": [game]}, daemon=True)
    thread.start()
    try:
        for _ in range(100):  # wait for the first full proof run (the loop starts watching after it)
            if reports:
                break
            threading.Event().wait(0.1)
        threading.Event().wait(0.3)
        _set(game, 'power: "?"', "power: 7")
        assert changed.wait(20), [r.rebuilt for r in reports]
    finally:
        stop.set()
        thread.join(10)
    assert len(reports[0].rebuilt) == 4 and not thread.is_alive()


def test_proof_command_one_card(mini_dir, tmp_path):
    result = CliRunner().invoke(app, ["proof", str(mini_dir), "--card", "fireball", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "fronts/fireball.png" in result.output
    assert sorted(p.name for p in (tmp_path / "fronts").iterdir()) == [".deckpress-files", "fireball.png"]
    result = CliRunner().invoke(app, ["proof", str(mini_dir), "--card", "nope", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "no card 'nope'" in result.output


def test_a_class_typo_is_reported_and_watching_goes_on(game_copy, tmp_path):
    game = game_copy("mini")
    out = tmp_path / "proofs"
    state, _ = rebuild(game, out)
    _set(game, "class: forest\n    kind: spell", "class: forst\n    kind: spell")  # fireball's class
    state, step = rebuild(game, out, state)
    assert ("CP008", "fireball") in {(f.code, f.location.card) for f in step.new_findings}
    assert "fireball" not in step.rebuilt
    _set(game, "class: forst\n    kind: spell", "class: forest\n    kind: spell")
    state, step = rebuild(game, out, state)
    assert step.rebuilt == ("fireball",) and not any(f.code == "CP008" for f in step.findings)
