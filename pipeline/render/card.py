"""One card face drawn on a reportlab canvas from the layout template (DESIGN.md §4).

Front, top to bottom (Apprentice rulebook, "Cards"): the QR top-left, the class emblem
badge, the power top-right (or a Power Crystal's A/P indicator), the art oval (the card's
image, or drawn placeholder art showing the emblem and marked "placeholder art"), the
name at the bottom and the keyword(s) below it. Cards with rules text (Claim's
artifacts, Power Crystals) use the ``front-rules`` face: no oval, a rules box headed by
the keywords (an ``image:`` on such a card is not printed and is reported, PR009). The back (one per back of the back model, :mod:`engine.backs`) shows the game title, the emblem and the back's name.

The class colour (the palette's ``background``) runs to the bleed edge, framed in the
palette's ``accent`` at the safe inset; every word is the palette's ``text`` colour on
its ``background`` (the pair whose contrast PR002 checks); everything is CMYK. Drawing returns findings instead of
shrinking text below 18 pt or clipping it silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from reportlab.lib.colors import CMYKColor

from engine.findings import Finding, Location, Severity
from engine.backs import BackFace
from engine.model import Card, CardClass, Colour, Game, Palette
from engine.registry import declare
from pipeline.qr import codes as qr
from pipeline.common.layout import Box, CardLayout
from pipeline.render import fonts
from pipeline.render.art import ArtError, art_path, check_art, load_cmyk
from pipeline.render.style import Design, TextStyle
from pipeline.render.textfit import Paragraph, fit

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
IMAGE_UNREADABLE = declare(
    "PR003",
    "art-image-unreadable",
    Severity.error,
    """A card names an ``image`` that is missing or is not an image Pillow can read.

    The card is printed with placeholder art instead, so the sheet is still usable for a proof.

    Fails: ``image: art/ember-apprentice.png`` when the file is not in the game folder.

    Passes: ``image: art/ember-apprentice.png`` next to game.yaml, or no ``image`` (placeholder art).
    """,
)
PLACEHOLDER_ART = declare(
    "PR004",
    "placeholder-art",
    Severity.info,
    """Cards printed with drawn placeholder art because their data names no image.

    One finding per game with the count: placeholder art is marked on the card itself.
    Only cards whose face has an art box count: in card-3x5-portrait a card with rules
    text uses the ``front-rules`` face, which prints no art at all (the message says how
    many such cards there are).

    Fails: a card without ``image:`` and without rules text (reported, not an error).

    Passes: every card with an art box names its art with ``image:``; a Power Crystal
    with rules text and no ``image:`` (its face has no art box).
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
ELEMENTS_OVERLAP = declare(
    "PR006",
    "elements-share-a-box",
    Severity.error,
    """A card carries two elements that the layout draws in the same box (a power and an A/P indicator).

    Fails: a Power Crystal with ``power: 3`` and ``indicator: A`` when the layout puts both in the ``power`` box.

    Passes: a Power Crystal with ``indicator: A`` and no power.
    """,
)

ART_NOT_SHOWN = declare(
    "PR009",
    "art-not-shown",
    Severity.warning,
    """A card names an ``image`` but the layout face it prints on has no art box, so the image is not printed.

    In card-3x5-portrait, cards with rules text (Claim's artifacts, Power Crystals) use
    the ``front-rules`` face: the rules box takes the art's place so the text stays at
    18 pt or more. The finding sits on the card's ``image:`` line.

    Fails: a Power Crystal with ``rules: Play another card into the battle.`` and
    ``image: art/rally-crystal.png``.

    Passes: the same Power Crystal without ``image:``; or a character without rules text
    and with ``image: art/ember-apprentice.png`` (printed in the art oval).
    """,
)

#: What each front face is for, in messages.
FACE_PURPOSE = {"front-art": "cards without rules text", "front-rules": "cards with rules text"}

INDICATOR_LABELS = {"A": "Active", "P": "Passive"}


def cmyk(colour: Colour) -> CMYKColor:
    """reportlab colour of a palette entry (percentages 0–100 → fractions 0–1)."""
    c, m, y, k = colour.cmyk
    return CMYKColor(c / 100.0, m / 100.0, y / 100.0, k / 100.0)


