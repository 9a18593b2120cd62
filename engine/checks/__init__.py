"""The registered deck checks, and :func:`run_checks`, which runs them.

Families: CP composition (and card backs against the decks), KW keywords, PW power, DQ data quality (data alone);
RB rules text (data against the ``--rulebook`` file).

Each check module registers its checks in :mod:`engine.registry` when imported (the
``@rule`` decorator), and this package imports them all. That is the simplest plugin
scheme we found: a check is one decorated function, with no list to keep in step. The
registry itself imports no check, so the imports run one way: checks -> registry.
"""

from __future__ import annotations

from engine.checks import backs, composition, keywords, power, quality  # noqa: F401
from engine.checks import rulebook_counts, rulebook_terms, rulebook_text, rulebook_variants  # noqa: F401
from engine.checks import balance, rulebook_odds, rulebook_refs  # noqa: F401

from engine.checks.common import MAX_RELATED  # noqa: E402

# The loader's DA codes belong in every listing of the registry too.
import engine.load  # noqa: E402,F401
from engine.findings import Finding
from engine.gcpause import collector_paused
from engine.registry import RULES, CheckContext, Selection, card_ignores


#: A finding's message is cut after this many characters, and its related list after this
#: many locations; what is cut is counted in the message (a 570,000-character RB011 message
#: once named every heading of a book).
MAX_MESSAGE = 1000


def capped_problem(message: str, related: tuple) -> tuple[str, tuple]:
    """``(message, related)`` within :data:`MAX_MESSAGE` characters and :data:`MAX_RELATED` locations, the rest counted."""
    if len(related) > MAX_RELATED:
        message += f" (and {len(related) - MAX_RELATED} more places)"
        related = related[:MAX_RELATED]
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 40] + f"… ({len(message) - MAX_MESSAGE + 40} more characters)"
    return message, related


def run_checks(deck, ctx: CheckContext | None = None, selection: Selection = Selection()) -> list[Finding]:
    """Run every registered check over a deck; apply the selection and per-card ``ignore:``.

    ``deck`` is an :class:`engine.model.Deck`. Returns the findings, unsorted.
    """
    ctx = ctx or CheckContext()
    ignores = {c.id: c.ignore for c in deck.cards if c.ignore}
    out: list[Finding] = []
    with collector_paused():  # the checks build indexes of the whole rulebook that all live on (engine.gcpause)
        for r in RULES.checks():
            if not selection.allows(r.code, r.name):
                continue
            for p in r.check(deck, ctx):
                message, related = capped_problem(p.message, tuple(p.related))
                f = r.finding(message, p.location, p.hint, related)
                if f.location.card and card_ignores(f, ignores.get(f.location.card, ())):
                    continue
                out.append(f)
    return out


