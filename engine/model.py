"""The card data model: pydantic v2 models for a game and its cards.

Shapes follow ../shared/DESIGN.md §2. Lengths are written in the data with their
unit and stored in pt (see :mod:`engine.units`). Every model instance remembers
where it came from: :meth:`Located.where` gives the file, line and column of the
object or of one of its fields, so a finding can point at the exact YAML line.

Unknown keys are refused (``extra="forbid"``): a typo in a key is an error the
designer sees, never a value silently ignored.
"""

from __future__ import annotations

import datetime
import re
import string
from enum import Enum
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, field_validator

from engine.findings import Location
from engine.paths import SLUG
from engine.units import parse_length

#: A length written with its unit in the data ("3in", "6.2mm"); stored in pt.
Length = Annotated[float, BeforeValidator(parse_length)]

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def slug(value: str, example: str) -> str:
    """``value`` when it is a lowercase slug (``^[a-z0-9]+(-[a-z0-9]+)*$``), else ValueError.

    Ids become file and URL names (``output/<game id>/``, ``cards/<card id>.html``), so
    a slug keeps them inside their folder: ``../victim`` is refused.
    """
    if not SLUG.match(value):
        raise ValueError(f"expected a lowercase slug such as {example!r}, got {value!r}")
    return value


def _not_blank(value: str) -> str:
    """``value`` unless it is empty or only spaces (ValueError): a blank name prints as nothing."""
    if not value.strip():
        raise ValueError("must not be empty")
    return value


#: Text a reader sees (a name, a title, a summary): never empty or only spaces.
Text = Annotated[str, AfterValidator(_not_blank)]


def braille_cells(value: str, what: str) -> str:
    """``value`` when it is one or more six-dot Unicode braille cells (U+2800-U+283F), else ValueError.

    The braille stage writes these cells as they are; anything else (``"#"``, an ASCII
    Braille character, eight-dot cells) has no six-dot cell to emboss.
    """
    if not value or not all("\u2800" <= ch <= "\u283f" for ch in value):
        raise ValueError(f"{what} must be six-dot Unicode braille cells (U+2800-U+283F) such as '⠼', got {value!r}")
    return value


#: The fields a card path template may name (:meth:`Archive.path_for`).
CARD_PATH_FIELDS = ("id", "class_id")


def card_path_template(value: str) -> str:
    """``value`` when it is a valid ``archive.card_path`` template, else ValueError.

    The template is a relative path with ``{id}`` (required: one page per card) and
    optionally ``{class_id}``, each written bare: no attribute or index access
    (``{id.__class__}``), conversion (``{id!r}``) or format spec (``{id:>9}``). The
    path must stay inside the archive: no leading ``/`` or backslash, no ``..``, ``.`` or
    empty segment (a trailing ``/`` names the folder's ``index.html``), and no
    ``?`` or ``#`` (the page name is also the URL the QR code encodes).
    """
    try:
        parts = list(string.Formatter().parse(value))
    except ValueError as exc:
        raise ValueError(f"is not a path template such as 'cards/{{id}}.html' ({exc}; write a literal brace as '{{{{' or '}}}}'), got {value!r}") from None
    fields = [(name, spec, conv) for _, name, spec, conv in parts if name is not None]
    for name, spec, conv in fields:
        shown = "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
        bare = name if name in CARD_PATH_FIELDS else next((f for f in CARD_PATH_FIELDS if name[len(f):len(f) + 1] in (".", "[") and name.startswith(f)), None)
        if bare is None:
            raise ValueError(f"may use only {{id}} and {{class_id}}, not {shown}, got {value!r}")
        if bare != name or spec or conv:
            raise ValueError(f"may use {{{bare}}} only as it is, not {shown}, got {value!r}")
    if "id" not in [name for name, _, _ in fields]:
        raise ValueError(f"must contain {{id}}, or every card shares one archive page, got {value!r}")
    literal = "".join(text + ("x" if name is not None else "") for text, name, _, _ in parts)
    if literal.startswith("/") or "\\" in literal:
        raise ValueError(f"must be a relative path inside the archive (no leading '/' or '\\'), got {value!r}")
    if any(part in ("", ".", "..") for part in literal.removesuffix("/").split("/")):  # "cards/{id}/" names cards/<id>/index.html
        raise ValueError(f"must stay inside the archive (no '..', '.' or empty segment), got {value!r}")
    if "?" in literal or "#" in literal:
        raise ValueError(f"must not contain '?' or '#' (it names a file and the URL a QR code encodes), got {value!r}")
    return value


