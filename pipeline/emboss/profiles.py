"""Embosser profiles as data (``templates/embossers/<id>.yaml``) and the page format they give.

A profile names an embosser model and what it can take: the paper kind (``card``
for loose card stock, ``sheet`` for cut sheets, ``tractor`` for pin-feed fanfold),
paper width and length limits, margins, cell and line pitch, optional machine
limits on cells per line and lines per page, and its duplex modes. Lengths are
written with their unit in the data ("3in", "6.2mm") and held in pt after parsing
(:mod:`engine.units`); this module reports them in mm.

Cells per line and lines per page for a page are whole cells and lines in the area
inside the margins: ``floor(width / cell_pitch)`` and ``floor(height / line_pitch)``,
as libembosser computes them (``BrlCell.getCellsForWidth`` / ``getLinesForHeight``),
then capped by the profile's ``max_cells`` / ``max_lines``. A 3×5 in card with ¼ in
margins at 6.2 / 10.16 mm (NLS Specification 800 §3.2) gives 10 cells × 11 lines.

:meth:`EmbosserProfile.page_format` is a sheet (the sheet layout);
:meth:`EmbosserProfile.card_format` one loose card per page (the card layout), which
only ``card`` paper and ``tractor`` paper with continuous card stock can take.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.model import Length
from engine.units import pt_to_mm
from pipeline.common.templatefile import TemplateError, located_error, read_template

EMBOSSERS = Path(__file__).resolve().parent.parent.parent / "templates" / "embossers"

#: Margin of a loose card on every side: ¼ in (DESIGN.md §3, the card layout's critical inset).
CARD_MARGIN_MM = 6.35

#: Tolerance (mm) when comparing lengths and counting whole cells: 85.0 mm ÷ 8.5 mm is 10 cells, not 9.
_EPS = 1e-6


class EmbossError(ValueError):
    """An embosser job that cannot be made as asked (bad profile, paper, layout or duplex mode)."""


class ProfileError(EmbossError):
    """A profile file that cannot be read or does not match the schema; the message names file and field."""


class UnknownProfile(EmbossError):
    """No profile of that name; the message lists the known profiles."""


class PaperSizeError(EmbossError):
    """The profile's embosser cannot take a page of the chosen size (e.g. a 3 in card on an Everest-D)."""


class Range(BaseModel):
    """An inclusive length range (pt after parsing)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min: Length
    max: Length

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min > self.max:
            raise ValueError(f"min ({pt_to_mm(self.min):.1f} mm) is larger than max ({pt_to_mm(self.max):.1f} mm)")
        return self

    def holds(self, mm: float) -> bool:
        """True when a length in mm lies within the range."""
        return pt_to_mm(self.min) - _EPS <= mm <= pt_to_mm(self.max) + _EPS

    def text(self) -> str:
        """``"130–297.6 mm"``; a range of one length is that length (``"76.2 mm"``)."""
        low, high = _fmt(pt_to_mm(self.min)), _fmt(pt_to_mm(self.max))
        return f"{low} mm" if low == high else f"{low}–{high} mm"


class Size(BaseModel):
    """A paper size, width across the feed and height along it (pt after parsing)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    width: Length
    height: Length


class Paper(BaseModel):
    """What paper the embosser takes: its kind, width and length limits, and the size deckpress uses for sheets.

    ``card_stock_strips`` (tractor paper only) is the width of the pin-feed strip on each
    side of continuous card stock: cards then feed as pages of the card's size, the
    paper being the card plus both strips. Without it, only ``card`` paper takes loose cards.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["card", "sheet", "tractor"]
    width: Range
    height: Range
    default: Size
    card_stock_strips: Length | None = None

    @model_validator(mode="after")
    def _strips_on_tractor(self) -> Paper:
        if self.card_stock_strips is not None and self.kind != "tractor":
            raise ValueError("card_stock_strips (pin-feed strips of continuous card stock) needs kind: tractor")
        return self


class Margins(BaseModel):
    """Unembossed margins of a page (pt after parsing)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    top: Length
    bottom: Length
    left: Length
    right: Length


DuplexMode = Literal["simplex", "interpoint", "z-fold", "saddle-stitch"]


