"""Card backs drawn from the back model: which back each shipped card carries, and that cards sharing a
back get the same page bytes (read back with pikepdf, an independent PDF parser), down to the expansion's
class backs, which are the core game's pages content stream for content stream."""

from __future__ import annotations

import pikepdf
import pytest

from conftest import CARDDATA
from engine.backs import back_id, deck_faces
from engine.load import load_game
from pipeline.render.deck_pdf import render_backs
from pipeline.render.impose import deck_copies

GAMES = ("claim-reinforcements-magic", "enchant", "apprentice", "apprentice-power-crystal")


@pytest.fixture(scope="module")
def backs(tmp_path_factory):
    out = tmp_path_factory.mktemp("backs")
    result = {}
    for name in GAMES:
        deck = load_game(CARDDATA / name)
        printed = render_backs(deck, out / f"{name}-backs.pdf")
        with pikepdf.open(printed.path) as pdf:
            streams = [page.Contents.read_bytes() for page in pdf.pages]
        result[name] = (deck, printed, streams)
    return result


def _card_streams(deck, printed, streams) -> dict[str, bytes]:
    """Card id → the content stream of the back page imposition gives it (deck_copies)."""
    copies = deck_copies(deck, [c.id for c in deck.cards], printed.pages)
    return {card.id: streams[back] for card, (_, back, _) in zip(deck.cards, copies)}


def test_claim_main_deck_cards_share_one_back_and_the_set_aside_decks_have_their_own(backs):
    deck, printed, streams = backs["claim-reinforcements-magic"]
    assert list(printed.pages) == ["main", "potions", "artifacts", "overview"]
    by_card = _card_streams(deck, printed, streams)
    main = {by_card[c.id] for c in deck.cards if c.class_id in ("wizards", "druids", "shapeshifters")}
    assert len(main) == 1 and len([c for c in deck.cards if c.class_id in ("wizards", "druids", "shapeshifters")]) == 30
    assert len(set(streams)) == 4  # main, potions, artifacts, overview all look different
    assert {by_card[c.id] for c in deck.cards if c.class_id == "potions"} == {streams[1]}
    # The main back names the game, not a faction.
    assert deck_faces(deck)["main"].name == "Claim"


def test_enchant_prints_one_back_for_all_60_cards(backs):
    deck, printed, streams = backs["enchant"]
    assert list(printed.pages) == ["common"] and len(streams) == 1
    assert deck.total_copies == 60 and {back_id(deck.game, c) for c in deck.cards} == {"common"}
    assert set(_card_streams(deck, printed, streams).values()) == {streams[0]}


def test_apprentice_prints_four_class_backs(backs):
    deck, printed, streams = backs["apprentice"]
    assert list(printed.pages) == ["ember", "forest", "glacier", "spirit"]
    assert len(set(streams)) == 4
    by_card = _card_streams(deck, printed, streams)
    for i, cls in enumerate(printed.pages):
        assert {by_card[c.id] for c in deck.cards_of(cls)} == {streams[i]}


def test_expansion_class_backs_are_the_core_pages_byte_for_byte(backs):
    core = backs["apprentice"][2]
    deck, printed, streams = backs["apprentice-power-crystal"]
    assert list(printed.pages) == ["ember", "forest", "glacier", "spirit", "power-crystal"]
    assert streams[:4] == core
    assert streams[4] not in core
    # The crystal deck's own back carries the expansion's title; the class backs the core's.
    faces = deck_faces(deck)
    assert faces["power-crystal"].title == "Apprentice ICG: Power Crystal Expansion" and faces["ember"].title == "Apprentice ICG"
    # Every new class card (Delvers, upgraded Rangers and Sages) gets its class's core back page.
    by_card = _card_streams(deck, printed, streams)
    for card in (c for c in deck.cards if c.id in deck.own_card_ids and c.class_id != "power-crystal"):
        assert by_card[card.id] == core[["ember", "forest", "glacier", "spirit"].index(card.class_id)]
