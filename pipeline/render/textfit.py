"""Word wrap and fit of text into a box, at the style's size down to its floor and never below 18 pt.

A box holds one or more paragraphs (a card's keywords heading and its rules text share
the rules box). :func:`fit` tries the preferred sizes, then every paragraph 1 pt smaller
(each stopping at its own ``min_size``, never under :data:`MIN_TEXT_PT`), and returns the
first layout whose lines fit both the width and the height. When nothing fits even at the
floor, the result says so (``fits`` False, with the height, lines and characters that
overflow) and holds the lines that do fit, the last one ending in an ellipsis when lines are left out:
the caller reports a finding; text is never silently clipped or shrunk below the floor.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal, Sequence

from pipeline.render.fonts import FontFace

#: Large print floor: no text on a card below 18 pt (APH large-print guidelines; DESIGN.md §4).
MIN_TEXT_PT = 18.0
ELLIPSIS = "…"

Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]


@dataclass(frozen=True)
class Paragraph:
    """One run of text in one face: preferred ``size`` and floor ``min_size`` in pt, ``leading`` as a multiple of the size."""

    text: str
    face: FontFace
    size: float
    min_size: float = MIN_TEXT_PT
    leading: float = 1.24
    align: Align = "center"


@dataclass(frozen=True)
class Line:
    """A laid-out line: text, font name and size (pt), x offset of its start and baseline, both pt from the box's top-left."""

    text: str
    font: str
    size: float
    x: float
    baseline: float


@dataclass(frozen=True)
class Fit:
    """The result of fitting paragraphs into a box.

    ``lines`` are ready to draw; ``fits`` is False when the text needs more than the box
    even at the floor size, or has a word wider than the box. Then ``needed_height`` (pt,
    at the floor) and ``box_height`` say by how much, ``overflow_lines`` how many wrapped
    lines do not fit the height and ``overflow_chars`` how many characters of them (spaces
    not counted, characters the ellipsis displaces included) do not print; both are 0 when
    only the width fails. ``too_wide`` names a word wider than the box at the floor size
    (it is broken between characters and every character still prints).
    """

    lines: tuple[Line, ...]
    fits: bool
    sizes: tuple[float, ...]
    needed_height: float
    box_height: float
    overflow_chars: int = 0
    too_wide: str | None = None
    overflow_lines: int = 0

    def shortfall(self, width: float) -> str:
        """How text that does not fit misses its ``width`` pt box, in words (the PR001 message).

        E.g. "needs 151.2 pt of height at 18 pt, the box has 129.6 pt: 1 line too many
        (2 characters do not print)", or, when only the width fails, "the word
        'Supercalifragilistic' is wider than the 180.0 pt box at 18 pt and is broken across
        lines". Empty when the text fits.
        """
        if self.fits:
            return ""
        size = min(self.sizes)
        parts = []
        if self.too_wide:
            parts.append(f"the word {self.too_wide!r} is wider than the {width:.1f} pt box at {size:g} pt"
                         + ("" if self.overflow_lines else " and is broken across lines"))
        if self.overflow_lines:
            lines = f"{self.overflow_lines} line{'s' if self.overflow_lines != 1 else ''} too many"
            chars = "1 character does not" if self.overflow_chars == 1 else f"{self.overflow_chars} characters do not"
            parts.append(f"needs {self.needed_height:.1f} pt of height at {size:g} pt, the box has "
                         f"{self.box_height:.1f} pt: {lines} ({chars} print)")
        return "; ".join(parts)


_BREAK = re.compile(r"[^\S\u00a0\u202f]+")


#: Dashes a line must not start with: a lone one binds to the word before it.
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
#: An ASCII hyphen-minus opening a number ("-5", "-1.5"): a minus sign in meaning.
_MINUS = re.compile(r"(?<![\w.])-(?=\d)")


def typeset(text: str) -> str:
    """Print typography of a text (the braille stage reads the data as written):
    a hyphen-minus opening a number becomes the minus sign U+2212 ("-5" → "−5"; "2-3"
    keeps its hyphen), which Atkinson Hyperlegible has."""
    return _MINUS.sub("\u2212", text)


def _normalise(text: str) -> list[str]:
    """Words of ``text``: spaces, thin spaces, tabs and newlines break; a no-break space (U+00A0, U+202F) binds.

    A dash standing alone ("Reinforcements – Magic") binds to the word before it with a
    no-break space, so no line starts with a dash.
    """
    words: list[str] = []
    for word in _BREAK.split(typeset(text).strip()):
        if not word:
            continue
        if words and not word.strip(_DASHES):  # every character a dash (the word is not empty)
            words[-1] = f"{words[-1]}\u00a0{word}"
        else:
            words.append(word)
    return words


