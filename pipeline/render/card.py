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

from functools import lru_cache
from pathlib import Path
from typing import Literal

from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, PATH_OPS
from reportlab.pdfgen.pathobject import PDFPathObject

from engine.findings import Finding, Severity
from engine.backs import BackFace
from engine.model import Card, CardClass, Game, Palette
from engine.registry import declare
from pipeline.qr import codes as qr
from pipeline.common.layout import Box
from pipeline.render.art import ArtError, art_path, check_art, load_cmyk
# Sheet, cmyk and the painter live in facepaint (per-deck caches); PR001 and PR005 are declared there.
from pipeline.render.facepaint import GLYPH_MISSING, TEXT_DOES_NOT_FIT, Painter, Sheet, cmyk, replayed  # noqa: F401

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


def _ground(canvas, sheet: Sheet, pal: Palette) -> None:
    """The ground colour (palette ``background``) to the bleed edge, a frame (``accent``, else ``text``) at the safe inset."""
    width, height = sheet.media
    canvas.setFillColor(cmyk(pal.background))
    canvas.rect(0, 0, width, height, stroke=0, fill=1)
    frame = sheet.design.strokes.frame
    inset = sheet.bleed + sheet.layout.safe_inset + frame / 2
    canvas.setStrokeColor(_ring_colour(pal))
    canvas.setLineWidth(frame)
    canvas.addLiteral(_shape("roundRect", (inset, inset, width - 2 * inset, height - 2 * inset, sheet.layout.safe_inset), 1, 0))


def _ring_colour(pal: Palette) -> CMYKColor:
    return cmyk(pal.accent or pal.text)


@lru_cache(maxsize=256)
def _shape(kind: str, args: tuple[float, ...], stroke: int, fill: int) -> str:
    """The operators reportlab's canvas writes for one shape: the path ``PDFPathObject.<kind>(*args)``
    builds (pt), one operator a line, then the paint operator (``stroke``/``fill`` 0 or 1, even-odd fill,
    the canvas's fill mode, which deckpress never changes).

    The same bytes as ``Canvas.roundRect`` and ``Canvas.ellipse``, which append the path's operators to
    the page one by one; every card draws its frame, rings and oval at the same places, so their
    Bézier arcs are worked out and formatted once per process instead of once per card.
    """
    ops: list[str] = []
    getattr(PDFPathObject(code=ops), kind)(*args)
    ops.append(PATH_OPS[stroke, fill, FILL_EVEN_ODD])
    return "\n".join(ops)


def _ellipse(canvas, x1: float, y1: float, x2: float, y2: float, stroke: int, fill: int) -> None:
    """``canvas.ellipse(x1, y1, x2, y2, stroke, fill)`` (corners in pt) through :func:`_shape`."""
    canvas.addLiteral(_shape("ellipse", (x1, y1, x2 - x1, y2 - y1), stroke, fill))


def _circle(canvas, sheet: Sheet, box: Box, pal: Palette, width: float) -> None:
    x, y, w, h = sheet.pdf(box)
    r = min(w, h) / 2 - width / 2
    canvas.setFillColor(cmyk(pal.background))
    canvas.setStrokeColor(_ring_colour(pal))
    canvas.setLineWidth(width)
    cx, cy = x + w / 2, y + h / 2
    _ellipse(canvas, cx - r, cy - r, cx + r, cy + r, 1, 1)  # what canvas.circle(cx, cy, r) draws


