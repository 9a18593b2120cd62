"""Press sheets and the grid of bled cards on them: pure geometry, no PDF.

Sheet presets are data (``templates/sheets.yaml``, units in the data). :func:`plan_grid`
chooses the sheet orientation that holds the most bled cards inside the margins and
centres the grid on the sheet (DESIGN.md §4: bled 3.25 × 5.25 in cards fit 4-up on
letter and A4, 10-up on tabloid, 12 × 18 in and SRA3 with 0.25 in margins).

Coordinates are PDF points on the sheet, origin at the sheet's bottom-left, x right,
y up (ISO 32000-1 §8.3.2.3). Slots are numbered in reading order: top row first,
left to right.

Duplex: the back of slot *k* must land under the front of slot *k* once the sheet is
turned over. Turning over about a vertical axis maps front x to ``W − x`` (columns
mirror: ``x_back = W − x_front − w``); about a horizontal axis it maps y to
``H − y`` (rows mirror). A *long-edge* flip turns about the long edge, which is
vertical on a portrait sheet and horizontal on a landscape one; a *short-edge* flip
the other way. The back offset (dx, dy) then shifts the whole back side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.model import Length
from pipeline.common.templatefile import TemplateError, read_template, validate_template

SHEETS_FILE = Path(__file__).resolve().parent.parent.parent / "templates" / "sheets.yaml"


class ImpositionError(ValueError):
    """Imposition cannot be planned or written (unknown sheet, no card fits, bad source PDF)."""


class CropMarkSpec(BaseModel):
    """Crop marks: ``offset`` from the trim line (pt), ``length`` (pt), stroke ``weight`` (pt)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    offset: Length
    length: Length
    weight: Length


class RegistrationSpec(BaseModel):
    """Registration targets: circle ``radius`` and stroke ``weight`` (pt)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    radius: Length
    weight: Length


class SlugSpec(BaseModel):
    """The slug line: type ``size`` (pt) and minimum ``gap`` from the bled cards (pt)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    size: Length
    gap: Length


class BackOffset(BaseModel):
    """Shift of the back side (pt) in the back page's own coordinates (x right, y up as the back is seen)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    dx: Length = 0.0
    dy: Length = 0.0


class SheetSpec(BaseModel):
    """A press sheet preset: size as written (pt), margins, marks, back offset, duplex flip."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    width: Length
    height: Length
    source: str = ""
    margin: Length
    gutter: Length
    crop_marks: CropMarkSpec
    registration: RegistrationSpec
    slug: SlugSpec
    back_offset: BackOffset = BackOffset()
    flip: Literal["long-edge", "short-edge"] = "long-edge"

    def with_back_offset(self, dx: float, dy: float) -> SheetSpec:
        """The same sheet with another back offset (pt)."""
        return self.model_copy(update={"back_offset": BackOffset.model_construct(dx=dx, dy=dy)})


@lru_cache(maxsize=None)
def load_sheets(path: Path = SHEETS_FILE) -> dict[str, SheetSpec]:
    """Every preset of a sheets file, by name, defaults merged in.

    Read with the located YAML reader (a repeated key is an error). Raises
    FileNotFoundError, or :class:`ImpositionError` whose message starts ``file:line:col:``
    and names the sheet when the YAML or a preset is malformed.
    """
    try:
        data, source = read_template(Path(path))
    except TemplateError as exc:
        raise ImpositionError(str(exc)) from None
    data = data or {}
    defaults = data.get("defaults", {})
    out: dict[str, SheetSpec] = {}
    for name, raw in (data.get("sheets") or {}).items():
        # a field the preset does not set comes from defaults: point there when it is the bad one
        merged = {**defaults, **raw, "name": str(name)}
        try:
            out[str(name)] = validate_template(SheetSpec, merged, source, ("sheets", name))  # type: ignore[assignment]
        except TemplateError as exc:
            raise ImpositionError(f"{exc} (sheet {name!r})") from None
    return out


def get_sheet(name: str) -> SheetSpec:
    """The preset by name; raises :class:`ImpositionError` listing the known names."""
    sheets = load_sheets()
    try:
        return sheets[name]
    except KeyError:
        raise ImpositionError(f"unknown press sheet {name!r}; known: {', '.join(sheets)}") from None


