"""Load a game folder (``game.yaml`` + ``cards.yaml``) into a validated :class:`Deck`.

- Safe YAML only (:mod:`engine.yamlsource`): no object construction, aliases bounded.
- Every model gets the file, line and column of itself and its fields, and pydantic's
  errors become located findings (:mod:`engine.validation`).
- An expansion (``extends:`` in game.yaml) is resolved here: the base game's
  classes, dice and keywords are merged with the expansion's (same id: the
  expansion's wins), other top-level keys of the expansion replace the base's,
  and the cards are the base cards minus ``extends.remove`` plus the expansion's.
- Bad input raises :class:`DataError` carrying findings (codes ``DA…``) that name
  file, line, column and field. ``DataError.unreadable`` is True when a file is
  missing or is not YAML at all (the CLI exits 2), False for schema errors (exit 1).
"""

from __future__ import annotations

import difflib
import stat
from pathlib import Path

from pydantic import ValidationError

from engine.boxes import deck_names, reference_findings
from engine.findings import Finding, Location, Severity
from engine.gcpause import collector_paused
from engine.model import Card, CardsFile, Deck, Game
from engine.registry import declare
from engine.validation import INVALID_VALUE, attach_locations, schema_findings
from engine.cardrows import card_id as _card_id, row_id as _row_id, validated_row as _validated_row
from engine.yamlsource import RowHook, Source, YamlProblem, load_yaml

from engine.paths import CARDS_FILE, GAME_FILE, display_path, find_games  # noqa: F401  (display_path, find_games re-exported)

from engine.limits import MAX_CARDS, MAX_FILE_BYTES, MAX_PRINTED_CARDS
from engine.loadhints import first_bad_byte, folder_hint, missing_file_hint

YAML_SYNTAX = declare(
    "DA001",
    "yaml-syntax-error",
    Severity.error,
    """A card data file is not valid YAML (or repeats a key, or uses an alias bomb).

    Fails: ``name: "Forest Apprentice`` (the quote is never closed).
    Passes: ``name: "Forest Apprentice"``.
    """,
)
UNREADABLE_FILE = declare(
    "DA005",
    "unreadable-data-file",
    Severity.error,
    """A game folder lacks game.yaml or cards.yaml, or a data file cannot be read as UTF-8 text.

    Fails: a folder holding only cards.yaml; a cards.yaml saved as a spreadsheet or in Latin-1;
    a data file that is not a regular file (a link to /dev/zero, a FIFO: refused unread).
    Passes: a folder holding game.yaml and cards.yaml, both UTF-8 text.
    """,
)
BAD_REMOVE = declare(
    "DA006",
    "removed-card-not-in-base",
    Severity.error,
    """An expansion removes a card id that its base game does not have.

    Fails: ``extends: {game: ../apprentice, remove: [ember-rangr]}``.
    Passes: ``remove: [ember-ranger]`` where the base game has that card.
    """,
)
NO_CARDS = declare(
    "DA007",
    "no-cards",
    Severity.error,
    """A base game's cards.yaml holds no cards (an empty file, or ``cards: []``).

    Every count check would fail at once; this says the one thing that is wrong. An
    expansion may add no cards of its own (it can only remove or change rules).

    Fails: ``cards: []`` in a game without ``extends:``.
    Passes: ``cards:`` listing at least one card.
    """,
)

_MERGED_LISTS = {"classes": "id", "dice": "id", "keywords": "name"}


class DataError(Exception):
    """Card data that cannot be loaded. ``findings`` say where and why; ``unreadable`` selects exit 2."""

    def __init__(self, findings: list[Finding], unreadable: bool) -> None:
        super().__init__("; ".join(f.message for f in findings))
        self.findings = findings
        self.unreadable = unreadable