def draw_front(canvas, card: Card, cls: CardClass, game: Game, sheet: Sheet, art_root: Path | None = None) -> list[Finding]:
    """Draw the front of ``card`` on the current page of ``canvas``; returns PR/QR findings.

    ``art_root`` is the folder ``card.image`` is relative to (the game folder). The face is
    :func:`front_face`. Findings: PR001 text that does not fit at 18 pt, PR003 an unreadable
    image, PR005 missing glyphs, PR006 a power and an indicator in one box, PR009 an image
    on a face without an art box, QR001 a URL too dense for the qr box.
    """
    findings: list[Finding] = []
    where = lambda f: lambda: card.where(f).with_card(card.id)  # noqa: E731  (built only for a finding)
    face = front_face(card)
    pal = cls.palette
    paint = Painter(canvas, sheet, cmyk(pal.text), f"card {card.id!r}", findings)
    # The steps drawn alike on many cards (by class, power value, keywords) are replayed (facepaint.replayed).
    replayed(canvas, ("ground", id(sheet), id(pal)), (sheet, pal), findings, lambda: _ground(canvas, sheet, pal))

    url = game.archive.url_for(card)
    qr_box = sheet.pdf(sheet.layout.qr)
    findings += qr.check_qr_size(url, qr_box, card.where().with_card(card.id))
    qr.draw_qr(canvas, url, qr_box)

    emblem = sheet.box(face, "emblem")
    if emblem is not None:
        def badge() -> None:
            _circle(canvas, sheet, emblem, pal, sheet.design.strokes.emblem)
            paint.text(emblem, [paint.para(cls.indicator, "emblem")], "emblem", lambda: cls.where("indicator").with_card(card.id))
        replayed(canvas, ("emblem", id(sheet), id(cls), face), (sheet, cls), findings, badge)

    power_box, indicator_box = sheet.box(face, "power"), sheet.box(face, "indicator")
    if card.power and card.indicator and power_box is not None and power_box == indicator_box:
        findings.append(ELEMENTS_OVERLAP.finding(
            f"card {card.id!r} has power {card.power!r} and indicator {card.indicator!r}, both drawn in one box",
            where("indicator")(), hint="give the indicator its own box in the layout's faces, or drop one of them"))
    if card.power and power_box is not None:
        replayed(canvas, ("power", id(sheet), id(pal), face, card.power), (sheet, pal), findings,
                 lambda: paint.text(power_box, [paint.para(card.power, "power")], "power", where("power")))
    if card.indicator and indicator_box is not None:
        replayed(canvas, ("indicator", id(sheet), id(pal), face, card.indicator), (sheet, pal), findings,
                 lambda: paint.text(indicator_box, [paint.para(card.indicator, "indicator"),
                                                    paint.para(INDICATOR_LABELS[card.indicator], "indicator_label")],
                                    "indicator", where("indicator"), valign="top"))

    art = sheet.box(face, "art")
    if art is not None and not card.image:  # placeholder art: the class's emblem
        replayed(canvas, ("art", id(sheet), id(cls), face), (sheet, cls), findings,
                 lambda: findings.extend(_draw_art(canvas, card, cls, sheet, art, paint, art_root)))
    elif art is not None:
        findings += _draw_art(canvas, card, cls, sheet, art, paint, art_root)
    elif card.image:
        missing = "" if art_path(art_root or Path("."), card.image).is_file() else " (nor is the file there)"
        findings.append(ART_NOT_SHOWN.finding(
            f"card {card.id!r} names image {card.image!r}, but layout {sheet.layout.name} has no art box on its "
            f"{face} face ({FACE_PURPOSE[face]}): the image is not printed{missing}",
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
        paint.text(name_box, [paint.para(card.name, "name", sheet.name_size(face))], "name", where("name"),
                   fitted=sheet.name_fits.get((face, card.name)))
    keywords_box = sheet.box(face, "keywords")
    if keywords_box is not None and keywords:
        replayed(canvas, ("keywords", id(sheet), id(pal), face, keywords), (sheet, pal), findings,
                 lambda: paint.text(keywords_box, [paint.para(keywords, "keywords")], "keywords", where("keywords")))
    return findings


def _draw_art(canvas, card: Card, cls: CardClass, sheet: Sheet, box: Box, paint: Painter, art_root: Path | None) -> list[Finding]:
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
        _ellipse(canvas, x + stroke / 2, y + stroke / 2, x + w - stroke / 2, y + h - stroke / 2, 1, 0)
        canvas.restoreState()
        return findings
    canvas.setDash(9, 5)
    _ellipse(canvas, x + stroke / 2, y + stroke / 2, x + w - stroke / 2, y + h - stroke / 2, 1, 1)
    canvas.restoreState()
    # The text sits in the rectangle inscribed in the ellipse (sides w/√2 × h/√2).
    paint.text(_inscribed(box), [paint.para(cls.emblem, "art_emblem"), paint.para("placeholder art", "placeholder")],
               "art_emblem", lambda: cls.where("emblem").with_card(card.id))
    return findings


@lru_cache(maxsize=64)
def _inscribed(box: Box) -> Box:
    """The rectangle inscribed in the ellipse filling ``box`` (sides w/√2 × h/√2), pt from the trim's top-left."""
    inset_x, inset_y = box.width * (1 - 2 ** -0.5) / 2, box.height * (1 - 2 ** -0.5) / 2
    return box.model_copy(update={"x": box.x + inset_x, "y": box.y + inset_y,
                                  "width": box.width - 2 * inset_x, "height": box.height - 2 * inset_y})


def draw_back(canvas, face: BackFace, sheet: Sheet) -> list[Finding]:
    """Draw one back (an :class:`engine.backs.BackFace`) on the current page: the title, the emblem
    ring with the mark letter (if any) and the emblem name, and the back's name, in its palette.

    The page depends on the face alone, so cards sharing a back (and an expansion's cards
    carrying its base game's back) get identical pages. Returns PR001/PR005 findings located
    where the back is defined (its design, or its class) in game.yaml.
    """
    findings: list[Finding] = []
    paint = Painter(canvas, sheet, cmyk(face.palette.text), f"back {face.id!r}", findings)
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
