"""What the user chose for a build (:class:`BuildSettings`): read by the runner and by every stage."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class BuildSettings:
    """What the user chose. ``only`` limits the stages (None = all); ``papers`` are press-sheet sizes;
    ``back_offset`` is the duplex backs' shift (dx, dy) with units, from the calibration sheet;
    ``run`` the print run (:mod:`engine.runs`: ``box`` or ``combined``); ``release`` the release
    gate (:mod:`pipeline.build.release`: refuse to write unless every press file is final); ``target``
    the printing target (``templates/targets/<id>.yaml``, :mod:`pipeline.render.targets`): the output
    intent of every PDF, the condition the contrast and ink checks measure against, and for a vendor
    preset the upload files (:mod:`pipeline.exports.vendors`)."""

    out_dir: str = "output"
    papers: tuple[str, ...] = ("letter", "12x18")
    profile: str = "card-3x5"
    spot: str = "Braille"
    uv_printer: str = "flat-plate"
    back_offset: tuple[str, str] = ("0mm", "0mm")
    geometry: str | None = None
    strict: bool = False
    force: bool = False
    only: tuple[str, ...] | None = None
    rulebook: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    proof_dpi: int = 150
    run: str = "box"
    release: bool = False
    target: str = "fogra39"

    def key_dict(self) -> dict:
        """The settings that change outputs (for the build key and the manifest)."""
        data = asdict(self)
        data.pop("out_dir")
        return data