@dataclass(frozen=True)
class Sheet:
    """Page geometry of one card face: the layout, its design, and trim height and bleed in pt."""

    layout: CardLayout
    design: Design
    #: The deck's one name size per front face, pt (:func:`with_deck_name_sizes`); empty: the style's size.
    name_sizes: tuple[tuple[str, float], ...] = ()
    target: str | None = None  # the printing target id: art is separated through its profile (render.art)

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

    def box(self, face: str, element: str) -> Box | None:
        """The layout box ``element`` is drawn in on ``face`` (``front-art``, ``front-rules``, ``back``), or None."""
        name = self.design.face(face).get(element)  # type: ignore[arg-type]
        return self.layout.boxes[name] if name else None


def front_face(card: Card) -> Literal["front-art", "front-rules"]:
    """The layout face ``card``'s front prints on: ``front-rules`` when it has rules text (not blank), else ``front-art``."""
    return "front-rules" if (card.rules or "").strip() else "front-art"


def art_box(card: Card, sheet: Sheet) -> Box | None:
    """The box (pt from the trim's top-left) ``card``'s art prints in, or None when its face has no art box."""
    return sheet.box(front_face(card), "art")


def image_readable(path: Path) -> bool:
    """True when ``path`` is a file Pillow opens and verifies within the pixel budget (:func:`art.check_art`)."""
    try:
        check_art(path)
    except ArtError:
        return False
    return True


def prints_placeholder_art(card: Card, sheet: Sheet, art_root: Path | None = None) -> bool:
    """True when ``card``'s front prints drawn placeholder art.

    That is when its face has an art box (:func:`art_box`) and the card has no usable image:
    no ``image:``, or a file under ``art_root`` (the game folder) that is missing or that
    Pillow cannot read (:func:`image_readable`; PR003 reports those). A card whose face has
    no art box prints no art at all and gets False. The print stage's PR004 count and the
    proof's PLACEHOLDER ART stamp both use this rule.
    """
    if art_box(card, sheet) is None:
        return False
    if not card.image:
        return True
    try:
        return not image_readable(art_path(art_root or Path("."), card.image))
    except ArtError:
        return True


@dataclass
class _Painter:
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

    def text(self, box: Box, paragraphs: list[Paragraph], field: str, where: Location, valign: str | None = None,
             inset: float = 0.0) -> None:
        """Fit and draw ``paragraphs`` in ``box`` (shrunk by ``inset`` pt each side); findings for misfits and missing glyphs."""
        for p in paragraphs:
            bad = p.face.missing(p.text)
            if bad:
                names = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in bad)
                self.findings.append(GLYPH_MISSING.finding(
                    f"{self.subject} {field}: the font has no glyph for {names}", where,
                    hint="replace the character with one in Atkinson Hyperlegible (Latin letters, digits, common punctuation)"))
        x, y, w, h = self.sheet.pdf(box)
        x, y, w, h = x + inset, y + inset, w - 2 * inset, h - 2 * inset
        style = self.sheet.design.text[field] if field in self.sheet.design.text else None
        result = fit(paragraphs, w, h, valign or (style.valign if style else "middle"))
        if not result.fits:
            self.findings.append(TEXT_DOES_NOT_FIT.finding(
                f"{self.subject} {field} does not fit its box at 18 pt: {result.shortfall(w)}", where,
                hint=f"shorten the {field} (or give it a shorter form), or enlarge the box in the layout template"))
        c = self.canvas
        c.setFillColor(self.text_colour)
        top = y + h
        for line in result.lines:
            c.setFont(line.font, line.size)
            c.drawString(x + line.x, top - line.baseline, line.text.replace("\u00a0", " ").replace("\u202f", " "))


