"""Rules-text checks on counts (RB001–RB003) and class names (RB014, RB016): what the rulebook states versus the card data.

The claims come from :mod:`engine.checks.claims`; each finding is located at the
rulebook line and names the data location it conflicts with in ``related``.
These checks run only when a rulebook is given (``deckpress check --rulebook FILE``).
"""

from __future__ import annotations

from typing import Iterator

from engine.checks.claims import Claim, class_lists, component_lists, count_claims, deal_claims, player_claims
from engine.checks.common import Referent, at, class_referent, game_referent, plural, quote, referents_in, rulebook_of, words
from engine.checks.textscan import lines_with
from engine.findings import Severity
from engine.model import Deck
from engine.registry import Problem, rule
from engine.rulebook import Line, Rulebook


def _each_scope(deck: Deck, rb: Rulebook) -> list[Referent]:
    """The classes "each class" means: those the rulebook lists (when every listed name is a
    class of the data), else every class of the main deck. Worked out once per rulebook and game."""
    return rb.memo(f"each_scope:{id(deck)}", lambda: _find_each_scope(deck, rb))


def _find_each_scope(deck: Deck, rb: Rulebook) -> list[Referent]:
    listed: list[str] = []
    complete = True
    names = dict.fromkeys(name for cl in class_lists(rb) for name, _, _ in cl.names)  # each name once, in order
    for name in names:
        cls = next((c for c in deck.game.classes if words(c.name) == words(name)), None)
        complete = complete and cls is not None
        if cls is not None and cls.id not in listed:
            listed.append(cls.id)
    ids = listed if listed and complete else [c.id for c in deck.game.classes if c.deck == "main"]
    return [class_referent(deck, i) for i in ids]


def _referents(deck: Deck, rb: Rulebook, text: str | None) -> list[Referent]:
    """``referents_in(deck, text)`` (``[game_referent(deck)]`` for None), remembered per rulebook
    and game: many claims share their subject or sentence. Do not change the list returned."""
    known = rb.memo(f"referents:{id(deck)}", lambda: (deck, {}))[1]  # the deck kept: its id stays its own
    found = known.get(text)
    if found is None:
        found = known[text] = referents_in(deck, text) if text is not None else [game_referent(deck)]
    return found


def _measure(kind: str, ref: Referent) -> object:
    if kind == "cards":
        return ref.printed
    if kind == "unique":
        return len(ref.cards)
    return ref.copy_counts  # copies


def _agrees(kind: str, number: int, ref: Referent) -> bool:
    value = _measure(kind, ref)
    return value == [number] if kind == "copies" else value == number


def _describe(kind: str, ref: Referent) -> str:
    value = _measure(kind, ref)
    if kind == "copies":
        return f"{ref.label} {'/'.join(map(str, value))} per card"
    return f"{ref.label} {value}"


_NOUN = {"cards": ("card", "cards"), "unique": ("unique card", "unique cards"), "copies": ("copy of each card", "copies of each card")}


def _stated(c: Claim) -> str:
    """The claim's number and noun: "1 copy of each card", "14 unique cards"."""
    return plural(c.number, *_NOUN[c.kind])


def _count_problem(rb: Rulebook, deck: Deck, c: Claim) -> Problem | None:
    if c.each:
        scope = _each_scope(deck, rb)
        wrong = [r for r in scope if not _agrees(c.kind, c.number, r)]
        if not wrong:
            return None
        have = ", ".join(_describe(c.kind, r) for r in wrong)
        return Problem(
            f"the rulebook states {_stated(c)} per class ({quote(c.text)}) but the data has {have}",
            at(rb, c.line, c.column),
            "correct the rulebook or the card data (copies, cards per class) so they agree before printing",
            tuple(r.location for r in wrong),
        )
    candidates = _referents(deck, rb, c.subject) if c.subject else []
    if not candidates and not c.total:
        candidates = _referents(deck, rb, c.sentence)
    if not candidates:
        if c.kind != "cards" and not c.total:
            return None  # "10 unique cards" of nothing nameable: not a claim we can check
        candidates = _referents(deck, rb, None)
    if any(_agrees(c.kind, c.number, r) for r in candidates):
        return None
    ref = candidates[0]
    return Problem(
        f"the rulebook states {_stated(c)} ({quote(c.text)}) but the data has {_describe(c.kind, ref)}",
        at(rb, c.line, c.column),
        "correct the rulebook or the card data so they agree before printing",
        (ref.location,),
    )