def _to_text(value: object) -> object:
    """YAML reads ``power: 7`` as an int; power values are kept as text ("7", "?", "x2")."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    return value


class Located(BaseModel):
    """Base of every data model: forbids unknown keys and keeps source locations.

    The loader fills the private location table after validation; models built in
    code (tests, synthetic decks) simply have no locations and report ``file`` only.
    """

    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)

    _where: dict[str, Location] = PrivateAttr(default_factory=dict)

    def where(self, field: str | None = None) -> Location:
        """Location of this object (``field=None``) or of one of its fields.

        Falls back to the object's own location when the field was not written
        (a default), and to an empty location for objects built in code.
        """
        if field is not None and field in self._where:
            return self._where[field]
        return self._where.get("", Location())


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


class DieShape(str, Enum):
    """The outline of one die face (a D12 face is a pentagon, a D4 face a triangle, a D6 face a square)."""

    pentagon = "pentagon"
    triangle = "triangle"
    square = "square"


class Die(Located):
    """A print/braille die.

    ``size`` is the die's stated size (e.g. "35mm" for the Apprentice D12);
    ``faces`` the number of faces; ``encoding`` how a face is written in braille:
    ``letters`` (a–l without numeric indicator, the rulebooks' private code) or
    ``ueb-numbers`` (numeric indicator then the digit letter, standard UEB).
    ``braille_position`` is where the cell sits on the face (Enchant asks for "left").
    """

    id: str
    name: Text
    faces: int = Field(ge=2, le=100)
    size: Length
    shape: DieShape
    encoding: Literal["letters", "ueb-numbers"]
    braille_position: Literal["below", "left"] = "below"
    key: str | None = None

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return slug(value, "d12")


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
    """Inclusive player-count range."""

    min: int = Field(ge=1)
    max: int = Field(ge=1)


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
        if not value.startswith(("https://", "http://")):
            raise ValueError(f"expected an http(s) URL, got {value!r}")
        return value if value.endswith("/") else value + "/"

    def url_for(self, card: Card) -> str:
        """The absolute URL a card's QR code encodes."""
        return self.base_url + self.path_for(card)

    def path_for(self, card: Card) -> str:
        """The archive page of a card, relative to the base URL."""
        return self.card_path.format(id=card.id, class_id=card.class_id)


class ClassCount(Located):
    """Composition facts for one class as the rulebook states them."""

    unique: int | None = None
    copies: int | None = None
    cards: int | None = None


class DeckCount(Located):
    """A separate draw deck (Power Crystals, Claim's potions): its classes and stated size."""

    classes: list[str]
    cards: int


class Composition(Located):
    """Composition facts the rulebook states, checked by the engine.

    ``classes`` maps class id → counts; ``total`` is the stated card total;
    ``deals`` maps a player count → cards each player is dealt or holds;
    ``decks`` names separate draw decks. ``removes`` (expansions) lists the base
    game's card ids that the expansion takes out.
    """

    classes: dict[str, ClassCount] = Field(default_factory=dict)
    total: int | None = None
    deals: dict[int, int] = Field(default_factory=dict)
    decks: dict[str, DeckCount] = Field(default_factory=dict)


class KeywordRules(Located):
    """How keywords combine on one card: at most ``max_per_card``; ``order`` forbids other orders."""

    max_per_card: int = 2
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
    ``dc:date``, so embosser files are the same bytes on every machine.
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
    quickstart: str | None = None
    date: datetime.date | None = None
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


class Provenance(str, Enum):
    """Where a card comes from: named by the rulebook, or supplied by us to make the counts hold."""

    rulebook = "rulebook"
    provisional = "provisional"


class ImageDescription(Located):
    """The art's description: ``alt`` (short, ≤ 150 characters) and ``long`` (general to specific)."""

    alt: str
    long: str


class Card(Located):
    """One unique card face (``copies`` says how many are printed).

    ``power`` is text ("7", "?", "E", "x2") or None for cards without one;
    ``keywords`` are in printed order; ``indicator`` is the Power Crystal A/P mark;
    ``rules`` is rules text where the card carries it; ``braille_rules`` a shorter
    form for the braille block when the full text cannot fit the braille box (an
    empty string leaves rules text out of the braille; the keyword carries it);
    ``image`` a path to art
    relative to the game folder; ``ignore`` lists rule codes or names accepted
    for this card.
    """

    id: str
    name: Text
    class_id: str = Field(alias="class")
    kind: str
    power: Annotated[str | None, BeforeValidator(_to_text)] = None
    keywords: list[str] = Field(default_factory=list)
    indicator: Literal["A", "P"] | None = None
    copies: int = Field(default=1, ge=1)
    rules: str | None = None
    braille_rules: str | None = None
    image: str | None = None
    description: ImageDescription
    provenance: Provenance
    ignore: list[str] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return slug(value, "forest-apprentice")


class CardsFile(Located):
    """The shape of ``cards.yaml``: a list of cards."""

    cards: list[Card]


class Deck(BaseModel):
    """A loaded game: the resolved :class:`Game` and its complete card list.

    For an expansion the cards are already resolved (base cards minus removed,
    plus the expansion's). ``folder`` is the game folder it was loaded from.
    """

    game: Game
    cards: list[Card]
    folder: str = ""

    _by_id: dict[str, Card] | None = PrivateAttr(default=None)

    def cards_of(self, class_id: str) -> list[Card]:
        """The unique cards of one class, in data order."""
        return [c for c in self.cards if c.class_id == class_id]

    def copies_of(self, class_id: str) -> int:
        """Printed cards (copies counted) of one class."""
        return sum(c.copies for c in self.cards_of(class_id))

    @property
    def total_copies(self) -> int:
        """Printed cards in the whole game (copies counted)."""
        return sum(c.copies for c in self.cards)

    def provisional(self) -> list[Card]:
        """Cards we supplied because the rulebook does not name them."""
        return [c for c in self.cards if c.provenance is Provenance.provisional]

    def card_by_id(self, card_id: str) -> Card | None:
        """The card with this id, or None (an index built on first use: decks run to 10,000 cards;
        a deck's card list is not changed after loading)."""
        if self._by_id is None:
            self._by_id = {}
            for c in self.cards:
                self._by_id.setdefault(c.id, c)  # the first of duplicate ids, as before (CP007 reports them)
        return self._by_id.get(card_id)
