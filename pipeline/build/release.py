"""The release gate for press files, and what marks every other build as a draft.

``deckpress build --release`` refuses to write press files while anything in them is not
final: a provisional card in the print run (PF001), a printed face with drawn placeholder
art (PF002), or a placeholder archive base URL, which every QR code would encode (PF003).
Each cause is an error finding, so the game stops before a file is written and the build
exits 1 listing them all.

Without ``--release`` a build is a draft: the sheets' slug line starts with
:data:`DRAFT` (outside the trim, :func:`slug_note`), and every press PDF (print, UV
layer, sheets, dice, boxes) carries it in its Title and Subject (:func:`document_info`, which the build hands to every
:func:`pipeline.render.pdfx.finish` and :func:`stamp_press_files` sets on the rest). Every
press PDF also gets Author and Creator from the game's ``publisher:``, its CreationDate
and ModDate from the game's ``date:`` (so the same data gives the same bytes) and a Title
that starts with the game's ``title:``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from engine.checks.quality import placeholder_host
from engine.findings import Finding, Location, Severity
from engine.model import Deck, Provenance
from engine.registry import declare

#: The draft mark on sheets' slug lines and in PDF metadata.
DRAFT = "DRAFT - not for press"

#: The staging folders whose PDFs go to a press.
PRESS_FOLDERS = ("print", "uv", "sheets", "dice", "vendor", "boxes")  # boxes: their QR opens the archive too

PROVISIONAL_IN_RELEASE = declare(
    "PF001",
    "release-provisional-card",
    Severity.error,
    """``--release``: the print run holds cards we supplied (``provenance: provisional``), which no rulebook names.

    Fails: ``deckpress build --release`` with a card marked ``provenance: provisional``.
    Passes: every printed card ``provenance: rulebook`` (or a build without ``--release``, a draft).
    """,
)
PLACEHOLDER_ART_IN_RELEASE = declare(
    "PF002",
    "release-placeholder-art",
    Severity.error,
    """``--release``: printed faces would carry drawn placeholder art (no ``image:``, or an image that cannot be read).

    Fails: ``deckpress build --release`` for a game whose cards name no ``image:``.
    Passes: every card with an art box names a readable ``image:``.
    """,
)
PLACEHOLDER_URL_IN_RELEASE = declare(
    "PF003",
    "release-placeholder-url",
    Severity.error,
    """``--release``: the archive base URL is a placeholder host, so every printed QR code would lead nowhere.

    Fails: ``archive: {base_url: "https://cards.example.invalid/mygame/"}`` with ``--release``.
    Passes: ``base_url`` on the real host.
    """,
)


@dataclass(frozen=True)
class DraftCounts:
    """What keeps a print run from press: provisional cards (unique), printed faces (copies
    counted) with placeholder art, and whether the archive base URL is a placeholder."""

    provisional: int
    placeholder_faces: int
    placeholder_url: bool


def placeholder_cards(deck: Deck) -> list:
    """The cards of ``deck`` whose front prints placeholder art (:func:`pipeline.render.card.prints_placeholder_art`),
    in deck order; empty when the card layout cannot be read (the print stage reports that)."""
    from pipeline.common.layout import load_layout
    from pipeline.render.card import Sheet, prints_placeholder_art
    from pipeline.render.style import LayoutError, design_for

    try:
        layout = load_layout()
        sheet = Sheet(layout, design_for(layout))
    except (OSError, ValueError, LayoutError):
        return []
    root = Path(deck.folder) if deck.folder else Path(".")
    return [c for c in deck.cards if prints_placeholder_art(c, sheet, root)]


def draft_counts(deck: Deck) -> DraftCounts:
    """The :class:`DraftCounts` of a print run's deck."""
    return DraftCounts(len(deck.provisional()), sum(c.copies for c in placeholder_cards(deck)),
                       placeholder_host(deck.game.archive.base_url))


def release_findings(deck: Deck) -> list[Finding]:
    """PF001-PF003 for every cause that keeps the print run ``deck`` from press; empty when it may go.

    One finding per provisional card (at the card) and per card printing placeholder art (at
    the card, with its printed faces), and one for a placeholder base URL (at ``base_url``).
    """
    out = [PROVISIONAL_IN_RELEASE.finding(f"'{c.name}' is provisional: no rulebook names it", c.where("provenance").with_card(c.id),
                                          "confirm the card with the designer and set provenance: rulebook, or leave it out of the run")
           for c in deck.cards if c.provenance is Provenance.provisional]
    out += [PLACEHOLDER_ART_IN_RELEASE.finding(f"'{c.name}' prints placeholder art on {c.copies} face(s)", c.where().with_card(c.id),
                                               "add image: with the final art (a PNG or JPEG in the game folder)")
            for c in placeholder_cards(deck)]
    url = deck.game.archive.base_url
    if placeholder_host(url):
        out.append(PLACEHOLDER_URL_IN_RELEASE.finding(f"the archive base URL {url} is a placeholder: every QR code would lead nowhere",
                                                      deck.game.archive.where("base_url"), "set archive.base_url to the real host"))
    return out


def slug_note(run: str, release: bool) -> str:
    """The words the sheets' slug line starts with: the draft mark (unless ``release``) and the print run."""
    return (f"run {run}" if release else f"{DRAFT} · run {run}")


def _pdf_date(date: datetime.date | None) -> str:
    """A PDF date string (ISO 32000-1 §7.9.4) for the game's ``date:``, midnight UTC; 2000-01-01 when unset."""
    day = date or datetime.date(2000, 1, 1)
    return f"D:{day:%Y%m%d}000000+00'00'"


def document_info(deck: Deck, run: str, release: bool, counts: DraftCounts) -> dict[str, str]:
    """The Info entries :func:`stamp_press_files` sets: Author/Creator (publisher), dates, the
    game's title and id (the Title names the game), and the draft note that heads Title and Subject of a draft."""
    publisher = deck.game.publisher
    info = {"/Author": publisher or "", "/Creator": f"{publisher} (deckpress)" if publisher else "deckpress",
            "/CreationDate": _pdf_date(deck.game.date), "/ModDate": _pdf_date(deck.game.date),
            "game": deck.game.title, "game_id": deck.game.id}
    if not release:
        causes = [f"{counts.provisional} provisional cards", f"{counts.placeholder_faces} faces with placeholder art"]
        if counts.placeholder_url:
            causes.append("a placeholder archive URL")
        info["draft"] = f"{DRAFT} (run {run}: {', '.join(causes)})"
    else:
        info["draft"] = f"release, run {run}"
    return info


def press_roots(staging: Path, folders: list[str] | tuple[str, ...] = PRESS_FOLDERS) -> list[Path]:
    """The folders of ``staging`` whose PDFs get the document info: those of ``folders`` that are press folders."""
    return [staging / f for f in folders if f in PRESS_FOLDERS]


def stamp_press_files(staging: Path, info: dict[str, str], folders: list[str] | tuple[str, ...] = PRESS_FOLDERS) -> None:
    """Set ``info`` on every PDF under those of ``folders`` (staging sub-folders) that are press
    folders: the draft note is put before the Title (a draft) and the Subject. A PDF that already
    carries it (:func:`pipeline.render.pdfx.finish` wrote it inside
    :func:`pipeline.render.docinfo.press_info`, as a build does) is only read, not written again.
    Raises OutputError when a file cannot be written."""
    from pipeline.render.docinfo import set_document_info

    for root in press_roots(staging, folders):
        for path in sorted(root.rglob("*.pdf")) if root.is_dir() else ():  # vendor/<target>/
            set_document_info(path, info)
