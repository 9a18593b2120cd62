"""Proofs for designers: PNG renders of every card front and back, and a contact sheet.

A front proof is the print fronts PDF page as it will print, soft-proofed through the
printing target's ICC profile (:mod:`pipeline.render.softproof`) and rasterised with pypdfium2
(150 dpi by default; the PNG includes the bleed, so a 234 × 378 pt page gives 488 × 788 px), with:

- the braille drawn as semi-transparent dots exactly where the UV layer puts them:
  every dot of ``BrailleBlock.dots()`` (mm from the trim's top-left) becomes a circle
  of the profile's dot base diameter centred at
  ``px = (trim offset in pt + mm_to_pt(x)) × dpi / 72`` (the trim offset is the bleed,
  read from the page's TrimBox);
- a "PROVISIONAL" stamp across the card when the rulebook does not name the card
  (``provenance: provisional``), and a "PLACEHOLDER ART" stamp over the art box when
  the card has no art file yet.

Back proofs are the class backs, soft-proofed the same way. The contact sheet
(``contact-sheet.html``) shows every card's proof with its findings beside it.

Output folder layout: ``fronts/<card id>.png``, ``backs/<class id>.png``,
``contact-sheet.html``. Pages are rendered one at a time (flat memory), straight into RGBA
(:mod:`pipeline.proofs.pages`), and written as 8-bit RGB PNG by :mod:`pipeline.common.pngfile`
(row filter "None", zlib level 1: a third of Pillow's encode time, issue 22).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

from engine.backs import deck_faces
from engine.findings import Finding, Severity, counts, sort_key
from engine.model import Card, Deck, Provenance
from pipeline.archive.site import environment
from pipeline.common.files import write_bytes, write_text
from pipeline.common.layout import Box, CardLayout, load_layout
from pipeline.common.raster import PageRaster
from pipeline.proofs.pages import canvas_png, proof_canvases
from pipeline.render.card import Sheet, art_box, prints_placeholder_art
from pipeline.render.style import design_for

if TYPE_CHECKING:
    from pipeline.braille.layout import BrailleBlock

#: Default proof resolution (dpi).
PROOF_DPI = 150
#: The dot overlay colour, RGBA: a mid blue at 55 % opacity, so print stays readable under it.
DOT_RGBA = (0, 90, 255, 140)
#: A one-pixel light ring round each dot keeps dots visible on dark card grounds.
DOT_RING_RGBA = (255, 255, 255, 200)
#: Stamp colours, RGBA: a dark red at 70 % opacity with white letters.
STAMP_RGBA = (170, 0, 0, 180)
STAMP_TEXT_RGBA = (255, 255, 255, 255)
CONTACT_SHEET = "contact-sheet.html"


class ProofError(ValueError):
    """Proof inputs that do not fit together (a card without a page in the fronts PDF)."""


def _sheet(layout: CardLayout | None) -> Sheet:
    layout = layout or load_layout()
    return Sheet(layout, design_for(layout))


def has_placeholder_art(deck: Deck, card: Card, layout: CardLayout | None = None) -> bool:
    """True when the card prints with placeholder art, by the print stage's own rule
    (:func:`pipeline.render.card.prints_placeholder_art`): its face in ``layout`` (default
    card-3x5-portrait) has an art box and the card names no image Pillow can read in the game folder."""
    return prints_placeholder_art(card, _sheet(layout), Path(deck.folder or "."))


def draw_dots(image: Image.Image, raster: PageRaster, block: BrailleBlock, rgba: tuple[int, int, int, int] = DOT_RGBA) -> Image.Image:
    """``image`` (RGB, same geometry as ``raster``) with the block's dots composited on top.

    Each dot is a filled circle of diameter ``profile.dot_base`` (mm; its outermost
    pixel a light ring) centred where
    :meth:`BrailleBlock.dots` says (mm from the trim's top-left), converted with
    :meth:`PageRaster.mm_to_px`. Only the lines that fit the box are drawn (as on the
    UV layer). Returns a new RGB image.
    """
    out = image.convert("RGBA")
    _composite_dots(out, raster, block, rgba)
    return out.convert("RGB")


def _composite_dots(out: Image.Image, raster: PageRaster, block: BrailleBlock, rgba: tuple[int, int, int, int] = DOT_RGBA) -> None:
    """Composite the block's dots onto the RGBA image ``out`` in place.

    Only the dots' bounding box is composited: outside it the dot layer is fully transparent,
    which leaves the pixels as they are, so the result equals a whole-image composite.
    """
    r = block.profile.dot_radius * raster.px_per_mm
    centres = [raster.mm_to_px(dot.x, dot.y) for dot in block.dots()]
    if not centres:
        return
    x0 = max(0, int(min(x for x, _ in centres) - r) - 2)
    y0 = max(0, int(min(y for _, y in centres) - r) - 2)
    x1 = min(out.width, int(max(x for x, _ in centres) + r) + 3)
    y1 = min(out.height, int(max(y for _, y in centres) + r) + 3)
    if x0 >= x1 or y0 >= y1:
        return
    layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for cx, cy in centres:
        cx, cy = cx - x0, cy - y0
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=rgba, outline=DOT_RING_RGBA, width=1)
    out.alpha_composite(layer, (x0, y0))


def _font(size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size_px)


def stamp(image: Image.Image, text: str, box_px: tuple[float, float, float, float], angle: float = 0.0) -> Image.Image:
    """``image`` with ``text`` stamped as white capitals on a translucent red band inside ``box_px``.

    ``box_px`` is ``(x0, y0, x1, y1)`` in pixels; the band spans the box's width and
    is centred in it, turned by ``angle`` degrees (counter-clockwise). Returns a new RGB image.
    """
    out = image.convert("RGBA")
    _stamp_onto(out, text, box_px, angle)
    return out.convert("RGB")


@lru_cache(maxsize=64)
def _band(text: str, width: int, angle: float) -> Image.Image:
    """The stamp's band (RGBA), drawn and turned once per text, width and angle: every card of a
    deck gets the same band, and turning it (bicubic) was a third of a proof's time. Not to be modified."""
    size = max(10, int(width / (0.62 * max(len(text), 1))))
    font = _font(size)
    left, top, right, bottom = font.getbbox(text)
    band = Image.new("RGBA", (width, int((bottom - top) * 1.8)), STAMP_RGBA)
    ImageDraw.Draw(band).text(((width - (right - left)) / 2 - left, (band.height - (bottom - top)) / 2 - top), text, font=font, fill=STAMP_TEXT_RGBA)
    if angle:
        band = band.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)
    return band


