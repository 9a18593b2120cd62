"""Data-quality checks (DQ): provisional cards, placeholder archive URLs, alt text, cards' ``ignore:`` entries,
card pages in the archive's own places."""

from __future__ import annotations

from typing import Iterator
from urllib.parse import urlparse

from engine.archive_paths import page_path, reserved_problem
from engine.checks.common import plural
from engine.findings import Severity
from engine.model import Deck
from engine.registry import Problem, closest_rule, names_a_rule, rule

#: Alt text longer than this is cut short by screen readers' quick navigation; the long
#: description carries the rest (the common "about 150 characters" guidance, DESIGN.md §2).
MAX_ALT = 150

#: Hosts reserved for examples and tests (RFC 2606, RFC 6761): never a real archive.
_RESERVED_TLDS = (".invalid", ".example", ".test", ".localhost", ".local")
_EXAMPLE_DOMAINS = ("example.com", "example.org", "example.net")


@rule("DQ001", "provisional-card", Severity.info)
def provisional_card(deck: Deck, ctx) -> Iterator[Problem]:
    """A card we supplied (``provenance: provisional``) because the rulebook does not name it.

    Never silently passed off as real: each is reported (and counted) so the designer can
    confirm or replace it before printing.

    Fails: a card with ``provenance: provisional``.
    Passes: ``provenance: rulebook``.
    """
    mine = deck.provisional()
    share = f"{len(mine)} of the game's {plural(len(deck.cards), 'unique card')} {'is' if len(mine) == 1 else 'are'} provisional"
    for card in mine:
        yield Problem(f"'{card.name}' is provisional (not named by the rulebook); {share}", card.where("provenance"), "confirm the card with the designer, then set provenance: rulebook")


def placeholder_host(url: str) -> bool:
    """True for a URL whose host is reserved for examples (``.invalid``, ``example.com`` …)."""
    host = (urlparse(url).hostname or "").lower()
    return host in ("localhost",) or host.endswith(_RESERVED_TLDS) or host.startswith("example.") or any(host == d or host.endswith("." + d) for d in _EXAMPLE_DOMAINS)


@rule("DQ002", "placeholder-base-url", Severity.warning)
def placeholder_base_url(deck: Deck, ctx) -> Iterator[Problem]:
    """The archive base URL is a placeholder host: every card's QR code would lead nowhere.

    A print shop must not print it. Reserved names per RFC 2606 / RFC 6761.

    Fails: ``base_url: "https://cards.example.invalid/apprentice/"``.
    Passes: ``base_url: "https://cards.apprentice-icg.com/"``.
    """
    url = deck.game.archive.base_url
    if placeholder_host(url):
        yield Problem(f"the archive base URL {url} is a placeholder; the QR codes would not resolve", deck.game.archive.where("base_url"), "set archive.base_url to the real host before printing")


@rule("DQ003", "missing-alt-text", Severity.error)
def missing_alt_text(deck: Deck, ctx) -> Iterator[Problem]:
    """A card's image has no alt text (empty, or a placeholder such as "TODO").

    The QR leads blind and low-vision players to this description; without it the art is lost.

    Fails: ``description: {alt: "", long: …}``; ``alt: "TODO"``.
    Passes: ``alt: "A young mage cups a small flame in both hands."``.
    """
    for card in deck.cards:
        alt = card.description.alt.strip()
        if not alt or alt.casefold().strip(".") in {"todo", "tbd", "alt", "image", "placeholder", "xxx"}:
            yield Problem(f"'{card.name}' has no alt text", card.description.where("alt"), "describe the art in one sentence")


@rule("DQ004", "overlong-alt-text", Severity.warning)
def overlong_alt_text(deck: Deck, ctx) -> Iterator[Problem]:
    """A card's alt text is longer than 150 characters; the detail belongs in the long description.

    Fails: an ``alt:`` of 200 characters.
    Passes: a one-sentence ``alt:`` and the detail in ``long:``.
    """
    for card in deck.cards:
        n = len(card.description.alt.strip())
        if n > MAX_ALT:
            yield Problem(f"'{card.name}' has alt text of {n} characters (at most {MAX_ALT})", card.description.where("alt"), "shorten alt: and move the detail into long:")


@rule("DQ005", "unknown-ignore", Severity.warning)
def unknown_ignore(deck: Deck, ctx) -> Iterator[Problem]:
    """A card's ``ignore:`` entry matches no rule: a typo that silences nothing.

    An entry is a rule code (``BR001``), a code prefix (``BR``) or a rule name
    (``braille-word-split``); the finding the designer meant to accept is still reported.
    Entries are judged against the rules registered when the checks run, so the caller
    registers the pipeline's stage rules first (the CLI does).

    Fails: ``ignore: [braile-word-split]``.
    Passes: ``ignore: [braille-word-split]``.
    """
    for card in deck.cards:
        for entry in card.ignore:
            if names_a_rule(entry):
                continue
            guess = closest_rule(entry) if entry else None
            hint = f"did you mean '{guess}'?" if guess else "write a rule code (DQ001), a family (DQ) or a rule name (provisional-card); `deckpress rules` lists them"
            yield Problem(f"'{card.name}' ignores {entry!r}, which matches no rule", card.where("ignore"), hint)


@rule("DQ006", "archive-path-reserved", Severity.error)
def archive_path_reserved(deck: Deck, ctx) -> Iterator[Problem]:
    """A card's archive page would take the place of one of the archive's own files or folders (index, quickstart page, style sheet, images/, braille/).

    The index, the quickstart page (what the tuck boxes' QR codes open), the style sheet, a file
    in the ``images/`` or ``braille/`` folder, or one of those folders itself: the page would
    replace it, or be replaced.

    Fails: ``card_path: "{id}.html"`` with a card ``id: index`` or ``id: quickstart``.
    Passes: ``card_path: "cards/{id}.html"`` (the default), or another card id.
    """
    archive = deck.game.archive
    for card in deck.cards:
        page = page_path(archive.path_for(card))
        problem = reserved_problem(page) if page is not None else None  # an unsafe path is the model's DA003
        if problem is not None:
            yield Problem(f"card {card.id}: its archive page {problem}", card.where("id"),
                          "rename the card id, or put the pages in a folder of their own: archive.card_path: 'cards/{id}.html'")