def _ground(canvas, sheet: Sheet, pal: Palette) -> None:
    """The ground colour (palette ``background``) to the bleed edge, a frame (``accent``, else ``text``) at the safe inset."""
    width, height = sheet.media
    canvas.setFillColor(cmyk(pal.background))
    canvas.rect(0, 0, width, height, stroke=0, fill=1)
    frame = sheet.design.strokes.frame
    inset = sheet.bleed + sheet.layout.safe_inset + frame / 2
    canvas.setStrokeColor(_ring_colour(pal))
    canvas.setLineWidth(frame)
    canvas.roundRect(inset, inset, width - 2 * inset, height - 2 * inset, sheet.layout.safe_inset, stroke=1, fill=0)


def _ring_colour(pal: Palette) -> CMYKColor:
    return cmyk(pal.accent or pal.text)


def _circle(canvas, sheet: Sheet, box: Box, pal: Palette, width: float) -> None:
    x, y, w, h = sheet.pdf(box)
    r = min(w, h) / 2 - width / 2
    canvas.setFillColor(cmyk(pal.background))
    canvas.setStrokeColor(_ring_colour(pal))
    canvas.setLineWidth(width)
    canvas.circle(x + w / 2, y + h / 2, r, stroke=1, fill=1)


def draw_front(canvas, card: Card, cls: CardClass, game: Game, sheet: Sheet, art_root: Path | None = None) -> list[Finding]:
    """Draw the front of ``card`` on the current page of ``canvas``; returns PR/QR findings.

    ``art_root`` is the folder ``card.image`` is relative to (the game folder). The face is
    :func:`front_face`. Findings: PR001 text that does not fit at 18 pt, PR003 an unreadable
    image, PR005 missing glyphs, PR006 a power and an indicator in one box, PR009 an image
    on a face without an art box, QR001 a URL too dense for the qr box.
    """
    findings: list[Finding] = []
    where = lambda f: card.where(f).with_card(card.id)  # noqa: E731
    face = front_face(card)
    paint = _Painter(canvas, sheet, cmyk(cls.palette.text), f"card {card.id!r}", findings)
    _ground(canvas, sheet, cls.palette)

    url = game.archive.url_for(card)
    qr_box = sheet.pdf(sheet.layout.qr)
    findings += qr.check_qr_size(url, qr_box, card.where().with_card(card.id))
    qr.draw_qr(canvas, url, qr_box)

    emblem = sheet.box(face, "emblem")
    if emblem is not None:
        _circle(canvas, sheet, emblem, cls.palette, sheet.design.strokes.emblem)
        paint.text(emblem, [paint.para(cls.indicator, "emblem")], "emblem", cls.where("indicator").with_card(card.id))

    power_box, indicator_box = sheet.box(face, "power"), sheet.box(face, "indicator")
    if card.power and card.indicator and power_box is not None and power_box == indicator_box:
        findings.append(ELEMENTS_OVERLAP.finding(
            f"card {card.id!r} has power {card.power!r} and indicator {card.indicator!r}, both drawn in one box",
            where("indicator"), hint="give the indicator its own box in the layout's faces, or drop one of them"))
    if card.power and power_box is not None:
        paint.text(power_box, [paint.para(card.power, "power")], "power", where("power"))
    if card.indicator and indicator_box is not None:
        paint.text(indicator_box, [paint.para(card.indicator, "indicator"),
                                   paint.para(INDICATOR_LABELS[card.indicator], "indicator_label")],
                   "indicator", where("indicator"), valign="top")

    art = sheet.box(face, "art")
    if art is not None:
        findings += _draw_art(canvas, card, cls, sheet, art, paint, art_root)
    elif card.image:
        findings.append(ART_NOT_SHOWN.finding(
            f"card {card.id!r} names image {card.image!r}, but layout {sheet.layout.name} has no art box on its "
            f"{face} face ({FACE_PURPOSE[face]}): the image is not printed",
            card.where("image").with_card(card.id),
            hint=f"drop image: from the card, or give the layout's {face} face an art box (with room left for the text at 18 pt)"))

    keywords = " ".join(k.replace(" ", "\u00a0") for k in card.keywords)
    rules_box = sheet.box(face, "rules")
    if rules_box is not None:
        paras = [paint.para(keywords, "keywords")] if keywords and sheet.box(face, "keywords") is None else []
        paras.append(paint.para(card.rules or "", "rules"))
        paint.text(rules_box, paras, "rules", where("rules"), valign="top")
    name_box = sheet.box(face, "name")
    if name_box is not None:
        paint.text(name_box, [paint.para(card.name, "name", sheet.name_size(face))], "name", where("name"))
    keywords_box = sheet.box(face, "keywords")
    if keywords_box is not None and keywords:
        paint.text(keywords_box, [paint.para(keywords, "keywords")], "keywords", where("keywords"))
    return findings


