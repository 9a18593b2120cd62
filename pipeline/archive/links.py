"""Dead-link check of the card archive: every QR URL printed on a card must open that card's page.

The QR of a card encodes ``Archive.url_for(card)`` (engine/game.py): the base URL plus
``Archive.path_for(card)``. The archive (:mod:`pipeline.archive.site`) writes each card's page
at that same relative path, marked with ``<meta name="deckpress-card" content="<id>">``.
:func:`check_qr_links` proves that for a built archive folder and reports AR findings;
:func:`engine.archive_paths.page_path` (re-exported here) is the one place that turns an
archive path into a safe file path, by the same rule the model applies to ``card_path``;
:func:`relative_href` writes the links between the archive's files.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path, PurePosixPath

from engine.archive_paths import page_path
from engine.findings import Finding, Severity
from engine.model import Deck
from engine.registry import declare

#: The marker every card page carries in its head (templates/archive/card.html.j2).
CARD_META = re.compile(r'<meta name="deckpress-card" content="([^"]*)">')

QR_LINK_WITHOUT_PAGE = declare(
    "AR001",
    "qr-link-without-page",
    Severity.error,
    """A card's QR URL names an archive page that the archive does not contain (a dead link in print).

    Fails: ``archive: {base_url: "https://cards.example/mini/"}`` with the archive folder
    missing ``cards/ember-ranger.html`` for card ``ember-ranger``.
    Passes: the archive built from the same deck, so ``cards/ember-ranger.html`` exists.
    """,
)
ARCHIVE_PATH_UNSAFE = declare(
    "AR002",
    "archive-path-unsafe",
    Severity.error,
    """A card's archive path (``archive.card_path``) points outside the archive folder, so no page is written for it.

    Fails: ``card_path: "../{id}.html"`` or ``card_path: "/srv/{id}.html"``.
    Passes: ``card_path: "cards/{id}.html"``.
    """,
)
QR_LINK_WRONG_PAGE = declare(
    "AR003",
    "qr-link-wrong-page",
    Severity.error,
    """A card's QR URL opens the archive page of another card (two cards share one archive path).

    Fails: ``card_path: "cards/{class_id}.html"``: every card of a class gets the same page.
    Passes: ``card_path: "cards/{class_id}/{id}.html"`` (the card id makes every path unique).
    """,
)


def check_qr_links(deck: Deck, archive_dir: str | Path) -> list[Finding]:
    """Check that every card's QR URL resolves to that card's page in ``archive_dir``.

    The QR of a card encodes ``Archive.url_for(card)`` = base URL + ``path_for(card)``;
    the path after the base URL must name a file of the archive that is the page of
    this very card (its ``deckpress-card`` meta names the card id). Returns AR001
    (no page), AR002 (path leaves the archive) and AR003 (another card's page)
    findings located at the card; an empty list when every link resolves.
    """
    root = Path(archive_dir)
    archive = deck.game.archive
    findings: list[Finding] = []
    for card in deck.cards:
        url = archive.url_for(card)
        where = card.where("id").with_card(card.id)
        rel = page_path(url[len(archive.base_url):]) if url.startswith(archive.base_url) else None
        if rel is None:
            findings.append(ARCHIVE_PATH_UNSAFE.finding(
                f"QR URL {url} names archive path {archive.path_for(card)!r}, which leaves the archive folder",
                where, "write archive.card_path as a relative path inside the archive, such as 'cards/{id}.html'"))
            continue
        page = root / rel
        if not page.is_file():
            findings.append(QR_LINK_WITHOUT_PAGE.finding(
                f"QR URL {url} has no archive page: {page} does not exist",
                where, "build the archive from the same card data (deckpress build) before printing"))
            continue
        match = CARD_META.search(page.read_text(encoding="utf-8", errors="replace"))
        if match is None or match.group(1) != card.id:
            other = match.group(1) if match else "no card"
            findings.append(QR_LINK_WRONG_PAGE.finding(
                f"QR URL {url} opens the page of {other}, not of card {card.id}",
                where, "put {id} in archive.card_path so that every card has its own page"))
    return findings


def relative_href(target: str, from_page: PurePosixPath) -> str:
    """A relative link from one archive page to another file of the archive (both relative to the
    archive root): what ``posixpath.relpath(target, from_page.parent)`` returns, without its two
    ``os.getcwd`` calls (53 µs a link, five links a card page); a path with ``..`` goes to relpath."""
    start = [x for x in posixpath.normpath(str(from_page.parent)).split("/") if x and x != "."]
    path = [x for x in posixpath.normpath(target).split("/") if x and x != "."]
    if not target or target.startswith("/") or from_page.is_absolute() or ".." in start or ".." in path:
        return posixpath.relpath(target, str(from_page.parent) or ".")
    common = len(posixpath.commonprefix([start, path]))
    return "/".join([".."] * (len(start) - common) + path[common:]) or "."