def _read(path: Path, rows: tuple[str, RowHook] | None = None) -> tuple[object, Source]:
    """Read and parse one YAML file; raise DataError (unreadable) naming the path. ``rows``: as
    :func:`engine.yamlsource.load_yaml`'s (the card rows, validated as they are read)."""
    shown = display_path(path)
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # a device (/dev/zero), FIFO or folder: never ends, blocks or is no text
            raise DataError([UNREADABLE_FILE.finding(f"{path.name} is not a regular file", Location(shown),
                                                     f"make {path.name} a plain text file (YAML)")], unreadable=True)
        text = ""
        if status.st_size <= MAX_FILE_BYTES:
            with path.open(encoding="utf-8") as fh:  # universal newlines, as read_text
                text = fh.read(MAX_FILE_BYTES + 1)  # the limit holds for what is read too (a file growing as it is read)
        if status.st_size > MAX_FILE_BYTES or len(text) > MAX_FILE_BYTES:
            raise DataError(
                [UNREADABLE_FILE.finding(f"{path.name} is larger than {MAX_FILE_BYTES} bytes", Location(shown), "split the data")],
                unreadable=True,
            )
    except FileNotFoundError:
        raise DataError(
            [UNREADABLE_FILE.finding(f"{path.name} not found in {display_path(path.parent)}", Location(shown), missing_file_hint(path))],
            unreadable=True,
        ) from None
    except UnicodeDecodeError:
        raise DataError([_not_utf8(path, shown)], unreadable=True) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise DataError([UNREADABLE_FILE.finding(f"cannot read {path.name}: {reason}", Location(shown), "check that it is a file and that you may read it")], unreadable=True) from None
    if "\x00" in text:  # a binary file, or one NUL typed into text: either way say where the first one is
        at = text.index("\x00")
        line, column = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
        finding = UNREADABLE_FILE.finding(
            f"{path.name} holds a NUL character (U+0000) at line {line}, column {column}: a binary file, or a stray control character",
            Location(shown, line, column),
            f"save {path.name} as plain UTF-8 text (YAML); a spreadsheet or word-processor file cannot be read",
        )
        raise DataError([finding], unreadable=True)
    try:
        return load_yaml(text, shown, rows)
    except YamlProblem as exc:
        # A value problem (the YAML parsed, one value is impossible) is a DA003 like any (exit 1);
        # a duplicate key or a syntax error makes the file unreadable (DA001, exit 2). In file order.
        problems = sorted((exc, *exc.also), key=lambda p: (p.location.line or 0, p.location.column or 0))
        findings = [(INVALID_VALUE if p.kind == "value" else YAML_SYNTAX).finding(p.message, p.location, p.hint) for p in problems]
        raise DataError(findings, unreadable=any(p.kind != "value" for p in problems)) from None


def _not_utf8(path: Path, shown: str) -> Finding:
    """DA005 for a file that is not UTF-8, at the line and column of its first bad byte."""
    bad = first_bad_byte(path, MAX_FILE_BYTES + 1)
    where = Location(shown, bad[0], bad[1]) if bad else Location(shown)
    at = f"byte 0x{bad[2]:02X} at line {bad[0]}, column {bad[1]}" if bad else "a byte"
    return UNREADABLE_FILE.finding(
        f"{path.name} is not UTF-8 text ({at} cannot be read; a binary file or another encoding, such as Latin-1)",
        where,
        f"save {path.name} as plain UTF-8 text (YAML); a spreadsheet or word-processor file cannot be read",
    )


def _holds_cards(data: object) -> bool:
    """False for an empty cards.yaml, ``cards:`` with nothing, or ``cards: []``; True otherwise
    (anything else malformed is left to the schema's findings)."""
    if data is None or data == {}:
        return False
    return not (isinstance(data, dict) and data.get("cards") in (None, []) and "cards" in data)


def _merge_game(base: dict, base_src: Source, ext: dict, ext_src: Source) -> tuple[dict, Source]:
    """Merge an expansion's game.yaml data over its base game's (see module docs)."""
    data = dict(base)
    src = Source(ext_src.at, dict(base_src.keys), dict(base_src.items))
    for key, value in ext.items():
        id_key = _MERGED_LISTS.get(key)
        if id_key and isinstance(value, list) and isinstance(base.get(key), list):
            merged = list(base[key])
            merged_src = [base_src.items[key].child(i) for i in range(len(merged))]
            replaced: set[int] = set()  # base slots the expansion already replaced: a second item with that id is a duplicate
            for j, item in enumerate(value):
                item_src = ext_src.items[key].child(j)
                ident = item.get(id_key) if isinstance(item, dict) else None
                slot = next((i for i, old in enumerate(base[key]) if i not in replaced and isinstance(old, dict) and ident is not None and old.get(id_key) == ident), None)
                if slot is None:
                    merged.append(item)
                    merged_src.append(item_src)
                else:
                    merged[slot] = item
                    merged_src[slot] = item_src
                    replaced.add(slot)
            data[key] = merged
            src.items[key] = Source(ext_src.items[key].at, {}, dict(enumerate(merged_src)))
        else:
            data[key] = value
            src.items[key] = ext_src.items[key]
        src.keys[key] = ext_src.keys[key]
    return data, src


#: One cards.yaml to load: its data, source tree, game folder, and ``no_cards``: True for
#: a base game's file that holds no cards as written (DA007; an expansion may add none).
CardFile = tuple[object, Source, Path, bool]