@dataclass(frozen=True)
class Rect:
    """A rectangle in sheet pt: lower-left ``(x0, y0)``, upper-right ``(x1, y1)``."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def as_list(self, ndigits: int = 3) -> list[float]:
        """``[x0, y0, x1, y1]`` rounded, for JSON."""
        return [round(v, ndigits) + 0.0 for v in (self.x0, self.y0, self.x1, self.y1)]


@dataclass(frozen=True)
class Grid:
    """Bled cards on an oriented sheet.

    ``width``/``height`` are the sheet as laid out (pt); ``card_w``/``card_h`` the bled card
    (the source page's BleedBox, pt); ``trim_inset`` the trim's inset inside the bled card
    ``(left, bottom, right, top)`` in pt (9 pt on every side for a 0.125 in bleed).
    """

    spec: SheetSpec
    width: float
    height: float
    landscape: bool
    cols: int
    rows: int
    card_w: float
    card_h: float
    trim_inset: tuple[float, float, float, float]

    @property
    def per_sheet(self) -> int:
        """Card slots on one sheet."""
        return self.cols * self.rows

    @property
    def orientation(self) -> str:
        """``portrait`` or ``landscape`` (of the sheet as laid out)."""
        return "landscape" if self.landscape else "portrait"

    @property
    def mirror_columns(self) -> bool:
        """True when turning the sheet over mirrors columns (long-edge flip of a portrait sheet)."""
        long_edge_vertical = self.height >= self.width
        return (self.spec.flip == "long-edge") == long_edge_vertical

    def sheets_for(self, faces: int) -> int:
        """Sheets needed for ``faces`` cards (no blank trailing sheet; 0 faces → 0 sheets)."""
        return math.ceil(faces / self.per_sheet) if faces > 0 else 0

    def front_bled(self, slot: int) -> Rect:
        """The bled card of ``slot`` on the front side (sheet pt)."""
        if not 0 <= slot < self.per_sheet:
            raise IndexError(f"slot {slot} outside a {self.cols} × {self.rows} grid")
        g = self.spec.gutter
        grid_w = self.cols * self.card_w + (self.cols - 1) * g
        grid_h = self.rows * self.card_h + (self.rows - 1) * g
        row, col = divmod(slot, self.cols)
        x = (self.width - grid_w) / 2 + col * (self.card_w + g)
        y = (self.height + grid_h) / 2 - (row + 1) * self.card_h - row * g
        return Rect(x, y, x + self.card_w, y + self.card_h)

    def back_bled(self, slot: int) -> Rect:
        """The bled card of ``slot`` on the back side: mirrored for the flip, then shifted by the back offset."""
        f = self.front_bled(slot)
        if self.mirror_columns:
            x0, y0 = self.width - f.x1, f.y0
        else:
            x0, y0 = f.x0, self.height - f.y1
        off = self.spec.back_offset
        return Rect(x0 + off.dx, y0 + off.dy, x0 + off.dx + self.card_w, y0 + off.dy + self.card_h)

    def trim_of(self, bled: Rect) -> Rect:
        """The trim rectangle inside a bled card rectangle."""
        left, bottom, right, top = self.trim_inset
        return Rect(bled.x0 + left, bled.y0 + bottom, bled.x1 - right, bled.y1 - top)

    def front_trim(self, slot: int) -> Rect:
        """Trim of ``slot`` on the front side (sheet pt)."""
        return self.trim_of(self.front_bled(slot))

    def back_trim(self, slot: int) -> Rect:
        """Trim of ``slot`` on the back side (sheet pt), back offset included."""
        return self.trim_of(self.back_bled(slot))

    def side_bled(self, side: str, slot: int) -> Rect:
        """``front_bled`` for ``front``/``braille``, ``back_bled`` for ``back``."""
        return self.back_bled(slot) if side == "back" else self.front_bled(slot)

    def bled_and_trimmed(self, side: str) -> tuple[list[Rect], list[Rect]]:
        """Every slot's bled and trim rectangle on one side, in slot order: ``(bleds, trims)``, sheet pt.

        ``side`` is ``front``, ``back`` (mirrored for the flip, back offset applied) or ``braille``
        (the fronts' positions).
        """
        bleds = [self.side_bled(side, s) for s in range(self.per_sheet)]
        return bleds, [self.trim_of(b) for b in bleds]


def _fit(span: float, margin: float, card: float, gutter: float) -> int:
    eps = 1e-6
    usable = span - 2 * margin
    return max(0, math.floor((usable + gutter + eps) / (card + gutter)))


def plan_grid(spec: SheetSpec, card_w: float, card_h: float, trim_inset: tuple[float, float, float, float] = (9.0, 9.0, 9.0, 9.0)) -> Grid:
    """Choose the sheet orientation holding the most bled cards; the grid is centred on the sheet.

    ``card_w``/``card_h``: the bled card in pt (234 × 378 for 3 × 5 in with 0.125 in bleed).
    Cards are never rotated. A tie keeps the sheet as written (portrait for every preset).
    Raises :class:`ImpositionError` when not one card fits inside the margins.
    """
    best: Grid | None = None
    for landscape in (False, True):
        w, h = (spec.height, spec.width) if landscape else (spec.width, spec.height)
        cols, rows = _fit(w, spec.margin, card_w, spec.gutter), _fit(h, spec.margin, card_h, spec.gutter)
        grid = Grid(spec, w, h, landscape, cols, rows, card_w, card_h, trim_inset)
        if best is None or grid.per_sheet > best.per_sheet:
            best = grid
    assert best is not None
    if best.per_sheet == 0:
        raise ImpositionError(
            f"sheet {spec.name!r} ({spec.width:.1f} × {spec.height:.1f} pt) holds no {card_w:.1f} × {card_h:.1f} pt "
            f"bled card inside {spec.margin:.1f} pt margins"
        )
    return best