@rule("RB001", "rulebook-count-mismatch", Severity.warning)
def rulebook_count_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A count the rulebook states (cards per class, copies, unique cards, totals, players) differs from the data.

    The rulebook is the user's text and the data may be the careful reading, so this is a
    warning: fix whichever is wrong. Phrasings read: "N copies of M unique cards",
    "N cards per class", "each class contains N cards", "a class deck is N cards", "N total cards", component-list
    items ("18 Artifacts"), "2-4 players", "4 playable classes: A, B, C".

    Also a class list whose count agrees with its names but not with the game ("Pick one of
    the three factions: Ember, Forest or Glacier" when the main deck has a fourth class the
    book never names).

    Fails: the rulebook says "Each class contains 2 copies of 15 unique cards" and a class
    of the data has 16 unique cards.
    Passes: every class of the data has 15 unique cards, 2 copies each.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    for c in count_claims(rb):
        problem = _count_problem(rb, deck, c)
        if problem is not None:
            yield problem
    players = deck.game.players
    for c in player_claims(rb):
        if (c.number, c.upper) != (players.min, players.max):
            yield Problem(
                f"the rulebook states {c.number}-{c.upper} players ({quote(c.text)}) but the data says {players.min}-{players.max}",
                at(rb, c.line, c.column),
                "correct players: in game.yaml or the rulebook",
                (players.where(),),
            )
    for cl in class_lists(rb):
        if cl.stated is not None and cl.stated != len(cl.names):
            yield Problem(
                f"the rulebook states {plural(cl.stated, 'class', 'classes')} but lists {len(cl.names)}: {', '.join(n for n, _, _ in cl.names)}",
                at(rb, cl.line),
                "list every class, or correct the number",
                (deck.game.where("classes"),),
            )
    yield from _short_class_lists(deck, rb)
    total = deck.total_copies
    for lst in component_lists(rb):
        if sum(n for _, n, _ in lst.items) == lst.total and lst.total != total:
            yield Problem(
                f"the rulebook's component list states {plural(lst.total, 'card')} but the data has {total}",
                at(rb, lst.line),
                "correct the component list or the card data",
                (game_referent(deck).location,),
            )


def _short_class_lists(deck: Deck, rb: Rulebook) -> Iterator[Problem]:
    """A class list that states how many classes there are, names only classes of the data, and
    leaves out main-deck classes the book never names ("Pick one of the three
    factions: Ember, Forest or Glacier" in a game of four): the count and the list agree, the
    game does not. Reported once, at the first such list."""
    lists = class_lists(rb)
    by_words = {tuple(words(c.name)): c for c in deck.game.classes}
    named = {tuple(words(n)) for cl in lists for n, _, _ in cl.names}
    left_out = [c for c in deck.game.classes if c.deck == "main" and tuple(words(c.name)) not in named
                and not lines_with(rb, c.name.lower())]  # a class the book names elsewhere ("4 Enchant Cards") is not left out
    if not left_out:
        return
    for cl in lists:
        if cl.stated is not None and cl.stated == len(cl.names) and all(tuple(words(n)) in by_words for n, _, _ in cl.names):
            yield Problem(
                f"the rulebook states {plural(cl.stated, 'class', 'classes')} ({quote(cl.text)}) but the data's main deck has "
                f"{len([c for c in deck.game.classes if c.deck == 'main'])}; never named: {', '.join(c.name for c in left_out)}",
                at(rb, cl.line),
                "list every class, or correct the number (or the classes in game.yaml)",
                (deck.game.where("classes"),),
            )
            return


@rule("RB002", "component-list-sum-mismatch", Severity.warning)
def component_list_sum_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A component list whose items do not add up to the total it states.

    A print shop counts the box against this list; a list that contradicts itself means
    one of its numbers is wrong. The message also gives the data's total.

    Lists read: bullets under a stated total, and one sentence with the items after a colon
    or in brackets ("The game comes with 26 cards (8 Coral, 8 Kelp and 8 Shell)"; bracketed
    items must be named, so "7 cards (5 in a 2-player game, ...)" is not a list).

    Fails: "58 cards" followed by "• 18 Artifacts", "• 10 Wizards", "• 10 Potions",
    "• 10 Druids", "• 10 Shapeshifters", "• 2 overview cards" (they add up to 60).
    Passes: "60 cards" followed by the same items.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    for lst in component_lists(rb):
        added = sum(n for _, n, _ in lst.items)
        if added != lst.total:
            parts = " + ".join(str(n) for _, n, _ in lst.items)
            first, last = lst.items[0][0].number, lst.items[-1][0].number
            where = f"line {first}" if first == last else f"lines {first}-{last}"  # a one-sentence list is one line
            items = tuple(dict.fromkeys(at(rb, ln) for ln, _, _ in lst.items))
            yield Problem(
                f"the component list states {plural(lst.total, 'card')} but its items add up to {added} ({parts}, {where}); the data has {deck.total_copies}",
                at(rb, lst.line),
                "correct the stated total or the item that is wrong",
                items + (game_referent(deck).location,),
            )


