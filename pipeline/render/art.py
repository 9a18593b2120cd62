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


#: Paper white as CMYK percentages: what transparent art shows when no background is given.
WHITE_CMYK = (0.0, 0.0, 0.0, 0.0)


def to_cmyk(image: Image.Image, background_cmyk: tuple[float, float, float, float] = WHITE_CMYK) -> Image.Image:
    """``image`` in CMYK with any transparency composited onto ``background_cmyk`` (percentages 0–100).

    PDF/X-1a:2003 allows no transparency, and converting RGBA straight to CMYK drops the
    alpha (a transparent pixel, stored as black, would print 100/100/100 CMY). So the colour
    is converted first and then blended over a solid CMYK background by the alpha channel:
    a fully transparent pixel becomes exactly the background's ink values, not an
    RGB round trip of them. Images without alpha (RGB, grey, CMYK) are only converted.
    """
    has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
    if not has_alpha:
        return image if image.mode == "CMYK" else image.convert("RGB").convert("CMYK")
    rgba = image.convert("RGBA")
    ink = rgba.convert("RGB").convert("CMYK")
    fill = tuple(round(v / 100.0 * 255) for v in background_cmyk)
    backdrop = Image.new("CMYK", rgba.size, fill)  # type: ignore[arg-type]
    return Image.composite(ink, backdrop, rgba.getchannel("A"))


def load_cmyk(path: Path, width_pt: float, height_pt: float, background_cmyk: tuple[float, float, float, float] = WHITE_CMYK) -> ImageReader:
    """Read ``path``, crop it to cover a ``width_pt`` × ``height_pt`` box (centred), resample to 300 dpi, convert to CMYK.

    Transparent pixels take ``background_cmyk`` (the card's background, CMYK percentages
    0–100; paper white by default), see :func:`to_cmyk`. Returns a reportlab
    :class:`ImageReader`. Raises :class:`ArtError` when the file is missing or Pillow cannot
    read it.
    """
    try:
        with Image.open(path) as src:
            src.load()
            image = src
    except FileNotFoundError:
        raise ArtError(f"no file at {path}") from None
    except (UnidentifiedImageError, OSError) as exc:
        raise ArtError(f"{path} is not a readable image ({exc})") from None
    image = to_cmyk(image, background_cmyk)
    target = (max(1, round(width_pt / 72 * TARGET_DPI)), max(1, round(height_pt / 72 * TARGET_DPI)))
    scale = max(target[0] / image.width, target[1] / image.height)
    w, h = max(target[0], round(image.width * scale)), max(target[1], round(image.height * scale))
    image = image.resize((w, h), Image.Resampling.LANCZOS)
    left, top = (w - target[0]) // 2, (h - target[1]) // 2
    image = image.crop((left, top, left + target[0], top + target[1]))
    return ImageReader(image)
