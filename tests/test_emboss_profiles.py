"""Embosser profiles as data: every shipped profile loads, page formats are computed from the
paper, margins and pitch, and a paper the embosser cannot take is a clear error."""

from __future__ import annotations

import pytest

from pipeline.emboss.profiles import (
    EMBOSSERS,
    PaperSizeError,
    ProfileError,
    UnknownProfile,
    load_profile,
    profile_names,
    read_profile,
)

REQUIRED = {"card-3x5", "generic-40x25", "index-everest-d", "index-basic-d", "enabling-technologies-romeo-60", "viewplus-tiger-max"}


def test_the_required_profiles_ship():
    assert REQUIRED <= set(profile_names())


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_every_profile_loads_and_cites_its_source(name):
    p = load_profile(name)
    assert p.id == name
    assert len(p.source) > 40
    assert p.paper.kind in ("card", "sheet", "tractor")
    assert "simplex" in p.duplex
    fmt = p.page_format()  # the profile's own sheet always fits its own paper
    assert fmt.cells_per_line >= 10 and fmt.lines_per_page >= 11


def test_card_3x5_is_computed_from_card_size_margins_and_pitch():
    # floor((76.2 − 12.7) / 6.2) = floor(10.24) = 10; floor((127 − 12.7) / 10.16) = floor(11.25) = 11
    p = load_profile("card-3x5")
    assert p.max_cells is None and p.max_lines is None  # nothing written by hand
    assert p.cell_pitch_mm == pytest.approx(6.2) and p.line_pitch_mm == pytest.approx(10.16)
    fmt = p.page_format(76.2, 127.0)
    assert (fmt.cells_per_line, fmt.lines_per_page) == (10, 11)
    assert (fmt.width_mm, fmt.height_mm) == (76.2, 127.0)


def test_generic_is_40_by_25_on_11_5_by_11_in():
    # (292.1 − 25.4) / 6.2 = 43.0 → capped at 40; (279.4 − 25.4) / 10.16 = 25.0 exactly → 25 (not 24)
    fmt = load_profile("generic-40x25").page_format()
    assert (fmt.width_mm, fmt.height_mm) == (292.1, 279.4)
    assert (fmt.cells_per_line, fmt.lines_per_page) == (40, 25)


def test_everest_sheet_without_cap_is_43_cells():
    fmt = load_profile("index-everest-d").page_format()
    assert (fmt.cells_per_line, fmt.lines_per_page) == (43, 25)


def test_everest_cannot_take_a_loose_3x5_card():
    with pytest.raises(PaperSizeError, match=r"index-everest-d.*76\.2 × 127 mm.*130–297\.6 mm wide"):
        load_profile("index-everest-d").page_format(76.2, 127.0)


@pytest.mark.parametrize("name", ["index-basic-d", "enabling-technologies-romeo-60", "viewplus-tiger-max", "generic-40x25"])
def test_other_embossers_cannot_take_a_3_in_wide_card(name):
    with pytest.raises(PaperSizeError):
        load_profile(name).page_format(76.2, 127.0)


def test_card_profile_refuses_a_landscape_card():
    with pytest.raises(PaperSizeError, match="card-3x5"):
        load_profile("card-3x5").page_format(127.0, 76.2)


def test_unknown_profile_lists_the_known_ones():
    with pytest.raises(UnknownProfile, match="known: card-3x5"):
        load_profile("braillo-9000")


def test_bad_profile_names_file_and_field(tmp_path):
    text = (EMBOSSERS / "card-3x5.yaml").read_text().replace("cell_pitch: 6.2mm", "cell_pitch: 6.2")
    path = tmp_path / "card-3x5.yaml"
    path.write_text(text)
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("cell_pitch:"))) + 1
    with pytest.raises(ProfileError, match=rf"card-3x5\.yaml:{line}:\d+: field cell_pitch: .*unit"):
        read_profile(path)


