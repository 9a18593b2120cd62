"""The game models: everything in ``game.yaml`` (DESIGN.md §2), from a palette colour to :class:`Game`.

Unknown keys are refused (``extra="forbid"``, :class:`engine.fields.Located`): a typo in a
key is an error the designer sees, never a value silently ignored.
"""

from __future__ import annotations

import datetime
import re
from typing import Callable, Iterator, Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationInfo, field_validator

from engine.archive_paths import card_path_template
from engine.backs import Backs
from engine.boxes import Packaging
from engine.cards import Card
from engine.dice import DIE_SHAPES, Die, DieShape  # noqa: F401  (the game's dice; re-exported)
from engine.fields import Count, Length, Located, Text, braille_cells, slug
from engine.limits import MAX_POWER_MAGNITUDE, MAX_POWER_VALUES

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


class Colour(Located):
    """One palette colour: CMYK for print, sRGB for screens (proofs, archive).

    ``cmyk`` is four percentages 0–100 (C, M, Y, K); ``srgb`` is ``#rrggbb``.
    """

    cmyk: tuple[float, float, float, float]
    srgb: str

    @field_validator("cmyk", mode="before")
    @classmethod
    def _four_values(cls, value: object) -> object:
        if isinstance(value, (list, tuple)) and len(value) != 4:
            raise ValueError(f"expected 4 values C, M, Y, K (percentages 0-100) such as [0, 0, 0, 100], got {list(value)}")
        return value

    @field_validator("cmyk")
    @classmethod
    def _cmyk_range(cls, value: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        if any(not 0 <= v <= 100 for v in value):
            raise ValueError(f"CMYK values are percentages 0-100, got {list(value)}")
        return value

    @field_validator("srgb")
    @classmethod
    def _srgb_hex(cls, value: str) -> str:
        if not _HEX.match(value):
            raise ValueError(f"expected an sRGB colour as '#rrggbb', got {value!r}")
        return value.lower()


class Palette(Located):
    """A class palette: the card ground, the text on it, and an accent for emblem and frame."""

    background: Colour
    text: Colour
    accent: Colour | None = None


class CardClass(Located):
    """A playable class (or faction, or a separate deck such as Power Crystals).

    ``indicator`` is the print letter whose braille is the first cell of the card's
    braille block (e.g. "E" for Ember; Apprentice rulebook, "Class Themes and Indicators").
    ``deck`` names the draw deck the class belongs to ("main" unless set aside).
    """

    id: str
    name: Text
    indicator: str = Field(min_length=1, max_length=1)
    emblem: str
    palette: Palette
    deck: str = "main"

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return slug(value, "ember")


class Keyword(Located):
    """A keyword as printed on cards, with its canonical spelling (ending in "!").

    ``die`` names the die it rolls, if any; ``restricted_to`` lists the card-name
    words that may carry it (e.g. Chance! only on "Rogue" cards), empty when any
    card may.
    """

    name: str
    summary: Text
    die: str | None = None
    restricted_to: list[str] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _bang(cls, value: str) -> str:
        if not value.endswith("!"):
            raise ValueError(f"a keyword's canonical spelling ends with '!', got {value!r}")
        return value


class PowerScheme(Located):
    """The power values a game allows and how they are written in braille.

    - ``numbers``: the inclusive numeric range, e.g. ``{min: 1, max: 11}``.
    - ``symbols``: non-numeric values written after the full cell ⠿ ("?", "E" …).
    - ``modifiers``: values such as "x2", "+6", "-5" (Claim's potions), translated as UEB text.
    - ``number_style``: ``ueb`` (10 = ⠼⠁⠚, standard UEB; Enchant rulebook) or
      ``single-letter`` (10 = ⠼⠚, 11 = ⠼⠅; Apprentice rulebook, "Power Level").
    - ``number_prefix`` / ``symbol_prefix``: the prefix cells (numeric indicator ⠼, full cell ⠿).
    - ``text_power_kinds``: card kinds whose "power" is a paragraph of rules text
      (Claim's artifacts); those cards carry no power value.
    - ``overrides``: explicit cells for single values, prefix included — the designer's
      recorded decision where the rulebook's convention makes two values collide
      (e.g. the Power Crystal expansion's 0 against the core set's single-letter 10).
    """

    numbers: dict[Literal["min", "max"], int] | None = None
    symbols: list[str] = Field(default_factory=list)
    modifiers: list[str] = Field(default_factory=list)
    number_style: Literal["ueb", "single-letter"] = "ueb"
    number_prefix: str = "⠼"
    symbol_prefix: str = "⠿"
    text_power_kinds: list[str] = Field(default_factory=list)
    overrides: dict[str, str] = Field(default_factory=dict)

    @field_validator("numbers")
    @classmethod
    def _bounded_range(cls, value: dict[str, int] | None) -> dict[str, int] | None:
        """A range with both ends, min ≤ max, within the bounds of :mod:`engine.limits` (each value is translated and compared)."""
        if value is None:
            return value
        if set(value) != {"min", "max"}:
            raise ValueError(f"expected both ends of the range, {{min: 1, max: 11}}, got {value}")
        low, high = value["min"], value["max"]
        if max(abs(low), abs(high)) > MAX_POWER_MAGNITUDE:
            raise ValueError(f"power values are at most {MAX_POWER_MAGNITUDE} in size, got {low}..{high}")
        if high < low:
            raise ValueError(f"min must not be above max, got {low}..{high}")
        if high - low + 1 > MAX_POWER_VALUES:
            raise ValueError(f"a power range holds at most {MAX_POWER_VALUES} values (each is translated to braille and compared), got {high - low + 1}")
        return value

    @field_validator("overrides")
    @classmethod
    def _cells_only(cls, value: dict[str, str]) -> dict[str, str]:
        for key, cells in value.items():
            braille_cells(cells, f"override for {key!r}")
        return value

    @field_validator("number_prefix", "symbol_prefix")
    @classmethod
    def _prefix_cells(cls, value: str) -> str:
        return braille_cells(value, "a prefix")

    def allowed(self) -> list[str]:
        """Every allowed power value as text, numbers first then symbols then modifiers."""
        out: list[str] = []
        if self.numbers:
            out += [str(n) for n in range(self.numbers["min"], self.numbers["max"] + 1)]
        return out + list(self.symbols) + list(self.modifiers)

    def cell_clashes(self, encode: Callable[[str], str]) -> Iterator[tuple[str, str | None, str | ValueError]]:
        """Encode every allowed value in order; yield the values a braille reader could not tell apart.

        ``encode`` gives a value's Unicode braille cells or raises ValueError (the braille
        stage's encoder; the engine makes no cells). Yields ``(value, earlier, cells)`` for a
        value whose cells an earlier allowed value already has, and ``(value, None, error)``
        for a value ``encode`` refuses. The one scan behind PW002 and the braille stage's
        ``PowerEncoding.collisions``.
        """
        seen: dict[str, str] = {}
        for value in self.allowed():
            try:
                cells = encode(value)
            except ValueError as exc:
                yield value, None, exc
                continue
            if cells in seen:
                yield value, seen[cells], cells
            else:
                seen[cells] = value


class BrailleSettings(Located):
    """liblouis settings for the game (DESIGN.md §3).

    ``grade`` is 1 or 2 (tables ``en-ueb-g1.ctb`` / ``en-ueb-g2.ctb``); ``name_grade``
    overrides it for card names (a game may ask for uncontracted names);
    ``geometry`` names the dot geometry profile (``spec800`` by default).
    ``class_indicator`` is how a lone capital letter (class indicator, A/P mark) is written:
    ``grade-1-symbol`` (UEB §5.7: ⠰⠠⠑ in grade 2) or, deliberately, ``capital-only`` (⠠⠑).
    """

    grade: Literal[1, 2] = 2
    name_grade: Literal[1, 2] | None = None
    geometry: str = "spec800"
    class_indicator: Literal["grade-1-symbol", "capital-only"] = "grade-1-symbol"


class CardSize(Located):
    """Trim size, orientation and bleed of the cards (3×5 in portrait, 0.125 in bleed)."""

    width: Length
    height: Length
    orientation: Literal["portrait", "landscape"] = "portrait"
    bleed: Length = 9.0


class Players(Located):
    """Inclusive player-count range: ``max`` is not below ``min`` (the box and the archive print it)."""

    min: Count = Field(ge=1)
    max: Count = Field(ge=1)

    @field_validator("max")
    @classmethod
    def _not_below_min(cls, value: int, info: ValidationInfo) -> int:
        low = info.data.get("min")
        if low is not None and value < low:
            raise ValueError(f"max must not be below min, got {low}..{value} players")
        return value


class Archive(Located):
    """Where the card archive lives: the QR of a card encodes ``base_url + card_path``.

    ``card_path`` is a template with ``{id}`` (the card id) and ``{class_id}``;
    the same relative path is where the archive writes the card's page.
    """

    base_url: str
    card_path: str = "cards/{id}.html"

    @field_validator("card_path")
    @classmethod
    def _card_path(cls, value: str) -> str:
        return card_path_template(value)

    @field_validator("base_url")
    @classmethod
    def _trailing_slash(cls, value: str) -> str:
        """An http(s) URL with a host, no query, fragment, credentials or character a browser re-encodes; ends in ``/``."""
        if not value.startswith(("https://", "http://")):
            raise ValueError(f"expected an http(s) URL, got {value!r}")
        if any(ch.isspace() or not ch.isprintable() or ch in "\\%" or ord(ch) > 126 for ch in value):
            raise ValueError(f"the base URL may hold no space, control character, backslash, '%' or non-ASCII letter, got {value!r}")
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018  (raises ValueError for a port that is no number)
        except ValueError as exc:
            raise ValueError(f"is not a URL ({exc}), got {value!r}") from None
        if not parts.hostname:
            raise ValueError(f"the base URL needs a host, such as 'https://cards.example.org/mini/', got {value!r}")
        if parts.query or parts.fragment or "?" in value or "#" in value or "@" in parts.netloc:
            raise ValueError(f"the base URL may hold no '?', '#' or user name: the card path follows it, got {value!r}")
        return value if value.endswith("/") else value + "/"

    def url_for(self, card: Card) -> str:
        """The absolute URL a card's QR code encodes."""
        return self.base_url + self.path_for(card)

    def path_for(self, card: Card) -> str:
        """The archive page of a card, relative to the base URL."""
        return self.card_path.format(id=card.id, class_id=card.class_id)


class ClassCount(Located):
    """Composition facts for one class as the rulebook states them."""

    unique: Count | None = None
    copies: Count | None = None
    cards: Count | None = None


class DeckCount(Located):
    """A separate draw deck (Power Crystals, Claim's potions): its classes and stated size."""

    classes: list[str]
    cards: Count


class Composition(Located):
    """Composition facts the rulebook states, checked by the engine.

    ``classes`` maps class id → counts; ``total`` is the stated card total;
    ``deals`` maps a player count → cards each player is dealt or holds;
    ``decks`` names separate draw decks. ``removes`` (expansions) lists the base
    game's card ids that the expansion takes out. ``shuffle`` says how the main deck is
    played: ``together`` (shuffled and dealt) or ``by-class`` (each player shuffles one
    class deck); unset, the deals tell (:func:`engine.backs.main_deck_by_class`).
    """

    classes: dict[str, ClassCount] = Field(default_factory=dict)
    total: Count | None = None
    deals: dict[int, int] = Field(default_factory=dict)
    decks: dict[str, DeckCount] = Field(default_factory=dict)
    shuffle: Literal["together", "by-class"] | None = None

    @field_validator("deals", mode="before")
    @classmethod
    def _one_deal_per_player_count(cls, value):
        """``{4: 15, "4": 14}`` is two YAML keys for one player count: the int conversion kept the
        last and dropped the other without a word. Raises ValueError naming both spellings."""
        if isinstance(value, dict):
            seen: dict[int, object] = {}
            for key in value:
                try:
                    count = int(key)
                except (TypeError, ValueError):
                    continue  # not a number: pydantic's own error names it
                if count in seen:
                    raise ValueError(f"player count {count} is listed twice ({seen[count]!r} and {key!r}); give each player count one deal")
                seen[count] = key
        return value


class KeywordRules(Located):
    """How keywords combine on one card: at most ``max_per_card``; ``order`` forbids other orders."""

    max_per_card: Count = 2
    order: list[str] = Field(default_factory=list)


class Extends(Located):
    """An expansion's link to its base game: the base folder and the base cards it removes."""

    game: str
    remove: list[str] = Field(default_factory=list)


class Game(Located):
    """A game: everything in ``game.yaml`` (DESIGN.md §2).

    For an expansion, ``extends`` names the base game; the loader merges the base
    game's classes, dice and keywords with the expansion's (same id replaces).
    ``date`` is the edition date of the data (YYYY-MM-DD); it becomes the PEF's
    ``dc:date``, so embosser files are the same bytes on every machine (and the print
    PDFs' CreationDate). ``backs`` is the back model (:mod:`engine.backs`); ``publisher``
    becomes the print PDFs' Author.
    ``rulebook`` names the game's rulebook text file (plain text or Markdown), relative to
    the game folder; the emboss stage then writes the rulebook in braille without
    ``--rulebook`` (a missing file is an info finding and the volume is skipped).
    ``packaging`` lists the game's tuck boxes and the card stock they are sized for (:mod:`engine.boxes`).
    """

    id: str
    title: Text
    card: CardSize
    players: Players
    dice: list[Die] = Field(default_factory=list)
    classes: list[CardClass]
    keywords: list[Keyword] = Field(default_factory=list)
    keyword_rules: KeywordRules = Field(default_factory=KeywordRules)
    power: PowerScheme
    braille: BrailleSettings = Field(default_factory=BrailleSettings)
    archive: Archive
    composition: Composition = Field(default_factory=Composition)
    backs: Backs = Field(default_factory=Backs)
    publisher: Text | None = None
    quickstart: str | None = None
    date: datetime.date | None = None
    rulebook: str | None = None
    packaging: Packaging | None = None
    extends: Extends | None = None

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return slug(value, "apprentice")

    def class_by_id(self, class_id: str) -> CardClass | None:
        """The class with this id, or None."""
        return next((c for c in self.classes if c.id == class_id), None)

    def die_by_id(self, die_id: str) -> Die | None:
        """The die with this id, or None."""
        return next((d for d in self.dice if d.id == die_id), None)

    def keyword(self, name: str) -> Keyword | None:
        """The keyword with exactly this canonical spelling, or None."""
        return next((k for k in self.keywords if k.name == name), None)
