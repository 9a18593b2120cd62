"""Card art for print: an image file read with Pillow, converted to CMYK and sized for 300 dpi.

The print PDF carries no RGB (PDF/X-1a:2003 allows only CMYK, grey and spot colour), and
reportlab's ``enforceColorSpace`` does not catch images, so every image is converted here.
Pillow's RGB→CMYK conversion is the plain device formula (C = 1 − R …, K = 0) without an
ICC profile: good enough for proofs and placeholder-stage art; final art should arrive as
CMYK already separated for the printing condition, which passes through unchanged.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, UnidentifiedImageError
from reportlab.lib.utils import ImageReader

#: Resolution images are resampled to at their printed size (a common offset/digital target).
TARGET_DPI = 300


class ArtError(ValueError):
    """An image that cannot be used: the message says why (missing, unreadable)."""


def load_cmyk(path: Path, width_pt: float, height_pt: float) -> ImageReader:
    """Read ``path``, crop it to cover a ``width_pt`` × ``height_pt`` box (centred), resample to 300 dpi, convert to CMYK.

    Returns a reportlab :class:`ImageReader`. Raises :class:`ArtError` when the file is
    missing or Pillow cannot read it.
    """
    try:
        with Image.open(path) as src:
            src.load()
            image = src
    except FileNotFoundError:
        raise ArtError(f"no file at {path}") from None
    except (UnidentifiedImageError, OSError) as exc:
        raise ArtError(f"{path} is not a readable image ({exc})") from None
    if image.mode not in ("CMYK",):
        image = image.convert("RGB").convert("CMYK")
    target = (max(1, round(width_pt / 72 * TARGET_DPI)), max(1, round(height_pt / 72 * TARGET_DPI)))
    scale = max(target[0] / image.width, target[1] / image.height)
    w, h = max(target[0], round(image.width * scale)), max(target[1], round(image.height * scale))
    image = image.resize((w, h), Image.Resampling.LANCZOS)
    left, top = (w - target[0]) // 2, (h - target[1]) // 2
    image = image.crop((left, top, left + target[0], top + target[1]))
    return ImageReader(image)
