"""``--target NAME`` through the build and the CLI: every PDF's output intent, the contrast and ink checks
and the build key follow the chosen printing target; art is separated through its profile."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from typer.testing import CliRunner

from conftest import GAMES
from pipeline.build.manifest import build_key
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.cli.app import app
from pipeline.render.colour import separate_image
from pipeline.render.targets import load_target

runner = CliRunner()


def _intents(folder: Path) -> dict[str, tuple[str, str]]:
    """Every PDF under ``folder`` → (OutputConditionIdentifier, S) of its one output intent, read with pikepdf."""
    out = {}
    for path in sorted(folder.rglob("*.pdf")):
        with pikepdf.open(path) as pdf:
            intents = list(pdf.Root.get("/OutputIntents", []))
            out[str(path.relative_to(folder))] = tuple((str(i.OutputConditionIdentifier), str(i.S)) for i in intents)
    return out


def test_a_build_for_the_us_press_target_gives_every_pdf_the_gracol_output_intent(tmp_path):
    """Reference: pikepdf reads each written PDF's /OutputIntents (the registered CGATS TR 006 = GRACoL name)."""
    settings = BuildSettings(out_dir=str(tmp_path), papers=("letter",), target="gracol")
    (outcome,) = run_build([str(GAMES / "mini")], settings)
    assert outcome.status == "built", outcome.findings
    intents = _intents(tmp_path / "mini")
    # print, UV plates and merged fronts, press sheets and calibration, dice sheets: the press PDFs
    assert {"print/mini-fronts.pdf", "print/mini-backs.pdf", "uv/mini-braille.pdf", "uv/mini-fronts+braille.pdf",
            "sheets/mini-letter-fronts.pdf", "sheets/mini-letter-duplex-calibration.pdf"} <= set(intents)
    pdfx = {name: v for name, v in intents.items() if v}  # the dice sheets and UV ticket are not PDF/X
    assert set(pdfx.values()) == {(("CGATS TR 006", "/GTS_PDFX"),)}, pdfx
    assert all(not name.startswith(("print/", "sheets/")) for name, v in intents.items() if not v)
    manifest = json.loads((tmp_path / "mini" / "manifest.json").read_text())
    assert manifest["settings"]["target"] == "gracol"


def test_the_build_key_changes_with_the_target():
    keys = {t: build_key(GAMES / "mini", BuildSettings(target=t).key_dict()) for t in ("fogra39", "gracol", "swop", "drivethrucards")}
    assert len(set(keys.values())) == 4


def test_the_ink_check_follows_the_target_in_a_build(game_copy, tmp_path):
    """310 % total coverage is inside FOGRA39's 330 % and over SWOP's 300 %: only the SWOP build stops (PR010)."""
    from pipeline.render.colour import soft_proof_srgb

    folder = game_copy("mini")
    game = folder / "game.yaml"
    rich = soft_proof_srgb((70, 70, 70, 100), "swop")
    text = game.read_text().replace('      background: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}\n      text: {cmyk: [0, 0, 0, 100], srgb: "#2b2b2a"}',
                                    f'      background: {{cmyk: [70, 70, 70, 100], srgb: "{rich}"}}\n      text: {{cmyk: [0, 0, 0, 0], srgb: "#ffffff"}}', 1)
    game.write_text(text)
    (stopped,) = run_build([str(folder)], BuildSettings(out_dir=str(tmp_path / "swop"), only=("print",), target="swop"))
    assert stopped.status == "stopped"
    (ink,) = [f for f in stopped.findings if f.code == "PR010"]
    assert "covers 310 %, over the 300 % ink limit of CGATS TR 003" in ink.message
    (built,) = run_build([str(folder)], BuildSettings(out_dir=str(tmp_path / "fogra"), only=("print",)))
    assert "PR010" not in {f.code for f in built.findings}


def test_an_unknown_target_is_one_line_naming_the_targets(mini_dir, tmp_path):
    for command in (["build", str(mini_dir), "--out", str(tmp_path / "o")], ["render", str(mini_dir), "--out", str(tmp_path / "r")],
                    ["impose", str(mini_dir)], ["uv", str(mini_dir), "--out", str(tmp_path / "u")]):
        result = runner.invoke(app, [*command, "--target", "offset"])
        assert result.exit_code == 2, (command, result.output)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert lines == ["deckpress: unknown printing target 'offset'; known: drivethrucards, fogra39, gracol, "
                         "makeplayingcards, swop, thegamecrafter"], command
    assert not (tmp_path / "o").exists() and not (tmp_path / "r").exists()


