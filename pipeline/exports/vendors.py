"""Upload files for print-on-demand card vendors: what a vendor preset's upload takes, with a manifest.

A vendor preset is a printing target with a ``vendor:`` section (templates/targets/*.yaml,
:class:`pipeline.render.targets.VendorPreset`). From the build's CMYK print PDFs (fronts: one
page per unique card; backs: one page per back) :func:`write_vendor_files` writes into one folder:

- ``upload: png`` (The Game Crafter, MakePlayingCards): one RGB PNG per face, front and back
  of every unique card, named ``<game>-<number>-front.png`` / ``-back.png`` with the card's
  number in deck order zero-padded (3 digits, more for a larger deck). Each page is soft-proofed
  through the target's ICC profile (:func:`pipeline.render.softproof.soft_proof_pages`: every
  CMYK colour and image converted to sRGB by LittleCMS, relative colorimetric, paper white =
  #ffffff), rendered with pypdfium2 at the preset's dpi cropped to our trim (900 × 1500 px for
  3×5 in at 300 dpi), then placed centred on the vendor's image size, the edge pixels of our
  trim repeated outwards where the image is larger (MakePlayingCards' 1122 × 1572 px: 111 px
  left and right, 36 px top and bottom). Saved as 8-bit RGB PNG with the sRGB profile embedded;
  the quantity per card is in the manifest.
- ``upload: pdf`` (DriveThruCards): one PDF/X-1a:2003 with the target's output intent, the
  front and back of each printed copy on consecutive pages (page 2n−1 the front, 2n the back),
  each page cut from the print PDF to the vendor's page (MediaBox = BleedBox, our trim for
  DriveThruCards' tarot) with the TrimBox ``cut_px`` inside it. The pages are the print PDFs'
  own content (the same CMYK operators), so the ink limit the print stage checked (PR010)
  holds here.
- ``manifest.json``: the vendor, product and card, the colour space, and every file with its
  card id, number, side, back id, quantity, pixel (or pt) size and colour mode; for a PDF each
  page's card and side. ``decks`` groups the card numbers by back (one vendor deck per back).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import pikepdf
from PIL import Image, ImageCms

from engine.backs import back_id
from engine.findings import Finding
from engine.model import Deck
from pipeline.common.files import write_bytes, write_text
from pipeline.common.layout import CardLayout, load_layout
from pipeline.exports.vendorcut import cut_findings
from pipeline.render.impose import deck_copies
from pipeline.render.pagetree import append_page
from pipeline.render.pdfx import finish
from pipeline.render.softproof import soft_proof_pages
from pipeline.render.targets import PrintTarget, VendorPreset, output_condition

MANIFEST = "manifest.json"


class VendorError(ValueError):
    """A target that is no vendor preset, or a preset whose page does not fit on our bled print page."""


@dataclass(frozen=True)
class VendorResult:
    """What :func:`write_vendor_files` wrote: every path (the manifest last), the manifest's content and the VE findings."""

    paths: tuple[Path, ...]
    manifest: dict
    findings: tuple[Finding, ...]


@dataclass(frozen=True)
class _Card:
    """One unique card as the vendor files number it: its 1-based number, ids, page indices and copies."""

    number: int
    card_id: str
    back: str
    front_page: int
    back_page: int
    copies: int


def _cards(deck: Deck, front_ids: Sequence[str], back_ids: Sequence[str]) -> list[_Card]:
    copies = deck_copies(deck, front_ids, back_ids)
    return [_Card(n, card.id, back_id(deck.game, card), f, b, k)
            for n, (card, (f, b, k)) in enumerate(zip(deck.cards, copies), 1)]


def number_text(number: int, count: int) -> str:
    """A card number zero-padded to 3 digits, or to the digits of ``count`` when more: (7, 40) → ``007``; (7, 1200) → ``0007``."""
    return f"{number:0{max(3, len(str(count)))}d}"


def file_name(preset: VendorPreset, game_id: str, number: str = "", side: str = "") -> str:
    """The preset's ``files`` pattern filled in: ``{game}``, ``{number}``, ``{side}``."""
    return preset.files.format(game=game_id, number=number, side=side)


