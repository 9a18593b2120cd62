"""The print PDFs of a deck: one page per unique card front, one page per card back of the back model.

Every page is the bled card: MediaBox = BleedBox = trim + bleed on every side, TrimBox
inset by the bleed ([0 0 234 378] and [9 9 225 369] for 3×5 in portrait with 0.125 in
bleed), written explicitly on every page. Copies are not repeated here: imposition lays
them out. Pages are labelled (and outlined) with the card id (fronts) or class id
(backs). The canvas starts in Atkinson Hyperlegible (no Helvetica is ever referenced),
runs in reportlab's invariant mode; each page's content is Flate-compressed as the page ends
(libdeflate, :data:`FLATE_LEVEL`; qpdf keeps it when :mod:`pipeline.render.pdfx` finishes the
file as PDF/X-1a:2003), so the canvas never holds the deck's text, and two builds of the same data are byte-identical.
"""

from __future__ import annotations

import dataclasses
import io
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import deflate
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFPage, PDFStream
from reportlab.pdfgen.canvas import Canvas

from engine.backs import deck_faces
from engine.findings import Finding, Location, Severity
from engine.gcpause import collector_paused
from engine.model import Deck
from engine.registry import declare
from pipeline.common.layout import LAYOUTS, CardLayout, load_layout
from pipeline.render import fonts
from pipeline.render.card import (IMAGE_UNREADABLE, PLACEHOLDER_ART, Sheet, art_box, draw_back, draw_front,
                                  prints_placeholder_art)
from pipeline.render.contrast import palette_findings
from pipeline.render.names import with_deck_name_sizes
from pipeline.render.targets import DEFAULT_TARGET, PrintTarget, load_target, output_condition
from pipeline.render.pdfx import finish
from pipeline.render.style import LayoutError, design_for

#: Tolerance when comparing the game's card size with the layout's trim, in pt.
_SIZE_TOLERANCE = 0.01

NO_CARD_LAYOUT = declare(
    "PR007",
    "no-card-layout",
    Severity.error,
    """The game's card size (trim and bleed in ``card:``) matches no card layout template, so no card can be drawn.

    Every stage draws the cards with the default layout, card-3x5-portrait (3×5 in, 0.125 in
    bleed: the size of the games deckpress is made for, DESIGN.md); a game must give ``card:``
    that trim and bleed. Another layout file in templates/layouts/ is not chosen by size (the
    finding lists them). The print stage draws nothing for the game until the sizes match.

    Fails: ``card: {width: 5in, height: 3in, orientation: landscape}`` (no 5×3 in layout).

    Passes: ``card: {width: 3in, height: 5in, orientation: portrait, bleed: 0.125in}`` (layout card-3x5-portrait).
    """,
)


class UnknownClassError(ValueError):
    """A card names a class the game does not have; the message starts with the card's ``file:line:col``.

    A data error (the user fixes ``cards.yaml``), not a fault of the stage: the loader's
    checks (CP008) normally stop such data first.
    """


def unknown_class_findings(deck: Deck, card_ids: Iterable[str] | None = None) -> list[Finding]:
    """The CP008 unknown-class findings of the cards of ``deck`` (or of ``card_ids`` only) that
    name a class the game lacks, each located at the card's ``class:`` line; empty when none.

    Stage commands that draw or look up a card's class run this first, so such data ends
    in the finding (exit 1) instead of an error halfway through a PDF. CP008 findings on
    ``composition:`` entries are left to ``deckpress check``: they break no drawing.
    """
    from engine.checks import run_checks
    from engine.registry import Selection

    wanted = set(card_ids) if card_ids is not None else {c.id for c in deck.cards}
    return [f for f in run_checks(deck, selection=Selection(("CP008",))) if f.location.card in wanted]


@dataclass(frozen=True)
class PrintResult:
    """A written print PDF.

    ``pages``: for fronts the card id of each page in deck order (one page per unique
    card); for backs the back id of each page (:func:`engine.backs.back_id`), in the game's class order.
    ``findings``: PR/QR findings raised while drawing (fronts also carry the palette
    contrast findings and the placeholder-art count). ``name_sizes``: for fronts, the deck's one
    name size per face in pt (:func:`with_deck_name_sizes`), the one deck-wide value a front page
    reads besides its card and the game (a rebuild's card keys cover it, :mod:`pipeline.build.cardkeys`).
    """

    path: Path
    pages: tuple[str, ...]
    findings: tuple[Finding, ...]
    name_sizes: tuple[tuple[str, float], ...] = ()


class NoCardLayout(LayoutError):
    """The game's card size does not match the layout; ``finding`` is the PR007 finding to report.

    The message is the finding's location and text (``game.yaml:4:7: …``), for commands
    that stop on it; the build's print stage and ``deckpress check`` report the finding.
    """

    def __init__(self, finding: Finding):
        super().__init__(f"{finding.location}: {finding.message}")
        self.finding = finding


