"""The shipped card data (carddata/): every count the seed rulebooks state, computed from the loaded data.

The numbers written in these tests are taken from the rulebooks in ../shared/seeds/
(the comment next to each names the rulebook and section); the data is loaded through
the real loader and counted, never compared with itself. Where a rulebook contradicts
itself the data records the careful reading (Claim's list of 60 cards over its stated 58;
Enchant's power X, which its Letters section defines and its Cards section leaves out),
and the rulebook checks (tests/test_seed_rulebooks.py) report the contradiction.
"""

from __future__ import annotations

import itertools
import re

import louis
import pytest

from conftest import CARDDATA
from engine.load import load_game
from engine.model import Deck, Provenance
from pipeline.braille.layout import layout_deck
from pipeline.braille.translate import normalise
from pipeline.render.contrast import contrast_ratio, palette_findings

GAMES = ["apprentice", "apprentice-power-crystal", "enchant", "claim-reinforcements-magic"]
CORE_CLASSES = ["ember", "forest", "glacier", "spirit"]

_DECKS: dict[str, Deck] = {}


def deck(name: str) -> Deck:
    """Load a shipped game once per test session (loading is pure; the Deck is only read)."""
    if name not in _DECKS:
        _DECKS[name] = load_game(CARDDATA / name)
    return _DECKS[name]


def printed(d: Deck, **where) -> int:
    """Printed cards (copies counted) among the cards whose attributes equal ``where``."""
    return sum(c.copies for c in d.cards if all(getattr(c, k) == v for k, v in where.items()))


# --- Apprentice ICG (000_c4e42988fabe8ac0.txt) ---------------------------------------


def test_apprentice_classes_and_counts():
    d = deck("apprentice")
    # Classes: Ember, Forest, Glacier, Spirit; emblems Flame, Acorn, Snowflake, Wind;
    # indicator = first letter of the class (Cards, 4).
    assert [(c.id, c.name, c.indicator, c.emblem) for c in d.game.classes] == [
        ("ember", "Ember", "E", "Flame"),
        ("forest", "Forest", "F", "Acorn"),
        ("glacier", "Glacier", "G", "Snowflake"),
        ("spirit", "Spirit", "S", "Wind"),
    ]
    for cls in CORE_CLASSES:
        cards = d.cards_of(cls)
        # "Each class contains 2 copies of 15 unique cards for a total of 30 cards per class" (Classes).
        assert len(cards) == 15
        assert {c.copies for c in cards} == {2}
        assert d.copies_of(cls) == 30
        assert d.game.composition.classes[cls].model_dump(include={"unique", "copies", "cards"}) == {"unique": 15, "copies": 2, "cards": 30}
    # "120 3x5" Accessible Cards" (Contents).
    assert d.total_copies == 120 == d.game.composition.total
    # Each player plays one whole class deck (The Beginning), for 2, 3 and 4 players.
    assert d.game.composition.deals == {2: 30, 3: 30, 4: 30}
    assert all(d.copies_of(cls) == 30 for cls in CORE_CLASSES)
    assert (d.game.players.min, d.game.players.max) == (2, 4)  # "2-4 player" (Introduction)


def test_apprentice_named_cards_power_and_keywords():
    d = deck("apprentice")
    # "Forest Apprentice": power 1 plus Enchant! (Keywords, Enchant!); every class has one.
    for cls in CORE_CLASSES:
        card = d.card_by_id(f"{cls}-apprentice")
        assert (card.power, card.keywords, card.provenance) == ("1", ["Enchant!"], Provenance.rulebook)
        # Chance! on the Rogue, Smite! on the Knight, in each class (Keywords).
        assert d.card_by_id(f"{cls}-rogue").keywords == ["Chance!"]
        assert d.card_by_id(f"{cls}-knight").keywords == ["Smite!"]
        # The basic Rangers and Sages carry no keyword (Power Crystal rulebook, Card Substitutions).
        assert d.card_by_id(f"{cls}-ranger").keywords == [] and d.card_by_id(f"{cls}-sage").keywords == []
    fireball = d.card_by_id("fireball")
    assert (fireball.power, fireball.keywords, fireball.provenance) == ("?", ["Enchant!"], Provenance.rulebook)
    # Power 1-11 or "?" (Cards, 3); every "?" card rolls for its power, so carries Enchant!.
    assert {c.power for c in d.cards} == {str(n) for n in range(1, 12)} | {"?"}
    assert all("Enchant!" in c.keywords for c in d.cards if c.power == "?")
    # Chance! only on Rogue cards, Smite! only on Knight cards (Keywords).
    assert sorted(c.id for c in d.cards if "Chance!" in c.keywords) == [f"{cls}-rogue" for cls in sorted(CORE_CLASSES)]
    assert sorted(c.id for c in d.cards if "Smite!" in c.keywords) == [f"{cls}-knight" for cls in sorted(CORE_CLASSES)]
    # "each class has equal cards and equal power" (Classes): the same powers in every class.
    powers = {cls: sorted(c.power for c in d.cards_of(cls)) for cls in CORE_CLASSES}
    assert len({tuple(p) for p in powers.values()}) == 1


