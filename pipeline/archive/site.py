"""The card archive: a static HTML site per game, the pages the cards' QR codes open.

Layout of the archive folder (``out_dir``):

- ``index.html``: the game (summary, quickstart, classes, dice with their braille
  key, keywords, every card by class);
- one page per card at ``Archive.path_for(card)`` (engine/model.py; ``cards/{id}.html``
  by default), the same relative path the card's QR URL names after the base URL;
- ``images/<card id>.png``: the card face, rasterised from the print fronts PDF as it will
  print (soft-proofed through the printing target's profile, :mod:`pipeline.archive.faces`);
- ``quickstart.html``: the quickstart page the tuck boxes' QR codes open (:mod:`pipeline.archive.quickstart`);
- ``archive.css``: the style sheet (templates/archive/archive.css).

Templates are jinja2 (templates/archive/*.html.j2) with autoescaping on: card data
is untrusted input, so every card text is HTML-escaped. The pages aim at WCAG 2.2 AA
(lang, unique titles, landmarks, skip link, ordered headings, alt text, contrast,
focus, 24 px targets, reflow at 320 px); tests/a11y runs axe-core over them.

:func:`check_qr_links` (from :mod:`pipeline.archive.links`, re-exported here) checks
that every QR URL of a game resolves to the generated page of that card (no dead links
in print) and reports ``AR`` findings.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Callable, Sequence

import jinja2

from engine.model import BrailleSettings, Card, Deck, Die
from pipeline.archive.downloads import write_downloads
from pipeline.archive.faces import Face as _Face, write_faces
from pipeline.archive.links import check_qr_links, page_path, relative_href as _href
from pipeline.archive.quickstart import QUICKSTART_PAGE, render_quickstart
from pipeline.archive.templatecache import code_cache
from pipeline.braille.cells import dots
from pipeline.braille.dice import encode_die, key_text
from pipeline.braille.fields import indicator_note, standalone_letter
from pipeline.braille.layout import REFERENCE_TEXT
from pipeline.dice.plan import BAR_MM, GAP_MM
from pipeline.common.files import write_bytes, write_text
from pipeline.common.layout import TEMPLATES

if TYPE_CHECKING:
    from pipeline.braille.layout import BrailleBlock

ARCHIVE_TEMPLATES = TEMPLATES / "archive"
STYLESHEET = "archive.css"
#: Resolution of the card face images on the archive pages: 96 dpi gives 288 × 480 px for a 3×5 in trim.
FACE_DPI = 96

__all__ = ["ArchiveError", "check_qr_links", "die_view", "page_path", "render_card_page", "render_index", "write_archive", "write_pages"]


class ArchiveError(ValueError):
    """The inputs of the archive do not fit together (e.g. the fronts PDF has the wrong page count)."""


def _root(from_page: PurePosixPath) -> str:
    depth = len(from_page.parts) - 1
    return "../" * depth


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The jinja2 environment for templates/archive: autoescape ON for every template, strict undefined.
    One per process, so each template is compiled once, not once per page; and compiled once per
    template source, not once per build: jinja2's bytecode cache (:mod:`pipeline.archive.templatecache`) turns
    the ~30 ms of compiling the six templates in a build's serial start into ~1.5 ms of loading them."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(ARCHIVE_TEMPLATES)), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True, bytecode_cache=code_cache())


@lru_cache(maxsize=1)
def _card_template() -> jinja2.Template:
    """card.html.j2, loaded once per process: ``get_template`` stats the file (and its base) on every call
    to see whether it changed, 23 µs a card page; a build never edits its templates. The template reads
    its dict views by subscript (``row['cells']``, jinja2's getitem tries the key first; ``row.cells`` first
    raises AttributeError on a dict): 87 -> 64 µs a syn2000 card page (tests/test_archive_template.py)."""
    return environment().get_template("card.html.j2")


def paragraphs(text: str | None) -> list[str]:
    """Split text on blank lines into paragraphs, each with its line breaks folded to spaces."""
    if not text:
        return []
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


def _dots_text(cells: str) -> str:
    return " ".join("dots " + "".join(str(d) for d in dots(c)) if dots(c) else "blank" for c in cells)


def die_view(die: Die) -> dict:
    """What the index shows of a die: name, faces, the key text and one row per face.

    Faces come from the braille stage (:func:`pipeline.braille.dice.encode_die`, one face
    at a time); a row is ``{"label", "cells", "dots", "underline"}`` (e.g. ``"12"``, ``"⠇"``,
    ``"dots 123"``, False). Faces the encoding cannot write are left out (DI001 is the
    braille stage's finding).
    """
    faces, _ = encode_die(die)
    rows = [{"label": f.numeral, "cells": f.cells, "dots": _dots_text(f.cells), "underline": f.underline} for f in faces]
    where = "to the left of" if die.braille_position == "left" else "below"
    explanation = (
        "Each face shows its number in print and one braille letter without a numeric indicator: "
        f"1 is a, 2 is b and so on. The braille sits {where} the print number. {orientation_bar_text()} "
        "Turned the other way, some letters read as others: upside down, d reads as h and f as j."
        if die.encoding == "letters"
        else "Each face shows its number in print and in standard UEB braille: the numeric indicator, "
        f"then the digits. The braille sits {where} the print number. {orientation_bar_text()}"
    )
    return {"id": die.id, "name": die.name, "faces": die.faces, "key": key_text(die), "explanation": explanation, "key_rows": rows}


def orientation_bar_text() -> str:
    """The sentence that tells a reader how a die face shows which way is up: the orientation bar
    :mod:`pipeline.dice.plan` puts below every face's numeral and braille (:data:`~pipeline.dice.plan.BAR_MM`,
    raised by the braille dot height on the 3D model, printed on the paper die)."""
    width, height = BAR_MM
    return (f"Below both runs a short bar, {width:g} mm long and {height:g} mm wide, {GAP_MM:g} mm under them: "
            "on the 3D-printed die it is raised like the braille dots (on the paper die it is printed). "
            "Turn the die until the bar lies below the braille, nearest you: then the braille reads upright.")


#: Labels of the braille stage's block fields (``BrailleBlock.line_fields``), top to bottom.
FIELD_LABELS = {"indicator": "Class indicator", "name": "Name", "keywords": "Keywords", "rules": "Rules text", "power": "Power"}


def braille_parts(deck: Deck, card: Card) -> dict[str, str]:
    """The print text that went into each field of a card's braille block (DESIGN.md §3).

    Keys in block order, as in ``BrailleBlock.line_fields``: ``indicator`` (the class
    indicator letter), ``name``, ``keywords``,
    ``rules`` (``braille_rules`` if set, else ``rules``; an empty string leaves it
    out) and ``power`` (the power, then a Power Crystal's A/P mark). A field without text is absent.
    """
    cls = deck.game.class_by_id(card.class_id)
    parts: dict[str, str] = {}
    if cls is not None:
        parts["indicator"] = f"{cls.indicator} ({cls.name})"
    parts["name"] = card.name
    if card.keywords:
        parts["keywords"] = " ".join(card.keywords)
    rules = card.braille_rules if card.braille_rules is not None else card.rules
    if rules and rules.strip():
        parts["rules"] = " ".join(rules.split())
    power = [str(card.power)] if card.power is not None else []
    if card.indicator:
        power.append(card.indicator)  # the A/P mark is in the power position, in print and braille
    if power:
        parts["power"] = " ".join(power)
    return parts


def _braille_view(deck: Deck, card: Card, block: BrailleBlock | None) -> dict | None:
    """Rows ``{"number", "cells", "field"}`` for the lines on the card, plus the print parts (a card
    whose rules did not fit shows the reference it carries instead)."""
    if block is None:
        return None
    fields = list(block.line_fields) + [""] * (len(block.lines) - len(block.line_fields))
    shown = [{"number": i + 1, "cells": line, "field": FIELD_LABELS.get(fields[i], fields[i])}
             for i, line in enumerate(block.lines[: block.lines_available])]
    parts = braille_parts(deck, card)
    if not block.full_text and card.braille_rules is None and "rules" in parts:
        parts["rules"] = REFERENCE_TEXT.format(entry=block.entry)
    return {
        "shown": shown,
        "needed": len(block.lines),
        "fits": len(block.lines) <= block.lines_available,
        "cells_per_line": block.cells_per_line,
        "parts": [{"label": FIELD_LABELS[k] + (" (not the full print text)" if k == "rules" and not block.full_text else ""), "text": v}
                  for k, v in parts.items()],
    }


def _titles(deck: Deck) -> dict[str, str]:
    """A unique page title per card: name, class and game; the card id is added to break a tie."""
    titles: dict[str, str] = {}
    for card in deck.cards:
        cls = deck.game.class_by_id(card.class_id)
        titles[card.id] = f"{card.name}, {cls.name if cls else card.class_id} card – {deck.game.title} card archive"
    seen: dict[str, int] = {}
    for t in titles.values():
        seen[t] = seen.get(t, 0) + 1
    return {cid: (f"{card_title} ({cid})" if seen[card_title] > 1 else card_title) for cid, card_title in titles.items()}


def _power_text(deck: Deck, card: Card) -> str:
    if card.power is not None:
        return card.power
    if card.kind in deck.game.power.text_power_kinds:
        return "Given by the rules text"
    return "None"


def _summary(deck: Deck) -> str:
    g = deck.game
    players = f"{g.players.min}" if g.players.min == g.players.max else f"{g.players.min} to {g.players.max}"
    return (
        f"{g.title} has {len(deck.cards)} unique cards ({deck.total_copies} printed) in {len(g.classes)} "
        f"classes, for {players} players. Every card carries large print, raised braille and a QR code "
        f"that opens its page in this archive."
    )


def _quickstart(deck: Deck) -> list[str]:
    if deck.game.quickstart:
        return paragraphs(deck.game.quickstart)
    g = deck.game
    return [
        f"Shuffle the {deck.total_copies} cards and deal them as the rulebook says for your player count.",
        "Read a card by its braille from the top: the class indicator, then the name, keywords and "
        "rules, with the power value last. Scan the QR code in the top-left corner to open the card's page here.",
    ] + ([f"Dice used: {', '.join(d.name for d in g.dice)}; the braille key of each is below."] if g.dice else [])


def _page_paths(deck: Deck) -> dict[str, PurePosixPath | None]:
    """The page file of each card's archive path (:func:`page_path`; None for an unsafe path), by that path."""
    return {path: page_path(path) for path in map(deck.game.archive.path_for, deck.cards)}


def render_card_page(deck: Deck, card: Card, block: BrailleBlock | None = None, face: _Face | None = None,
                     title: str | None = None, neighbours: tuple[Card | None, Card | None] = (None, None),
                     downloads: dict | None = None, pages: dict[str, PurePosixPath | None] | None = None) -> str:
    """The HTML of one card's archive page (str); ``downloads`` is the view of
    :func:`pipeline.archive.downloads.write_downloads` (the card's card-reference entry and page,
    links to the volume); ``pages`` the page paths of the deck's cards (``_page_paths``), made once
    for a whole archive (default: worked out here). Raises ArchiveError when the card's path is unsafe."""
    def page_of(other: Card) -> PurePosixPath | None:
        path = deck.game.archive.path_for(other)
        return pages[path] if pages is not None else page_path(path)

    rel = page_of(card)
    if rel is None:
        raise ArchiveError(f"card {card.id}: archive path {deck.game.archive.path_for(card)!r} leaves the archive folder")
    links = [{"href": _href(str(r), rel), "name": n.name} if n and (r := page_of(n)) else None for n in neighbours]
    return _card_html(deck, card, rel, block, face, title or _titles(deck)[card.id], links, _reference_view(downloads, card, rel))


def _card_html(deck: Deck, card: Card, rel: PurePosixPath, block: BrailleBlock | None, face: _Face | None, title: str,
               links: list[dict | None], reference: dict | None) -> str:
    """:func:`render_card_page` once the page's path, its neighbours' links and its reference view are known."""
    cls = deck.game.class_by_id(card.class_id)
    keywords = [{"name": k, "summary": kw.summary if (kw := deck.game.keyword(k)) else "No summary in the game data."} for k in card.keywords]
    return _card_template().render(
        game=deck.game, card=card, cls=cls or _missing_class(card), title=title,
        root=_root(rel), self_href=rel.name, provisional=card.provenance.value == "provisional",
        face=face, power=_power_text(deck, card), keywords=keywords, rules=paragraphs(card.rules),
        braille=_braille_view(deck, card, block), prev=links[0], next=links[1], reference=reference,
    )


def _reference_view(downloads: dict | None, card: Card, rel: PurePosixPath, hrefs: dict | None = None) -> dict | None:
    """The card's entry and page in the card reference, with links relative to the card page, or None;
    ``hrefs`` keeps those links by page folder for a whole archive (the same for every page of a folder)."""
    entry = (downloads or {}).get("entries", {}).get(card.id)
    if not entry:
        return None
    links = hrefs.get(rel.parent) if hrefs is not None else None
    if links is None:
        links = {fmt: _href(path, rel) for fmt, path in downloads["reference"].items()}
        if hrefs is not None:
            hrefs[rel.parent] = links
    return {**entry, **links, "profile": downloads["profile"], "cells": downloads["cells"], "lines": downloads["lines"]}


def _missing_class(card: Card) -> dict:
    return {"name": card.class_id, "indicator": "?", "emblem": "none"}


def _indicator_cells(letter: str, braille: BrailleSettings) -> str | None:
    """The class indicator in braille as the braille stage writes it (a letter standing alone), or None."""
    try:
        return standalone_letter(letter, braille)
    except ValueError:
        return None


def render_index(deck: Deck, downloads: dict | None = None) -> str:
    """The HTML of the game's index page (str); ``downloads`` lists the braille volumes to offer
    (:func:`pipeline.archive.downloads.write_downloads`)."""
    g = deck.game
    classes = []
    for cls in g.classes:
        cards = []
        for card in deck.cards_of(cls.id):
            rel = page_path(g.archive.path_for(card))
            if rel is None:
                continue
            meta = f"power {card.power}" if card.power is not None else card.kind
            if card.keywords:
                meta += ", " + " ".join(card.keywords)
            cards.append({"href": str(rel), "name": card.name, "meta": meta, "provisional": card.provenance.value == "provisional"})
        classes.append({"id": cls.id, "name": cls.name, "indicator": cls.indicator, "indicator_cells": _indicator_cells(cls.indicator, g.braille), "emblem": cls.emblem,
                        "unique": len(deck.cards_of(cls.id)), "printed": deck.copies_of(cls.id), "cards": cards})
    keywords = [{"name": k.name, "summary": k.summary, "die": (d.name if (d := g.die_by_id(k.die)) else k.die) if k.die else None} for k in g.keywords]
    return environment().get_template("index.html.j2").render(
        game=g, title=f"{g.title} card archive", root="", summary=_summary(deck), quickstart=_quickstart(deck),
        classes=classes, indicator_note=indicator_note(g.braille), dice=[die_view(d) for d in g.dice], keywords=keywords, powers=power_key(deck),
        downloads=downloads,
    )


def power_key(deck: Deck) -> list[dict]:
    """One row per power value the game allows: ``{"value", "cells", "dots", "decided"}``, where
    ``decided`` marks a value whose cells the game data sets itself (``power.overrides``: a
    designer's choice a reader cannot know from UEB, e.g. the Power Crystal expansion's 0 = ⠼⠴).
    Values the scheme cannot write are left out (BR004 is the braille stage's finding)."""
    from pipeline.braille.power import PowerEncoding

    encoding = PowerEncoding(deck.game.power, deck.game.braille.grade)
    rows = []
    for value in deck.game.power.allowed():
        try:
            cells = encoding.encode(value)
        except ValueError:
            continue
        rows.append({"value": value, "cells": cells, "dots": _dots_text(cells), "decided": value in deck.game.power.overrides})
    return rows


def write_archive(deck: Deck, blocks: dict[str, BrailleBlock], fronts_pdf: str | Path | None, out_dir: str | Path,
                  page_ids: Sequence[str] | None = None, face_dpi: float = FACE_DPI, target: str | None = None,
                  proofed: bytes | None = None, keep: Callable[[str, object], bool] | None = None) -> list[Path]:
    """Write the game's archive into ``out_dir``: the faces (:func:`pipeline.archive.faces.write_faces`),
    then the pages (:func:`write_pages`); returns every written path (index first, the faces last).

    ``blocks`` are the braille stage's blocks by card id (a card without one gets a page
    that says so); ``fronts_pdf`` is the print fronts PDF whose page i is the face of
    card ``page_ids[i]`` (default: the deck's cards in order, as ``render_fronts`` writes
    them), soft-proofed for the printing ``target`` (id, default fogra39) and rasterised at ``face_dpi`` (trim only, 288 × 480 px at 96 dpi for 3×5 in);
    None writes pages without a face image; ``proofed`` is that PDF's soft proof when already made
    (:func:`pipeline.render.softproof.soft_proof_bytes`). ``keep`` (a rebuild, :class:`pipeline.build.cardkeys.Keeper`)
    is asked per face and per card page (:func:`write_pages`). Raises ArchiveError when the fronts PDF's
    page count does not match, RasterError for an unreadable PDF, OutputError when
    ``out_dir`` cannot be written.
    """
    out_dir = Path(out_dir)
    faces: dict[str, _Face] = {}
    if fronts_pdf is not None:
        ids = list(page_ids) if page_ids is not None else [c.id for c in deck.cards]
        faces = write_faces(deck, Path(fronts_pdf), ids, out_dir, face_dpi, target, proofed, keep)
        missing = [c.id for c in deck.cards if c.id not in faces]
        if missing:
            raise ArchiveError(f"{fronts_pdf} has no face page for card(s) {', '.join(missing[:5])}")
    return write_pages(deck, blocks, out_dir, faces, keep) + [out_dir / "images" / f"{cid}.png" for cid in faces]


def write_pages(deck: Deck, blocks: dict[str, BrailleBlock], out_dir: str | Path, faces: dict[str, _Face],
                keep: Callable[[str, object], bool] | None = None, volumes: str | Path | None = None) -> list[Path]:
    """Write everything of the archive but the face images into ``out_dir``; returns the written paths
    (index first): the index, the braille downloads, the quickstart page, the style sheet and one page
    per card, which shows the card's face of ``faces`` (by card id, links relative to ``out_dir``; a card
    without one gets no image), whether or not the image is written yet.

    A card whose archive path is unsafe gets no page (:func:`check_qr_links` reports it). ``keep`` is
    asked per card page, ``keep(<page path>, (card, block, face, title, the neighbours' (name, path),
    the card reference view))``: True leaves the file as it is in ``out_dir`` (kept from the previous
    build). ``volumes``: the emboss stage's folder, when it has just written the downloads' volumes
    (:func:`pipeline.archive.downloads.write_downloads` copies them). Raises OutputError when ``out_dir`` cannot be written.
    """
    out_dir = Path(out_dir)
    downloaded, downloads = write_downloads(deck, out_dir, volumes)
    written = [write_text(out_dir / "index.html", render_index(deck, downloads))] + downloaded
    written.append(write_text(out_dir / QUICKSTART_PAGE, render_quickstart(deck, _quickstart(deck), environment())))  # the boxes' QR page
    written.append(write_bytes(out_dir / STYLESHEET, (ARCHIVE_TEMPLATES / STYLESHEET).read_bytes()))
    titles, pages, hrefs = _titles(deck), _page_paths(deck), {}
    cards = deck.cards
    paths = [pages[deck.game.archive.path_for(card)] for card in cards]
    for i, card in enumerate(cards):
        rel = paths[i]
        if rel is None:
            continue
        face = faces.get(card.id)
        if face is not None:
            face = _Face(_href(face.href, rel), face.width, face.height)
        around = [(cards[j], paths[j]) if 0 <= j < len(cards) else (None, None) for j in (i - 1, i + 1)]
        links = [(n.name, str(path)) if n else None for n, path in around]
        reference = _reference_view(downloads, card, rel, hrefs)
        inputs = (card, blocks.get(card.id), face, titles[card.id], links, reference)
        if keep is not None and keep(rel.as_posix(), inputs):
            written.append(out_dir / rel)
            continue
        hrefs_around = [{"href": _href(str(path), rel), "name": n.name} if n and path else None for n, path in around]
        html = _card_html(deck, card, rel, blocks.get(card.id), face, titles[card.id], hrefs_around, reference)
        written.append(write_text(out_dir / rel, html))
    return written
