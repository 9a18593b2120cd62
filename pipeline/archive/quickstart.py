"""The archive's quickstart page (``quickstart.html``): what a tuck box's QR code opens.

The page holds the game's quickstart text (``quickstart:`` in game.yaml, or the generic
one of the index), the players and the classes with their card counts, and a link to the
index. Its URL is ``archive.base_url + QUICKSTART_PAGE`` (:func:`quickstart_url`).
"""

from __future__ import annotations

import jinja2

from engine.model import Deck, Game

#: The quickstart page's path inside the archive folder (and after the base URL).
QUICKSTART_PAGE = "quickstart.html"


def quickstart_url(game: Game) -> str:
    """The absolute URL of the game's quickstart page (what a box's QR code encodes)."""
    return game.archive.base_url + QUICKSTART_PAGE


def render_quickstart(deck: Deck, paragraphs: list[str], environment: jinja2.Environment) -> str:
    """The HTML of the quickstart page (str) with ``paragraphs`` as its text, from the archive's
    jinja2 ``environment`` (autoescaped; :func:`pipeline.archive.site.environment`)."""
    g = deck.game
    players = f"{g.players.min}" if g.players.min == g.players.max else f"{g.players.min} to {g.players.max}"
    classes = [{"name": c.name, "printed": deck.copies_of(c.id)} for c in g.classes if deck.copies_of(c.id)]
    return environment.get_template("quickstart.html.j2").render(
        game=g, title=f"{g.title} quickstart", root="", quickstart=paragraphs, players=players, classes=classes)
