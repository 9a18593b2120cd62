"""Height maps: one 8-bit grey PNG per card for RIPs that raise texture from a height map.

The image covers the bled card (the fronts' MediaBox: 3.25 × 5.25 in for 3 × 5 in with
0.125 in bleed) at the printer profile's ``height_map_dpi``; pixel (0, 0) is the bleed's
top-left corner. Grey level = height: 0 is the card surface, 255 the target dot height
(``full_scale_mm``, written into the PNG's text chunk and the job ticket), linear between.
Each dot is the spherical cap of :mod:`pipeline.render.uv.stack` (base diameter and height of
the geometry profile), sampled at pixel centres and drawn with its top on the pixel whose centre
is nearest the dot centre (so the brightest pixel lies within half a pixel of it); overlapping
dots keep the higher value (``numpy.maximum``).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np
from PIL import Image

from engine.units import pt_to_mm
from pipeline.common.files import write_bytes
from pipeline.common.pngfile import grey_png, grey_png_of_runs, run_deflated
from pipeline.common.layout import CardLayout, load_layout
from pipeline.render.uv.stack import cap_height

if TYPE_CHECKING:
    from pipeline.braille.layout import BrailleBlock

MM_PER_INCH = 25.4
_YX = attrgetter("y", "x")


def dome_sprite(base_mm: float, height_mm: float, full_scale_mm: float, dpi: int) -> tuple[Image.Image, int]:
    """One dot as an ``L`` image of side ``2c + 1`` px and its centre index ``c``: grey
    ``round(255 · cap_height(r) / full_scale_mm)`` at each pixel centre's distance ``r`` from the centre pixel's."""
    mm_per_px = MM_PER_INCH / dpi
    c = math.ceil(base_mm / 2 / mm_per_px) + 1
    side = 2 * c + 1
    values = bytearray(side * side)
    for v in range(side):
        for u in range(side):
            r = math.hypot(u - c, v - c) * mm_per_px
            values[v * side + u] = min(255, round(255 * cap_height(r, base_mm, height_mm) / full_scale_mm))
    return Image.frombytes("L", (side, side), bytes(values)), c


def dot_pixel(x_mm: float, y_mm: float, layout: CardLayout, dpi: int) -> tuple[float, float]:
    """A dot centre (mm from the trim's top-left) in pixel units of the height map (x right, y down;
    pixel ``i`` spans ``[i, i + 1)``, so its centre is at ``i + 0.5``)."""
    bleed_mm = pt_to_mm(layout.bleed)
    return (bleed_mm + x_mm) * dpi / MM_PER_INCH, (bleed_mm + y_mm) * dpi / MM_PER_INCH


def _sprite_pixels(tile: Image.Image, c: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The sprite's non-zero pixels as offsets from its centre pixel: rows, columns, the offset into
    a ``width``-pixel-wide image's flat buffer, their greys, and their reach in pixels (the largest offset)."""
    return _offsets(np.asarray(tile), c, width)