def wrap(words: Sequence[str], face: FontFace, size: float, width: float) -> tuple[list[str], str | None]:
    """Greedy word wrap of ``words`` at ``size`` pt into lines no wider than ``width`` pt.

    Returns the lines and the first word that is wider than ``width`` on its own (None
    when every word fits); such a word is broken between characters so it can be drawn.
    """
    lines: list[str] = []
    too_wide: str | None = None
    current = ""
    for word in words:
        trial = f"{current} {word}" if current else word
        if face.width(trial, size) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        if face.width(word, size) <= width:
            current = word
            continue
        too_wide = too_wide or word
        piece = ""
        for ch in word:
            if piece and face.width(piece + ch, size) > width:
                lines.append(piece)
                piece = ""
            piece += ch
        current = piece
    if current:
        lines.append(current)
    return lines, too_wide


def _layout(paragraphs: Sequence[Paragraph], sizes: Sequence[float], width: float):
    blocks = []
    height = 0.0
    too_wide = None
    for para, size in zip(paragraphs, sizes):
        lines, wide = wrap(_normalise(para.text), para.face, size, width)
        too_wide = too_wide or wide
        line_height = size * para.leading
        blocks.append((para, size, lines, line_height))
        height += len(lines) * line_height
    return blocks, height, too_wide


def fit(paragraphs: Sequence[Paragraph], width: float, height: float, valign: VAlign = "middle") -> Fit:
    """Fit ``paragraphs`` (top to bottom) into a ``width`` × ``height`` pt box.

    Sizes step down 1 pt at a time from each paragraph's ``size`` to its ``min_size``
    (never under 18 pt). Raises ValueError when a paragraph's sizes are below 18 pt or
    its ``min_size`` exceeds its ``size``. Empty paragraphs are skipped.
    """
    paragraphs = [p for p in paragraphs if p.text.strip()]
    for p in paragraphs:
        if p.min_size < MIN_TEXT_PT - 1e-9 or p.size < p.min_size:
            raise ValueError(f"text sizes must satisfy 18 pt ≤ min_size ≤ size, got size {p.size} and min_size {p.min_size}")
    if not paragraphs:
        return Fit((), True, (), 0.0, height)
    steps = max(math.ceil(p.size - p.min_size) for p in paragraphs)
    for step in range(steps + 1):
        sizes = [max(p.min_size, p.size - step) for p in paragraphs]
        blocks, needed, wide = _layout(paragraphs, sizes, width)
        if wide is None and needed <= height + 1e-6:
            return Fit(_place(blocks, width, height, needed, valign), True, tuple(sizes), needed, height)
    # Nothing fits even at the floor: keep the lines that fit, mark the cut with an ellipsis.
    blocks, needed, wide = _layout(paragraphs, sizes, width)
    kept, used, cut, overflow_lines, overflow_chars = [], 0.0, False, 0, 0
    for para, size, lines, lh in blocks:
        room = [] if cut else [ln for i, ln in enumerate(lines) if used + (i + 1) * lh <= height + 1e-6]
        dropped = lines[len(room):]
        overflow_lines += len(dropped)
        overflow_chars += sum(_ink(ln) for ln in dropped)
        if not cut:
            used += len(room) * lh
            kept.append((para, size, room, lh))
        cut = cut or bool(dropped)
    if overflow_lines:
        kept, displaced = _mark_cut(kept, width)
        overflow_chars += displaced
    return Fit(_place(kept, width, height, used, "top"), False, tuple(sizes), needed, height,
               overflow_chars, wide, overflow_lines)


def _ink(line: str) -> int:
    """Characters of ``line`` that print: every character but spaces (no-break spaces included)."""
    return sum(not ch.isspace() for ch in line)


def _mark_cut(kept, width):
    """End the last kept line with an ellipsis, dropping characters until it fits the width.

    Returns the blocks and how many printing characters the ellipsis displaced.
    """
    for index in range(len(kept) - 1, -1, -1):
        para, size, lines, lh = kept[index]
        if lines:
            last = lines[-1]
            while last and para.face.width(last + ELLIPSIS, size) > width:
                last = last[:-1]
            kept[index] = (para, size, lines[:-1] + [last.rstrip() + ELLIPSIS], lh)
            return kept, _ink(lines[-1]) - _ink(last)
    return kept, 0


def _place(blocks, width: float, height: float, needed: float, valign: VAlign) -> tuple[Line, ...]:
    top = {"top": 0.0, "middle": (height - needed) / 2, "bottom": height - needed}[valign]
    out: list[Line] = []
    y = max(0.0, top)
    for para, size, lines, lh in blocks:
        ink = (para.face.ascent - para.face.descent) * size
        for text in lines:
            baseline = y + (lh - ink) / 2 + para.face.ascent * size
            w = para.face.width(text, size)
            x = {"left": 0.0, "center": (width - w) / 2, "right": width - w}[para.align]
            out.append(Line(text, para.face.name, size, x, baseline))
            y += lh
    return tuple(out)
