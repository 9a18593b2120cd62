"""Tabletop Simulator export: deck sheets (grid up to 10 × 7, last slot the hidden card), backs, saved-object JSON."""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops

from conftest import CARDDATA
from engine.load import load_game
from pipeline.common.raster import render_page
from pipeline.exports.tts import FACES_PER_SHEET, TTS_DPI, TtsDeck, decks_by_back, plan_sheets, sheet_grid, write_tts
from pipeline.render.deck_pdf import render_fronts


@pytest.mark.parametrize("slots,grid", [(1, (1, 1)), (4, (4, 1)), (10, (10, 1)), (11, (10, 2)), (16, (10, 2)), (70, (10, 7))])
def test_sheet_grid(slots, grid):
    assert sheet_grid(slots) == grid


def test_sheet_grid_refuses_more_than_70_slots():
    with pytest.raises(ValueError, match="1 to 70"):
        sheet_grid(71)


def test_a_deck_of_more_than_69_unique_cards_takes_a_second_sheet():
    deck = load_game(CARDDATA / "apprentice")
    many = TtsDeck("big", "Big", 0, tuple(deck.cards) + tuple(deck.cards[:15]))  # 75 faces
    sheets = plan_sheets("g", many)
    assert [(s.name, s.columns, s.rows, len(s.cards)) for s in sheets] == [
        ("g-big-faces-1.png", 10, 7, FACES_PER_SHEET), ("g-big-faces-2.png", 7, 1, 6)]


@pytest.fixture(scope="module")
def apprentice_tts(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts")
    deck = load_game(CARDDATA / "apprentice")
    return deck, out, write_tts(deck, out, base_url="https://example.org/tts")


def test_apprentice_ember_sheet_grid_and_json(apprentice_tts):
    deck, out, paths = apprentice_tts
    assert sorted(p.name for p in paths) == sorted(
        [f"apprentice-{c}-{k}.png" for c in ("ember", "forest", "glacier", "spirit") for k in ("faces", "back")] + ["apprentice-tts.json"])
    back = Image.open(out / "apprentice-ember-back.png")
    w, h = back.size
    assert (w, h) == (299, 499)  # 3 × 5 in at 100 dpi, the trim as pdfium crops it (measured: one pixel under 300 × 500)
    sheet = Image.open(out / "apprentice-ember-faces.png")
    # 15 unique Ember cards + the hidden card = 16 slots: 10 columns × 2 rows
    assert sheet.size == (10 * w, 2 * h)
    doc = json.loads((out / "apprentice-tts.json").read_text())
    ember = doc["ObjectStates"][0]
    assert ember["Name"] == "DeckCustom" and ember["Nickname"] == "Apprentice ICG: Ember"
    assert ember["CustomDeck"] == {"1": {"FaceURL": "https://example.org/tts/apprentice-ember-faces.png",
                                         "BackURL": "https://example.org/tts/apprentice-ember-back.png",
                                         "NumWidth": 10, "NumHeight": 2, "BackIsHidden": True, "UniqueBack": False, "Type": 0}}
    # every physical card (2 copies of each of 15) as sheet 1 × 100 + slot, in deck order
    assert ember["DeckIDs"] == [100 + slot for slot in range(15) for _ in range(2)]
    first = ember["ContainedObjects"][0]
    assert (first["CardID"], first["Nickname"], first["GMNotes"]) == (100, "Ember Apprentice", "ember-apprentice")
    assert first["Description"] == deck.card_by_id("ember-apprentice").description.alt
    assert [o["Nickname"] for o in doc["ObjectStates"]] == [f"Apprentice ICG: {c}" for c in ("Ember", "Forest", "Glacier", "Spirit")]
    assert len(decks_by_back(deck)) == 4


def test_apprentice_ember_sheet_slots_are_the_rasterised_fronts_and_the_back(apprentice_tts, tmp_path):
    """Reference: the fronts PDF rasterised again page by page with the proofs' rasteriser."""
    deck, out, _ = apprentice_tts
    sheet = Image.open(out / "apprentice-ember-faces.png").convert("RGB")
    back = Image.open(out / "apprentice-ember-back.png").convert("RGB")
    w, h = back.size
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    for slot, page in ((0, 0), (14, 14)):  # Ember Apprentice, then the 15th Ember card
        face = render_page(fronts.path, page, dpi=TTS_DPI, crop_to_trim=True).image
        x, y = (slot % 10) * w, (slot // 10) * h
        assert ImageChops.difference(sheet.crop((x, y, x + w, y + h)), face).getbbox() is None
    hidden = sheet.crop((9 * w, h, 10 * w, 2 * h))  # the grid's last slot
    assert ImageChops.difference(hidden, back).getbbox() is None
    empty = sheet.crop((5 * w, h, 6 * w, 2 * h))  # slot 15: no card
    assert empty.getextrema() == ((255, 255), (255, 255), (255, 255))