def _stamp_onto(out: Image.Image, text: str, box_px: tuple[float, float, float, float], angle: float = 0.0) -> None:
    """:func:`stamp` onto the RGBA image ``out``, in place."""
    x0, y0, x1, y1 = box_px
    band = _band(text, int(x1 - x0), angle)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    out.alpha_composite(band, (int(cx - band.width / 2), int(cy - band.height / 2)))


def _box_px(raster: PageRaster, box: Box | None) -> tuple[float, float, float, float] | None:
    """A layout box (pt from the trim's top-left) as ``(x0, y0, x1, y1)`` image pixels, or None."""
    if box is None:
        return None
    x, y, w, h = box.mm()
    x0, y0 = raster.mm_to_px(x, y)
    x1, y1 = raster.mm_to_px(x + w, y + h)
    return x0, y0, x1, y1


def proof_front(raster: PageRaster, deck: Deck, card: Card, block: BrailleBlock | None,
                layout: CardLayout | None = None, overlay: bool = True) -> Image.Image:
    """The front proof of one card: stamps (placeholder art, provisional) then the dot overlay on top.

    ``overlay=False`` leaves the dots out (the base the overlay is blended onto).
    Returns an RGB image the size of ``raster.image``.
    """
    image = raster.image.convert("RGBA")  # once: stamps and dots are composited onto it in place
    _proof_onto(image, raster, deck, card, block, _sheet(layout), overlay)
    return image.convert("RGB")


def _proof_onto(image: Image.Image, raster: PageRaster, deck: Deck, card: Card, block: BrailleBlock | None,
                sheet: Sheet, overlay: bool = True) -> None:
    """:func:`proof_front`'s stamps and dots composited onto ``image`` (RGBA, ``raster``'s geometry) in place."""
    art = _box_px(raster, art_box(card, sheet))
    if art is not None and prints_placeholder_art(card, sheet, Path(deck.folder or ".")):
        _stamp_onto(image, "PLACEHOLDER ART", (art[0], art[3] - (art[3] - art[1]) * 0.3, art[2], art[3]))
    if card.provenance is Provenance.provisional:
        w, h = image.size
        _stamp_onto(image, "PROVISIONAL", (w * 0.08, h * 0.3, w * 0.92, h * 0.5), angle=30)
    if overlay and block is not None:
        _composite_dots(image, raster, block)


