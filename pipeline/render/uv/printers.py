"""UV printer profiles as data (``templates/uv-printers/<id>.yaml``), read like the embosser profiles.

A profile says what a flatbed UV printer's RIP accepts for raised braille:

- ``plate_mode``: ``single`` (one plate at the base diameter, printed for as many passes as
  the job ticket says: today's flat plate), ``layer-pages`` (one page per layer and card, all in
  the clear spot: Roland VersaWorks, Arizona), ``separations`` (one page per card, one spot
  separation per layer, ``<spot> L01`` …), ``cmyk-layer-pages`` (one page per layer and card,
  circles in DeviceCMYK K=100 with no embedded ICC profile, for RIPs that build special-colour
  layers from CMYK vector data: Mimaki RasterLink) or ``height-map`` (the 8-bit PNGs are the job);
- the spot names: ``clear_spot`` (the braille plate), ``spot_names`` (the names the RIP
  recognises for it; empty means any usable name, chosen with ``--spot``), ``white_spot`` (the
  optional underbase) and ``reserved_spots`` (names the RIP keeps for itself, refused);
- ``layer_thickness`` (one pass of clear ink, a length with its unit; pt after parsing),
  ``height_map_dpi`` and ``registration_tolerance``;
- ``source``: where each number comes from (the shipped profiles name the RIP manuals).

Shipped: ``flat-plate`` (the default, today's files), ``roland-versaworks``, ``arizona``,
``mimaki-rasterlink``, ``height-map``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.fields import Length
from engine.units import pt_to_mm

UV_PRINTERS = Path(__file__).resolve().parents[3] / "templates" / "uv-printers"

#: The profile used when none is named: the single flat plate deckpress has always written.
DEFAULT_UV_PRINTER = "flat-plate"

PlateMode = Literal["single", "layer-pages", "separations", "cmyk-layer-pages", "height-map"]


class UvPrinterError(ValueError):
    """A UV printer profile that is unknown, unreadable, or a spot name it refuses; the message names the allowed values."""


class UvPrinter(BaseModel):
    """One UV printer profile (lengths in pt after parsing; :attr:`layer_thickness_mm` etc. give mm)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    rip: str
    plate_mode: PlateMode
    clear_spot: str
    spot_names: tuple[str, ...] = ()
    white_spot: str
    reserved_spots: tuple[str, ...] = ()
    layer_thickness: Length = Field(gt=0)
    height_map_dpi: int = Field(ge=72, le=2400)
    registration_tolerance: Length = Field(ge=0)
    source: str

    @property
    def layer_thickness_mm(self) -> float:
        """One layer (pass) of clear ink, mm."""
        return round(pt_to_mm(self.layer_thickness), 6)

    @property
    def registration_tolerance_mm(self) -> float:
        """How far the UV plate may sit off the print, mm."""
        return round(pt_to_mm(self.registration_tolerance), 6)

    def clear_spot_for(self, requested: str | None) -> str:
        """The clear plate's spot name for a ``--spot`` request.

        A reserved name (``White`` on Arizona, ``RDG_WHITE`` on Roland) raises
        :class:`UvPrinterError` naming the allowed names. A profile with ``spot_names``
        takes the request when it is one of them and its ``clear_spot`` otherwise (so the
        CLI's default ``Braille`` becomes ``RDG_GLOSS`` on Roland); a profile without takes
        the request (checked later by :func:`pipeline.render.tactile.check_spot_name`).
        """
        if requested is not None and requested in self.reserved_spots:
            raise UvPrinterError(
                f"spot colour name {requested!r} is reserved by the {self.id} profile ({self.rip}: "
                f"{', '.join(self.reserved_spots)}); allowed: {self.allowed_text()}")
        if self.spot_names:
            return requested if requested in self.spot_names else self.clear_spot
        return requested or self.clear_spot

    def allowed_text(self) -> str:
        """The clear spot names this profile accepts, for messages."""
        return ", ".join(repr(n) for n in self.spot_names) if self.spot_names else "any usable spot name (--spot)"


def uv_printer_names() -> list[str]:
    """The ids of the shipped profiles, sorted."""
    return sorted(p.stem for p in UV_PRINTERS.glob("*.yaml"))


@lru_cache(maxsize=None)
def load_uv_printer(name: str | None = None) -> UvPrinter:
    """The profile ``templates/uv-printers/<name>.yaml`` (``None``: :data:`DEFAULT_UV_PRINTER`).

    Raises :class:`UvPrinterError` listing the known ids for an unknown name, or naming the
    file and the bad field when the YAML does not match the schema.
    """
    name = name or DEFAULT_UV_PRINTER
    path = UV_PRINTERS / f"{name}.yaml"
    if "/" in name or not path.is_file():
        raise UvPrinterError(f"unknown UV printer profile {name!r}; known: {', '.join(uv_printer_names())}")
    return read_uv_printer(path)


def read_uv_printer(path: Path) -> UvPrinter:
    """Parse one profile file; raises :class:`UvPrinterError` naming the file and the field."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UvPrinterError(f"{path}: cannot read UV printer profile: {exc}") from None
    try:
        printer = UvPrinter.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "<top>"
        raise UvPrinterError(f"{path}: field {field}: {err['msg']}") from None
    if printer.id != path.stem:
        raise UvPrinterError(f"{path}: field id: {printer.id!r} must match the file name {path.stem!r}")
    for spot in {printer.clear_spot, *printer.spot_names} & set(printer.reserved_spots):
        raise UvPrinterError(f"{path}: field clear_spot: {spot!r} is one of the profile's reserved_spots")
    return printer