def _offsets(dome: np.ndarray, c: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """:func:`_sprite_pixels` of the sprite's pixels ``dome``."""
    rows, columns = np.nonzero(dome)
    dv, du = rows - c, columns - c
    reach = int(max(np.abs(dv).max(), np.abs(du).max())) if len(dv) else 0
    return dv, du, (dv * width + du), dome[rows, columns], reach


@lru_cache(maxsize=64)
def _dome_offsets(base_mm: float, height_mm: float, full_scale_mm: float, dpi: int, width: int):
    """:func:`_sprite_pixels` of :func:`dome_sprite`, once per geometry, scale, resolution and image width."""
    tile, c = dome_sprite(base_mm, height_mm, full_scale_mm, dpi)
    return _sprite_pixels(tile, c, width)


@lru_cache(maxsize=64)
def _dome_rows(base_mm: float, height_mm: float, full_scale_mm: float, dpi: int, width: int) -> np.ndarray:
    """The distinct row offsets of :func:`_dome_offsets`' pixels (``numpy.unique`` took ~15 µs a card)."""
    return np.unique(_dome_offsets(base_mm, height_mm, full_scale_mm, dpi, width)[0])


def height_pixels(block: BrailleBlock, dpi: int, full_scale_mm: float, layout: CardLayout | None = None,
                  sprite: tuple[Image.Image, int] | None = None) -> np.ndarray:
    """The card's height map as a 2-D uint8 array, row 0 at the top (see the module docs).

    Every dot's non-zero sprite pixels are written at once (a flat scatter, clipped to the image); where
    dots overlap and a lower grey won, the higher is maxed in (``numpy.maximum.at``). The same pixels as
    Pillow's crop, ``ImageChops.lighter`` and paste per dot (maxing a 0 into a grey changes nothing).
    """
    return _drawn(block, dpi, full_scale_mm, layout, sprite)[0]


def _size(layout: CardLayout, dpi: int) -> tuple[int, int]:
    """The map's width and height in pixels: the bled card at ``dpi``."""
    b = layout.bleed
    return round((layout.trim.width + 2 * b) / 72 * dpi), round((layout.trim.height + 2 * b) / 72 * dpi)


def _centres(dots, layout: CardLayout, dpi: int) -> np.ndarray:
    """Each dot's top pixel ``(row, column)``: :func:`dot_pixel`'s arithmetic in the same order on every dot at
    once, floored (the centres' floats read by attrgetter into a flat array: 7 against 11 µs for a list of tuples)."""
    yx = np.fromiter(chain.from_iterable(map(_YX, dots)), float, 2 * len(dots)).reshape(-1, 2)
    return np.floor((pt_to_mm(layout.bleed) + yx) * dpi / MM_PER_INCH).astype(np.intp)


def _scatter(flat: np.ndarray, at: np.ndarray, values: np.ndarray) -> None:
    """Write ``values`` at the flat indices ``at`` (same shape), keeping the highest where several land on one pixel."""
    flat[at] = values  # one of the greys written to a pixel lands there
    lower = flat[at] < values
    if lower.any():  # overlapping domes where a lower grey landed: max the higher ones in
        np.maximum.at(flat, at[lower], np.broadcast_to(values, lower.shape)[lower])


def _drawn(block: BrailleBlock, dpi: int, full_scale_mm: float, layout: CardLayout | None = None,
           sprite: tuple[Image.Image, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`height_pixels` and which of its rows are all zero (a bool per row): those no dot's
    non-zero sprite pixel was written to, as every grey written is above 0 (for :func:`~pipeline.common.pngfile.grey_png`)."""
    layout = layout or load_layout()
    width, height = _size(layout, dpi)
    pixels, blank = np.zeros((height, width), dtype=np.uint8), np.ones(height, bool)
    dots = block.dots()
    if not dots:
        return pixels, blank
    if sprite is None:
        geometry = (block.profile.dot_base, block.profile.dot_height, full_scale_mm, dpi, width)
        (dv, du, offsets, grey, reach), sprite_rows = _dome_offsets(*geometry), _dome_rows(*geometry)
    else:
        dv, du, offsets, grey, reach = _sprite_pixels(*sprite, width)
        sprite_rows = np.unique(dv)
    centres = _centres(dots, layout, dpi)  # each top on the pixel holding its centre
    at = (centres[:, 0] * width + centres[:, 1])[:, None] + offsets  # (dots, sprite pixels), into the flat image
    values = grey
    if _off_image(centres, reach, width, height):  # a dome reaches off the image
        ys, xs = centres[:, :1] + dv, centres[:, 1:] + du
        inside = (ys >= 0) & (ys < height) & (xs >= 0) & (xs < width)
        at, values = at[inside], np.broadcast_to(grey, inside.shape)[inside]
        blank[at // width] = False
    else:  # every sprite row of every dot lies on the image, with the sprite's centre column
        blank[(centres[:, :1] + sprite_rows).ravel()] = False
    _scatter(pixels.reshape(-1), at, values)
    return pixels, blank


def _off_image(centres: np.ndarray, reach: int, width: int, height: int) -> bool:
    """Whether a dome of ``reach`` pixels around one of the ``centres`` (row, column) reaches off the image."""
    (top, left), (bottom, right) = centres.min(axis=0), centres.max(axis=0)
    return bool(min(top, left) < reach or bottom + reach >= height or right + reach >= width)


#: Deflated runs of a map's rows (:func:`pipeline.common.pngfile.run_deflated`) by what drew them: the dome
#: geometry, the map's width, the run's height and its dots' top pixels relative to the run's first row. A
#: braille line recurs from card to card (a keyword, a class name), and then is neither drawn nor deflated
#: again. Least recently used first, :data:`DOT_RUNS_BYTES` of keys and blocks at most (~2 kB a run at 150 dpi).
_DOT_RUNS: OrderedDict[tuple, tuple[bytes, int]] = OrderedDict()
DOT_RUNS_BYTES = 4 << 20
_kept_bytes = [0]


def _map_png(block: BrailleBlock, dpi: int, full_scale_mm: float, layout: CardLayout, text: str) -> bytes:
    """The card's height map as the PNG file :func:`~pipeline.common.pngfile.grey_png` writes for
    :func:`height_pixels`, byte for byte, its runs of rows that are not blank drawn and deflated only when
    their dots were not seen before (:data:`_DOT_RUNS`). A map with a dome reaching off the image, or none,
    is drawn whole."""
    width, height = _size(layout, dpi)
    dots = block.dots()
    geometry = (block.profile.dot_base, block.profile.dot_height, full_scale_mm, dpi)
    _, _, offsets, grey, reach = _dome_offsets(*geometry, width + 1)  # offsets into rows with their filter byte
    rows_of = _dome_rows(*geometry, width)
    centres = _centres(dots, layout, dpi) if dots else None
    if centres is None or _off_image(centres, reach, width, height) or len(rows_of) != rows_of[-1] - rows_of[0] + 1:
        pixels, blank = _drawn(block, dpi, full_scale_mm, layout)
        return grey_png(pixels, dpi, {"deckpress": text}, blank_rows=blank)
    blank = np.ones(height, bool)
    blank[(centres[:, :1] + rows_of).ravel()] = False
    low, high = rows_of[0], rows_of[-1]  # a dot's rows (all holding a grey) lie in one run: none or all of them

    def deflated(start: int, end: int) -> tuple[bytes, int]:
        chosen = centres[(centres[:, 0] + low >= start) & (centres[:, 0] + high < end)] - (start, 0)
        key = (geometry, width, end - start, chosen.tobytes())
        hit = _DOT_RUNS.get(key)
        if hit is not None:
            _DOT_RUNS.move_to_end(key)
            return hit
        rows = np.zeros((end - start, width + 1), np.uint8)  # column 0: each row's filter byte, 0
        _scatter(rows.reshape(-1), (chosen[:, 0] * (width + 1) + chosen[:, 1] + 1)[:, None] + offsets, grey)
        hit = _DOT_RUNS[key] = run_deflated(rows, remember=False)
        _kept_bytes[0] += len(key[3]) + len(hit[0])
        while _kept_bytes[0] > DOT_RUNS_BYTES and len(_DOT_RUNS) > 1:
            (*_, dropped), (blocks, _) = _DOT_RUNS.popitem(last=False)
            _kept_bytes[0] -= len(dropped) + len(blocks)
        return hit

    return grey_png_of_runs(width, height, blank, deflated, dpi, {"deckpress": text})


def height_map(block: BrailleBlock, dpi: int, full_scale_mm: float, layout: CardLayout | None = None,
               sprite: tuple[Image.Image, int] | None = None) -> Image.Image:
    """The card's height map as a Pillow ``L`` image: :func:`height_pixels` (see the module docs)."""
    return Image.fromarray(height_pixels(block, dpi, full_scale_mm, layout, sprite), "L")


def write_height_maps(blocks: dict[str, BrailleBlock], card_ids: list[str], folder: str | Path, dpi: int,
                      full_scale_mm: float, layout: CardLayout | None = None,
                      keep: Callable[[str, object], bool] | None = None) -> list[Path]:
    """One ``<card id>.png`` per card in ``folder`` (written safely); returns the paths in card order.

    ``keep`` (a rebuild, :class:`pipeline.build.cardkeys.Keeper`) is asked ``keep("<card id>.png",
    (block, dpi, full_scale_mm, layout))`` per card: True means the map is in ``folder`` already, not drawn.
    The PNG (8-bit grey, pHYs ``dpi``, a tEXt chunk saying what the greys mean) is written by
    :func:`pipeline.common.pngfile.grey_png`: Pillow's encoder spent ~85 % of its time choosing row filters
    for rows that are nearly all card surface (shipped games at 150 dpi: 1.9-2.3 → 0.35 ms a map, 3.9 →
    3.7 KiB; the pixels and chunks decode the same). Each map's runs of rows with dots are drawn and deflated
    once per distinct set of dots (:func:`_map_png`): the file :func:`grey_png` writes for :func:`height_pixels`.
    """
    layout = layout or load_layout()
    paths = []
    for cid in card_ids:
        block = blocks[cid]
        if keep is not None and keep(f"{cid}.png", (block, dpi, full_scale_mm, layout)):
            paths.append(Path(folder) / f"{cid}.png")
            continue
        text = (f"height map of card {cid}; grey 255 = {full_scale_mm:g} mm, 0 = card surface; "
                f"{dpi} dpi, pixel (0,0) at the bleed's top-left")
        paths.append(write_bytes(Path(folder) / f"{cid}.png", _map_png(block, dpi, full_scale_mm, layout, text)))
    _DOT_RUNS.clear()  # the deck's runs are not held through the rest of the build (issue 22: memory)
    _kept_bytes[0] = 0
    return paths
