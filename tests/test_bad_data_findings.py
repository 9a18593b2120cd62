"""Bad data ends in a located finding, not an internal error: an unknown ``braille.geometry``
(BR005, one place resolves the profile), a card size no layout has (PR007) and an unreadable
``--fronts`` PDF given to ``deckpress uv`` (one line, exit 2, nothing written)."""

from __future__ import annotations

import pytest
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from engine.load import load_game
from pipeline.braille.geometry import PROFILES
from pipeline.braille.layout import profile_for
from pipeline.build.settings import BuildSettings
from pipeline.cli.app import app
from pipeline.build.preflight import preflight
from pipeline.render.deck_pdf import NoCardLayout, render_fronts
from pipeline.render.formpages import CardPdfError
from pipeline.render.tactile import merge_spot_plate, render_braille_layer
from pipeline.build.job import Job
from pipeline.build.stages import stage_braille, stage_print

runner = CliRunner()

UNKNOWN_PROFILE_TEXT = "unknown braille geometry profile 'spec-800'; known: spec800, ada-signage, marburg-medium, california; spec800 is used"
LANDSCAPE = "card: {width: 5in, height: 3in, orientation: landscape}"


def _with_geometry(folder, name="spec-800"):
    """Append ``braille: {geometry: <name>}`` to game.yaml; returns the line number it is on (its value at column 21)."""
    path = folder / "game.yaml"
    text = path.read_text()
    path.write_text(text + f"braille: {{geometry: {name}}}\n")
    return len(text.splitlines()) + 1


def _landscape(folder):
    """Give the game 5×3 in cards (line 4 of the fixture's game.yaml, ``card:`` value at column 7)."""
    path = folder / "game.yaml"
    lines = path.read_text().splitlines()
    assert lines[3].startswith("card: ")
    lines[3] = LANDSCAPE
    path.write_text("\n".join(lines) + "\n")


def test_profile_for_resolves_the_game_profile_or_reports_br005_at_the_geometry_line(game_copy):
    folder = game_copy("mini")
    assert profile_for(load_game(folder).game) == (PROFILES["spec800"], [])
    line = _with_geometry(folder)
    game = load_game(folder).game
    profile, findings = profile_for(game)
    assert profile is PROFILES["spec800"]
    [f] = findings
    assert (f.code, f.severity.value, f.message) == ("BR005", "error", UNKNOWN_PROFILE_TEXT)
    assert (f.location.file, f.location.line, f.location.column) == (str(folder / "game.yaml"), line, 21)
    assert f.hint == "did you mean spec800? set braille.geometry to a known profile"
    # a name close to none gets no guess
    assert profile_for(game.model_copy(update={"braille": game.braille.model_copy(update={"geometry": "zzz"})}))[1][0].hint == (
        "set braille.geometry to a known profile")


def test_profile_for_an_override_wins_and_an_unknown_override_is_a_usage_error(game_copy):
    folder = game_copy("mini")
    _with_geometry(folder)
    game = load_game(folder).game
    assert profile_for(game, "california") == (PROFILES["california"], [])  # the user's choice: no BR005 for the data
    with pytest.raises(ValueError, match="unknown braille geometry profile 'calif'; known: spec800, ada-signage"):
        profile_for(game, "calif")


def test_stage_braille_reports_br005_and_lays_out_at_spec800(game_copy, tmp_path):
    folder = game_copy("mini")
    _with_geometry(folder)
    job = Job(load_game(folder), BuildSettings(), tmp_path)
    findings = stage_braille(job)
    assert [f.code for f in findings] == ["BR005"]
    assert job.braille.profile is PROFILES["spec800"]
    assert {b.profile.name for b in job.braille.blocks.values()} == {"spec800"}
    job = Job(load_game(folder), BuildSettings(geometry="california"), tmp_path)
    findings = stage_braille(job)  # --geometry wins: no BR005; at 8 cells a line long words are divided (BR003)
    assert {f.code for f in findings} == {"BR003"} and job.braille.profile is PROFILES["california"]
    assert job.braille.blocks["ember-apprentice"].cells_per_line == 8


@pytest.mark.parametrize("command", ["check", "emboss", "uv"])
def test_an_unknown_game_profile_is_a_located_br005_in_every_command(command, game_copy, tmp_path):
    folder = game_copy("mini")
    line = _with_geometry(folder)
    extra = [] if command == "check" else ["--out", str(tmp_path / "out")]
    result = runner.invoke(app, [command, str(folder), *extra])
    assert result.exit_code == 1, result.output
    assert f"{folder / 'game.yaml'}:{line}:21: error BR005 unknown-geometry-profile: {UNKNOWN_PROFILE_TEXT}" in result.output
    assert "hint: did you mean spec800?" in result.output
    assert "internal error" not in result.output