def test_apprentice_dice_keywords_and_power_scheme():
    g = deck("apprentice").game
    (d12,) = g.dice
    # "Print/Braille 35mm D12" (Contents); faces a-l without the numeric indicator (D12).
    assert (d12.id, d12.faces, round(d12.size * 25.4 / 72, 3), d12.shape.value, d12.encoding) == ("d12", 12, 35.0, "d12-dodecahedron", "letters")
    assert [k.name for k in g.keywords] == ["Chance!", "Enchant!", "Rally!", "Smite!"]
    assert {k.name: k.die for k in g.keywords} == {"Chance!": "d12", "Enchant!": "d12", "Rally!": None, "Smite!": None}
    assert {k.name: k.restricted_to for k in g.keywords if k.restricted_to} == {"Chance!": ["Rogue"], "Smite!": ["Knight"]}
    # Braille j = 10 and k = 11 after the numeric indicator (Cards, 3 Note).
    assert g.power.allowed() == [str(n) for n in range(1, 12)] + ["?"]
    assert g.power.number_style == "single-letter"


# --- Power Crystal expansion (001_41c7025236229449.txt) -------------------------------


def test_expansion_substitutions_per_class():
    d = deck("apprentice-power-crystal")
    assert d.game.extends.game == "../apprentice"
    for cls in CORE_CLASSES:
        # The basic Rangers and Sages are gone (Card Substitutions) ...
        assert d.card_by_id(f"{cls}-ranger") is None and d.card_by_id(f"{cls}-sage") is None
        # ... and each class gains 2 Delvers (power 0, Boon!), 2 upgraded Rangers (Destroy!)
        # and 2 upgraded Sages (Summon!) (Contents; New Character; Upgraded Character).
        delver = d.card_by_id(f"{cls}-delver")
        assert (delver.power, delver.keywords, delver.copies) == ("0", ["Boon!"], 2)
        assert d.card_by_id(f"{cls}-ranger-upgraded").keywords == ["Destroy!"]
        assert d.card_by_id(f"{cls}-sage-upgraded").keywords == ["Summon!"]
        assert all(d.card_by_id(f"{cls}-{k}").copies == 2 for k in ("ranger-upgraded", "sage-upgraded"))
        # "Each class should now contain a total of 32 cards" (Card Substitutions).
        assert d.copies_of(cls) == 32
        assert len(d.cards_of(cls)) == 16
        assert d.game.composition.classes[cls].cards == 32
    assert d.game.composition.deals == {2: 32, 3: 32, 4: 32}
    # The rulebook states no overall total, so none is recorded.
    assert d.game.composition.total is None
    assert d.total_copies == 4 * 32 + 20


def test_expansion_power_crystal_deck():
    d = deck("apprentice-power-crystal")
    crystal = d.game.class_by_id("power-crystal")
    assert crystal.deck == "power-crystal"
    crystals = d.cards_of("power-crystal")
    # "2x copies of 10 unique Power Crystals cards" = "20 total cards" (New Cards; New Class).
    assert len(crystals) == 10 and {c.copies for c in crystals} == {2}
    assert d.copies_of("power-crystal") == 20
    assert d.game.composition.decks["power-crystal"].cards == 20
    assert d.game.composition.decks["power-crystal"].classes == ["power-crystal"]
    # Every crystal has an A or P indicator (New Power Indicators) and one keyword: the 8 new
    # ones plus Enchant! and Rally! (New Cards; Core Power Crystal Keywords).
    assert all(c.indicator in ("A", "P") for c in crystals)
    assert all(len(c.keywords) == 1 for c in crystals)
    assert sorted(k for c in crystals for k in c.keywords) == sorted(
        ["Burn!", "Crumble!", "Epic Chance!", "Epic Smite!", "Grow!", "Power!", "Pull!", "Trance!", "Enchant!", "Rally!"]
    )
    assert {c.indicator for c in crystals} == {"A", "P"}
    # Their rules text is in the data (print, archive, braille): no braille short form.
    assert all(c.rules and c.braille_rules is None for c in crystals)


