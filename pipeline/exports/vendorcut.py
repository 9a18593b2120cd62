"""Whether a design survives a vendor preset's cut (VE001, VE002).

A vendor preset (:class:`pipeline.render.targets.VendorPreset`) places our 3×5 in trim
centred at 100 % in its upload image and cuts ``cut_px`` off each side of that image. In our
trim's coordinates (pt from the trim's top-left) the vendor's cut line lies
``cut_px − (image − trim) / 2`` inside our trim edge on each axis (The Game Crafter: 37.5 px
= 9 pt = 1/8 in inside; MakePlayingCards jumbo: 75 px outside left and right, on the trim
line top and bottom), and the vendor asks text to keep ``safe_px`` inside that line. VE001
reports a text, QR or braille box of the layout that reaches outside that safe area; VE002
the frame drawn at the layout's safe inset when it comes within ``safe_px`` of the cut line
(it would print on or right at the card's edge, unevenly as the cut drifts).
"""

from __future__ import annotations

from engine.findings import Finding, Location, Severity
from engine.registry import declare
from pipeline.common.layout import LAYOUTS, Box, CardLayout
from pipeline.render.style import design_for
from pipeline.render.targets import VendorPreset

#: Slack when comparing a box edge with the safe line, pt (float rounding of lengths in inches).
_TOLERANCE = 0.01

VENDOR_CUT_MARGIN = declare(
    "VE001",
    "vendor-cut-margin",
    Severity.error,
    """Text, the QR code or the braille area lies outside the vendor's safe area: the vendor's cut takes it off or cuts too close.

    A vendor preset (``--target thegamecrafter``, ``makeplayingcards``, ``drivethrucards``)
    places the 3×5 in design centred at 100 % in the vendor's upload image and cuts the image
    down to the card it sells. Every box that holds text, the QR code or the braille block
    must lie at least the vendor's safe margin inside that cut line, or a cut that drifts
    takes words or dots off the card.

    Fails: a layout box ``name: {x: 0.1in, ...}`` with ``--target thegamecrafter``: The Game
    Crafter cuts 1/8 in inside our trim and asks 1/8 in more, so text must start 0.25 in inside
    the trim; the name starts 0.15 in short of that.

    Passes: the shipped card-3x5-portrait layout (every text box 0.25 in inside the trim, the
    critical inset) with any preset.
    """,
)
FRAME_ON_CUT = declare(
    "VE002",
    "vendor-frame-on-cut",
    Severity.warning,
    """The card frame, drawn at the layout's safe inset, lies within the vendor's safe margin of its cut line.

    Our frame is drawn 1/8 in inside the trim for a press cut at the trim. A vendor that cuts
    further in (The Game Crafter and DriveThruCards cut 1/8 in inside our trim for their
    2.75×4.75 in card) cuts on or right beside the frame: the card gets a frame at its very
    edge, thicker on one side than the other as the cut drifts. The design still reads (no
    text is lost); move the frame in (a larger ``safe_inset`` in the layout) for that vendor.

    Fails: the shipped card-3x5-portrait layout (frame at 0.125 in) with ``--target thegamecrafter``
    (cut line at 0.125 in).

    Passes: the same layout with ``--target makeplayingcards`` (the frame lies 0.375 in inside
    the jumbo card's cut left and right and 1/8 in below it top and bottom, its safe margin 36 px = 0.12 in).
    """,
)


def cut_lines(preset: VendorPreset, layout: CardLayout) -> tuple[float, float]:
    """The vendor's cut line on each axis as a distance inside our trim edge, pt (x, y); negative: outside the trim.

    The Game Crafter on 3×5 in: (9.0, 9.0); MakePlayingCards jumbo: (−18.0, 0.0).
    """
    width_px, height_px = (v * preset.dpi / 72 for v in (layout.trim.width, layout.trim.height))
    off_x, off_y = (preset.image_px[0] - width_px) / 2, (preset.image_px[1] - height_px) / 2
    return preset.px_to_pt(preset.cut_px - off_x), preset.px_to_pt(preset.cut_px - off_y)


def _content_boxes(layout: CardLayout) -> dict[str, Box]:
    """The layout's boxes that carry text, the QR code or braille on some face (by box name)."""
    design = design_for(layout)
    names = {"qr", "braille"} & set(layout.boxes)
    for face in ("front-art", "front-rules", "back"):
        names |= set(design.face(face).values())  # type: ignore[arg-type]
    return {name: layout.boxes[name] for name in sorted(names)}


def _shortfall(box: Box, layout: CardLayout, safe_x: float, safe_y: float) -> float:
    """How far (pt) ``box`` reaches outside the safe area inset ``safe_x``/``safe_y`` from our trim; ≤ 0 inside."""
    trim = layout.trim
    return max(safe_x - box.x, box.x + box.width - (trim.width - safe_x),
               safe_y - box.y, box.y + box.height - (trim.height - safe_y))


def cut_findings(preset: VendorPreset, layout: CardLayout, target_id: str) -> list[Finding]:
    """VE001 for each content box outside the vendor's safe area, VE002 when the frame is within its safe margin of the cut.

    Located at the layout template (``templates/layouts/<name>.yaml``), which is what moves.
    """
    where = Location(str(LAYOUTS / f"{layout.name}.yaml"))
    cut_x, cut_y = cut_lines(preset, layout)
    safe = preset.px_to_pt(preset.safe_px)
    out: list[Finding] = []
    for name, box in _content_boxes(layout).items():
        short = _shortfall(box, layout, cut_x + safe, cut_y + safe)
        if short > _TOLERANCE:
            out.append(VENDOR_CUT_MARGIN.finding(
                f"layout {layout.name} box {name!r} reaches {_inches(short):.3f} in outside the safe area of {preset.name} "
                f"{preset.product} (cut {_cuts(cut_x, cut_y)}, text kept {_inches(safe):.3f} in inside the cut)",
                where, hint=f"keep the box at least {_inches(max(cut_x, cut_y) + safe):.3f} in inside the trim, or pick another --target than {target_id}"))
    frame = design_for(layout).strokes.frame
    inner, outer = layout.safe_inset, layout.safe_inset + frame
    near = [axis for axis, cut in (("left and right", cut_x), ("top and bottom", cut_y)) if inner - safe < cut < outer + safe]
    if near:
        out.append(FRAME_ON_CUT.finding(
            f"the frame of layout {layout.name} ({_inches(inner):.3f}–{_inches(outer):.3f} in inside the trim) lies within "
            f"{_inches(safe):.3f} in of the cut of {preset.name} {preset.product} ({_cuts(cut_x, cut_y)}) "
            f"{'' if len(near) == 2 else 'at the ' + near[0] + ' '}: it prints at the card's edge".replace(" :", ":"), where,
            hint="move the frame in (a larger safe_inset in the layout) for this vendor, or accept a frame at the edge"))
    return out


def _inches(pt: float) -> float:
    return pt / 72


def _cuts(cut_x: float, cut_y: float) -> str:
    """Where the vendor cuts, in words: ``0.125 in inside our trim on every side`` or per axis."""
    if abs(cut_x - cut_y) <= _TOLERANCE:
        return f"{_side(cut_x)} our trim on every side"
    return f"{_side(cut_x)} our trim left and right, {_side(cut_y)} it top and bottom"


def _side(cut: float) -> str:
    """A cut line's distance from our trim in words: ``0.125 in inside``, ``0.250 in outside``, ``on``."""
    if abs(cut) <= _TOLERANCE:
        return "on"
    return f"{_inches(abs(cut)):.3f} in {'inside' if cut > 0 else 'outside'}"
