"""Card art for print: an image file read with Pillow, converted to CMYK and sized for 300 dpi.

The print PDF carries no RGB (PDF/X-1a:2003 allows only CMYK, grey and spot colour), and
reportlab's ``enforceColorSpace`` does not catch images, so every image is converted here:
RGB (and grey) art is separated through the printing target's ICC profile with LittleCMS
(:func:`pipeline.render.colour.separate_image`: sRGB, or the image's own embedded RGB
profile, to the condition's CMYK by the perceptual intent, within the profile's ink limit),
not by the device formula C = 1 − R. CMYK art is taken as already separated for the
printing condition and passes through unchanged.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from PIL import Image, UnidentifiedImageError
from reportlab.lib.utils import ImageReader

from engine.limits import MAX_ART_PIXELS
from pipeline.render.colour import separate_image

#: Resolution images are resampled to at their printed size (a common offset/digital target).
TARGET_DPI = 300


class ArtError(ValueError):
    """An image that cannot be used: the message says why (missing, unreadable, outside the
    game folder, over the pixel budget)."""


def art_path(root: Path, image: str) -> Path:
    """The file ``image`` (a card's ``image:``, relative to the game folder ``root``) names.

    Raises :class:`ArtError` when it resolves outside ``root``: an absolute path, ``..``, or a
    symlink leading out of the folder (the build key hashes only the game folder's files, and
    a game folder must carry everything it prints).
    """
    base = root.resolve()
    path = (root / image).resolve()
    if not path.is_relative_to(base):
        raise ArtError(f"{image} lies outside the game folder {root} (absolute, '..' or a symlink out of it)")
    return path


def _open(path: Path) -> Image.Image:
    """Open ``path`` with Pillow (header only), refusing more than :data:`engine.limits.MAX_ART_PIXELS`.

    Pillow's decompression-bomb warning is turned into this refusal instead of reaching
    stderr, and its error (past twice ``Image.MAX_IMAGE_PIXELS``) into an ArtError.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the budget below is stricter
            image = Image.open(path)
    except FileNotFoundError:
        raise ArtError(f"no file at {path}") from None
    except Image.DecompressionBombError as exc:
        raise ArtError(f"{path} is too large to decode ({exc})") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ArtError(f"{path} is not a readable image ({exc})") from None
    pixels = image.width * image.height
    if pixels > MAX_ART_PIXELS:
        image.close()
        raise ArtError(f"{path} is {image.width}x{image.height} px ({pixels / 1e6:.1f} Mpx); card art may have at most {MAX_ART_PIXELS / 1e6:.0f} Mpx")
    return image


def check_art(path: Path) -> None:
    """Raise :class:`ArtError` unless ``path`` is an image Pillow opens and verifies (header and,
    for PNG, chunk checksums; no full decode) within the pixel budget."""
    image = _open(path)
    try:
        image.verify()
    except (OSError, SyntaxError, ValueError) as exc:
        raise ArtError(f"{path} is not a readable image ({exc})") from None
    finally:
        image.close()


#: Paper white as CMYK percentages: what transparent art shows when no background is given.
WHITE_CMYK = (0.0, 0.0, 0.0, 0.0)


def to_cmyk(image: Image.Image, background_cmyk: tuple[float, float, float, float] = WHITE_CMYK,
            target: str | None = None) -> Image.Image:
    """``image`` in CMYK (separated through ``target``'s profile, default fogra39) with any
    transparency composited onto ``background_cmyk`` (percentages 0–100).

    PDF/X-1a:2003 allows no transparency, and converting RGBA straight to CMYK drops the
    alpha (a transparent pixel, stored as black, would print 100/100/100 CMY). So the colour
    is converted first and then blended over a solid CMYK background by the alpha channel:
    a fully transparent pixel becomes exactly the background's ink values, not an
    RGB round trip of them. Images without alpha (RGB, grey, CMYK) are only converted.
    """
    has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
    if not has_alpha:
        return image if image.mode == "CMYK" else separate_image(_rgb(image), target)
    rgba = image.convert("RGBA")
    ink = separate_image(_rgb(rgba), target)
    fill = tuple(round(v / 100.0 * 255) for v in background_cmyk)
    backdrop = Image.new("CMYK", rgba.size, fill)  # type: ignore[arg-type]
    return Image.composite(ink, backdrop, rgba.getchannel("A"))


def _rgb(image: Image.Image) -> Image.Image:
    """``image`` as RGB, keeping its embedded ICC profile (the source of the separation)."""
    rgb = image.convert("RGB")
    if "icc_profile" in image.info:
        rgb.info["icc_profile"] = image.info["icc_profile"]
    return rgb


def load_cmyk(path: Path, width_pt: float, height_pt: float, background_cmyk: tuple[float, float, float, float] = WHITE_CMYK,
              target: str | None = None) -> ImageReader:
    """Read ``path``, crop it to cover a ``width_pt`` × ``height_pt`` box (centred), resample to 300 dpi,
    convert to CMYK through the printing ``target``'s profile (id; default fogra39).

    Transparent pixels take ``background_cmyk`` (the card's background, CMYK percentages
    0–100; paper white by default), see :func:`to_cmyk`. Returns a reportlab
    :class:`ImageReader`. Raises :class:`ArtError` when the file is missing, Pillow cannot
    read it, or it has more than :data:`engine.limits.MAX_ART_PIXELS` pixels.
    """
    src = _open(path)
    try:
        with src:
            src.load()
            image = src
    except (OSError, SyntaxError, ValueError) as exc:
        raise ArtError(f"{path} is not a readable image ({exc})") from None
    image = to_cmyk(image, background_cmyk, target)
    target = (max(1, round(width_pt / 72 * TARGET_DPI)), max(1, round(height_pt / 72 * TARGET_DPI)))
    scale = max(target[0] / image.width, target[1] / image.height)
    w, h = max(target[0], round(image.width * scale)), max(target[1], round(image.height * scale))
    image = image.resize((w, h), Image.Resampling.LANCZOS)
    left, top = (w - target[0]) // 2, (h - target[1]) // 2
    image = image.crop((left, top, left + target[0], top + target[1]))
    return ImageReader(image)