class EmbosserProfile(BaseModel):
    """One embosser model's limits (see the module docstring). ``source`` cites the data's origin."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    model: str
    maker: str
    paper: Paper
    margins: Margins
    cell_pitch: Length
    line_pitch: Length
    max_cells: int | None = Field(default=None, ge=1)
    max_lines: int | None = Field(default=None, ge=1)
    duplex: tuple[DuplexMode, ...] = ("simplex",)
    #: ``adjustable``: the first line and cell can be set anywhere inside the margins (a top and
    #: left offset in mm); ``fixed``: lines start at the top margin, cells at the left, in whole
    #: pitches (pipeline/emboss/cardstock.py).
    start_offset: Literal["fixed", "adjustable"] = "fixed"
    source: str

    @property
    def cell_pitch_mm(self) -> float:
        """Distance between the same dot of neighbouring cells (mm)."""
        return pt_to_mm(self.cell_pitch)

    @property
    def line_pitch_mm(self) -> float:
        """Distance between neighbouring lines (mm)."""
        return pt_to_mm(self.line_pitch)

    def page_format(self, width_mm: float | None = None, height_mm: float | None = None) -> PageFormat:
        """The cells per line and lines per page of a page of this size (default: the profile's sheet).

        Raises :class:`PaperSizeError` naming the profile, the page size and the
        paper limits when the embosser cannot take the page, or when not one cell
        or line fits inside the margins.
        """
        default = self.paper.default
        w = pt_to_mm(default.width) if width_mm is None else width_mm
        h = pt_to_mm(default.height) if height_mm is None else height_mm
        self._check_paper(w, h, f"a {_fmt(w)} × {_fmt(h)} mm page")
        m = self.margins
        return self._format(w, h, (pt_to_mm(m.left) + pt_to_mm(m.right), pt_to_mm(m.top) + pt_to_mm(m.bottom)))

    def card_format(self, width_mm: float, height_mm: float) -> PageFormat:
        """The page format of one loose card per page (the card layout).

        ``card`` paper takes the card as a page, inside the profile's margins;
        ``tractor`` paper with ``card_stock_strips`` takes continuous card stock (the
        card plus a pin-feed strip each side) inside ¼ in card margins (:data:`CARD_MARGIN_MM`).
        Raises :class:`PaperSizeError` for any other paper, or a card the paper cannot take.
        """
        if self.paper.kind == "card":
            return self.page_format(width_mm, height_mm)
        strips = self.paper.card_stock_strips
        if strips is None:
            raise PaperSizeError(
                f"embosser profile {self.id!r} ({self.model}) cannot take a {_fmt(width_mm)} × {_fmt(height_mm)} mm card: "
                f"it feeds {self.paper.kind} paper {self.paper.width.text()} wide and {self.paper.height.text()} long, not card stock"
            )
        paper_w = width_mm + 2 * pt_to_mm(strips)
        self._check_paper(paper_w, height_mm, f"a {_fmt(width_mm)} × {_fmt(height_mm)} mm card on continuous card stock ({_fmt(paper_w)} mm across with its pin-feed strips)")
        return self._format(width_mm, height_mm, (2 * CARD_MARGIN_MM, 2 * CARD_MARGIN_MM))

    def _check_paper(self, paper_w: float, paper_h: float, what: str) -> None:
        if not (self.paper.width.holds(paper_w) and self.paper.height.holds(paper_h)):
            raise PaperSizeError(
                f"embosser profile {self.id!r} ({self.model}) cannot take {what}: its {self.paper.kind} paper "
                f"must be {self.paper.width.text()} wide and {self.paper.height.text()} long"
            )

    def _format(self, w: float, h: float, margins: tuple[float, float]) -> PageFormat:
        inner_w = w - margins[0]
        inner_h = h - margins[1]
        cells = max(0, math.floor(inner_w / self.cell_pitch_mm + _EPS))
        lines = max(0, math.floor(inner_h / self.line_pitch_mm + _EPS))
        if self.max_cells is not None:
            cells = min(cells, self.max_cells)
        if self.max_lines is not None:
            lines = min(lines, self.max_lines)
        if cells < 1 or lines < 1:
            raise PaperSizeError(
                f"embosser profile {self.id!r}: a {_fmt(w)} × {_fmt(h)} mm page holds {cells} cells × {lines} lines inside its margins"
            )
        return PageFormat(self.id, round(w, 3), round(h, 3), cells, lines)


@dataclass(frozen=True)
class PageFormat:
    """One embosser page: its size (mm) and how many cells per line and lines per page it holds."""

    profile: str
    width_mm: float
    height_mm: float
    cells_per_line: int
    lines_per_page: int


def _fmt(mm: float) -> str:
    return f"{mm:.1f}".rstrip("0").rstrip(".")


def profile_names() -> list[str]:
    """The ids of the shipped profiles (file names in ``templates/embossers/``), sorted."""
    return sorted(p.stem for p in EMBOSSERS.glob("*.yaml"))


@lru_cache(maxsize=None)
def load_profile(name: str) -> EmbosserProfile:
    """The profile ``templates/embossers/<name>.yaml``.

    Raises :class:`UnknownProfile` listing the known ids, or :class:`ProfileError`
    naming the file and the bad field when the YAML does not match the schema.
    """
    path = EMBOSSERS / f"{name}.yaml"
    if "/" in name or not path.is_file():
        raise UnknownProfile(f"unknown embosser profile {name!r}; known: {', '.join(profile_names())}")
    return read_profile(path)


def read_profile(path: Path) -> EmbosserProfile:
    """Parse one profile file with the located YAML reader (a repeated key is an error).

    Raises :class:`ProfileError` whose message starts ``file:line:col:`` and names the field.
    """
    try:
        data, source = read_template(path)
    except (OSError, TemplateError) as exc:
        raise ProfileError(f"cannot read embosser profile: {exc}") from None
    try:
        profile = EmbosserProfile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(located_error(exc, source)) from None
    if profile.id != path.stem:
        raise ProfileError(f"{source.follow(('id',))[0]}: field id: {profile.id!r} must match the file name {path.stem!r}")
    return profile
