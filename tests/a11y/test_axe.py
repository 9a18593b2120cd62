"""Accessibility of the card archive: axe-core (WCAG 2.0–2.2 A/AA and best practices) in Debian's
Chromium over every archive page of one shipped game, plus reflow at 320 CSS px and a visible
keyboard focus (tests/a11y/run-axe.js). Zero problems or the test fails.

Set up by ``make a11y-setup`` (apt: chromium; npm ci here: axe-core, playwright-core; no
browser download). The test fails, naming that target, when the setup is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import CARDDATA
from engine.load import load_game
from pipeline.archive.site import check_qr_links, write_archive
from pipeline.braille.layout import layout_deck
from pipeline.render.deck_pdf import render_fronts

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
#: The shipped game whose archive is checked.
GAME = CARDDATA / "apprentice"


def _setup_missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not CHROMIUM.is_file():
        return f"{CHROMIUM} is not installed"
    for pkg in ("axe-core", "playwright-core"):
        if not (HERE / "node_modules" / pkg / "package.json").is_file():
            return f"tests/a11y/node_modules/{pkg} is missing"
    return None


@pytest.fixture(scope="module")
def archive_dir(tmp_path_factory) -> Path:
    deck = load_game(GAME)
    blocks, _ = layout_deck(deck)
    out = tmp_path_factory.mktemp("archive")
    fronts = render_fronts(deck, out.parent / f"{out.name}-fronts.pdf")
    write_archive(deck, blocks, fronts.path, out, page_ids=fronts.pages)
    assert check_qr_links(deck, out) == []
    return out


def test_axe_reports_zero_violations_on_every_archive_page(archive_dir):
    missing = _setup_missing()
    if missing:
        pytest.fail(f"accessibility setup incomplete ({missing}): run `make a11y-setup`")
    pages = sorted(archive_dir.rglob("*.html"))
    run = subprocess.run(["node", str(HERE / "run-axe.js"), str(archive_dir)], capture_output=True, text=True, timeout=300)
    assert run.returncode in (0, 1), f"the axe run itself failed:\n{run.stderr}"
    report = json.loads(run.stdout)
    assert report["pages"] == len(pages) >= 2
    assert report["problems"] == [], json.dumps(report["problems"], indent=2, ensure_ascii=False)
    assert report["violations"] == 0 and run.returncode == 0


def test_the_runner_catches_a_bad_page(tmp_path):
    """The runner is not vacuous: a page with known faults fails with those rules named."""
    missing = _setup_missing()
    if missing:
        pytest.fail(f"accessibility setup incomplete ({missing}): run `make a11y-setup`")
    (tmp_path / "bad.html").write_text(
        '<!DOCTYPE html><html><head><title>t</title><style>a:focus{outline:none}</style></head><body>'
        '<a href="#x">first</a><h3>skipped levels</h3><img src="x.png">'
        '<p style="color:#999;background:#fff">low contrast</p>'
        '<div style="width:600px">wide</div></body></html>', encoding="utf-8")
    run = subprocess.run(["node", str(HERE / "run-axe.js"), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    [page] = json.loads(run.stdout)["problems"]
    assert {"html-has-lang", "image-alt", "color-contrast", "landmark-one-main", "page-has-heading-one"} <= {v["id"] for v in page["violations"]}
    assert page["reflow"] == "page is 608 CSS px wide at a 320 px viewport"  # 600 px + the body's 8 px margin
    assert page["focus"] == "focused element <a> has no visible outline"
