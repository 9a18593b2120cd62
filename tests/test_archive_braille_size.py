"""The archive shows braille as real Unicode text at a size a sighted helper can read, and tells
a reader how a die shows which way is up: the orientation bar the die carries (issue #25).

The dot size and spacing on screen are measured on the glyph itself: Pillow renders U+283F
(all six dots) from DejaVu Sans, the first font the stylesheet asks for braille, and the
ink runs give the dots' diameter and centre spacing in em. The stylesheet's font-size (rem,
16 px root, 96 CSS px per inch, CSS Values 4 §6.2) turns them into mm, compared with the
spec800 geometry the card embosses (pipeline.braille.geometry: dot pitch 2.34 mm, base 1.44 mm).
"""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from engine.load import load_game
from engine.model import Die
from pipeline.archive.site import die_view, write_archive
from pipeline.braille.geometry import get_profile
from pipeline.dice.plan import BAR_MM

CSS = Path(__file__).resolve().parent.parent / "templates" / "archive" / "archive.css"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # Debian fonts-dejavu-core
MM_PER_CSS_PX = 25.4 / 96


def _runs(values: np.ndarray) -> list[tuple[int, int]]:
    """Runs of consecutive integers in sorted ``values``: ``[(first, last)]``."""
    out, start, prev = [], int(values[0]), int(values[0])
    for v in map(int, values[1:]):
        if v != prev + 1:
            out.append((start, prev))
            start = v
        prev = v
    return out + [(start, prev)]


def _six_dots_em() -> tuple[float, float]:
    """(dot diameter, smallest centre-to-centre dot spacing) of DejaVu Sans's ⠿, in em."""
    em = 1000
    image = Image.new("L", (2 * em, 2 * em), 255)
    ImageDraw.Draw(image).text((em // 4, em // 4), "\u283f", font=ImageFont.truetype(str(DEJAVU), em), fill=0)
    ys, xs = np.nonzero(np.array(image) < 128)
    cols, rows = _runs(np.unique(xs)), _runs(np.unique(ys))
    assert (len(cols), len(rows)) == (2, 3)  # two columns, three rows of dots
    diameter = min(b - a + 1 for a, b in cols + rows) / em
    centres = lambda runs: [(a + b) / 2 for a, b in runs]  # noqa: E731
    spacing = min(np.diff(centres(cols)).min(), np.diff(centres(rows)).min()) / em
    return diameter, spacing


def _font_size_rem(selector: str) -> float:
    """The font-size (rem) the stylesheet's rule for exactly ``selector`` sets."""
    rule = re.search(r"(?m)^" + re.escape(selector) + r"\s*\{([^}]*)\}", CSS.read_text())
    assert rule, selector
    size = re.search(r"font-size:\s*([\d.]+)rem", rule.group(1))
    assert size, rule.group(0)
    return float(size.group(1))


@pytest.mark.parametrize("selector", ["td.cells", ".inline-cells"])
def test_braille_is_shown_at_least_as_large_as_the_card_embosses_it(selector):
    assert re.search(r'\[lang="en-Brai"\]\s*\{\s*font-family:\s*"DejaVu Sans"', CSS.read_text())  # measured font first
    diameter_em, spacing_em = _six_dots_em()
    assert (diameter_em, spacing_em) == pytest.approx((0.146, 0.276), abs=0.002)
    px = _font_size_rem(selector) * 16
    spec800 = get_profile("spec800")
    assert spacing_em * px * MM_PER_CSS_PX >= spec800.dot_pitch  # 2.93 mm ≥ 2.34 mm at 2.5rem
    assert diameter_em * px * MM_PER_CSS_PX >= spec800.dot_base  # 1.55 mm ≥ 1.44 mm


def test_archive_braille_is_unicode_text_in_the_styled_elements(mini_dir, tmp_path):
    write_archive(load_game(mini_dir), {}, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "index.html").read_bytes())
    spans = doc.xpath("//span[@lang='en-Brai']")
    assert spans
    for span in spans:  # every braille span sits where a size rule reaches it
        parent = span.getparent()
        assert "inline-cells" in span.get("class", "") or (parent.tag == "td" and "cells" in parent.get("class", "")), lxml.html.tostring(parent)
        assert span.text_content() and all("\u2800" <= ch <= "\u28ff" for ch in span.text_content())


def test_die_explanation_describes_the_orientation_bar():
    letters = Die(id="d12", name="D12", faces=12, size="35mm", shape="d12-dodecahedron", encoding="letters")
    text = die_view(letters)["explanation"]
    assert "hold the die so the print" not in text
    assert BAR_MM == (6.0, 0.6)
    assert "Below both runs a short bar, 6 mm long and 0.6 mm wide, 1 mm under them" in text  # pipeline.dice.plan BAR_MM, GAP_MM
    assert "raised like the braille dots" in text and "Turn the die until the bar lies below the braille, nearest you" in text
    # by hand: upside down, d (dots 145) becomes dots 236, felt one row up as 125 = h; f (124) → 356 → 245 = j
    assert text.endswith("upside down, d reads as h and f as j.")
    numbers = die_view(letters.model_copy(update={"encoding": "ueb-numbers"}))["explanation"]
    assert "Below both runs a short bar" in numbers and "d reads as h" not in numbers