def test_profile_id_must_match_file_name(tmp_path):
    path = tmp_path / "other.yaml"
    path.write_text((EMBOSSERS / "card-3x5.yaml").read_text())
    with pytest.raises(ProfileError, match="field id"):
        read_profile(path)


def test_em_codes_are_declared_with_fails_and_passes_examples():
    import pipeline.emboss.write  # noqa: F401  (declares the EM codes)
    from engine.registry import RULES

    em = [r for r in RULES if r.family == "EM"]
    assert [r.code for r in em] == [f"EM{n:03d}" for n in range(1, 12)]  # EM010-EM011: the rulebook volume
    for r in em:
        assert "Fails:" in r.doc and "Passes:" in r.doc, r.code


def test_build_jobs_follow_the_profile_paper():
    from pipeline.emboss.write import DEFAULT_JOBS, jobs_for

    assert jobs_for("card-3x5") == DEFAULT_JOBS == (("card-3x5", "card"), ("index-everest-d", "sheet"))
    assert jobs_for("index-everest-d") == (("index-everest-d", "sheet"),)
    assert jobs_for("index-basic-d") == (("index-basic-d", "sheet"), ("index-everest-d", "sheet"))


@pytest.mark.parametrize("name", ["index-basic-d", "enabling-technologies-romeo-60"])
def test_tractor_profiles_take_continuous_card_stock(name):
    # 76.2 mm card + 2 × 12.7 mm pin-feed strips = 101.6 mm of paper: ≥ 100 mm (Basic-D), = 4 in (Romeo 60).
    fmt = load_profile(name).card_format(76.2, 127.0)
    assert (fmt.cells_per_line, fmt.lines_per_page) == (10, 11)  # inside ¼ in card margins, as on card-3x5


@pytest.mark.parametrize("name", ["index-everest-d", "viewplus-tiger-max", "generic-40x25"])
def test_sheet_fed_profiles_take_no_loose_cards(name):
    with pytest.raises(PaperSizeError, match=r"cannot take a 76\.2 × 127 mm card: .*not card stock"):
        load_profile(name).card_format(76.2, 127.0)


def test_card_stock_strips_only_on_tractor_paper(tmp_path):
    text = (EMBOSSERS / "index-everest-d.yaml").read_text().replace("  default: {width: 11.5in, height: 11in}\n", "  default: {width: 11.5in, height: 11in}\n  card_stock_strips: 0.5in\n")
    path = tmp_path / "index-everest-d.yaml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=r"field paper: .*needs kind: tractor"):
        read_profile(path)


def test_a_landscape_card_on_the_card_stock_profile_is_told_what_would_take_it(mini):
    """A landscape 3×5 card on card-3x5 (portrait card stock) was EM008 with the hint "use a
    card-stock profile such as card-3x5", the profile that had just refused it. The hint now says
    the card's way round and size as fed. Reference: 3 in = 76.2 mm, 5 in = 127 mm (exact).
    Control: the same deck laid portrait gets the profile's 10 cells × 11 lines."""
    from pipeline.emboss.write import page_format_for

    deck, _ = mini
    profile = load_profile("card-3x5")
    portrait = page_format_for(deck, profile, "card")
    assert (portrait.width_mm, portrait.height_mm, portrait.cells_per_line, portrait.lines_per_page) == (76.2, 127.0, 10, 11)
    card = deck.game.card.model_copy(update={"orientation": "landscape"})
    landscape = deck.model_copy(update={"game": deck.game.model_copy(update={"card": card})})
    with pytest.raises(PaperSizeError) as info:
        page_format_for(landscape, profile, "card")
    assert str(info.value) == (
        "embosser profile 'card-3x5' (Card-stock embosser, 3×5 in index cards (portrait)) cannot take a 127 × 76.2 mm page: "
        "its card paper must be 76.2 mm wide and 127 mm long; the card is landscape, 127 × 76.2 mm as fed: use a card-stock "
        "profile for that card as laid (a copy of card-3x5 with its paper's width and height set so), or the sheet layout")