def test_expansion_dice_keywords_power():
    g = deck("apprentice-power-crystal").game
    assert [d.id for d in g.dice] == ["d12", "d4"]
    d4 = g.die_by_id("d4")
    # "30mm crystal shard D4"; faces a-d like the D12 (Contents; More Rolling: The D4).
    assert (d4.faces, round(d4.size * 25.4 / 72, 3), d4.shape.value, d4.encoding) == (4, 30.0, "d4-crystal-shard", "letters")
    new = ["Boon!", "Destroy!", "Summon!", "Burn!", "Crumble!", "Epic Chance!", "Epic Smite!", "Grow!", "Power!", "Pull!", "Trance!"]
    assert [k.name for k in g.keywords] == ["Chance!", "Enchant!", "Rally!", "Smite!"] + new
    # The D4 keywords: Crumble!, Epic Chance!, Grow! (New Keywords).
    assert sorted(k.name for k in g.keywords if k.die == "d4") == ["Crumble!", "Epic Chance!", "Grow!"]
    # Delvers bring power 0: "a Power Level of 0-11" (Pro "Rally!").
    assert g.power.allowed() == [str(n) for n in range(0, 12)] + ["?"]


def test_ids_unique_within_game_and_across_expansion():
    for name in GAMES:
        ids = [c.id for c in deck(name).cards]
        assert len(ids) == len(set(ids)), name
    base = {c.id for c in deck("apprentice").cards}
    added = {c.id for c in deck("apprentice-power-crystal").cards if c.where().file.endswith("apprentice-power-crystal/cards.yaml")}
    assert len(added) == 22 and not base & added


# --- Enchant ICG (002_b3267fe8c2d61182.txt) --------------------------------------------


def test_enchant_classes_and_counts():
    d = deck("enchant")
    classes = ["dragon", "gnome", "phoenix", "unicorn"]
    # Dragon: Egg, Gnome: Trowel, Phoenix: Feather, Unicorn: Star; indicators D, G, P, U (Classes; Cards, 3).
    assert [(c.id, c.indicator, c.emblem) for c in d.game.classes[:4]] == [
        ("dragon", "D", "Egg"), ("gnome", "G", "Trowel"), ("phoenix", "P", "Feather"), ("unicorn", "U", "Star"),
    ]
    for cls in classes:
        # "1 copy of 14 unique cards for a total of 14 cards per class" (Classes).
        assert len(d.cards_of(cls)) == 14 and d.copies_of(cls) == 14
        assert {c.copies for c in d.cards_of(cls)} == {1}
        # Power 1-10 and the letters E, H, L, O (Cards, 2), equal in every class.
        assert sorted(c.power for c in d.cards_of(cls)) == sorted([str(n) for n in range(1, 11)] + ["E", "H", "L", "O"])
    # "4 Enchant Cards which takes the deck total to 60" (Classes).
    assert d.copies_of("enchant") == 4
    assert d.total_copies == 60 == d.game.composition.total
    # 2 players: 30 each (The Beginning); 4 players: a class + 1 Enchant card = 15 (4 Players).
    assert d.game.composition.deals == {2: 30, 4: 15}
    assert d.total_copies // 2 == 30
    assert d.copies_of("dragon") + d.copies_of("enchant") // 4 == 15