def write_front_proofs(deck: Deck, blocks: dict[str, BrailleBlock], fronts_pdf: str | Path, out_dir: str | Path,
                       page_ids: Sequence[str] | None = None, dpi: float = PROOF_DPI, only: Iterable[str] | None = None,
                       layout: CardLayout | None = None, target: str | None = None, proofed: bytes | None = None,
                       keep: Callable[[str, object], bool] | None = None) -> dict[str, Path]:
    """Write ``fronts/<card id>.png`` for every card (or the ids in ``only``); returns paths by card id.

    The pages are soft proofs through the printing ``target``'s profile (id, default fogra39);
    ``proofed`` is that soft proof of ``fronts_pdf`` when already made (:func:`pipeline.render.softproof.soft_proof_bytes`).
    ``keep`` (a rebuild, :class:`pipeline.build.cardkeys.Keeper`) is asked ``keep("fronts/<id>.png",
    (card, block, dpi, layout))`` per card before anything is drawn; a card it answers True for is
    already in ``out_dir`` and is neither rasterised nor written (nor returned).

    Page i of ``fronts_pdf`` is card ``page_ids[i]`` (default: the deck's cards in
    order, as ``render_fronts`` writes them). Raises ProofError when a wanted card has
    no page, RasterError for an unreadable PDF, OutputError when ``out_dir`` cannot be written.
    """
    out_dir = Path(out_dir)
    ids = list(page_ids) if page_ids is not None else [c.id for c in deck.cards]
    wanted = set(only) if only is not None else {c.id for c in deck.cards}
    cards = {c.id: c for c in deck.cards}
    layout = layout or load_layout()
    if keep is not None:
        wanted -= {cid for cid in ids if cid in wanted and cid in cards and keep(f"fronts/{cid}.png", (cards[cid], blocks.get(cid), dpi, layout))}
    pages = [i for i, cid in enumerate(ids) if cid in wanted and cid in cards]
    sheet = _sheet(layout)
    written: dict[str, Path] = {}
    for card_id, raster in zip([ids[i] for i in pages], proof_canvases(fronts_pdf, dpi, target, proofed, pages=pages)):
        _proof_onto(raster.image, raster, deck, cards[card_id], blocks.get(card_id), sheet)  # in the PNG scanlines
        written[card_id] = write_bytes(out_dir / "fronts" / f"{card_id}.png", canvas_png(raster.image))
    missing = sorted(wanted - set(written))
    if missing:
        raise ProofError(f"{fronts_pdf} has no page for card(s) {', '.join(missing[:5])}")
    return written


def write_back_proofs(deck: Deck, backs_pdf: str | Path, out_dir: str | Path, page_ids: Sequence[str] | None = None,
                      dpi: float = PROOF_DPI, target: str | None = None, proofed: bytes | None = None) -> dict[str, Path]:
    """Write ``backs/<back id>.png`` for every page of ``backs_pdf`` (page i = back ``page_ids[i]``,
    default the deck's backs in order, :func:`engine.backs.deck_faces`); returns paths by back id.
    ``proofed``: the soft proof of ``backs_pdf`` when already made."""
    ids = list(page_ids) if page_ids is not None else list(deck_faces(deck))
    return {cid: write_bytes(Path(out_dir) / "backs" / f"{cid}.png", canvas_png(r.image))
            for cid, r in zip(ids, proof_canvases(backs_pdf, dpi, target, proofed))}


def write_contact_sheet(deck: Deck, out_dir: str | Path, findings: Iterable[Finding] = (), title: str | None = None) -> Path:
    """Write ``contact-sheet.html``: every card's front proof with its findings beside it.

    Links the PNGs under ``fronts/`` and ``backs/`` of ``out_dir`` (a card whose proof is
    missing says so). ``findings`` are matched to cards by ``location.card``; the rest
    are listed as game findings. Returns the path.
    """
    out_dir = Path(out_dir)
    items = sorted(findings, key=sort_key)
    by_card: dict[str, list[Finding]] = {}
    game_level: list[Finding] = []
    for f in items:
        (by_card.setdefault(f.location.card, []) if f.location.card else game_level).append(f)
    cards = []
    sheet, folder = _sheet(None), Path(deck.folder or ".")  # once: a sheet per card was 0.6 ms each (its design validated)
    for card in deck.cards:
        cls = deck.game.class_by_id(card.class_id)
        cards.append({
            "id": card.id, "name": card.name, "class_name": cls.name if cls else card.class_id,
            "power": card.power, "copies": card.copies,
            "provisional": card.provenance is Provenance.provisional,
            "placeholder": prints_placeholder_art(card, sheet, folder),  # has_placeholder_art's rule
            "front": f"fronts/{card.id}.png" if (out_dir / "fronts" / f"{card.id}.png").is_file() else None,
            "findings": [_finding_view(f) for f in by_card.get(card.id, [])],
        })
    backs = [{"id": b, "name": face.name, "src": f"backs/{b}.png"} for b, face in deck_faces(deck).items() if (out_dir / "backs" / f"{b}.png").is_file()]
    html = environment().get_template("contact-sheet.html.j2").render(
        title=title or f"{deck.game.title}: proof contact sheet", game=deck.game, cards=cards, backs=backs,
        game_findings=[_finding_view(f) for f in game_level], counts=counts(items),
        provisional=sum(c["provisional"] for c in cards), placeholder=sum(c["placeholder"] for c in cards),
    )
    return write_text(out_dir / CONTACT_SHEET, html)


