"""The page geometry of a card face and the painter that fits and draws its text, with the
per-deck work done once (issue 22: the print stage's cost per card).

A deck draws the same few strings on most of its cards (the class's emblem letter and
name, the power values, the keyword lines, "placeholder art") in the same boxes, and
looks up the same layout boxes on every card. So:

- :class:`Sheet` resolves each face's element → box (and the box in PDF pt) once per sheet;
- :func:`cmyk` builds one reportlab colour per CMYK value;
- :class:`Painter` fits text through :func:`fit_text`, which remembers the fit of the same
  paragraphs in the same box (:func:`pipeline.render.textfit.fit` is a pure function of
  them), and checks each string's glyphs once;
- :func:`replayed` keeps the operators of a step drawn alike on many cards (a class's ground,
  emblem badge and placeholder art, a power value, a keyword line) and appends them again.

What is drawn, and the findings, are those of fitting and checking every card afresh: the
same operators in the same order, so the PDFs are byte-identical to drawing without the caches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Callable
from weakref import WeakKeyDictionary

from reportlab.lib.colors import CMYKColor

from engine.findings import Finding, Location, Severity
from engine.model import Colour
from engine.registry import declare
from pipeline.common.layout import Box, CardLayout
from pipeline.render import fonts
from pipeline.render.fonts import FontFace
from pipeline.render.style import Design, TextStyle
from pipeline.render.textfit import Fit, Paragraph, fit

TEXT_DOES_NOT_FIT = declare(
    "PR001",
    "text-does-not-fit",
    Severity.error,
    """A card's text does not fit its box in the layout even at 18 pt, the large-print floor.

    deckpress never prints text under 18 pt: it shrinks from the style's size down to its
    floor, and past that reports the field, how much height it needs, how many lines are
    too many and how many characters (spaces not counted) do not print (the card shows the
    lines that fit, ending in "…"). A single word wider than the box is named; it is
    broken across lines.

    Fails: the name "The Exceedingly Long-Winded Archmage of the Northern Glacier" in a
    2-line name box.

    Passes: the name "Ember Apprentice" (one line at 24 pt).
    """,
)
GLYPH_MISSING = declare(
    "PR005",
    "glyph-not-in-font",
    Severity.error,
    """Text uses a character Atkinson Hyperlegible has no glyph for; it would print as an empty box.

    Fails: ``name: "Fire ★ Mage"`` (U+2605 BLACK STAR).

    Passes: ``name: "Fire Mage"``.
    """,
)


@lru_cache(maxsize=256)
def _colour(c: float, m: float, y: float, k: float) -> CMYKColor:
    return CMYKColor(c / 100.0, m / 100.0, y / 100.0, k / 100.0)


def cmyk(colour: Colour) -> CMYKColor:
    """reportlab colour of a palette entry (percentages 0–100 → fractions 0–1); one object per
    CMYK value (reportlab only reads it)."""
    return _colour(*colour.cmyk)


@dataclass(frozen=True)
class Sheet:
    """Page geometry of one card face: the layout, its design, and trim height and bleed in pt."""

    layout: CardLayout
    design: Design
    #: The deck's one name size per front face, pt (:func:`with_deck_name_sizes`); empty: the style's size.
    name_sizes: tuple[tuple[str, float], ...] = ()
    target: str | None = None  # the printing target id: art is separated through its profile (render.art)
    #: The fit of each (face, card name) at the deck's name size, made while choosing it (:func:`with_deck_name_sizes`).
    name_fits: dict[tuple[str, str], Fit] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def name_size(self, face: str) -> float | None:
        """The deck's name size on ``face`` in pt, or None (each name at its style's size)."""
        return dict(self.name_sizes).get(face)

    @property
    def bleed(self) -> float:
        """Bleed on every side, in pt."""
        return self.layout.bleed

    @property
    def media(self) -> tuple[float, float]:
        """MediaBox width and height in pt (trim plus bleed on every side)."""
        return (self.layout.trim.width + 2 * self.bleed, self.layout.trim.height + 2 * self.bleed)

    def pdf(self, box: Box) -> tuple[float, float, float, float]:
        """A layout box in PDF pt (origin bottom-left of the MediaBox)."""
        return box.to_pdf(self.layout.trim.height, self.bleed)

    @cached_property
    def _boxes(self) -> dict[str, dict[str, Box]]:
        """Element → layout box of every face, resolved once per sheet (the sheet is frozen)."""
        return {face: {element: self.layout.boxes[name] for element, name in self.design.face(face).items() if name}
                for face in ("front-art", "front-rules", "back")}

    def box(self, face: str, element: str) -> Box | None:
        """The layout box ``element`` is drawn in on ``face`` (``front-art``, ``front-rules``, ``back``), or None."""
        return self._boxes[face].get(element)


@lru_cache(maxsize=8192)
def fit_text(paragraphs: tuple[Paragraph, ...], width: float, height: float, valign: str) -> Fit:
    """:func:`pipeline.render.textfit.fit` of ``paragraphs`` in a ``width`` × ``height`` pt box,
    remembered: the fit is a pure function of its arguments and :class:`Fit` is immutable."""
    return fit(paragraphs, width, height, valign)  # type: ignore[arg-type]


@lru_cache(maxsize=8192)
def _missing(face: FontFace, text: str) -> tuple[str, ...]:
    return tuple(face.missing(text))


@dataclass
class Painter:
    """Draws text in boxes and collects findings for one face."""

    canvas: object
    sheet: Sheet
    text_colour: CMYKColor
    subject: str
    findings: list[Finding]

    def para(self, text: str, style_name: str, size: float | None = None) -> Paragraph:
        """A paragraph in a layout text style; ``size`` (pt) replaces the style's preferred size."""
        style: TextStyle = self.sheet.design.text[style_name]
        return Paragraph(text, fonts.face(style.weight), size or style.size, style.min_size, style.leading, style.align)

    def text(self, box: Box, paragraphs: list[Paragraph], field: str, where: Location | Callable[[], Location],
             valign: str | None = None, inset: float = 0.0, fitted: Fit | None = None) -> None:
        """Fit and draw ``paragraphs`` in ``box`` (shrunk by ``inset`` pt each side); findings for misfits
        and missing glyphs, located at ``where`` (or what calling it returns: built only for a finding).
        ``fitted``: the fit of these paragraphs in this box, when the caller has it already."""
        for p in paragraphs:
            bad = _missing(p.face, p.text)
            if bad:
                names = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in bad)
                self.findings.append(GLYPH_MISSING.finding(
                    f"{self.subject} {field}: the font has no glyph for {names}", _located(where),
                    hint="replace the character with one in Atkinson Hyperlegible (Latin letters, digits, common punctuation)"))
        x, y, w, h = self.sheet.pdf(box)
        x, y, w, h = x + inset, y + inset, w - 2 * inset, h - 2 * inset
        style = self.sheet.design.text[field] if field in self.sheet.design.text else None
        result = fitted or fit_text(tuple(paragraphs), w, h, valign or (style.valign if style else "middle"))
        if not result.fits:
            self.findings.append(TEXT_DOES_NOT_FIT.finding(
                f"{self.subject} {field} does not fit its box at 18 pt: {result.shortfall(w)}", _located(where),
                hint=f"shorten the {field} (or give it a shorter form), or enlarge the box in the layout template"))
        self.canvas.setFillColor(self.text_colour)
        draw_lines(self.canvas, result, x, y + h)