def _draw_art(canvas, card: Card, cls: CardClass, sheet: Sheet, box: Box, paint: _Painter, art_root: Path | None) -> list[Finding]:
    """The art oval: the card's image clipped to the oval, else placeholder art (emblem + mark)."""
    findings: list[Finding] = []
    x, y, w, h = sheet.pdf(box)
    stroke = sheet.design.strokes.oval
    image = None
    if card.image:
        try:
            image = load_cmyk(art_path(art_root or Path("."), card.image), w, h, cls.palette.background.cmyk, sheet.target)
        except ArtError as exc:
            findings.append(IMAGE_UNREADABLE.finding(
                f"card {card.id!r}: image {card.image!r} cannot be used: {exc}", card.where("image").with_card(card.id),
                hint="put the image file in the game folder at that path (PNG or JPEG), or remove image: for placeholder art"))
    canvas.saveState()
    canvas.setFillColor(cmyk(cls.palette.background))
    canvas.setStrokeColor(_ring_colour(cls.palette))
    canvas.setLineWidth(stroke)
    if image is not None:
        path = canvas.beginPath()
        path.ellipse(x, y, w, h)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.drawImage(image, x, y, w, h, preserveAspectRatio=False)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(_ring_colour(cls.palette))
        canvas.setLineWidth(stroke)
        canvas.ellipse(x + stroke / 2, y + stroke / 2, x + w - stroke / 2, y + h - stroke / 2, stroke=1, fill=0)
        canvas.restoreState()
        return findings
    canvas.setDash(9, 5)
    canvas.ellipse(x + stroke / 2, y + stroke / 2, x + w - stroke / 2, y + h - stroke / 2, stroke=1, fill=1)
    canvas.restoreState()
    # The text sits in the rectangle inscribed in the ellipse (sides w/√2 × h/√2).
    inset_x, inset_y = w * (1 - 2 ** -0.5) / 2, h * (1 - 2 ** -0.5) / 2
    inner = box.model_copy(update={"x": box.x + inset_x, "y": box.y + inset_y,
                                   "width": box.width - 2 * inset_x, "height": box.height - 2 * inset_y})
    paint.text(inner, [paint.para(cls.emblem, "art_emblem"), paint.para("placeholder art", "placeholder")],
               "art_emblem", cls.where("emblem").with_card(card.id))
    return findings


def draw_back(canvas, face: BackFace, sheet: Sheet) -> list[Finding]:
    """Draw one back (an :class:`engine.backs.BackFace`) on the current page: the title, the emblem
    ring with the mark letter (if any) and the emblem name, and the back's name, in its palette.

    The page depends on the face alone, so cards sharing a back (and an expansion's cards
    carrying its base game's back) get identical pages. Returns PR001/PR005 findings located
    where the back is defined (its design, or its class) in game.yaml.
    """
    findings: list[Finding] = []
    paint = _Painter(canvas, sheet, cmyk(face.palette.text), f"back {face.id!r}", findings)
    _ground(canvas, sheet, face.palette)
    title = sheet.box("back", "title")
    if title is not None:
        paint.text(title, [paint.para(face.title, "title")], "title", face.where)
    emblem = sheet.box("back", "emblem")
    if emblem is not None:
        _circle(canvas, sheet, emblem, face.palette, sheet.design.strokes.emblem * 2)
        inset = min(emblem.width, emblem.height) * (1 - 2 ** -0.5) / 2
        marks = [paint.para(face.mark, "back_letter")] if face.mark else []
        paint.text(emblem, marks + [paint.para(face.emblem, "back_emblem")], "back_emblem", face.where, inset=inset)
    name = sheet.box("back", "class_name")
    if name is not None:
        paint.text(name, [paint.para(face.name, "class_name")], "class_name", face.where)
    return findings