@rule("RB003", "rulebook-deal-mismatch", Severity.warning)
def rulebook_deal_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """The cards each player is dealt, as the rulebook states them, differ from the data's deals.

    The player count comes from the section ("3 PLAYERS", "2-Player Directions"); a deal
    stated with no player count must match one of the data's deals.

    Fails: under "4 PLAYERS" the rulebook says "Each player should have a total of 15 cards"
    and the data has ``deals: {4: 14}``.
    Passes: the data has ``deals: {4: 15}``.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    deals = deck.game.composition.deals
    where = deck.game.composition.where("deals") if deck.game.composition.where("deals").file else deck.game.where()
    for c in deal_claims(rb):
        if c.players is not None:
            have = deals.get(c.players)
            if have == c.number:
                continue
            data = f"{have} each" if have is not None else "no deal"
            message = f"the rulebook deals {plural(c.number, 'card')} to each of {c.players} players ({quote(c.text)}) but the data has {data} for {c.players} players"
        elif not deals or c.number in deals.values():
            continue
        else:
            stated = ", ".join(f"{p} players: {n}" for p, n in sorted(deals.items()))
            message = f"the rulebook deals {plural(c.number, 'card')} to each player ({quote(c.text)}) but no deal in the data has {c.number} ({stated})"
        yield Problem(message, at(rb, c.line, c.column), "correct composition.deals in game.yaml or the rulebook", (where,))


def _listed_classes(deck: Deck, rb: Rulebook) -> tuple[dict[tuple[str, ...], list[tuple[str, Line, int]]], set[tuple[str, ...]]]:
    """Class names in the rulebook's class lists, grouped by name (words, plural "s" dropped),
    each with its mentions in reading order; and the set of those names the data has."""
    known = {tuple(words(c.name)) for c in deck.game.classes} | {tuple(words(c.id.replace("-", " "))) for c in deck.game.classes}
    named: dict[tuple[str, ...], list[tuple[str, Line, int]]] = {}
    for cl in class_lists(rb):
        for name, line, column in cl.names:
            named.setdefault(tuple(words(name)), []).append((name, line, column))
    return named, known & set(named)


def _lines(mentions: list[tuple[str, Line, int]]) -> str:
    numbers = list(dict.fromkeys(line.number for _, line, _ in mentions))
    return f"line{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


@rule("RB014", "rulebook-class-not-in-game", Severity.warning)
def rulebook_class_not_in_game(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook lists a class (faction) by a name that no class of the data has.

    Class names are printed on cards and read in braille; a name that differs between the
    rulebook and the cards confuses players. Reported once per name, at its first mention,
    with the other mentions in ``related``.

    Fails: "4 playable classes: Ember, Forest, Glacier, Spirt" (no class is named Spirt).
    Passes: "4 playable classes: Ember, Forest, Glacier, Spirit".
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    named, known = _listed_classes(deck, rb)
    names = ", ".join(c.name for c in deck.game.classes)
    for key, mentions in named.items():
        if key in known:
            continue
        name, line, column = mentions[0]
        yield Problem(
            f"the rulebook names the class '{name}' ({_lines(mentions)}), which the data does not have (classes: {names})",
            at(rb, line, column),
            "correct the spelling in the rulebook or add the class to game.yaml",
            tuple(at(rb, ln, col) for _, ln, col in mentions[1:]) + (deck.game.where("classes"),),
        )


@rule("RB016", "rulebook-for-another-game", Severity.warning)
def rulebook_for_another_game(deck: Deck, ctx) -> Iterator[Problem]:
    """Most class names the rulebook lists are not classes of the game: the rulebook may be another game's.

    Given the wrong ``--rulebook``, every count, die and keyword check disagrees with the
    data; this one finding names the likely cause. It needs at least two listed class names,
    more than half of them unknown to the data.

    Fails: the Apprentice data (Ember, Forest, Glacier, Spirit) checked against a rulebook
    listing "4 classes: Dragon, Gnome, Phoenix, Unicorn".
    Passes: the same data against its own rulebook, or one with a single misspelt class.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    named, known = _listed_classes(deck, rb)
    unknown = [mentions for key, mentions in named.items() if key not in known]
    if len(unknown) >= 2 and len(unknown) * 2 > len(named):
        first = min((m[0] for m in unknown), key=lambda x: (x[1].number, x[2]))
        listed = ", ".join(m[0][0] for m in unknown)
        yield Problem(
            f"{len(unknown)} of the {len(named)} class names the rulebook lists ({listed}) are not classes of "
            f"{deck.game.title} ({', '.join(c.name for c in deck.game.classes)}); the rulebook may be for another game",
            at(rb, first[1], first[2]),
            f"check that --rulebook names {deck.game.title}'s rulebook",
            (deck.game.where("classes"),),
        )