def _finding_view(f: Finding) -> dict:
    return {"code": f.code, "name": f.name, "severity": f.severity.value, "message": f.message, "hint": f.hint,
            "where": str(f.location), "error": f.severity is Severity.error}


def write_proofs(deck: Deck, blocks: dict[str, BrailleBlock], fronts_pdf: str | Path, backs_pdf: str | Path | None,
                 out_dir: str | Path, findings: Iterable[Finding] = (), dpi: float = PROOF_DPI,
                 front_ids: Sequence[str] | None = None, back_ids: Sequence[str] | None = None,
                 target: str | None = None, proofed: tuple[bytes | None, bytes | None] = (None, None),
                 keep: Callable[[str, object], bool] | None = None) -> list[Path]:
    """Write every proof of a game into ``out_dir``: fronts, backs and the contact sheet, soft-proofed for ``target``.

    ``proofed`` holds the soft proofs of the fronts and backs PDFs already made (None: made here);
    ``keep`` says which front proofs are kept from the previous build (:func:`write_front_proofs`).

    ``front_ids`` / ``back_ids`` are the ``PrintResult.pages`` of the fronts and backs
    PDFs (default: deck order and class order). Returns the written paths (fronts in
    deck order, then backs, then ``contact-sheet.html``). Raises as
    :func:`write_front_proofs` does.
    """
    fronts = write_front_proofs(deck, blocks, fronts_pdf, out_dir, front_ids, dpi, target=target, proofed=proofed[0], keep=keep)
    backs = write_back_proofs(deck, backs_pdf, out_dir, back_ids, dpi, target, proofed[1]) if backs_pdf is not None else {}
    sheet = write_contact_sheet(deck, out_dir, findings)
    return [fronts.get(c.id, Path(out_dir) / "fronts" / f"{c.id}.png") for c in deck.cards] + list(backs.values()) + [sheet]


@dataclass(frozen=True)
class ProofRun:
    """The result of :func:`proof_cards`: written paths (fronts in deck order, then backs and the
    contact sheet when written) and the findings about the proofed cards."""

    paths: tuple[Path, ...]
    findings: tuple[Finding, ...]


def proof_cards(deck: Deck, card_ids: Iterable[str] | None, out_dir: str | Path, dpi: float = PROOF_DPI,
                checks: Iterable[Finding] = (), layout: CardLayout | None = None, target: str | None = None) -> ProofRun:
    """Proof some cards of a deck (None: every card, plus the backs and the contact sheet), drawn and
    soft-proofed for the printing ``target`` (id, default fogra39).

    Only the asked cards are braille-laid-out, drawn and rasterised (one card takes a
    fraction of a second). ``checks`` are the deck-wide findings to keep for these cards
    (default: every check over the deck, ``pipeline.build.preflight.deck_findings``). Returns the written paths and the findings of the
    asked cards (with the game's own findings when every card is proofed). Raises
    KeyError naming an unknown card id; LayoutError, RasterError or OutputError from the stages.
    """
    import tempfile

    from pipeline.braille.layout import layout_deck
    from pipeline.render.deck_pdf import render_backs, render_fronts

    everything = card_ids is None
    ids = [c.id for c in deck.cards] if everything else list(dict.fromkeys(card_ids))
    unknown = [i for i in ids if deck.card_by_id(i) is None]
    if unknown:
        raise KeyError(f"no card {unknown[0]!r} in {deck.game.id}; known ids start {', '.join(c.id for c in deck.cards[:5])}")
    part = deck if everything else Deck(game=deck.game, cards=[deck.card_by_id(i) for i in ids], folder=deck.folder)
    blocks, findings = layout_deck(part, layout)
    out_dir = Path(out_dir)
    with tempfile.TemporaryDirectory(prefix="deckpress-proof-") as tmp:
        fronts = render_fronts(part, Path(tmp) / "fronts.pdf", layout, target=target)
        findings += fronts.findings
        paths = list(write_front_proofs(part, blocks, fronts.path, out_dir, fronts.pages, dpi, layout=layout, target=target).values())
        if everything:
            backs = render_backs(deck, Path(tmp) / "backs.pdf", layout, target=target)
            findings += backs.findings
            paths += list(write_back_proofs(deck, backs.path, out_dir, backs.pages, dpi, target).values())
    findings += list(checks)
    wanted = set(ids)
    kept = [f for f in findings if (f.location.card in wanted) or (everything and not f.location.card)]
    if everything:
        paths.append(write_contact_sheet(deck, out_dir, kept))
    return ProofRun(tuple(paths), tuple(sorted(set(kept), key=sort_key)))