def _read_game(folder: Path, seen: tuple[Path, ...] = (), own_cards: tuple[object, Source] | None = None) -> tuple[dict, Source, list[CardFile]]:
    """Read game.yaml, resolving ``extends`` recursively.

    Returns the merged game data, its source tree, and the card files to load in
    order as :data:`CardFile` tuples with removals already applied. ``own_cards`` stands in
    for this folder's cards.yaml (data and locations), which is then not read.
    """
    folder = folder.resolve()
    game_data, game_src = _read(folder / GAME_FILE)
    cards_data, cards_src = own_cards if own_cards is not None else _read(folder / CARDS_FILE, ("cards", _validated_row))
    if not isinstance(game_data, dict):
        raise DataError([INVALID_VALUE.finding("game.yaml must be a mapping of keys to values", game_src.at, "start with 'id:' and 'title:'")], unreadable=False)
    extends = game_data.get("extends")
    if not isinstance(extends, dict) or "game" not in extends:
        return game_data, game_src, [(cards_data, cards_src, folder, not _holds_cards(cards_data))]
    base_dir = (folder / str(extends["game"])).resolve()
    if base_dir in seen + (folder,):
        value_src = game_src.child("extends").child("game") if game_src.child("extends") is not None else None
        chain = " -> ".join(p.name for p in seen + (folder, base_dir))
        raise DataError([INVALID_VALUE.finding(
            f"'extends' makes a loop ({chain}): a game cannot be its own base",
            value_src.at if value_src is not None else game_src.at,
            "an expansion extends a base game that extends nothing, or another expansion's chain that ends in one")], unreadable=False)
    if not (base_dir / GAME_FILE).is_file():
        # Exit 1, not 2: game.yaml was read; the mistake is one value in it, at a known line
        # (like any DA003). Exit 2 is for a file that cannot be read at all.
        raise DataError([_not_a_game_folder(folder, str(extends["game"]), base_dir, game_src)], unreadable=False)
    base_game, base_src, base_cards = _read_game(base_dir, seen + (folder,))
    remove = extends.get("remove") or []
    remove_src = game_src.child("extends").child("remove") if game_src.child("extends") and game_src.child("extends").child("remove") else None
    pending = set(remove) if isinstance(remove, list) else set()
    kept: list[CardFile] = []
    for data, src, where, empty in base_cards:
        if isinstance(data, dict) and isinstance(data.get("cards"), list):
            rows = [(c, src.child("cards").child(i)) for i, c in enumerate(data["cards"])]
            keep = [(c, s) for c, s in rows if _row_id(c) not in pending]
            pending -= {_row_id(c) for c, _ in rows}
            new_src = Source(src.at, dict(src.keys), dict(src.items))
            new_src.items["cards"] = Source(src.child("cards").at, {}, {i: s for i, (_, s) in enumerate(keep)})
            kept.append(({**data, "cards": [c for c, _ in keep]}, new_src, where, empty))
        else:
            kept.append((data, src, where, empty))
    if pending:
        findings = []
        for i, card_id in enumerate(remove):
            if card_id in pending:
                at = remove_src.child(i).at if remove_src and remove_src.child(i) else game_src.at
                findings.append(BAD_REMOVE.finding(f"removes '{card_id}', which the base game {base_dir.name} does not have", at, "check the card id in the base game's cards.yaml"))
        raise DataError(findings, unreadable=False)
    merged, merged_src = _merge_game(base_game, base_src, game_data, game_src)
    return merged, merged_src, kept + [(cards_data, cards_src, folder, False)]


def _not_a_game_folder(folder: Path, value: str, base_dir: Path, game_src: Source) -> Finding:
    """DA003 at the ``extends.game`` value that names no game folder, with the folders beside it."""
    ext_src = game_src.child("extends")
    value_src = ext_src.child("game") if ext_src is not None else None
    parent = base_dir.parent
    games = sorted(p.name for p in parent.iterdir() if p != folder and (p / GAME_FILE).is_file()) if parent.is_dir() else []
    guess = difflib.get_close_matches(base_dir.name, games, n=1)
    if guess:
        hint = f"did you mean '{(Path(value).parent / guess[0]).as_posix()}'? (game folders there: {', '.join(games)})"
    elif games:
        hint = f"game folders there: {', '.join(games)}"
    else:
        hint = "extends.game is the base game's folder, relative to this game's folder, e.g. ../apprentice"
    return INVALID_VALUE.finding(
        f"extends.game {value!r} is not a game folder (no {GAME_FILE} in {display_path(base_dir)})",
        value_src.at if value_src is not None else game_src.at,
        hint,
    )


def load_game(folder: str | Path, cards: tuple[object, Source] | None = None) -> Deck:
    """Load and validate a game folder into a :class:`Deck` (expansions resolved).

    ``cards`` replaces the folder's own cards.yaml with data already read elsewhere and its
    locations (``deckpress import`` checks a spreadsheet's cards, located at their cells,
    before it writes cards.yaml); the base game's cards are read as usual.
    Raises :class:`DataError` with located findings for any bad input; the data
    is never partly loaded.
    """
    with collector_paused():  # the load builds ~40 long-lived objects a card (engine.gcpause)
        return _load_game(Path(folder), cards)


