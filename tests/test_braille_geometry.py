"""Dot geometry: profiles, capacity of a box, dot centres in mm (NLS Specification 800 §3.2 numbers)."""

from __future__ import annotations

import pytest

from pipeline.braille.geometry import PROFILES, capacity, dot_centres, get_profile
from pipeline.common.layout import load_layout

SPEC800 = get_profile("spec800")


def test_profiles_and_their_sources():
    assert set(PROFILES) == {"spec800", "ada-signage", "marburg-medium", "california"}
    assert "Specification 800" in SPEC800.source
    assert "703.3" in PROFILES["ada-signage"].source
    assert "11B-703.3" in PROFILES["california"].source
    assert "Marburg" in PROFILES["marburg-medium"].source
    assert (SPEC800.dot_base, SPEC800.dot_height, SPEC800.dot_pitch, SPEC800.cell_pitch, SPEC800.line_pitch) == (1.44, 0.48, 2.34, 6.2, 10.16)


def test_unknown_profile_lists_the_known_ones():
    with pytest.raises(ValueError, match="spec800, ada-signage"):
        get_profile("spec-800")


def test_dot_centres_of_capital_f_at_spec800():
    # ⠠⠋: dot 6 in the first cell, dots 1, 2, 4 in the second. The box's top-left is the origin;
    # dot 1 sits half a dot base (0.72 mm) inside it. By hand: dot pitch 2.34, cell pitch 6.2 mm.
    got = [(d.cell, d.dot, d.x, d.y) for d in dot_centres(["⠠⠋"], SPEC800)]
    want = [(0, 6, 0.72 + 2.34, 0.72 + 2 * 2.34), (1, 1, 0.72 + 6.2, 0.72), (1, 2, 0.72 + 6.2, 0.72 + 2.34), (1, 4, 0.72 + 6.2 + 2.34, 0.72)]
    assert [(c, d) for c, d, _, _ in got] == [(c, d) for c, d, _, _ in want]
    for (_, _, x, y), (_, _, wx, wy) in zip(got, want):
        assert x == pytest.approx(wx, abs=0.01) and y == pytest.approx(wy, abs=0.01)
    assert (got[0][2], got[0][3]) == pytest.approx((3.06, 5.40), abs=0.01)


def test_second_line_is_one_line_pitch_down():
    dots = dot_centres(["⠁", "⠁"], SPEC800, (10.0, 20.0))
    assert [(d.line, round(d.x, 2), round(d.y, 2)) for d in dots] == [(0, 10.72, 20.72), (1, 10.72, 30.88)]


def test_capacity_of_a_quarter_inch_margin_card_and_the_shipped_box():
    assert capacity(63.5, 114.3, SPEC800) == (10, 11)  # DESIGN.md §3: 10 × 11 portrait
    assert capacity(114.3, 63.5, SPEC800) == (18, 6)  # and 18 × 6 landscape
    x, y, w, h = load_layout().braille.mm()
    assert capacity(w, h, SPEC800) == (10, 9)


def test_capacity_exact_fit_boundary():
    # 10 cells need 9 × 6.2 + 2.34 + 1.44 = 59.58 mm across.
    assert capacity(59.58, 6.12, SPEC800) == (10, 1)
    assert capacity(59.57, 6.11, SPEC800) == (9, 0)


def test_dot_centres_made_once_per_place_are_the_formula_every_time():
    """dot_centres reuses a cell's Dot objects per place in the box (issue 22); every call must still give
    origin + dot radius + cell/line pitch + dot offset, for any profile, origin and order of calls."""
    import random

    from pipeline.braille.geometry import Dot, dot_offset

    rng = random.Random(7)
    for _ in range(60):
        profile = rng.choice(list(PROFILES.values()))
        origin = rng.choice([(0.0, 0.0), (6.35, 40.5), (rng.uniform(0, 20), rng.uniform(0, 50))])
        lines = ["".join(chr(0x2800 + rng.randrange(256)) for _ in range(rng.randrange(1, 8))) for _ in range(rng.randrange(1, 5))]
        want = [Dot(origin[0] + profile.dot_radius + ci * profile.cell_pitch + dot_offset(d, profile)[0],
                    origin[1] + profile.dot_radius + li * profile.line_pitch + dot_offset(d, profile)[1], li, ci, d)
                for li, line in enumerate(lines) for ci, cell in enumerate(line)
                for d in range(1, 9) if (ord(cell) - 0x2800) & (1 << (d - 1))]
        assert dot_centres(lines, profile, origin) == want
        assert dot_centres(tuple(lines), profile, origin) == want  # from the remembered cells
    with pytest.raises(ValueError, match="not a braille cell"):
        dot_centres(["⠁a"], PROFILES["spec800"])
