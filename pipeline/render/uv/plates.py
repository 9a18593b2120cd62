"""The plate-only PDFs of the UV package: layered braille plates, the K=100 mask, the white underbase.

Every page has the fronts' boxes (MediaBox = BleedBox = trim + 2 × bleed, TrimBox the trim, from
the card layout), holds only braille dots as filled vector circles with overprint on (ExtGState
``/op true /OPM 1``), is marked as ISO 19593-1 processing step Braille (White for the underbase;
:mod:`pipeline.render.uv.ocg`) and so finished as PDF/X-4 (optional content is PDF 1.5:
:mod:`pipeline.render.pdfx4`). The exception is Mimaki's ``cmyk-layer-pages``: RasterLink refuses
colour replacement in a PDF with an embedded profile and PDF/X-4 embeds its output profile, so
those pages carry no OCG and stay PDF/X-1a:2003 (registered output intent, nothing embedded).

Layered plates follow the printer profile's ``plate_mode`` (:mod:`pipeline.render.uv.printers`):

- ``layer-pages``: for each card, one page per layer (labels ``<card> L01`` … bottom first), all
  in the clear spot; each layer's circles at that layer's diameter (:mod:`pipeline.render.uv.stack`);
- ``separations``: one page per card, layer *k* in the spot ``<spot> Lkk``;
- ``cmyk-layer-pages``: like ``layer-pages`` with DeviceCMYK K=100 circles (no spot, no ICC profile);
- ``single`` and ``height-map``: the flat plate (:func:`pipeline.render.tactile.render_braille_layer`).

The mask is one page per card, K=100 circles at the base diameter: "the UV file" of shops that
make their own clear plate from black.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from reportlab.lib.colors import CMYKColor, CMYKColorSep

from engine.units import mm_to_pt
from pipeline.common.layout import CardLayout, load_layout
from pipeline.render.pdfpaths import circle_operators
from pipeline.render.pdfx import FOGRA39, OutputCondition, finish
from pipeline.render.tactile import ALTERNATE_CMYK, TactileError, check_spot_name, pdf_points, render_braille_layer
from pipeline.render.uv.discpdf import disc_pages_pdf
from pipeline.render.uv.ocg import BRAILLE, WHITE

if TYPE_CHECKING:
    from pipeline.braille.geometry import Dot
    from pipeline.braille.layout import BrailleBlock
    from pipeline.render.uv.printers import UvPrinter
    from pipeline.render.uv.stack import DotStack

#: 100 % black, DeviceCMYK: the mask and the CMYK layer pages.
K100 = CMYKColor(0, 0, 0, 1)


@dataclass(frozen=True)
class Disc:
    """Circles of one colour and diameter (mm) at some dot centres, painted in that order."""

    colour: CMYKColor
    diameter_mm: float
    dots: tuple[Dot, ...]


def layer_spot_name(spot: str, layer: int) -> str:
    """The separation of layer ``layer`` (1-based) in ``separations`` mode: ``"Braille L01"``."""
    return check_spot_name(f"{spot} L{layer:02d}")


def _spot(name: str) -> CMYKColorSep:
    return CMYKColorSep(*ALTERNATE_CMYK, spotName=check_spot_name(name))


def draw_pages(pages: Sequence[tuple[str, Sequence[Disc]]], path: str | Path, title: str, subject: str,
               group: str | None = BRAILLE, layout: CardLayout | None = None, condition: OutputCondition = FOGRA39) -> Path:
    """Write pages of discs (``(label, discs)`` each) with the layout's boxes, overprint on, marked
    as ISO 19593-1 processing step ``group`` and finished PDF/X-4; ``group=None``: no OCG, PDF/X-1a:2003
    (both with ``condition``'s output intent). Returns ``path``."""
    layout = layout or load_layout()
    # reportlab's path.circle costs ~0.1 ms a dot (1,440 layer pages: 7 s); the same four Bézier arcs written
    # as operators cost a tenth of that. One reportlab page per colour sequence, copied per page (discpdf).
    last: list = [None, None]  # the last dots tuple and its points: a card's layers (consecutive pages) share its dots

    def centres(dots: tuple[Dot, ...]) -> list[tuple[float, float]]:
        if last[0] is not dots:
            last[:] = dots, pdf_points(dots, layout)
        return last[1]

    # Each page's operators made when discpdf reaches it, dropped once compressed (not the whole deck's first:
    # ~12 kB a card and layer)
    ops = ([(disc.colour, circle_operators(centres(disc.dots), mm_to_pt(disc.diameter_mm / 2))) for disc in discs if disc.dots]
           for _, discs in pages)
    labels = [label for label, _ in pages]
    with disc_pages_pdf(ops, layout, group or None, [[disc.colour for disc in discs if disc.dots] for _, discs in pages]) as pdf:
        return finish(pdf, path, title, labels, subject=subject, condition=condition)


def _blocks_for(blocks: Mapping[str, BrailleBlock], card_ids: Sequence[str]) -> list[BrailleBlock]:
    missing = [cid for cid in card_ids if cid not in blocks]
    if missing:
        raise TactileError(f"no braille block for card(s) {', '.join(missing)}")
    return [blocks[cid] for cid in card_ids]


def render_layer_plates(blocks: Mapping[str, BrailleBlock], card_ids: Sequence[str], path: str | Path,
                        printer: UvPrinter, spot: str, stacks: Mapping[str, DotStack],
                        layout: CardLayout | None = None, condition: OutputCondition = FOGRA39) -> Path:
    """The layered plate-only PDF for ``printer``'s ``plate_mode`` (see the module docs).

    ``stacks`` gives the :class:`~pipeline.render.uv.stack.DotStack` per geometry profile name;
    ``spot`` is the clear spot (already checked against the profile). Raises
    :class:`~pipeline.render.tactile.TactileError` for a card without a block or a bad spot name.
    """
    chosen = _blocks_for(blocks, card_ids)
    mode = printer.plate_mode
    if mode in ("single", "height-map"):
        return render_braille_layer(blocks, card_ids, path, spot_name=spot, layout=layout, condition=condition)
    pages: list[tuple[str, list[Disc]]] = []
    for block in chosen:
        dots, stack = tuple(block.dots()), stacks[block.profile.name]
        layers = list(enumerate(stack.diameters_mm, 1))
        if mode == "separations":
            pages.append((block.card_id, [Disc(_spot(layer_spot_name(spot, k)), d, dots) for k, d in layers]))
            continue
        colour = K100 if mode == "cmyk-layer-pages" else _spot(spot)
        pages += [(f"{block.card_id} L{k:02d}", [Disc(colour, d, dots)]) for k, d in layers]
    ink = "DeviceCMYK K=100" if mode == "cmyk-layer-pages" else f"spot colour {spot}"
    return draw_pages(pages, path, f"UV braille plates for {printer.name}, {ink}",
                      f"braille dot layers ({mode}), bottom layer first; {printer.rip}",
                      group=None if mode == "cmyk-layer-pages" else BRAILLE, layout=layout,  # module docs: no profile for RasterLink
                      condition=condition)


def render_mask(blocks: Mapping[str, BrailleBlock], card_ids: Sequence[str], path: str | Path,
                layout: CardLayout | None = None, condition: OutputCondition = FOGRA39) -> Path:
    """The K=100 mask: one page per card, DeviceCMYK black circles at the base diameter, overprint on."""
    pages = [(b.card_id, [Disc(K100, b.profile.dot_base, tuple(b.dots()))]) for b in _blocks_for(blocks, card_ids)]
    return draw_pages(pages, path, "UV braille mask, K=100", "braille dots as 100 % black, one page per card front", layout=layout,
                      condition=condition)


def render_underbase(blocks: Mapping[str, BrailleBlock], card_ids: Sequence[str], path: str | Path, white_spot: str,
                     layout: CardLayout | None = None, condition: OutputCondition = FOGRA39) -> Path:
    """The white underbase: one page per card, circles at the base diameter in ``white_spot``
    (ISO 19593-1 processing step White). For clear or dark stock only: transparent braille needs none."""
    colour = _spot(white_spot)
    pages = [(b.card_id, [Disc(colour, b.profile.dot_base, tuple(b.dots()))]) for b in _blocks_for(blocks, card_ids)]
    return draw_pages(pages, path, f"UV white underbase, spot colour {white_spot}",
                      "white under the braille dots, for clear or dark stock", group=WHITE, layout=layout, condition=condition)