def test_render_target_swop_writes_the_swop_output_intent(mini_dir, tmp_path):
    result = runner.invoke(app, ["render", str(mini_dir), "--out", str(tmp_path), "--target", "swop"])
    assert result.exit_code == 0, result.output
    assert set(_intents(tmp_path).values()) == {(("CGATS TR 003", "/GTS_PDFX"),)}


def _ghostscript_cmyk(rgb: tuple[int, int, int], profile: Path, tmp_path: Path) -> tuple[int, ...]:
    """An sRGB patch separated by Ghostscript (its own CMM, DeviceRGB as sRGB) to CMYK through ``profile``, perceptual, no BPC."""
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

    pdf, tif = tmp_path / "rgb.pdf", tmp_path / "rgb.tif"
    canvas = Canvas(str(pdf), pagesize=(72, 72))
    canvas.setFillColor(Color(*(v / 255 for v in rgb)))
    canvas.rect(0, 0, 72, 72, fill=1, stroke=0)
    canvas.save()
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r10", f"-sOutputICCProfile={profile}",
                    "-dRenderIntent=0", "-dBlackPtComp=0", f"-sOutputFile={tif}", str(pdf)], check=True)
    return Image.open(tif).getpixel((5, 5))


@pytest.mark.parametrize("target", ["fogra39", "swop"])
def test_rgb_art_is_separated_through_the_target_profile_as_ghostscript_does(target, tmp_path):
    """Reference: Ghostscript's CMM separating the same sRGB colours through the same profile, within 2 % per ink."""
    profile = load_target(target).profile_path
    for rgb in [(135, 65, 37), (40, 120, 200), (200, 200, 60), (0, 0, 0)]:
        ours = separate_image(Image.new("RGB", (1, 1), rgb), target).getpixel((0, 0))
        theirs = _ghostscript_cmyk(rgb, profile, tmp_path)
        assert all(abs(a - b) <= 0.02 * 255 for a, b in zip(ours, theirs)), (rgb, ours, theirs)
    # black separates to the profile's rich black, within its ink limit: not the device formula's K100 alone
    c, m, y, k = separate_image(Image.new("RGB", (1, 1), (0, 0, 0)), target).getpixel((0, 0))
    assert k == 255 and c > 100 and (c + m + y + k) / 2.55 <= load_target(target).ink_limit + 1


def test_art_in_the_print_pdf_is_the_profile_separation(game_copy):
    """The card's art image XObject holds the separation through the chosen target's profile."""
    from pipeline.render.deck_pdf import render_fronts
    from engine.load import load_game

    folder = game_copy("mini")
    Image.new("RGB", (120, 90), (40, 120, 200)).save(folder / "sea.png")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Ember Apprentice\n", "    name: Ember Apprentice\n    image: sea.png\n", 1))
    result = render_fronts(load_game(folder), folder / "out.pdf", target="gracol")
    with pikepdf.open(result.path) as pdf:
        (image,) = [x for x in pdf.pages[0].obj.Resources.XObject.values() if x.Subtype == pikepdf.Name.Image]
        pixel = pikepdf.PdfImage(image).as_pil_image().getpixel((10, 10))
    assert pixel == separate_image(Image.new("RGB", (1, 1), (40, 120, 200)), "gracol").getpixel((0, 0))
    assert pixel != Image.new("RGB", (1, 1), (40, 120, 200)).convert("CMYK").getpixel((0, 0))  # not the device formula


def test_check_measures_against_the_target_and_runs_the_vendor_cut_check(mini_dir):
    default = runner.invoke(app, ["check", str(mini_dir), "--format", "json"])
    vendor = runner.invoke(app, ["check", str(mini_dir), "--format", "json", "--target", "thegamecrafter"])
    codes = lambda result: {f["code"] for f in json.loads(result.output)["findings"]}  # noqa: E731
    assert "VE002" not in codes(default) and "VE002" in codes(vendor)
    assert vendor.exit_code == 0  # a warning: the frame on their cut line, no text in it
    assert runner.invoke(app, ["check", str(mini_dir), "--target", "thegamecrafter", "--strict"]).exit_code == 1