def _inches(pt: float) -> str:
    return f"{pt / 72:g}"


def _layout_sizes() -> str:
    """Every layout template in templates/layouts/ with its trim and bleed in inches, e.g.
    ``card-3x5-portrait (3×5 in, 0.125 in bleed)``; unreadable templates are left out."""
    sizes = []
    for path in sorted(LAYOUTS.glob("*.yaml")):
        try:
            lay = load_layout(path.stem)
        except (OSError, ValueError):
            continue
        sizes.append(f"{lay.name} ({_inches(lay.trim.width)}×{_inches(lay.trim.height)} in, {_inches(lay.bleed)} in bleed)")
    return ", ".join(sizes) or "none"


def _sheet(deck: Deck, layout: CardLayout | None) -> Sheet:
    """The page geometry, checked against the game's card size.

    Raises :class:`NoCardLayout` (carrying the PR007 finding, located at the game's
    ``card:`` field) when trim or bleed differ by more than 0.01 pt, and
    :class:`LayoutError` when the layout's print sections are malformed.
    """
    layout = layout or load_layout()
    size = deck.game.card
    if (abs(size.width - layout.trim.width) > _SIZE_TOLERANCE or abs(size.height - layout.trim.height) > _SIZE_TOLERANCE
            or abs(size.bleed - layout.bleed) > _SIZE_TOLERANCE):
        raise NoCardLayout(NO_CARD_LAYOUT.finding(
            f"game {deck.game.id!r} has {_inches(size.width)}×{_inches(size.height)} in cards ({size.width:g}×{size.height:g} pt) "
            f"with {_inches(size.bleed)} in bleed; the print is drawn with layout {layout.name}, "
            f"{_inches(layout.trim.width)}×{_inches(layout.trim.height)} in with {_inches(layout.bleed)} in bleed. "
            f"Layouts: {_layout_sizes()}",
            deck.game.where("card"),
            hint=f"give card: the size and bleed of layout {layout.name} ({_inches(layout.trim.width)}×{_inches(layout.trim.height)} in, "
                 f"bleed: {_inches(layout.bleed)}in): every stage draws the cards with it, and other layout files are not chosen by size"))
    return Sheet(layout, design_for(layout))


def _canvas(buffer: io.BytesIO, sheet: Sheet, title: str) -> Canvas:
    regular = fonts.register_all()["regular"]
    width, height = sheet.media
    b, trim = sheet.bleed, sheet.layout.trim
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, pageCompression=0,
                    initialFontName=regular.name, initialFontSize=18, enforceColorSpace="cmyk", pdfVersion=(1, 4))
    canvas.setTitle(title)
    canvas.setBleedBox((0, 0, width, height))
    canvas.setTrimBox((b, b, b + trim.width, b + trim.height))
    canvas.setPageCallBack(_stream_as_bytes(canvas))
    return canvas


#: The ASCII characters reportlab's PDFDocEncoding codec (``extpdfdoc``) cannot encode; it maps every other one to itself.
#: Looked for one at a time (``in``, a fast search in C: 0.7 µs a 5 kB page, against 18 µs for a regular expression's class).
_NOT_PDFDOC = tuple(chr(code) for code in range(0x18, 0x20))


def _stream_as_bytes(canvas: Canvas):
    """A page-end callback that turns each finished page's content stream into a Flate stream at once.

    reportlab keeps every page's operators as text until it saves, and encodes them with its
    ``extpdfdoc`` codec then, about 0.15 µs a character (a card front is ~6,000), while
    ``str.encode("ascii")`` is ~100 times faster; on ASCII text without U+0018–U+001F the two give
    the same bytes (the codec maps every other ASCII character to itself), and a page's operators
    are ASCII (text is written as escaped subset codes). The bytes are compressed here
    (:func:`_flate`), so the canvas holds each page compressed, not the deck's text (issue 22:
    pages are streamed), and qpdf keeps a Flate stream as it is when it saves. Any other stream
    is left as text for reportlab.
    """
    pages = canvas._doc.Pages.pages  # the document's page objects, the last one just finished
    templates: dict[tuple, list[bytes]] = {}  # this canvas's page dictionaries by _page_key (_formatted)

    def encode(_page_number: int) -> None:
        page = pages[-1]
        text = page.stream
        if isinstance(text, str) and text.isascii() and not any(ch in text for ch in _NOT_PDFDOC):
            page.Contents = _flate(text.encode("ascii"))
            page.stream = None
            page.format = lambda document, page=page: _formatted(page, document, templates)

    return encode


#: The page attributes reportlab's PDFPage.format reads that deckpress's canvases leave unset (None; ``Annots`` empty).
_UNSET = ("Resources", "Thumb", "B", "Hid", "AA", "PieceInfo", "LastModified", "SeparationInfo", "ID", "PZ", "XObjects")
_BOXES = ("MediaBox", "CropBox", "ArtBox", "TrimBox", "BleedBox")