def fit_to_image(trim: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``trim`` (our trim rendered) centred on a ``size`` image; where ``size`` is larger, our edge pixels repeated outwards.

    The design is not scaled (18 pt type stays 18 pt). Where ``size`` is smaller the image is
    cut centred. Offsets are rounded down: (1122 − 900) / 2 = 111 px, (1572 − 1500) / 2 = 36 px.
    """
    width, height = size
    left, top = (width - trim.width) // 2, (height - trim.height) // 2
    if left < 0 or top < 0:
        trim = trim.crop((max(0, -left), max(0, -top), max(0, -left) + min(width, trim.width), max(0, -top) + min(height, trim.height)))
        left, top = max(0, left), max(0, top)
    out = Image.new("RGB", size)
    out.paste(trim, (left, top))
    right, bottom = left + trim.width, top + trim.height
    # rows above and below, from the trim's first and last row
    if top:
        out.paste(trim.crop((0, 0, trim.width, 1)).resize((trim.width, top)), (left, 0))
    if height - bottom:
        out.paste(trim.crop((0, trim.height - 1, trim.width, trim.height)).resize((trim.width, height - bottom)), (left, bottom))
    # then columns left and right over the full height (corners take the corner pixels)
    if left:
        out.paste(out.crop((left, 0, left + 1, height)).resize((left, height)), (0, 0))
    if width - right:
        out.paste(out.crop((right - 1, 0, right, height)).resize((width - right, height)), (right, 0))
    return out


@lru_cache(maxsize=1)
def _srgb_profile() -> bytes:
    """LittleCMS's built-in sRGB (IEC 61966-2-1) as ICC bytes, to embed in every PNG."""
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def _srgb_png(image: Image.Image, dpi: int) -> bytes:
    """``image`` as an 8-bit RGB PNG with the sRGB ICC profile embedded (what the pixels are) and
    ``dpi`` in its pHYs chunk, so an image editor opens it at the card's size, not at 72 or 96 dpi."""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG", compress_level=3, icc_profile=_srgb_profile(), dpi=(dpi, dpi))
    return buf.getvalue()


def _entry(file: str, card: _Card, side: str, number: str, size: tuple[int, int]) -> dict:
    return {"file": file, "card": card.card_id, "number": number, "side": side, "back": card.back,
            "quantity": card.copies, "width_px": size[0], "height_px": size[1], "mode": "RGB"}


def _write_pngs(deck: Deck, cards: list[_Card], fronts_pdf: Path, backs_pdf: Path, target: PrintTarget,
                folder: Path) -> tuple[list[Path], list[dict]]:
    """One PNG per face of every unique card: soft proof at the preset's dpi, trim only, fitted to the image size."""
    preset = target.vendor
    assert preset is not None
    size = preset.image_px
    paths: list[Path] = []
    entries: list[dict] = []
    # a few backs are kept; the fronts (one page per card) are rendered and written one at a time
    backs = [fit_to_image(r.image, size) for r in soft_proof_pages(backs_pdf, dpi=preset.dpi, crop_to_trim=True, target=target)]
    by_page: dict[int, list[_Card]] = {}
    for card in cards:
        by_page.setdefault(card.front_page, []).append(card)
    for index, raster in enumerate(soft_proof_pages(fronts_pdf, dpi=preset.dpi, crop_to_trim=True, target=target)):
        front = fit_to_image(raster.image, size) if index in by_page else None
        for card in by_page.get(index, []):
            number = number_text(card.number, len(cards))
            for side, image in (("front", front), ("back", backs[card.back_page])):
                name = file_name(preset, deck.game.id, number, side)
                paths.append(write_bytes(folder / name, _srgb_png(image, preset.dpi)))
                entries.append(_entry(name, card, side, number, size))
    return paths, entries


def _vendor_page_box(preset: VendorPreset, trim_box: Sequence[float], media_box: Sequence[float]) -> list[float]:
    """The vendor's page (``image_px`` at ``dpi``) centred on our trim, in the print page's pt; it must lie inside our MediaBox."""
    x0, y0, x1, y1 = (float(v) for v in trim_box)
    width, height = (preset.px_to_pt(v) for v in preset.image_px)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    box = [cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2]
    mx0, my0, mx1, my1 = (float(v) for v in media_box)
    if box[0] < mx0 - 0.01 or box[1] < my0 - 0.01 or box[2] > mx1 + 0.01 or box[3] > my1 + 0.01:
        raise VendorError(f"{preset.name}'s page ({width:g} × {height:g} pt) is larger than our bled card page "
                          f"({mx1 - mx0:g} × {my1 - my0:g} pt): a PDF upload cannot extend the bleed")
    return [round(v, 4) for v in box]


def _cut_page(page: pikepdf.Page, preset: VendorPreset) -> None:
    """Set the page's boxes to the vendor's: MediaBox = BleedBox = the vendor page, TrimBox ``cut_px`` inside it."""
    box = _vendor_page_box(preset, page.trimbox, page.mediabox)
    cut = preset.px_to_pt(preset.cut_px)
    trim = [box[0] + cut, box[1] + cut, box[2] - cut, box[3] - cut]
    page.obj.MediaBox = pikepdf.Array(box)
    page.obj.BleedBox = pikepdf.Array(box)
    page.obj.TrimBox = pikepdf.Array([round(v, 4) for v in trim])
    if "/CropBox" in page.obj:
        del page.obj["/CropBox"]


def _write_pdf(deck: Deck, cards: list[_Card], fronts_pdf: Path, backs_pdf: Path, target: PrintTarget,
               folder: Path) -> tuple[list[Path], list[dict]]:
    """One PDF/X-1a:2003: front then back of every printed copy, cut to the vendor's page, the target's output intent."""
    preset = target.vendor
    assert preset is not None
    name = file_name(preset, deck.game.id)
    pages: list[dict] = []
    labels: list[str] = []
    with pikepdf.open(fronts_pdf) as fronts, pikepdf.open(backs_pdf) as backs, pikepdf.new() as out:
        # Pages listed once and cut in one pass: pikepdf's pages[i] walks the page list (O(pages) a call).
        front_pages, back_pages = list(fronts.pages), list(backs.pages)
        for card in cards:
            number = number_text(card.number, len(cards))
            for copy in range(1, (card.copies if preset.copies == "expanded" else 1) + 1):
                for side, source, index in (("front", front_pages, card.front_page), ("back", back_pages, card.back_page)):
                    append_page(out, source[index])  # O(1); out.pages.append lists every page first
                    labels.append(f"{number} {side}" + (f" {copy}" if card.copies > 1 else ""))
                    pages.append({"page": len(labels), "card": card.card_id, "number": number, "copy": copy,
                                  "side": side, "back": card.back})
        for page in out.pages:
            _cut_page(page, preset)
        for key in ("/CreationDate", "/ModDate"):  # the print PDF's (fixed) dates: PDF/X asks for both
            if key in fronts.docinfo:
                out.docinfo[key] = fronts.docinfo[key]
        size = [float(v) for v in out.pages[0].mediabox] if len(out.pages) else [0, 0, 0, 0]
        buf = io.BytesIO()
        out.save(buf, deterministic_id=True)
    path = finish(buf.getvalue(), folder / name, f"{deck.game.title}: {preset.name} {preset.product}", labels,
                  subject=f"{len(cards)} cards, {len(labels) // 2} printed, front and back in turn", condition=output_condition(target))
    entry = {"file": name, "pages": pages, "width_pt": round(size[2] - size[0], 3), "height_pt": round(size[3] - size[1], 3),
             "mode": "CMYK", "pdfx": target.pdfx, "output_intent": target.output_intent.identifier}
    return [path], [entry]


def _manifest(deck: Deck, target: PrintTarget, cards: list[_Card], entries: list[dict]) -> dict:
    preset = target.vendor
    assert preset is not None
    colour = (f"sRGB (IEC 61966-2-1, profile embedded), soft proof of the CMYK print through {target.characterisation}"
              if preset.upload == "png" else
              f"DeviceCMYK, {target.pdfx} with output intent {target.output_intent.identifier} "
              f"({target.output_intent.condition}), at most {target.ink_limit:g} % ink")
    decks: dict[str, list[str]] = {}
    for card in cards:
        decks.setdefault(card.back, []).append(number_text(card.number, len(cards)))
    return {"game": deck.game.id, "target": target.id, "vendor": preset.name, "product": preset.product,
            "card": preset.card, "upload": preset.upload, "dpi": preset.dpi, "image_px": list(preset.image_px),
            "cut_px": preset.cut_px, "safe_px": preset.safe_px, "colour": colour, "copies": preset.copies,
            "cards": len(cards), "printed": sum(c.copies for c in cards), "decks": decks, "files": entries,
            "notes": preset.notes}


def write_vendor_files(deck: Deck, fronts_pdf: str | Path, backs_pdf: str | Path, target: PrintTarget, folder: str | Path,
                       front_ids: Sequence[str] | None = None, back_ids: Sequence[str] | None = None,
                       layout: CardLayout | None = None) -> VendorResult:
    """Write the upload files of the vendor preset ``target`` and their ``manifest.json`` into ``folder`` (module docs).

    ``fronts_pdf``/``backs_pdf`` are the print PDFs rendered for ``target``; ``front_ids`` and
    ``back_ids`` their pages' card and back ids (default: the deck's cards and backs in order).
    Findings: VE001/VE002 (:mod:`pipeline.exports.vendorcut`). Raises :class:`VendorError` for
    a target without a ``vendor:`` section, :class:`pipeline.common.raster.RasterError` for an
    unreadable PDF and :class:`pipeline.common.files.OutputError` when ``folder`` cannot be written.
    """
    from engine.backs import deck_faces

    if target.vendor is None:
        raise VendorError(f"printing target {target.id!r} is a press target, not a vendor preset (it has no vendor: section)")
    folder = Path(folder)
    cards = _cards(deck, list(front_ids) if front_ids is not None else [c.id for c in deck.cards],
                   list(back_ids) if back_ids is not None else list(deck_faces(deck)))
    writer = _write_pngs if target.vendor.upload == "png" else _write_pdf
    paths, entries = writer(deck, cards, Path(fronts_pdf), Path(backs_pdf), target, folder)
    manifest = _manifest(deck, target, cards, entries)
    paths.append(write_text(folder / MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"))
    findings = cut_findings(target.vendor, layout or load_layout(), target.id)
    return VendorResult(tuple(paths), manifest, tuple(findings))