def test_enchant_power_letters_and_the_x_slip():
    d = deck("enchant")
    # Cards, 2 lists E, H, L, O; the Letters section adds X, which the Enchant card needs.
    assert d.game.power.allowed() == [str(n) for n in range(1, 11)] + ["E", "H", "L", "O", "X"]
    assert d.game.power.number_style == "ueb"  # "UEB numbering ... aj=10" (Cards, 2)
    # The Enchant card "always wins" (Midgame): X ("eXtraordinary (Instant win!)", Letters).
    assert [(c.id, c.power, c.copies) for c in d.cards if c.power == "X"] == [("enchant", "X", 4)]
    (d6,) = d.game.dice
    # "Print/Braille 25mm D6"; the cell on the left of each face (Contents; D6).
    assert (d6.faces, round(d6.size * 25.4 / 72, 3), d6.shape.value, d6.braille_position) == (6, 25.0, "d6-cube", "left")
    assert d.game.keywords == []


# --- Claim: Reinforcements - Magic (004_df258f8d5d7afdc1.txt) --------------------------


def test_claim_components():
    d = deck("claim-reinforcements-magic")
    # "10 Wizards, numbered 0-9", "10 Druids, numbered 0-9", "10 Shapeshifters" 0-9 (Components).
    for faction in ("wizards", "druids", "shapeshifters"):
        assert sorted(int(c.power) for c in d.cards_of(faction)) == list(range(10))
        assert d.copies_of(faction) == 10
    # "10 Potions, (x2, +6, +5, +4, +3, +2, +1, -2, -3, -5)" (Components).
    assert [c.power for c in d.cards_of("potions")] == ["x2", "+6", "+5", "+4", "+3", "+2", "+1", "-2", "-3", "-5"]
    assert d.game.composition.decks["potions"].cards == 10
    # "18 Artifacts" (Components), each described in the Artifacts section.
    artifacts = d.cards_of("artifacts")
    assert len(artifacts) == 18 == d.game.composition.decks["artifacts"].cards
    assert [c.name for c in artifacts[:12]] == [
        "Crown of Light", "Serpent Sword", "Horn of Silence", "Spear of Vengeance", "Crystal Ball", "The Fool's Crystal",
        "The Magician's Horse", "Flying Boots", "Forgotten Runestone", "Eternal Lantern", "Staff of Order", "Frost Necklace",
    ]  # the 12 the table of contents lists, in its order
    assert [c.name for c in artifacts[12:]] == [
        "Divine Hourglass", "Shield of the Veil", "Stein of Kings", "Axe of the Clouds", "Lover's Bow", "Night Ring",
    ]  # the 6 more the Artifacts section describes
    assert all(c.power is None and c.rules and c.braille_rules is None for c in artifacts)
    assert d.game.power.text_power_kinds == ["artifact"]
    # "2 overview cards" (Components).
    assert d.copies_of("overview") == 2
    # "Deal each player 13 cards" (Set Up); a two-player game.
    assert d.game.composition.deals == {2: 13}
    assert (d.game.players.min, d.game.players.max) == (2, 2)


def test_claim_stated_total_contradicts_its_list():
    d = deck("claim-reinforcements-magic")
    # Components says "58 cards"; its list adds up to 18 + 10 + 10 + 10 + 10 + 2 = 60.
    # The data records the 60 the list names (the rulebook check reports the stated 58).
    assert d.game.composition.total == 60
    assert d.total_copies == 60
    assert sum(cc.cards for cc in d.game.composition.classes.values()) == 60


# --- Every game -------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_keyword_on_a_card_is_defined_and_allowed(name):
    d = deck(name)
    defined = {k.name: k for k in d.game.keywords}
    for card in d.cards:
        assert len(card.keywords) <= d.game.keyword_rules.max_per_card, card.id
        for kw in card.keywords:
            assert kw in defined, f"{card.id}: {kw} is not defined in game.yaml"
            words = card.name.split()
            assert not defined[kw].restricted_to or any(w in words for w in defined[kw].restricted_to), card.id
    for k in d.game.keywords:
        assert k.name.endswith("!") and k.summary and len(k.summary) <= 130, k.name
        assert k.die is None or d.game.die_by_id(k.die) is not None, k.name


@pytest.mark.parametrize("name", GAMES)
def test_every_card_has_alt_text_and_a_long_description(name):
    for card in deck(name).cards:
        alt, long = card.description.alt, card.description.long
        assert 0 < len(alt) <= 150, card.id
        assert len(long) > len(alt), card.id
        # Provisional cards say so in their long description; rulebook cards never do.
        assert long.startswith("Provisional description: ") == (card.provenance is Provenance.provisional), card.id