def _page_key(page: PDFPage) -> tuple | None:
    """Everything reportlab's ``PDFPage.format`` writes of ``page`` but its content stream's reference, as a
    hashable key; None for a page this cannot key (an attribute deckpress never sets, a box or state of
    another type), which is then formatted by reportlab alone."""
    if any(getattr(page, name, None) is not None for name in _UNSET) or page.Annots or page.Override_default_compilation:
        return None
    boxes = tuple(getattr(page, name, None) for name in _BOXES)
    if not all(box is None or isinstance(box, PDFArray) for box in boxes):
        return None
    trans, states = page.Trans, page.ExtGState
    if not isinstance(trans, PDFDictionary) or not (states is None or isinstance(states, PDFDictionary)):
        return None
    try:
        return (page.pagewidth, page.pageheight, page.Rotate, page.hasImages, page.Dur,
                tuple(None if box is None else tuple(box.sequence) for box in boxes), tuple(sorted(trans.dict.items())),
                None if states is None else tuple(sorted((k, tuple(v.dict.items())) for k, v in states.dict.items())),
                tuple(page._colorsUsed.items()), tuple(page._shadingUsed.items()))  # resource names → object names
    except (AttributeError, TypeError):  # a state that is not a PDFDictionary, an unhashable value
        return None


def _formatted(page: PDFPage, document, templates: dict[tuple, list[bytes]]) -> bytes:
    """``page``'s dictionary as reportlab's ``PDFPage.format`` writes it, its text worked out once per
    distinct :func:`_page_key` of a canvas: a deck's pages differ only in their content stream's
    reference (reportlab built and formatted each page's resources, boxes and transition anew: ~0.2 ms
    a page, a third of its save). The first page of a key is formatted by reportlab and kept as the text
    around ``/Contents n 0 R`` when that call registered one new object, its content stream; a later
    page of that key registers its own stream (the same object numbers, in the same order) and gets
    that text with its reference. Same bytes (tests/test_render_pdf.py formats a deck both ways)."""
    key = _page_key(page)
    parts = templates.get(key) if key is not None else None
    if parts is not None:
        return parts[0] + document.Reference(page.Contents).format(document) + parts[1]
    before = document.objectcounter
    text = PDFPage.format(page, document)
    if key is not None and document.objectcounter == before + 1:
        marker = b"/Contents " + document.Reference(page.Contents).format(document)
        if text.count(marker) == 1:
            head, tail = text.split(marker)
            templates[key] = [head + b"/Contents ", tail]
    return text


#: libdeflate level of the page content streams (the ``deflate`` package, as :mod:`pipeline.render.uv.discpdf` and
#: the PNG writer; its output does not depend on the CPU). The shipped games' 498 front pages (5.1 kB of
#: operators a page, CPU best of 5): zlib at level 6, qpdf's default and what this wrote before, 156 µs and 1,392
#: bytes a page; libdeflate level 1 40 µs and 1,507 bytes (4: 70 µs, 1,416; 6: 86 µs, 1,347).
FLATE_LEVEL = 1


def _flate(content: bytes) -> PDFStream:
    """A page content stream holding ``content`` Flate-compressed (a zlib stream, RFC 1950) by libdeflate at
    :data:`FLATE_LEVEL`; qpdf's save in :func:`pipeline.render.pdfx.finish` keeps a Flate stream as it is.
    ``/Length`` comes first, as qpdf writes a stream it compressed (an OrderedDict keeps reportlab from
    sorting the keys; reportlab sets the length when it writes the stream)."""
    return PDFStream(PDFDictionary(OrderedDict((("Length", 0), ("Filter", PDFName("FlateDecode"))))),
                     bytes(deflate.zlib_compress(content, FLATE_LEVEL)))


def _saved(canvas: Canvas, buffer: io.BytesIO) -> bytes:
    """Save ``canvas`` and return the PDF's bytes, letting go of the canvas's pages first: the
    canvas keeps every page object until it is freed, and :func:`finish` then opens the bytes."""
    canvas.save()
    for page in canvas._doc.Pages.pages:  # each page and its format closure (_stream_as_bytes) refer to each other:
        page.__dict__.pop("format", None)  # a cycle only the collector would free, 14 objects a page
    canvas._doc = None  # the document's pages, fonts and objects (the caller's canvas is not used again)
    canvas.setPageCallBack(None)  # _stream_as_bytes's callback holds the page list too
    return buffer.getvalue()


def _art_root(deck: Deck) -> Path:
    return Path(deck.folder) if deck.folder else Path(".")


