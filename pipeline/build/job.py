"""One game's build in progress (:class:`Job`) and the typed products its stages hand on.

A stage reads the products of earlier stages through the job's accessors
(:meth:`Job.braille_for`, :meth:`Job.print_for`, :meth:`Job.tactile_for`), naming
itself, and writes its own product into the job's field of that name. A stage run
before the stage whose product it needs raises :class:`StageOrderError`, which names
both stages.

The products are frozen dataclasses: a later stage cannot change what an earlier one
made. The job travels to the forked workers of the parallel chains by pickling, its
products with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, TypeVar

from engine.findings import Finding

if TYPE_CHECKING:
    from engine.model import Deck
    from pipeline.braille.geometry import GeometryProfile
    from pipeline.braille.layout import BrailleBlock
    from pipeline.build.settings import BuildSettings
    from pipeline.render.deck_pdf import PrintResult


class StageOrderError(RuntimeError):
    """A stage ran before the stage whose products it reads.

    ``stage`` is the stage that asked, ``needed`` the stage that has not run; the message
    reads ``stage 'tactile' needs the products of 'print', which has not run``.
    """

    def __init__(self, stage: str, needed: str):
        super().__init__(stage, needed)  # both in args, so the error pickles back from a chain's worker
        self.stage, self.needed = stage, needed

    def __str__(self) -> str:
        return f"stage {self.stage!r} needs the products of {self.needed!r}, which has not run"


@dataclass(frozen=True)
class BrailleProduct:
    """What the braille stage makes: every card's laid-out braille block, by card id, and
    the dot geometry profile they were laid out at (``--geometry``, else the game's)."""

    blocks: dict[str, BrailleBlock]
    profile: GeometryProfile


@dataclass(frozen=True)
class PrintProduct:
    """What the print stage makes: the fronts PDF (a page per unique card) and the backs
    PDF (a page per card back), each with its page ids and drawing findings; and, when a stage
    that shows them runs (archive, proof), both PDFs soft-proofed for the build's target
    (:func:`pipeline.render.softproof.soft_proof_bytes`), made once for those stages to share."""

    fronts: PrintResult
    backs: PrintResult
    soft_fronts: bytes | None = None
    soft_backs: bytes | None = None


@dataclass(frozen=True)
class TactileProduct:
    """What the tactile stage makes: the path of the UV braille layer PDF (a page per
    front, in the fronts' page order), which imposition places like the fronts; the UV
    printer profile's layered plate PDF (None for a flat profile) and the composite cards
    (fronts with the braille layers as separations), which it places too."""

    layer: Path
    plates: Path | None = None
    composite: Path | None = None


class Reuse(Protocol):
    """What the per-card stages may keep from the previous build (:class:`pipeline.build.cardkeys.CardReuse`)."""

    final: Path  #: the previous output folder of the game
    findings: list[dict]  #: the previous manifest's findings, portable ``to_dict()`` form

    def keeper(self, stage: str, folder: str, *shared: object) -> Callable[[str, object], bool]:
        """The ``keep(name, inputs)`` a renderer's loop asks per file under ``folder``."""

    def keep_stage(self, stage: str, folder: str, *inputs: object) -> tuple[str, bool]:
        """``(key, kept)``: the stage's files under ``folder`` kept whole from the previous build when its key is unchanged."""

    def record_stage(self, stage: str, folder: str, key: str) -> None:
        """Record the files the stage rendered under ``folder`` with its ``key``."""

    def save(self, stage: str) -> None:
        """Leave what ``stage`` asked for in the staging folder, for the manifest."""


_Product = TypeVar("_Product")


def _made(product: _Product | None, stage: str, maker: str) -> _Product:
    """``product`` when ``maker`` has made it, else StageOrderError for ``stage``."""
    if product is None:
        raise StageOrderError(stage, maker)
    return product


@dataclass
class Job:
    """One game's build in progress: the deck, the settings, the staging folder, the
    findings so far, and the products of the stages that have run (None until then).

    ``deck`` is what the build prints (the print run, :func:`engine.runs.run_deck`);
    ``source`` the whole game as loaded, which the engine checks read (None: ``deck``);
    ``reuse`` what the per-card stages may keep from the previous build (:mod:`pipeline.build.cardkeys`;
    None: render every card); ``prepared`` what a stage made before the print stage ended, by
    stage name (:data:`pipeline.build.stages.PREPARE`), in the chain's own process.
    """

    deck: Deck
    settings: BuildSettings
    staging: Path
    findings: list[Finding] = field(default_factory=list)
    braille: BrailleProduct | None = None
    printed: PrintProduct | None = None
    tactile: TactileProduct | None = None
    source: Deck | None = None
    reuse: Reuse | None = None
    prepared: dict[str, object] = field(default_factory=dict)

    @property
    def game_deck(self) -> Deck:
        """The whole game as loaded (the checks' deck): ``source``, else ``deck``."""
        return self.source if self.source is not None else self.deck

    def braille_for(self, stage: str) -> BrailleProduct:
        """The braille stage's product, read by ``stage``; StageOrderError if braille has not run."""
        return _made(self.braille, stage, "braille")

    def print_for(self, stage: str) -> PrintProduct:
        """The print stage's product, read by ``stage``; StageOrderError if print has not run
        (or drew nothing: a card size without a layout, PR007)."""
        return _made(self.printed, stage, "print")

    def tactile_for(self, stage: str) -> TactileProduct:
        """The tactile stage's product, read by ``stage``; StageOrderError if tactile has not run."""
        return _made(self.tactile, stage, "tactile")

    def path(self, *parts: str) -> Path:
        """A file path inside the staging folder (its folder created)."""
        p = self.staging.joinpath(*parts)
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def folder(self, *parts: str) -> Path:
        """A folder inside the staging folder (created)."""
        p = self.staging.joinpath(*parts)
        p.mkdir(parents=True, exist_ok=True)
        return p

    @property
    def game_id(self) -> str:
        """The game's id (``game.yaml`` ``id``), which names its output folder and files."""
        return self.deck.game.id
