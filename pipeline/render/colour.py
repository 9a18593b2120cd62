"""CMYK as the printing condition renders it: measured colour, luminance and a soft proof on screen.

Every conversion goes through the target's ICC output profile (built at setup from the
condition's measured characterisation data, :mod:`pipeline.render.targets`) with LittleCMS
(Pillow's ImageCms), 8 bits per channel:

- :func:`printed_lab`: CMYK → CIELAB (D50) by the profile's **absolute colorimetric** intent,
  i.e. the colour a spectrophotometer would measure on the printed sheet (FOGRA39's paper
  white is L* 95, a* 0, b* −2);
- :func:`printed_luminance`: that L* taken to CIE Y (CIE 15:2004 §8.2.1) and divided by the
  paper white's Y, so unprinted paper is 1.0: the relative luminance WCAG 2 asks for, with
  the paper as the white;
- :func:`soft_proof_srgb` and :func:`soft_proof_image`: CMYK → sRGB by the **relative
  colorimetric** intent without black point compensation (paper white shown as screen white,
  the press's black as it prints), what the proofs and the archive show.

CMYK percentages are quantised to 8 bits (steps of 0.39 %) and CIELAB comes back at 8 bits
(L* steps of 0.39), which moves a WCAG ratio by under 1 %.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageCms

from pipeline.render.targets import DEFAULT_TARGET, PrintTarget, load_target


class ColourError(RuntimeError):
    """The target's ICC profile is missing or unreadable; the message says how to build it."""


def _target(target: PrintTarget | str | None) -> PrintTarget:
    return target if isinstance(target, PrintTarget) else load_target(target or DEFAULT_TARGET)


@lru_cache(maxsize=None)
def _profile(target: PrintTarget) -> ImageCms.ImageCmsProfile:
    path = target.profile_path
    try:
        return ImageCms.getOpenProfile(str(path))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise ColourError(f"no ICC profile for printing target {target.id!r} at {path} ({exc}): run `make setup`, "
                          f"which builds it from {target.data_path} with ArgyllCMS colprof") from None


@lru_cache(maxsize=None)
def _to_lab(target: PrintTarget) -> ImageCms.ImageCmsTransform:
    lab = ImageCms.createProfile("LAB", 5000)  # the ICC PCS: CIELAB, D50
    return ImageCms.buildTransform(_profile(target), lab, "CMYK", "LAB",
                                   renderingIntent=ImageCms.Intent.ABSOLUTE_COLORIMETRIC)


@lru_cache(maxsize=None)
def _to_srgb(target: PrintTarget) -> ImageCms.ImageCmsTransform:
    return ImageCms.buildTransform(_profile(target), ImageCms.createProfile("sRGB"), "CMYK", "RGB",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


@lru_cache(maxsize=None)
def _srgb_to_cmyk(target: PrintTarget) -> ImageCms.ImageCmsTransform:
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), _profile(target), "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.PERCEPTUAL)


def separate_image(image: Image.Image, target: PrintTarget | str | None = None) -> Image.Image:
    """An RGB image (Pillow mode ``RGB``) separated to CMYK through the target's profile (perceptual intent, LittleCMS).

    The pixels are read as sRGB unless the image embeds an RGB ICC profile (``icc_profile``),
    which is then the source. The separation is the profile's own (its black generation and
    ink limit), not the device formula C = 1 − R. Raises ValueError for an image that is not
    RGB and :class:`ColourError` when the target's profile is missing.
    """
    if image.mode != "RGB":
        raise ValueError(f"separating needs an RGB image, got mode {image.mode}")
    chosen = _target(target)
    embedded = image.info.get("icc_profile")
    if embedded:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(embedded))
            if source.profile.xcolor_space.strip() == "RGB":
                return ImageCms.profileToProfile(image, source, _profile(chosen), ImageCms.Intent.PERCEPTUAL, "CMYK")
        except (OSError, ImageCms.PyCMSError):
            pass  # an unreadable embedded profile: the pixels are taken as sRGB
    return ImageCms.applyTransform(image, _srgb_to_cmyk(chosen))


def cmyk_pixel(cmyk: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """Four percentages 0–100 as an 8-bit CMYK pixel (0–255 each, rounded): ``[0, 73, 89, 38]`` → (0, 186, 227, 97)."""
    return tuple(round(max(0.0, min(100.0, v)) * 2.55) for v in cmyk)  # type: ignore[return-value]


def _convert(cmyk: tuple[float, float, float, float], transform: ImageCms.ImageCmsTransform) -> tuple[int, ...]:
    return ImageCms.applyTransform(Image.new("CMYK", (1, 1), cmyk_pixel(cmyk)), transform).getpixel((0, 0))


def printed_lab(cmyk: tuple[float, float, float, float], target: PrintTarget | str | None = None) -> tuple[float, float, float]:
    """CIELAB (L* 0–100, a*, b*; D50) that ``cmyk`` (percentages) measures as printed on ``target`` (absolute colorimetric).

    FOGRA39: paper ``[0, 0, 0, 0]`` → about (94.9, 0, −2); ``[0, 0, 0, 100]`` → about (16, 0, 0).
    Raises :class:`ColourError` when the target's profile is missing.
    """
    light, a, b = _convert(cmyk, _to_lab(_target(target)))
    return light * 100 / 255, a - 128, b - 128


def lightness_to_y(lightness: float) -> float:
    """CIE Y (0–1, white = 1) of a lightness L* (0–100), the inverse of CIE 15:2004 §8.2.1 eq. 8.6."""
    f = (lightness + 16) / 116
    return f**3 if f > 6 / 29 else 3 * (6 / 29) ** 2 * (f - 4 / 29)


def printed_luminance(cmyk: tuple[float, float, float, float], target: PrintTarget | str | None = None) -> float:
    """Relative luminance 0–1 of ``cmyk`` as printed: its measured Y over the paper white's Y (paper = 1.0).

    The WCAG 2 relative luminance with the target's paper as the white. FOGRA39: K100 → about 0.024.
    """
    paper = lightness_to_y(printed_lab((0, 0, 0, 0), target)[0])
    return lightness_to_y(printed_lab(cmyk, target)[0]) / paper


def printed_contrast(text: tuple[float, float, float, float], background: tuple[float, float, float, float],
                     target: PrintTarget | str | None = None) -> float:
    """WCAG 2 contrast (Y1 + 0.05) / (Y2 + 0.05), 1–21, of two CMYK colours as printed (:func:`printed_luminance`); symmetric."""
    ya, yb = printed_luminance(text, target), printed_luminance(background, target)
    return (max(ya, yb) + 0.05) / (min(ya, yb) + 0.05)


def soft_proof_srgb(cmyk: tuple[float, float, float, float], target: PrintTarget | str | None = None) -> str:
    """``#rrggbb``: how ``cmyk`` prints on ``target``, shown on an sRGB screen (relative colorimetric, paper = #ffffff)."""
    return "#" + "".join(f"{v:02x}" for v in _convert(cmyk, _to_srgb(_target(target))))


def soft_proof_image(image: Image.Image, target: PrintTarget | str | None = None) -> Image.Image:
    """A CMYK image (Pillow mode ``CMYK``) as an sRGB ``RGB`` image of the same size, through the target's profile.

    Raises ValueError for an image that is not CMYK.
    """
    if image.mode != "CMYK":
        raise ValueError(f"soft proofing needs a CMYK image, got mode {image.mode}")
    return ImageCms.applyTransform(image, _to_srgb(_target(target)))
