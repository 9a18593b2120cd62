"""Card layouts as data (templates/layouts/*.yaml): named boxes with units in the data.

Coordinates are measured from the trim's top-left corner, x right and y down, in pt
after parsing (the designer writes "0.25in" or "6mm"). Rendering converts to PDF
coordinates (origin bottom-left of the MediaBox) in one place: :meth:`Box.to_pdf`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from engine.model import Length
from engine.units import pt_to_mm
from pipeline.common.templatefile import read_template, validate_template

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
LAYOUTS = TEMPLATES / "layouts"


class Box(BaseModel):
    """A rectangle in pt from the trim's top-left corner (x right, y down)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    x: Length
    y: Length
    width: Length
    height: Length

    def mm(self) -> tuple[float, float, float, float]:
        """``(x, y, width, height)`` in mm from the trim's top-left."""
        return tuple(pt_to_mm(v) for v in (self.x, self.y, self.width, self.height))  # type: ignore[return-value]

    def to_pdf(self, trim_height: float, bleed: float) -> tuple[float, float, float, float]:
        """``(x, y, width, height)`` in PDF pt on a page whose MediaBox includes ``bleed`` on every side."""
        return (bleed + self.x, bleed + trim_height - self.y - self.height, self.width, self.height)


class TrimSize(BaseModel):
    """Trim width and height in pt."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    width: Length
    height: Length


class CardLayout(BaseModel):
    """A card layout: trim, bleed, safe and critical insets, and named boxes (``qr``, ``braille`` …)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str
    trim: TrimSize
    bleed: Length
    safe_inset: Length
    critical_inset: Length
    boxes: dict[str, Box]

    @property
    def braille(self) -> Box:
        """The box the braille block is laid out in."""
        return self.boxes["braille"]

    @property
    def qr(self) -> Box:
        """The QR code's box, quiet zone included."""
        return self.boxes["qr"]


@lru_cache(maxsize=None)
def load_layout(name: str = "card-3x5-portrait") -> CardLayout:
    """Load ``templates/layouts/<name>.yaml`` with the located YAML reader.

    Raises FileNotFoundError, or :class:`~pipeline.common.templatefile.TemplateError` (a
    ValueError) whose message starts ``file:line:col:`` for bad YAML, a repeated key or a
    field the schema refuses.
    """
    path = LAYOUTS / f"{name}.yaml"
    data, source = read_template(path)
    return validate_template(CardLayout, data, source)  # type: ignore[return-value]