#: Provisional cards per game: supplied by us because the rulebook does not name them.
APPRENTICE_PROVISIONAL = sorted(
    [
        "ember-salamander", "ember-monk", "cinder-amulet", "magma-golem", "blazing-staff", "flame-surge", "heat-wave",
        "forest-badger", "forest-druid", "oaken-shield", "elder-treant", "verdant-staff", "thorn-volley", "wild-growth", "root-snare",
        "glacier-snow-hare", "glacier-shaman", "frost-mirror", "frost-yeti", "frozen-staff", "ice-shard", "blizzard", "frost-nova",
        "spirit-wisp", "spirit-oracle", "wind-chime", "sky-giant", "gale-staff", "gust-strike", "whirlwind", "spirit-echo",
    ]
)
CRYSTALS = sorted(f"crystal-{k}" for k in ("burn", "crumble", "epic-chance", "epic-smite", "grow", "power", "pull", "trance", "enchant", "rally"))


def test_provisional_cards_counted_and_listed():
    assert sorted(c.id for c in deck("apprentice").provisional()) == APPRENTICE_PROVISIONAL
    assert len(APPRENTICE_PROVISIONAL) == 31  # 7 per class + 3 class spells besides Fireball
    assert sorted(c.id for c in deck("apprentice-power-crystal").provisional()) == sorted(APPRENTICE_PROVISIONAL + CRYSTALS)
    assert len(deck("apprentice-power-crystal").provisional()) == 41
    enchant = deck("enchant")
    # Enchant names none of its 56 class cards; the Enchant card itself is named.
    assert len(enchant.provisional()) == 56
    assert {c.class_id for c in enchant.provisional()} == {"dragon", "gnome", "phoenix", "unicorn"}
    assert enchant.card_by_id("enchant").provenance is Provenance.rulebook
    # Claim names every card it contains.
    assert deck("claim-reinforcements-magic").provisional() == []


@pytest.mark.parametrize("name", GAMES)
def test_rules_text_is_concise_for_large_print(name):
    for card in deck(name).cards:
        if card.rules is not None:
            assert 0 < len(card.rules) <= 160, card.id
        if card.braille_rules:
            assert len(card.braille_rules) <= 40, card.id


@pytest.mark.parametrize("name", GAMES)
def test_archive_url_is_a_placeholder_per_card(name):
    d = deck(name)
    assert d.game.archive.base_url == f"https://cards.example.invalid/{name}/"
    card = d.cards[0]
    assert d.game.archive.url_for(card) == f"https://cards.example.invalid/{name}/cards/{card.id}.html"
    assert d.game.quickstart and len(d.game.quickstart) > 100


@pytest.mark.parametrize("name", GAMES)
def test_every_card_uses_a_defined_class_and_power(name):
    d = deck(name)
    allowed = set(d.game.power.allowed())
    for card in d.cards:
        assert d.game.class_by_id(card.class_id) is not None, card.id
        if card.kind in d.game.power.text_power_kinds or card.kind in ("crystal", "overview"):
            assert card.power is None, card.id
        else:
            assert card.power in allowed, card.id


# --- Braille: every text translates to six-dot cells and every block fits ---------------

_TABLES = ["unicode.dis", "en-ueb-g2.ctb"]
_SIX_DOT = re.compile("^[\u2800-\u283f]*$")
@pytest.mark.parametrize("name", GAMES)
def test_every_card_text_translates_to_six_dot_cells(name):
    """Independent of pipeline.braille: liblouis itself gives six-dot cells for every print text."""
    for card in deck(name).cards:
        for text in [card.name, *card.keywords, card.rules or ""]:
            if text:
                cells = louis.translateString(_TABLES, normalise(text))
                assert _SIX_DOT.match(cells), f"{card.id}: {text!r} -> {cells!r}"


