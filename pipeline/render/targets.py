"""Printing targets as data (``templates/targets/<id>.yaml``): the printing condition a print PDF is made for.

A target names the PDF/X flavour, the registered output intent (identifier, condition,
registry), the characterisation data of the printing condition (a ``.ti3`` file of
measured CMYK → CIELAB patches from Debian's icc-profiles-free, e.g. ``FOGRA39L``) and the
total area coverage (TAC) limit in percent. The ICC profile of the condition is built from
that data at setup (``scripts/build-icc.sh``, ArgyllCMS colprof) into
``templates/targets/icc/<characterisation>.icc``; :mod:`pipeline.render.colour` converts
through it.

A **vendor preset** is a target with a ``vendor:`` section (:class:`VendorPreset`): a
print-on-demand card printer, the card it makes of our design and the files its upload
takes (:mod:`pipeline.exports.vendors` writes them).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.render.pdfx import OutputCondition

TARGETS = Path(__file__).resolve().parent.parent.parent / "templates" / "targets"
ICC_DIR = TARGETS / "icc"
#: Where Debian's icc-profiles-free installs the characterisation data (``.ti3``).
CHARACTERISATION_DIR = Path("/usr/share/color/icc")
DEFAULT_TARGET = "fogra39"


class TargetError(ValueError):
    """A target that is unknown or whose file does not match the schema; the message names file and field."""


class OutputIntent(BaseModel):
    """A registered printing condition (ICC Characterization Data Registry, https://www.color.org/chardata/)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    identifier: str
    condition: str
    registry: str = "http://www.color.org"


class DielineSpots(BaseModel):
    """The spot colour names of a die-cut job's structural lines (packaging): the cut and the fold (crease) line.

    CutContour is the name Roland VersaWorks and most cutting RIPs take for the cut path;
    Fold the usual name for crease lines. A shop with other names sets ``dieline:`` in the target.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    cut: str = "CutContour"
    fold: str = "Fold"


class VendorPreset(BaseModel):
    """What a print-on-demand vendor takes and makes (the ``vendor:`` section of a target file).

    Pixel values are at ``dpi`` (300: 1 px = 0.24 pt). ``image_px`` is the upload's size per
    face, the vendor's bleed included (for ``upload: pdf`` the page size); ``cut_px`` is what
    the vendor trims off each side of it; ``safe_px`` how far inside that cut line the vendor
    asks text to stay (the safe zone of their templates). Our 3×5 in trim is placed centred at
    100 % in the image; what lies outside it (the image is larger) is our bleed, extended.
    ``files`` names each file (``{game}``, ``{number}`` zero-padded card number, ``{side}``
    front/back, ``{suffix}``); ``copies`` says whether every printed copy gets its own file or
    page (``expanded``) or each unique card one file, with its quantity in the manifest (``unique``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    product: str
    card: str
    upload: Literal["png", "pdf"]
    dpi: int = Field(300, gt=0)
    image_px: tuple[int, int]
    cut_px: float = Field(ge=0)
    safe_px: float = Field(ge=0)
    files: str
    copies: Literal["unique", "expanded"] = "unique"
    notes: str = ""

    def px_to_pt(self, px: float) -> float:
        """Pixels at :attr:`dpi` in PDF points (72 per inch)."""
        return px * 72 / self.dpi


class PrintTarget(BaseModel):
    """One printing target: PDF/X flavour, output intent, characterisation data and TAC limit (%);
    ``vendor`` is set for a vendor preset (:class:`VendorPreset`), None for a press target; ``dieline`` the
    spot names of die lines (:class:`DielineSpots`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    pdfx: str = "PDF/X-1a:2003"
    output_intent: OutputIntent
    characterisation: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    ink_limit: float = Field(gt=0, le=400)
    dieline: DielineSpots = DielineSpots()
    vendor: VendorPreset | None = None
    #: The data the colour is measured with, when it is not the output intent's own (DriveThruCards: TR 003 for TR 001).
    measured_with: str | None = None

    @property
    def condition_label(self) -> str:
        """The output intent's identifier as findings name it, with the measuring data when that differs:
        ``FOGRA39``; ``CGATS TR 001 (measured with CGATS TR 003)``."""
        identifier = self.output_intent.identifier
        return f"{identifier} (measured with {self.measured_with})" if self.measured_with else identifier

    @property
    def profile_path(self) -> Path:
        """The ICC output profile built from :attr:`characterisation` at setup."""
        return ICC_DIR / f"{self.characterisation}.icc"

    @property
    def data_path(self) -> Path:
        """The characterisation data (``.ti3``: CMYK patches and their measured XYZ and CIELAB, D50)."""
        return CHARACTERISATION_DIR / f"{self.characterisation}.ti3"


def output_condition(target: PrintTarget | str | None = None) -> OutputCondition:
    """The target's output intent as the :class:`pipeline.render.pdfx.OutputCondition` the PDF/X writer takes."""
    chosen = target if isinstance(target, PrintTarget) else load_target(target or DEFAULT_TARGET)
    return OutputCondition(**chosen.output_intent.model_dump(), profile=str(chosen.profile_path))


def target_names() -> list[str]:
    """Ids of the targets in ``templates/targets/``, sorted."""
    return sorted(p.stem for p in TARGETS.glob("*.yaml"))


@lru_cache(maxsize=None)
def load_target(name: str = DEFAULT_TARGET) -> PrintTarget:
    """The target ``templates/targets/<name>.yaml``.

    Raises :class:`TargetError` for an unknown name (listing the known ones) or a file
    that does not match the schema (naming the file and the field).
    """
    path = TARGETS / f"{name}.yaml"
    if name not in target_names():
        raise TargetError(f"unknown printing target {name!r}; known: {', '.join(target_names())}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return PrintTarget.model_validate({"id": name, **data})
    except (OSError, yaml.YAMLError) as exc:
        raise TargetError(f"{path}: cannot read the target: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        raise TargetError(f"{path}: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