def render_fronts(deck: Deck, path: str | Path, layout: CardLayout | None = None,
                  target: PrintTarget | str | None = None) -> PrintResult:
    """Write the card fronts of ``deck`` to ``path`` (PDF/X-1a:2003), one page per unique card in deck order.

    ``target`` (a :class:`PrintTarget` or its id, default ``fogra39``) gives the output intent
    and the printing condition the palette findings measure against.

    Raises :class:`NoCardLayout` (a :class:`LayoutError` carrying the PR007 finding) when
    the layout does not match the game's card size, :class:`LayoutError` when it is
    malformed, :class:`pipeline.render.pdfx.PdfxError` if the result would not be PDF/X-1a,
    and :class:`pipeline.common.files.OutputError` when ``path`` cannot be written (nothing is
    left under ``path`` then). A card whose class is not in the game raises
    :class:`UnknownClassError` naming the card and its file:line (CP008 normally stops such data first).
    """
    target = target if isinstance(target, PrintTarget) else load_target(target or DEFAULT_TARGET)
    # one name size per face, deck-wide; art separated through the target's profile
    sheet = dataclasses.replace(with_deck_name_sizes(_sheet(deck, layout), deck.cards), target=target.id)
    game = deck.game
    buffer = io.BytesIO()
    canvas = _canvas(buffer, sheet, f"{game.title}: card fronts")
    findings: list[Finding] = list(palette_findings(game, target))
    ids: list[str] = []
    art_root = _art_root(deck)
    with collector_paused():  # every page object made here lives until the save (engine.gcpause)
        for card in deck.cards:
            cls = game.class_by_id(card.class_id)
            if cls is None:
                raise UnknownClassError(f"{card.where('class_id')}: card {card.id!r} names class {card.class_id!r}, not in the game "
                                        f"(classes: {', '.join(c.id for c in game.classes)})")
            findings += draw_front(canvas, card, cls, game, sheet, art_root)
            canvas.showPage()
            ids.append(card.id)
        pdf = _saved(canvas, buffer)
    findings += _placeholder_count(deck, sheet, findings)
    finish(pdf, path, f"{game.title}: card fronts", ids, subject=f"{len(ids)} card fronts, {game.id}",
           condition=output_condition(target))
    return PrintResult(Path(path), tuple(ids), tuple(findings), sheet.name_sizes)


def _placeholder_count(deck: Deck, sheet: Sheet, findings: list[Finding]) -> list[Finding]:
    """The PR004 finding: how many unique cards print placeholder art, among those whose face has an art box.

    A card counts when :func:`prints_placeholder_art` says so, or when drawing it raised
    PR003 (an image Pillow opened but could not decode). Cards whose face has no art box
    (rules cards) print no art and are only mentioned. Empty when no card prints placeholder art.
    """
    unreadable = {f.location.card for f in findings if f.code == IMAGE_UNREADABLE.code}
    root = _art_root(deck)
    with_box = [c for c in deck.cards if art_box(c, sheet) is not None]
    placeholders = [c for c in with_box if c.id in unreadable or prints_placeholder_art(c, sheet, root)]
    if not placeholders:
        return []
    without = len(deck.cards) - len(with_box)
    rest = ("" if not without else " (1 more prints no art: its face has no art box)" if without == 1
            else f" ({without} more print no art: their face has no art box)")
    return [PLACEHOLDER_ART.finding(
        f"{len(placeholders)} of {len(with_box)} unique cards with an art box print with placeholder art{rest}",
        Location(deck.game.where().file), hint="add image: to the cards when the art is ready")]


def render_backs(deck: Deck, path: str | Path, layout: CardLayout | None = None,
                 target: PrintTarget | str | None = None) -> PrintResult:
    """Write one page per back the cards of ``deck`` carry (:func:`engine.backs.deck_faces`) to
    ``path`` (PDF/X-1a:2003), in the game's class order, with ``target``'s output intent
    (default ``fogra39``); ``pages`` are the back ids.

    Cards sharing a back share its page (:func:`engine.backs.back_id` names it), and a page
    depends on the back alone, so an expansion's backs that are its base game's backs are
    the same content stream as the base game's pages. Raises as :func:`render_fronts` does.
    """
    sheet = _sheet(deck, layout)
    game = deck.game
    buffer = io.BytesIO()
    canvas = _canvas(buffer, sheet, f"{game.title}: card backs")
    findings: list[Finding] = []
    ids: list[str] = []
    with collector_paused():  # as in render_fronts
        for back, face in deck_faces(deck).items():
            findings += draw_back(canvas, face, sheet)
            canvas.showPage()
            ids.append(back)
        pdf = _saved(canvas, buffer)
    finish(pdf, path, f"{game.title}: card backs", ids, subject=f"{len(ids)} card backs ({game.backs.share}), {game.id}",
           condition=output_condition(target))
    return PrintResult(Path(path), tuple(ids), tuple(findings))
