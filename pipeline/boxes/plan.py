"""What each tuck box holds and says: sizes from the cards, the print text, the braille, and the box findings.

:func:`plan_boxes` turns the game's ``packaging`` (:mod:`engine.boxes`) into one
:class:`BoxPlan` per box: the cards it holds (copies counted, of the print run's deck), its
inside size (card trim + clearance; cards × caliper + clearance), the dieline
(:mod:`pipeline.boxes.geometry`), the texts (game title, class or deck name, card count,
players, age), the colours (the class palette), the quickstart URL and the braille
(title, name and contents line, UEB through liblouis at the game's grade).

Braille is kept one cell (the profile's cell pitch, 6.2 mm at spec800) from every fold and
cut line, measured from each dot's edge: a finger reads across a fold badly and a die
wanders. The front panel always carries it; the top lid too when the braille fits there.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.boxes import MAIN_DECK, BoxSpec
from engine.findings import Finding, Severity
from engine.model import CardClass, Deck, Game, Palette
from engine.registry import declare
from engine.units import pt_to_mm
from pipeline.archive.quickstart import quickstart_url
from pipeline.boxes.geometry import Dieline, Rect, tuck_box
from pipeline.braille.geometry import GeometryProfile, capacity
from pipeline.braille.layout import MIN_CELLS_PER_LINE, wrap
from pipeline.braille.translate import translate

PANEL_TOO_SMALL_PRINT = declare(
    "BX002",
    "box-panel-too-small-for-print",
    Severity.error,
    """A box's front panel cannot hold its title or its name in large print (18 pt at least).

    The title gets two lines and the class or deck name two lines at 18 pt or more, within
    4 mm of the panel's folds.

    Fails: a box for cards 1 in wide, whose front is too narrow for "Apprentice ICG" at 18 pt.
    Passes: the shipped 3×5 in boxes (front 78.2 mm wide: "Apprentice ICG" prints at 28 pt, the
    expansion's long title at 19 pt on two lines).
    """,
)
PANEL_TOO_SMALL_BRAILLE = declare(
    "BX003",
    "box-panel-too-small-for-braille",
    Severity.error,
    """A box's front panel cannot hold its braille (title, name and contents line) one cell clear of its edges.

    Fails: a front panel 20 mm wide (fewer than 3 cells a line fit one cell inside its folds).
    Passes: the shipped boxes: 10 cells × 10 lines fit, 4 to 7 lines are needed.
    """,
)
BRAILLE_NEAR_FOLD = declare(
    "BX004",
    "box-braille-near-fold",
    Severity.error,
    """A braille dot on a box lies less than one cell (the profile's cell pitch) from a fold or cut line.

    Fails: braille placed 2 mm from the front's side fold.
    Passes: the shipped boxes: every dot edge at least 6.2 mm (spec800) from every fold and cut line.
    """,
)
QR_CROSSES_FOLD = declare(
    "BX005",
    "box-qr-crosses-fold",
    Severity.error,
    """A box's quickstart QR code or its quiet zone crosses (or touches) a fold or cut line.

    A fold through the quiet zone bends it out of the code's plane and phones stop reading it.

    Fails: a back panel narrower than the QR box.
    Passes: the shipped boxes: the 30 mm QR box sits on the back panel, 24 mm from its folds.
    """,
)
BOX_CONTRAST = declare(
    "BX006",
    "box-text-contrast-too-low",
    Severity.error,
    """A box's text colour on its ground reaches less than 7:1 as printed (WCAG 2, through the printing target's profile).

    Fails: a box wearing a palette with white text on a mid-grey ground.
    Passes: the shipped boxes (the class palettes, 7:1 or more on FOGRA39).
    """,
)

BOX_CANNOT_CLOSE = declare(
    "BX008",
    "box-cannot-close",
    Severity.error,
    """A box's cards stack deeper than the box is wide (its lid cannot hold a tuck flap) or under 5 mm deep; no dieline is drawn.

    The depth is the printed cards (copies counted) × the caliper + the clearance.

    Fails: a class deck of 600 cards at 0.45 mm (272 mm deep, 78.2 mm wide); 4 cards (3.8 mm deep).
    Passes: the shipped boxes (the deepest, Enchant's 60 cards, is 29 mm deep and 78.2 mm wide).
    """,
)

#: Large print floor, pt (the cards' floor, DESIGN.md §4).
MIN_PRINT_PT = 18.0
#: Space kept between print and a fold or cut line, mm.
PRINT_MARGIN_MM = 4.0
#: The QR box on the back (code + 4-module quiet zone), mm: a 33-module URL gets 0.73 mm modules.
QR_BOX_MM = 30.0


@dataclass(frozen=True)
class BoxPlan:
    """One box to make (module docs). Lengths in mm; ``braille_front``/``braille_lid`` are
    ``(lines, origin)`` with the origin of the braille box in mm from the dieline's top-left,
    or None when the braille does not fit there."""

    spec: BoxSpec
    box_id: str
    title: str
    name: str
    emblem: str
    indicator: str
    palette: Palette
    cards: int
    info: tuple[str, ...]
    url: str
    dieline: Dieline
    profile: GeometryProfile
    braille: tuple[str, ...]
    braille_front: tuple[tuple[str, ...], tuple[float, float]] | None
    braille_lid: tuple[tuple[str, ...], tuple[float, float]] | None
    qr: Rect


@dataclass(frozen=True)
class BoxDeck:
    """All the boxes read of a deck: the game and each class's printed cards of the print run
    (``copies``: ``(class id, copies counted)`` in the game's class order). The build keeps the
    boxes while these are unchanged (:mod:`pipeline.build.kept_stages`): no other card value reaches them."""

    game: Game
    copies: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, deck: Deck) -> BoxDeck:
        """The box view of ``deck`` (:meth:`engine.model.Deck.copies_of` per class)."""
        return cls(deck.game, tuple((c.id, deck.copies_of(c.id)) for c in deck.game.classes))

    def copies_of(self, class_id: str) -> int:
        """Printed cards (copies counted) of one class; 0 for a class the game does not have."""
        return dict(self.copies).get(class_id, 0)


def held_classes(deck: Deck | BoxDeck, spec: BoxSpec) -> list[CardClass]:
    """The classes whose cards the box holds: its class, or every class of its deck
    (a class's ``deck:``, or ``composition.decks[deck].classes``)."""
    game = deck.game
    if spec.class_id is not None:
        return [c for c in game.classes if c.id == spec.class_id]
    listed = game.composition.decks.get(spec.deck or MAIN_DECK)
    ids = set(listed.classes) if listed else set()
    return [c for c in game.classes if c.deck == spec.deck or c.id in ids]


def _wearing(deck: Deck | BoxDeck, spec: BoxSpec, classes: list[CardClass]) -> CardClass | None:
    return deck.game.class_by_id(spec.colours) if spec.colours else (classes[0] if classes else None)


def braille_zone(panel: Rect, profile: GeometryProfile, top_cut: float = 0.0) -> Rect:
    """The part of a panel braille may use: one cell (cell pitch) inside every edge, measured from
    the dot edges (a dot's centre sits a radius further in), and below ``top_cut`` mm from the top (the thumb notch)."""
    zone = panel.inset(profile.cell_pitch)
    return Rect(zone.x, zone.y + top_cut, zone.w, max(zone.h - top_cut, 0.0))


def lay_braille(phrases: list[str], zone: Rect, profile: GeometryProfile, grade: int,
                bottom: bool = False) -> tuple[tuple[str, ...], tuple[float, float]] | None:
    """Wrap the phrases' cells into the zone; ``(lines, origin mm)`` or None when they do not all fit.
    ``bottom`` puts the block at the foot of the zone, below the title's print and well clear of the thumb notch."""
    cells, lines_available = capacity(zone.w, zone.h, profile)
    if cells < MIN_CELLS_PER_LINE or lines_available < 1:
        return None
    lines: list[str] = []
    for phrase in phrases:  # each phrase on its own line(s): title, name, contents
        lines += wrap([phrase], cells, grade)[0]
    if len(lines) > lines_available:
        return None
    height = 2 * profile.dot_pitch + profile.dot_base + (len(lines) - 1) * profile.line_pitch
    y = zone.y + zone.h - height if bottom else zone.y
    return tuple(lines), (zone.x, y)


def plan_box(deck: Deck | BoxDeck, spec: BoxSpec, profile: GeometryProfile) -> tuple[BoxPlan | None, list[Finding]]:
    """The :class:`BoxPlan` of one box and its BX003/BX008 findings (located at the box's
    definition); None when the box cannot be drawn (BX003, BX008)."""
    game, packaging = deck.game, deck.game.packaging
    classes = held_classes(deck, spec)
    wearing = _wearing(deck, spec, classes)
    if wearing is None or packaging is None:
        return None, []  # BX001 at load time already named the class or deck
    cards = sum(deck.copies_of(c.id) for c in classes)
    clearance, caliper = pt_to_mm(packaging.clearance), pt_to_mm(packaging.caliper)
    try:
        line = tuck_box(pt_to_mm(game.card.width) + clearance, pt_to_mm(game.card.height) + clearance,
                        cards * caliper + clearance)
    except ValueError as exc:  # a deck too deep for a tuck box is bad data, not a crash
        return None, [BOX_CANNOT_CLOSE.finding(f"box {spec.box_id!r} ({cards} cards): {exc}", spec.where(),
                                               "a box holds 5 mm up to its width of cards: split a large deck into several boxes (a `deck:` or `class:` each), "
                                               "box a small one with another, or check the copies and the caliper")]
    name = spec.name or (classes[0].name if len(classes) == 1 else wearing.name)
    contents = f"{cards} cards"
    info = (contents, f"{game.players.min}\u2013{game.players.max} players" if game.players.min != game.players.max
            else f"{game.players.min} players") + ((f"Ages {packaging.age}",) if packaging.age else ())
    grade = game.braille.grade
    phrases = [translate(t, grade) for t in (game.title, name, contents)]
    front = line.panels["front"]
    zone = braille_zone(front, profile, notch_depth(line))
    braille_front = lay_braille(phrases, zone, profile, grade, bottom=True)
    lid_zone = braille_zone(line.panels["top-lid"], profile)
    # The lid is shallow: the whole braille, else title and name, else the title alone, else none.
    braille_lid = next((laid for subset in (phrases, phrases[:2], phrases[:1])
                        if (laid := lay_braille(subset, lid_zone, profile, grade)) is not None), None)
    back = line.panels["back"]
    qr = Rect(back.x + (back.w - QR_BOX_MM) / 2, back.y + back.h * 0.42, QR_BOX_MM, QR_BOX_MM)
    findings: list[Finding] = []
    if braille_front is None:
        cells, lines = capacity(zone.w, zone.h, profile)
        findings.append(PANEL_TOO_SMALL_BRAILLE.finding(
            f"box {spec.box_id!r}: the front panel ({front.w:.1f} × {front.h:.1f} mm) holds {cells} cells × {lines} lines "
            f"one cell inside its edges; its braille needs {sum(-(-len(p) // max(cells, 1)) for p in phrases)} lines",
            spec.where(), "make the cards (and so the box) larger, or shorten the game title"))
        return None, findings
    plan = BoxPlan(spec, spec.box_id, game.title, name, wearing.emblem, wearing.indicator, wearing.palette, cards, info,
                   quickstart_url(game), line, profile, tuple(phrases), braille_front, braille_lid, qr)
    return plan, findings


def notch_depth(line: Dieline) -> float:
    """How far the thumb notch reaches into the front panel from its top edge, mm."""
    front = line.panels["front"]
    return max((p[1] - front.y for p in line.cut
                if front.x < p[0] < front.x + front.w and front.y < p[1] < front.y + front.h), default=0.0)


def plan_boxes(deck: Deck | BoxDeck, profile: GeometryProfile) -> tuple[list[BoxPlan], list[Finding]]:
    """Every box of the game's ``packaging`` (in data order) that can be drawn, and the findings
    of those that cannot; ``([], [])`` for a game without packaging. A box holding no card of
    the print run (the expansion's class boxes in its own run) is left out."""
    if deck.game.packaging is None:
        return [], []
    plans: list[BoxPlan] = []
    findings: list[Finding] = []
    for spec in deck.game.packaging.boxes:
        if not any(deck.copies_of(c.id) for c in held_classes(deck, spec)):
            continue
        plan, found = plan_box(deck, spec, profile)
        findings += found
        if plan is not None:
            plans.append(plan)
    return plans, findings