def _load_game(folder: Path, cards: tuple[object, Source] | None) -> Deck:
    """:func:`load_game` with the collector paused."""
    if not folder.is_dir():
        raise DataError([UNREADABLE_FILE.finding(f"{folder} is not a game folder", Location(str(folder)), folder_hint(folder))], unreadable=True)
    game_data, game_src, card_files = _read_game(folder, own_cards=cards)
    findings: list[Finding] = []
    game: Game | None = None
    try:
        game = Game.model_validate(game_data)
        attach_locations(game, game_src)
    except ValidationError as exc:
        findings += schema_findings(exc, game_src, Game, game_data)
    cards: list[Card] = []
    own: list[str] = []
    for data, src, card_folder, no_cards in card_files:
        if no_cards:
            at = src.keys.get("cards", src.at) if isinstance(data, dict) else src.at
            findings.append(NO_CARDS.finding(f"{CARDS_FILE} holds no cards", at, "list the game's cards under 'cards:'; see README 'Card data: adding a game'"))
            continue
        if data is None:
            data = {"cards": []}
        try:
            parsed = CardsFile.model_validate(data)
            attach_locations(parsed, src, card_of=_card_id)  # every card's locations name the card (no second pass)
            cards += parsed.cards
            if card_folder == folder.resolve():
                own = [c.id for c in parsed.cards]
        except ValidationError as exc:
            findings += schema_findings(exc, src, CardsFile, data)
    if game is not None:
        findings += _duplicates(game)
        findings += reference_findings(game.packaging, [c.id for c in game.classes],
                                       deck_names([c.deck for c in game.classes], game.composition.decks))
    findings += _over_limits(cards)
    if findings or game is None:
        raise DataError(findings, unreadable=False)
    if game.extends is None:
        return Deck(game=game, cards=cards, folder=str(folder))
    base = load_game(folder / game.extends.game)  # the base game on its own: its backs, its box
    return Deck(game=game, cards=cards, folder=str(folder), base=base, own_card_ids=tuple(own))


def _over_limits(cards: list[Card]) -> list[Finding]:
    """DA003 when a game has more unique cards than :data:`engine.limits.MAX_CARDS` or prints more
    than :data:`engine.limits.MAX_PRINTED_CARDS` (copies counted), at the first card past the limit."""
    out: list[Finding] = []
    if len(cards) > MAX_CARDS:
        out.append(INVALID_VALUE.finding(
            f"the game has {len(cards)} unique cards; deckpress builds at most {MAX_CARDS} (one page, proof and archive page each)",
            cards[MAX_CARDS].where("id").with_card(cards[MAX_CARDS].id), "split the game into a base game and expansions"))
    printed = 0
    for card in cards:
        printed += card.copies
        if printed > MAX_PRINTED_CARDS:
            out.append(INVALID_VALUE.finding(
                f"the game prints {sum(c.copies for c in cards)} cards (copies counted); deckpress imposes at most {MAX_PRINTED_CARDS}",
                card.where("copies").with_card(card.id), "lower copies:, or split the game into a base game and expansions"))
            break
    return out


def _duplicates(game: Game) -> list[Finding]:
    """DA003 at the second of two classes with one id or one indicator, two dice with one id,
    or two keywords with one spelling (related: the first). An expansion's class with a base
    class's id replaced it while merging, so it is no duplicate here."""
    out: list[Finding] = []

    def repeats(items: list, key, field: str, message, hint: str) -> None:
        first: dict = {}
        for item in items:
            value = key(item)
            if value in first:
                earlier = first[value]
                out.append(INVALID_VALUE.finding(message(earlier, item), item.where(field), hint, (earlier.where(field),)))
            else:
                first[value] = item

    repeats(game.classes, lambda c: c.id, "id", lambda a, b: f"two classes have the id {b.id!r} ({a.name} and {b.name})",
            "give every class its own id (an expansion replaces a base class by writing its id once)")
    distinct = [c for i, c in enumerate(game.classes) if all(o.id != c.id for o in game.classes[:i])]  # a repeated class is reported once
    repeats(distinct, lambda c: c.indicator.casefold(), "indicator",
            lambda a, b: f"classes {a.name} and {b.name} share the indicator {b.indicator!r}; blind players tell the classes apart by its braille cell",
            "give every class its own indicator letter")
    repeats(game.dice, lambda d: d.id, "id", lambda a, b: f"two dice have the id {b.id!r}; both sheets would be written as die-{b.id}.pdf",
            "give every die its own id")
    repeats(game.keywords, lambda k: k.name, "name", lambda a, b: f"keyword {b.name!r} is defined twice", "define each keyword once")
    return out
