"""The card page template reads its dict views (braille rows, keywords, neighbours, card reference) by
subscript, ``row['cells']``: jinja2's ``getitem`` tries the key first, where ``row.cells`` (``getattr``)
first raises AttributeError on a dict (issue 22: 87 -> 64 µs a syn2000 card page). Reference: the same
template with every such subscript written back in attribute form (the template as it was), rendered
by the same environment settings; the archives must be byte-identical."""

from __future__ import annotations

import re

import jinja2

from engine.load import load_game
from pipeline.archive import site
from pipeline.braille.layout import layout_deck


def _attribute_form_template() -> jinja2.Template:
    card = (site.ARCHIVE_TEMPLATES / "card.html.j2").read_text(encoding="utf-8")
    attribute_form = re.sub(r"\b(kw|row|part|braille|reference|prev|next)\['([a-z_]+)'\]", r"\1.\2", card)
    assert attribute_form != card and "['" not in attribute_form
    base = (site.ARCHIVE_TEMPLATES / "base.html.j2").read_text(encoding="utf-8")
    env = site.environment().overlay(loader=jinja2.DictLoader({"card.html.j2": attribute_form, "base.html.j2": base}))
    return env.get_template("card.html.j2")  # an overlay: the archive's settings, not its shared loader


def test_card_pages_are_those_of_the_attribute_form_template(tmp_path, monkeypatch):
    from conftest import CARDDATA

    for game in ("claim-reinforcements-magic", "enchant"):  # a card reference with links; keywords, provisional cards
        deck = load_game(CARDDATA / game)
        blocks, _ = layout_deck(deck)
        new, old = tmp_path / game / "new", tmp_path / game / "old"
        written = site.write_archive(deck, blocks, None, new)
        with monkeypatch.context() as patch:
            patch.setattr(site, "_card_template", _attribute_form_template)
            site.write_archive(deck, blocks, None, old)
        pages = [p for p in written if p.parent.name == "cards"]
        assert len(pages) == len(deck.cards) > 20
        assert b"card reference" in b"".join(p.read_bytes() for p in pages) or game == "enchant"
        for page in pages:
            assert page.read_bytes() == (old / page.relative_to(new)).read_bytes(), page