#: Per canvas (one PDF): the text operators of each fit drawn at a place, by (id of the fit, x, top).
_DRAWN: WeakKeyDictionary = WeakKeyDictionary()


def draw_lines(canvas, result: Fit, x: float, top: float) -> None:
    """Draw the lines of ``result`` with their top-left at (``x``, ``top``) PDF pt, as reportlab's
    ``setFont`` + ``drawString`` per line would, the operators of a fit at one place made once per canvas.

    A line's operators depend on its font, size, position and text and on which subset codes the
    document gave its characters, which never change once given; so the second card drawing the
    same fit at the same place (a class's emblem letter, "placeholder art", a power, a keyword line)
    appends the same text the first one made. The canvas ends in the last line's font, as after
    drawing it. No-break spaces are drawn as spaces (the font's space glyph).
    """
    if not result.lines:
        return
    drawn = _DRAWN.setdefault(canvas, {})
    key = (id(result), x, top)
    hit = drawn.get(key)
    if hit is None or hit[0] is not result:  # the fit is kept alive in the entry, so its id stays its own
        codes = []
        for line in result.lines:
            canvas.setFont(line.font, line.size)
            text = canvas.beginText(x + line.x, top - line.baseline)  # what drawString does, minus the append
            text.textLine(line.text.replace("\u00a0", " ").replace("\u202f", " "))
            codes.append(text.getCode())
        hit = drawn[key] = (result, "\n".join(codes))
    else:
        canvas.setFont(result.lines[-1].font, result.lines[-1].size)
    canvas.addLiteral(hit[1])


#: Per canvas (one PDF): the operators of each drawing step that :func:`replayed` keeps, by its key.
_STEPS: WeakKeyDictionary = WeakKeyDictionary()
#: A step whose first run raised a finding or touched the graphics state stack or the page's resources: always run.
_RUN = object()
#: The canvas attributes a step may leave changed (reportlab's graphics state: colours, line width, font).
_STATE = ("_fillColorObj", "_strokeColorObj", "_lineWidth", "_lineDash", "_fontname", "_fontsize", "_leading")


def replayed(canvas, key: tuple, keep: tuple, findings: list[Finding], draw: Callable[[], None]) -> None:
    """Run the drawing step ``draw`` once per ``key`` on ``canvas``; later, append the operators it wrote then.

    For the steps a deck draws alike on many cards (a class's ground and frame, emblem badge and
    placeholder art, a power value): ``key`` must hold everything the step's operators depend on,
    with the objects it names by ``id`` in ``keep`` (held here, so their ids stay theirs). The page
    stream is the same text: reportlab joins a page's operators with newlines, as they are joined
    here. A step whose first run added to ``findings`` (its findings name the card), changed the
    saved-state depth or the page's ExtGStates or colour spaces is run every time instead. A replay
    sets the canvas's graphics state attributes the first run changed as it left them (each step sets
    its colours, line width and font before it draws, so none reads what an earlier one left).
    """
    steps = _STEPS.setdefault(canvas, {})
    hit = steps.get(key)
    if hit is None:
        code, state = canvas._code, canvas.__dict__
        start, found, depth = len(code), len(findings), len(canvas.state_stack)
        resources = (dict(canvas._extgstate._d), len(canvas._colorsUsed), len(canvas._shadingUsed))
        before = [state[name] for name in _STATE]
        draw()
        if (len(findings) != found or len(canvas.state_stack) != depth or canvas._code is not code
                or resources != (dict(canvas._extgstate._d), len(canvas._colorsUsed), len(canvas._shadingUsed))):
            steps[key] = _RUN
            return
        changed = {name: state[name] for name, old in zip(_STATE, before) if state[name] is not old}
        steps[key] = ("\n".join(code[start:]) if len(code) > start else None, changed, keep)
    elif hit is _RUN:
        draw()
    else:
        if hit[0] is not None:
            canvas._code.append(hit[0])
        canvas.__dict__.update(hit[1])


def _located(where: Location | Callable[[], Location]) -> Location:
    return where if isinstance(where, Location) else where()