def test_a_card_size_without_a_layout_is_pr007_at_the_card_field(game_copy, tmp_path):
    folder = game_copy("mini")
    _landscape(folder)
    deck = load_game(folder)
    with pytest.raises(NoCardLayout) as caught:
        render_fronts(deck, tmp_path / "fronts.pdf")
    assert not (tmp_path / "fronts.pdf").exists()
    f = caught.value.finding
    assert (f.code, f.name, f.severity.value) == ("PR007", "no-card-layout", "error")
    assert (f.location.file, f.location.line, f.location.column) == (str(folder / "game.yaml"), 4, 7)
    assert f.message == ("game 'mini' has 5×3 in cards (360×216 pt) with 0.125 in bleed; the print is drawn with layout "
                         "card-3x5-portrait, 3×5 in with 0.125 in bleed. Layouts: card-3x5-portrait (3×5 in, 0.125 in bleed)")
    # the print stage reports it and draws nothing
    job = Job(deck, BuildSettings(), tmp_path / "staging")
    assert stage_print(job) == [f]
    assert job.printed is None and not (tmp_path / "staging" / "print" / "mini-fronts.pdf").exists()
    assert [x.code for x in preflight(deck) if x.severity.value == "error"] == ["PR007"]


def test_check_reports_pr007_and_render_stops_with_one_line(game_copy, tmp_path):
    folder = game_copy("mini")
    _landscape(folder)
    check = runner.invoke(app, ["check", str(folder)])
    assert check.exit_code == 1, check.output
    assert f"{folder / 'game.yaml'}:4:7: error PR007 no-card-layout: game 'mini' has 5×3 in cards" in check.output
    assert "internal error" not in check.output
    render = runner.invoke(app, ["render", str(folder), "--out", str(tmp_path / "print")])
    assert render.exit_code == 2
    assert render.output.startswith(f"deckpress: {folder / 'game.yaml'}:4:7: game 'mini' has 5×3 in cards")
    assert not (tmp_path / "print" / "mini-fronts.pdf").exists()


def _pages(path, count):
    c = Canvas(str(path), pagesize=(234, 378))
    for _ in range(count):
        c.setBleedBox((0, 0, 234, 378))
        c.setTrimBox((9, 9, 225, 369))
        c.showPage()
    c.save()
    return path


def test_uv_with_a_missing_or_wrong_fronts_pdf_writes_nothing(mini_dir, tmp_path):
    out = tmp_path / "uv"
    missing = runner.invoke(app, ["uv", str(mini_dir), "--out", str(out), "--fronts", str(tmp_path / "missing.pdf")])
    assert missing.exit_code == 2
    assert missing.output.startswith(f"deckpress: cannot read the fronts PDF {tmp_path / 'missing.pdf'}: [Errno 2] No such file")
    assert "internal error" not in missing.output and not out.exists()
    three = runner.invoke(app, ["uv", str(mini_dir), "--out", str(out), "--fronts", str(_pages(tmp_path / "three.pdf", 3))])
    assert three.exit_code == 2
    assert f"deckpress: the fronts PDF {tmp_path / 'three.pdf'} has 3 pages, the game 4 unique cards" in three.output
    assert not out.exists()


def test_merge_spot_plate_names_an_unreadable_print_pdf(tmp_path):
    from pipeline.braille.layout import BrailleBlock

    block = BrailleBlock("a", ("⠁",), 10, 9, (6.35, 33.02), PROFILES["spec800"])
    braille = render_braille_layer({"a": block}, ["a"], tmp_path / "braille.pdf")
    with pytest.raises(CardPdfError, match=r"cannot read the print PDF .*missing\.pdf: \[Errno 2\]"):
        merge_spot_plate(tmp_path / "missing.pdf", braille, tmp_path / "merged.pdf")
    (tmp_path / "junk.pdf").write_bytes(b"not a pdf\n")
    with pytest.raises(CardPdfError, match=r"cannot read the print PDF .*junk\.pdf"):
        merge_spot_plate(tmp_path / "junk.pdf", braille, tmp_path / "merged.pdf")
    assert not (tmp_path / "merged.pdf").exists()
