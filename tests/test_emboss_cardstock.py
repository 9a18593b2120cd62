"""The card-per-page embosser file puts the braille where the UV layer does (pipeline.emboss.cardstock).

Reference for the QR box and the braille box: templates/layouts/card-3x5-portrait.yaml read by
pipeline.common.layout (the same file the UV layer and the print PDFs use); the clearance is the
UV layer's QR_CLEARANCE_MM (1 mm). Positions are computed from the sidecar and the profile's pitch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.load import load_game
from pipeline.braille.layout import layout_deck
from pipeline.common.layout import load_layout
from pipeline.emboss.brf import read_brf
from pipeline.emboss.cardstock import CardStartError
from pipeline.emboss.profiles import load_profile
from pipeline.emboss.write import emboss_outputs, write_embosser_files
from pipeline.render.tactile import QR_CLEARANCE_MM

APPRENTICE = Path(__file__).resolve().parents[1] / "carddata" / "apprentice"


@pytest.fixture(scope="module")
def apprentice():
    deck = load_game(APPRENTICE)
    blocks, _ = layout_deck(deck)
    return deck, blocks


def _first_line_tops(brf: bytes, side: dict, profile_id: str) -> list[float]:
    """Top edge (mm from the card's top) of the first braille line of every page."""
    pos = side["position"]
    pitch = load_profile(profile_id).line_pitch_mm
    tops = []
    for page in read_brf(brf):
        row = next(i for i, line in enumerate(page) if line.strip())
        tops.append(pos["braille_box_top_left_mm"][1] + (row - pos["lead_blank_lines"]) * pitch)
    return tops


def test_apprentice_card_file_has_one_page_per_physical_card_below_the_qr(apprentice, tmp_path):
    deck, blocks = apprentice
    write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card")
    brf = (tmp_path / "apprentice-card-3x5-card.brf").read_bytes()
    side = json.loads((tmp_path / "apprentice-card-3x5-card.brf.json").read_text())
    pages = read_brf(brf)
    assert len(pages) == 120 == deck.total_copies and side["copies_expanded"] is True
    qr_x, qr_y, qr_w, qr_h = load_layout().qr.mm()
    limit = qr_y + qr_h + QR_CLEARANCE_MM  # 31.75 + 1 = 32.75 mm
    tops = _first_line_tops(brf, side, "card-3x5")
    assert len(tops) == 120 and min(tops) >= limit - 1e-9 and min(tops) == pytest.approx(33.02)
    # the same place as the UV layer: the braille box's top-left, dot 1 half a dot base inside it
    bx, by, _, _ = load_layout().braille.mm()
    assert side["position"]["braille_box_top_left_mm"] == [round(bx, 2), round(by, 2)] == [6.35, 33.02]
    first = next(iter(blocks.values()))
    assert side["position"]["first_dot_centre_mm"] == [round(bx + first.profile.dot_radius, 2), round(by + first.profile.dot_radius, 2)]
    assert side["position"]["lead_blank_lines"] == 0 and "33.02 mm" in side["position"]["how"]
    # which page is which physical card: every copy of every card, numbered
    placed = [(p["card"], p["copy"], p["of"]) for p in side["placements"]]
    assert [p["page"] for p in side["placements"]] == list(range(1, 121))
    for card in deck.cards:
        assert [c for c, _, _ in placed].count(card.id) == card.copies
        assert [k for c, k, _ in placed if c == card.id] == list(range(1, card.copies + 1))


def test_unique_gives_one_page_per_unique_card(apprentice, tmp_path):
    deck, blocks = apprentice
    write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card", copies=False)
    side = json.loads((tmp_path / "apprentice-card-3x5-card.brf.json").read_text())
    assert len(read_brf((tmp_path / "apprentice-card-3x5-card.brf").read_bytes())) == 60 == len(deck.cards)
    assert side["copies_expanded"] is False and {p["of"] for p in side["placements"]} == {1}


def test_a_fixed_start_profile_that_cannot_reach_the_box_is_refused(mini, tmp_path):
    deck, blocks = mini
    with pytest.raises(CardStartError, match=r"cannot start the braille at 33\.02 mm.*26\.67 and 36\.83 mm"):
        write_embosser_files(deck, blocks, tmp_path, "index-basic-d", "card")
    result = emboss_outputs(deck, blocks, tmp_path, jobs=[("index-basic-d", "card")])
    assert [f.code for f in result.findings] == ["EM009"] and result.paths == ()
    assert list(tmp_path.iterdir()) == []


def test_a_fixed_start_profile_on_the_grid_writes_lead_blank_lines(mini, tmp_path):
    # top margin ½ in: the box (33.02 mm) is exactly 2 lines (2 × 10.16 mm) below it
    base = load_profile("card-3x5")
    fixed = base.model_copy(update={"start_offset": "fixed", "margins": base.margins.model_copy(update={"top": 36.0})})
    deck, blocks = mini
    write_embosser_files(deck, blocks, tmp_path, fixed, "card", formats=("brf",), copies=False)
    brf = (tmp_path / "mini-card-3x5-card.brf").read_bytes()
    side = json.loads((tmp_path / "mini-card-3x5-card.brf.json").read_text())
    assert side["position"]["lead_blank_lines"] == 2 and side["lines_per_page"] == 11
    assert brf.startswith(b"\r\n\r\n;,E\r\n")
    assert {p["line"] for p in side["placements"]} == {3}
    assert _first_line_tops(brf, side, "card-3x5") == pytest.approx([33.02] * 4)
