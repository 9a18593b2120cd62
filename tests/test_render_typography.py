"""Print typography of the shipped decks (issue 25): one name size per deck, no line that
starts with a dash, a minus sign for negative numbers.

The lines are the ones the print stage really draws: the painter's ``fit_text`` is wrapped
while the real fronts and backs are rendered, recording every laid-out line with its size (and so
are the fits the painter is handed ready-made: the names' fits made while choosing the deck's size).
"""

from __future__ import annotations

import pytest

from conftest import CARDDATA
from engine.load import load_game
from pipeline.render import card as card_module
from pipeline.render import facepaint
from pipeline.render.deck_pdf import render_backs, render_fronts
from pipeline.render.textfit import MIN_TEXT_PT, Paragraph, fit, typeset

GAMES = ["apprentice", "apprentice-power-crystal", "enchant", "claim-reinforcements-magic"]
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """game → list of (first paragraph's text, Fit) of every text element drawn on its fronts and backs."""
    out = {}
    real, real_text = facepaint.fit_text, facepaint.Painter.text
    for game in GAMES:
        seen = []

        def recording(paragraphs, width, height, valign):
            result = real(paragraphs, width, height, valign)
            seen.append((paragraphs[0].text if paragraphs else "", result))
            return result

        def handed(self, box, paragraphs, field, where, valign=None, inset=0.0, fitted=None):
            if fitted is not None:
                seen.append((paragraphs[0].text, fitted))
            return real_text(self, box, paragraphs, field, where, valign, inset, fitted)

        facepaint.fit_text, facepaint.Painter.text = recording, handed
        try:
            deck = load_game(CARDDATA / game)
            folder = tmp_path_factory.mktemp(game)
            render_fronts(deck, folder / "fronts.pdf")
            fronts = list(seen)
            render_backs(deck, folder / "backs.pdf")
        finally:
            facepaint.fit_text, facepaint.Painter.text = real, real_text
        out[game] = (deck, seen, fronts)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_name_of_a_deck_prints_at_one_size(drawn, game):
    deck, _, fronts = drawn[game]
    names = {c.name for c in deck.cards}
    sizes = {line.size for text, result in fronts if text in names and result.fits for line in result.lines}
    assert len(sizes) == 1, sizes
    (size,) = sizes
    assert size >= MIN_TEXT_PT
    # The largest size at which all of them fit: one point more and some name no longer fits.
    if size < 28:
        from pipeline.render.deck_pdf import _sheet
        from pipeline.render.fonts import face

        sheet = _sheet(deck, None)
        style = sheet.design.text["name"]
        fits_larger = []
        for c in deck.cards:
            box = sheet.box(card_module.front_face(c), "name")
            _, _, w, h = sheet.pdf(box)
            fits_larger.append(fit([Paragraph(c.name, face(style.weight), size + 1, size + 1, style.leading)], w, h).fits)
        assert not all(fits_larger)


def test_claim_names_that_once_shrank_now_print_at_the_deck_size(drawn):
    deck, _, fronts = drawn["claim-reinforcements-magic"]
    size_of = {text: {ln.size for ln in result.lines} for text, result in fronts}
    long_names = ["Forgotten Runestone", "Spear of Vengeance", "The Magician's Horse", "The Fool's Crystal", "Shield of the Veil"]
    short = next(c.name for c in deck.cards if c.name.startswith("Wizard") or len(c.name) < 10)
    for name in long_names:
        assert size_of[name] == size_of[short], name


@pytest.mark.parametrize("game", GAMES)
def test_no_printed_line_starts_with_a_dash(drawn, game):
    _, seen, _ = drawn[game]
    starts = [line.text for _, result in seen for line in result.lines if line.text[:1] in DASHES and not line.text[1:2].isdigit()]
    assert starts == []


def test_the_claim_back_keeps_the_en_dash_with_the_word_before_it(drawn):
    deck, seen, _ = drawn["claim-reinforcements-magic"]
    assert deck.game.title == "Claim: Reinforcements \u2013 Magic"
    (title,) = {tuple(ln.text for ln in result.lines) for text, result in seen if text == deck.game.title}
    assert not any(line.startswith("\u2013") for line in title)
    assert any(line.endswith("\u00a0\u2013") or "\u2013" in line for line in title)


def test_a_negative_number_prints_with_the_minus_sign():
    assert typeset("-5") == "\u22125"
    assert typeset("subtract -3 power, then -1.5") == "subtract \u22123 power, then \u22121.5"
    # Controls: a range, a hyphenated word and a lone dash keep their characters.
    assert typeset("2-3 cards, follow-up - next") == "2-3 cards, follow-up - next"


def test_potions_print_minus_signs(drawn):
    deck, _, fronts = drawn["claim-reinforcements-magic"]
    negative = [c.power for c in deck.cards if (c.power or "").startswith("-")]
    assert negative, "Claim has negative potions"
    printed = {ln.text for text, result in fronts if text in negative for ln in result.lines}
    assert printed == {"\u2212" + p[1:] for p in negative}


@pytest.mark.parametrize("game", GAMES)
def test_the_name_fits_kept_while_choosing_the_size_are_the_fits_drawing_makes(game):
    """Reference: textfit.fit of the paragraph the front draws (the deck's size, the style's floor) in
    the face's name box: every fit the sheet keeps equals it, and every name at that size is kept."""
    from pipeline.render.deck_pdf import _sheet
    from pipeline.render.fonts import face
    from pipeline.render.names import with_deck_name_sizes

    deck = load_game(CARDDATA / game)
    sheet = with_deck_name_sizes(_sheet(deck, None), deck.cards)
    style = sheet.design.text["name"]
    assert sheet.name_fits
    for c in deck.cards:
        side = card_module.front_face(c)
        _, _, w, h = sheet.pdf(sheet.box(side, "name"))
        size = sheet.name_size(side)
        drawn = fit([Paragraph(c.name, face(style.weight), size, style.min_size, style.leading, style.align)], w, h, style.valign)
        at_size = fit([Paragraph(c.name, face(style.weight), size + 1, size + 1, style.leading, style.align)], w, h).fits
        kept = sheet.name_fits.get((side, c.name))
        assert kept is None or kept == drawn
        assert (kept is not None) == (drawn.fits and (size == style.size or not at_size))  # kept: first fit at the deck's size
