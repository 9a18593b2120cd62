"""The shipped games print cleanly: every unique card a page, no print errors, nothing under 18 pt, PDF/X-1a."""

from __future__ import annotations

import subprocess
import sys

import pikepdf
import pytest

from conftest import CARDDATA, GAMES, ROOT
from engine.backs import deck_faces
from engine.findings import Severity
from engine.load import find_games, load_game
from pipeline.render.deck_pdf import render_backs, render_fronts
from pipeline.render.pdfx import check_pdfx

SHIPPED = find_games(CARDDATA)
assert len(SHIPPED) == 4, "the four seed games ship in carddata/"


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    out = tmp_path_factory.mktemp("shipped")
    results = {}
    for folder in SHIPPED:
        deck = load_game(folder)
        results[folder.name] = (deck, render_fronts(deck, out / f"{folder.name}-fronts.pdf"), render_backs(deck, out / f"{folder.name}-backs.pdf"))
    return results


def test_shipped_games_print_without_errors(printed):
    for name, (deck, fronts, backs) in printed.items():
        errors = [f.render() for f in fronts.findings + backs.findings if f.severity is Severity.error]
        assert errors == [], name
        assert list(fronts.pages) == [c.id for c in deck.cards]
        assert list(backs.pages) == list(deck_faces(deck))


def test_shipped_pdfs_are_pdfx_with_no_text_under_18_pt(printed):
    for name, (_, fronts, backs) in printed.items():
        for result in (fronts, backs):
            with pikepdf.open(result.path) as pdf:
                assert check_pdfx(pdf) == [], name
                assert len(pdf.pages) == len(result.pages)
                for page in pdf.pages:
                    assert [float(v) for v in page.obj["/TrimBox"]] == [9, 9, 225, 369]
                    sizes = [float(ops[1]) for ops, _ in pikepdf.parse_content_stream(page, "Tf")]
                    assert sizes and min(sizes) >= 18, name


def test_a_fresh_interpreter_writes_the_same_bytes(tmp_path):
    """invariant mode + content-derived /ID: nothing depends on the process, the clock or render order."""
    here = tmp_path / "here.pdf"
    render_fronts(load_game(GAMES / "mini-plus"), here)
    there = tmp_path / "there.pdf"
    code = (
        "from engine.load import load_game; from pipeline.render.deck_pdf import render_backs, render_fronts; "
        f"render_backs(load_game({str(GAMES / 'mini')!r}), {str(tmp_path / 'b.pdf')!r}); "
        f"render_fronts(load_game({str(GAMES / 'mini-plus')!r}), {str(there)!r})"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert there.read_bytes() == here.read_bytes()


def test_placeholder_count_counts_only_cards_with_an_art_box(printed):
    # Cards with rules text print on the front-rules face, which has no art oval. Counted in the
    # data: apprentice-power-crystal has 10 such cards (its Power Crystals), Claim 29, Enchant 1.
    expected = {
        "apprentice": "60 of 60 unique cards with an art box print with placeholder art",
        "apprentice-power-crystal": "64 of 64 unique cards with an art box print with placeholder art "
                                    "(10 more print no art: their face has no art box)",
        "claim-reinforcements-magic": "30 of 30 unique cards with an art box print with placeholder art "
                                      "(29 more print no art: their face has no art box)",
        "enchant": "56 of 56 unique cards with an art box print with placeholder art (1 more prints no art: its face has no art box)",
    }
    for name, (deck, fronts, _) in printed.items():
        assert [f.message for f in fronts.findings if f.code == "PR004"] == [expected[name]], name
        assert sum(bool((c.rules or "").strip()) for c in deck.cards) == {
            "apprentice": 0, "apprentice-power-crystal": 10, "claim-reinforcements-magic": 29, "enchant": 1}[name]