@pytest.mark.parametrize("name", GAMES)
def test_every_shipped_card_carries_its_full_rules_or_a_reported_card_reference(name):
    """Equal access: the braille block's rules lines are exactly liblouis's own grade 2 translation of
    the print rules (the independent reference: louis.translateString with en-ueb-g2.ctb, called here,
    not through pipeline.braille), or the card says "See card reference N." and has a BR009 finding
    naming entry N. No shipped card is abridged by a braille_rules short form."""
    d = deck(name)
    blocks, findings = layout_deck(d)
    warned = {f.location.card: f.message for f in findings if f.code == "BR009"}
    for entry, card in enumerate(d.cards, 1):
        assert card.braille_rules is None, card.id
        block = blocks[card.id]
        assert block.fits, card.id
        rules = "\u2800".join(line for line, field in zip(block.lines, block.line_fields) if field == "rules")
        if not card.rules:
            assert rules == "" and card.id not in warned
        elif block.full_text:
            assert rules == louis.translateString(_TABLES, normalise(card.rules)), card.id
            assert card.id not in warned
        else:
            assert rules == louis.translateString(_TABLES, f"See card reference {entry}."), card.id
            assert f"card reference volume holds the full text as entry {entry}" in warned[card.id]
    referenced = sorted(c for c, b in blocks.items() if not b.full_text)
    expected = {
        "apprentice": [], "enchant": [],
        "apprentice-power-crystal": ["crystal-burn", "crystal-crumble", "crystal-enchant", "crystal-epic-chance",
                                     "crystal-epic-smite", "crystal-grow", "crystal-power", "crystal-pull",
                                     "crystal-rally", "crystal-trance"],
        "claim-reinforcements-magic": ["axe-of-the-clouds", "crown-of-light", "crystal-ball", "divine-hourglass",
                                       "eternal-lantern", "forgotten-runestone", "frost-necklace", "horn-of-silence",
                                       "lovers-bow", "night-ring", "overview", "spear-of-vengeance", "the-magicians-horse"],
    }
    assert referenced == expected[name]


# --- Palettes: 7:1 text contrast, consistent CMYK, classes apart for colour-blind players ---


def _linear(srgb: str) -> tuple[float, float, float]:
    """sRGB '#rrggbb' to linear RGB (IEC 61966-2-1 transfer curve, as WCAG 2 uses it)."""
    out = []
    for i in (1, 3, 5):
        c = int(srgb[i : i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return tuple(out)


#: Machado, Oliveira & Fernandes (2009), full dichromacy (severity 1.0), on linear RGB.
CVD = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _lab(srgb: str, vision: str) -> tuple[float, float, float]:
    """CIELAB (D65) of a colour as seen with the given colour vision."""
    lin = _linear(srgb)
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin)))) for row in CVD[vision])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


@pytest.mark.parametrize("name", GAMES)
def test_palette_text_contrast_at_least_7_to_1(name):
    game = deck(name).game
    for cls in game.classes:
        p = cls.palette
        assert contrast_ratio(p.background.srgb, p.text.srgb) >= 7.0, cls.id  # WCAG 2 AAA (1.4.6)
        assert contrast_ratio(p.background.srgb, p.accent.srgb) >= 3.0, cls.id  # WCAG 2 non-text (1.4.11)
    assert palette_findings(game) == []


@pytest.mark.parametrize("name", GAMES)
def test_palette_srgb_is_the_soft_proof_of_its_cmyk(name):
    """sRGB is how the CMYK prints on FOGRA39, shown on screen (through the profile fitted to Fogra's data)."""
    from pipeline.render.colour import soft_proof_srgb

    for cls in deck(name).game.classes:
        for colour in (cls.palette.background, cls.palette.text, cls.palette.accent):
            assert colour.srgb == soft_proof_srgb(colour.cmyk), (cls.id, colour.cmyk, colour.srgb)


@pytest.mark.parametrize("name", GAMES)
def test_class_grounds_stay_apart_for_colour_blind_players(name):
    """Every pair of class grounds differs by ΔE*ab >= 20 for normal vision and for each
    full dichromacy (a just-noticeable difference is about 2.3). Class identity never rests
    on colour alone: emblem, name and braille indicator also differ."""
    classes = deck(name).game.classes
    for vision in CVD:
        for a, b in itertools.combinations(classes, 2):
            la, lb = _lab(a.palette.background.srgb, vision), _lab(b.palette.background.srgb, vision)
            assert delta_e(la, lb) >= 20, (vision, a.id, b.id)
    assert len({c.indicator for c in classes}) == len(classes)
    assert len({c.emblem for c in classes}) == len(classes)


def delta_e(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Euclidean distance (CIE 1976 ΔE*ab on Lab triples)."""
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5
