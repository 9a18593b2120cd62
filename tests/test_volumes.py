"""The companion volumes: card reference, braille key and rulebook in braille (pipeline/emboss/volumes.py,
rulebook_volume.py, volume_files.py, bana.py).

Independent references: liblouis itself (``louis.translateString`` with unicode.dis + en-ueb-g2.ctb,
called here, not through pipeline.braille) for the expected cells, and the PEF 2008-1 RELAX NG
schema from ../shared/pef/ (the specification's copy, not the vendored one) for the PEF files.
"""

from __future__ import annotations

import json
from pathlib import Path

import louis
import pytest
from typer.testing import CliRunner

from conftest import CARDDATA
from engine.load import load_game
from engine.rulebook import Rulebook
from pipeline.braille.translate import normalise
from pipeline.cli.app import app
from pipeline.emboss.bana import Item, paginate_book, wrap_cells
from pipeline.emboss.brf import check_brf, read_brf
from pipeline.emboss.pef import read_pef
from pipeline.emboss.profiles import load_profile
from pipeline.emboss.validate import validate_pef
from pipeline.emboss.volume_files import write_volumes
from pipeline.emboss.volumes import key_entries

SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"
SHARED_SCHEMA = SEEDS.parent / "pef" / "pef-2008-1.rng"
TABLES = ["unicode.dis", "en-ueb-g2.ctb"]
B = "\u2800"
SEED_GAMES = {"000_c4e42988fabe8ac0.txt": "apprentice", "001_41c7025236229449.txt": "apprentice-power-crystal",
              "002_b3267fe8c2d61182.txt": "enchant", "004_df258f8d5d7afdc1.txt": "claim-reinforcements-magic"}
EVEREST = load_profile("index-everest-d")  # 43 cells × 25 lines on 11.5 × 11 in with ½ in margins


def ueb(text: str) -> str:
    return louis.translateString(TABLES, normalise(text))


def body_text(pages: list[list[str]], preliminary: int) -> str:
    """Every text line of the body pages (page-number lines dropped) joined by one blank cell."""
    lines = [row.strip(B) for page in pages[preliminary:] for row in page[:-1]]
    return B.join(line for line in lines if line)


# --- page format (BANA Braille Formats) ----------------------------------------------------


def test_heading_is_centred_paragraph_indented_and_page_number_bottom_right():
    book = paginate_book([Item("heading", ueb("Rules")), Item("paragraph", ueb("Draw a card."))], 20, 4)
    [page] = book.pages
    heading = ueb("Rules")  # ⠠⠗⠥⠇⠑⠎, 6 cells: (20 - 6) // 2 = 7 blank cells before it
    assert page == [B * 7 + heading, B * 2 + ueb("Draw a card."), "", B * 18 + "\u283c\u2801"]


def test_contents_entry_has_guide_dots_to_the_page_number_and_preliminary_pages_are_p_numbered():
    book = paginate_book([Item("contents", ueb("Fireball"), target="x")], 20, 2, "p", 1, targets={"x": "3"})
    name = ueb("Fireball")  # ⠠⠋⠊⠗⠑⠃⠁⠇⠇, 9 cells; dots fill 20 - 9 - 2 - 2 = 7 cells
    assert book.pages == [[name + B + "\u2810" * 7 + B + "\u283c\u2809", B * 17 + "\u280f\u283c\u2801"]]


def test_wrap_runs_over_in_the_runover_cell_and_never_exceeds_the_width():
    lines = wrap_cells(ueb("one two three four five six"), 12, 0, 2)
    assert all(len(line) <= 12 for line in lines) and all(line.startswith(B * 2) for line in lines[1:])


# --- the volumes of the shipped games --------------------------------------------------------


@pytest.fixture(scope="module")
def claim_volumes(tmp_path_factory):
    out = tmp_path_factory.mktemp("claim")
    deck = load_game(CARDDATA / "claim-reinforcements-magic")
    return deck, write_volumes(deck, EVEREST, out, "2026-01-01"), out


def test_claim_card_reference_holds_every_card_in_full(claim_volumes):
    deck, result, out = claim_volumes
    assert result.findings == ()
    pages = read_pef(out / "claim-reinforcements-magic-index-everest-d-card-reference.pef")
    [ref] = [v for v in result.sidecar["volumes"] if v["volume"] == "card-reference"]
    assert ref["pages"] == len(pages) and len(deck.cards) == 59 and sum(c.copies for c in deck.cards) == 60
    text = body_text(pages, ref["preliminary_pages"])
    for n, card in enumerate(deck.cards, 1):
        heading = louis.translateString(["unicode.dis", "en-ueb-g1.ctb"], f"{n}.") + B + ueb(card.name)
        assert heading in text, card.id
        if card.rules:
            assert ueb(card.rules) in text, card.id  # the full print rules, not a short form
        assert ref["entries"][card.id]["entry"] == n
    # The entry's page is the body page whose text holds its heading (page labels are 1-based).
    page = int(ref["entries"]["eternal-lantern"]["page"])
    assert ueb("Eternal Lantern") in B.join(pages[ref["preliminary_pages"] + page - 1])


def test_apprentice_braille_key_lists_single_letter_ten_and_the_d12_letters(tmp_path):
    deck = load_game(CARDDATA / "apprentice")
    entries = key_entries(deck)
    assert ("Power", "\u283c\u281a", "power 10") in entries  # ⠼⠚ = 10, not standard UEB (⠼⠁⠚)
    assert ("Power", "\u283c\u2805", "power 11") in entries  # ⠼⠅
    assert ("Power", "\u283c\u2801", "power 1") not in entries  # standard UEB needs no key
    d12 = [(cells, meaning) for section, cells, meaning in entries if section == "Dice"]
    assert d12[0] == ("\u2801", "D12 face 1") and d12[11] == ("\u2807", "D12 face 12") and len(d12) == 12
    assert ("Class indicators", "\u2830\u2820\u2811", "Ember class") in entries
    result = write_volumes(deck, EVEREST, tmp_path, "2026-01-01")
    text = body_text(read_pef(tmp_path / "apprentice-index-everest-d-braille-key.pef"), 1)
    assert "\u283c\u281a" + B + ueb("power 10") in text and "\u2807" + B + ueb("D12 face 12") in text
    assert [v["volume"] for v in result.sidecar["volumes"]] == ["card-reference", "braille-key"]


def test_expansion_key_explains_its_zero_and_the_active_passive_marks():
    entries = key_entries(load_game(CARDDATA / "apprentice-power-crystal"))
    power = {meaning: cells for section, cells, meaning in entries if section == "Power"}
    assert power["power 0"] == "\u283c\u2834"  # ⠼⠴, the data's override for 0
    marks = {cells: meaning for section, cells, meaning in entries if section == "Power position"}
    assert marks == {"\u2820\u2801": "A, Active: used once from the hand",
                     "\u2830\u2820\u280f": "P, Passive: stays in play until destroyed"}


@pytest.mark.parametrize("seed", sorted(SEED_GAMES))
def test_seed_rulebook_volume_is_valid_brf_and_pef_and_starts_with_its_first_heading(seed, tmp_path):
    if not (SEEDS / seed).is_file():
        pytest.fail(f"seed rulebook {SEEDS / seed} is missing (tests read ../shared/seeds/)")
    deck = load_game(CARDDATA / SEED_GAMES[seed])
    result = write_volumes(deck, EVEREST, tmp_path, "2026-01-01", rulebook=SEEDS / seed)
    assert [f.code for f in result.findings] == []
    stem = tmp_path / f"{deck.game.id}-index-everest-d-rulebook"
    brf = stem.with_suffix(".brf").read_bytes()
    assert set(brf) <= set(range(0x20, 0x60)) | {0x0D, 0x0A, 0x0C}
    assert brf.count(b"\n") == brf.count(b"\r\n") and brf.endswith(b"\r\n\x0c")
    assert check_brf(brf, 43, 25) == []
    assert all(len(page) == 25 and all(len(line) <= 43 for line in page) for page in read_brf(brf))
    assert validate_pef(stem.with_suffix(".pef"), schema=SHARED_SCHEMA) == []
    [vol] = [v for v in result.sidecar["volumes"] if v["volume"] == "rulebook"]
    first_page = [r for r in read_pef(stem.with_suffix(".pef"))[vol["preliminary_pages"]] if r]
    first_heading = ueb(Rulebook.read(SEEDS / seed).headings()[0].body)
    # The heading may run over two centred lines (Claim's is 37 cells, wider than 43 - 2 × 3).
    assert B.join(r.strip(B) for r in first_page).startswith(first_heading + B)
    assert first_page[0].startswith(B * 3)  # centred, at least 3 blank cells before it


def test_untranslatable_rulebook_character_is_a_located_finding(tmp_path):
    rb = tmp_path / "rules.md"
    rb.write_text("# Setup\n\nShuffle the deck.\nRoll \u2603 twice.\n", encoding="utf-8")
    deck = load_game(CARDDATA / "enchant")
    result = write_volumes(deck, EVEREST, tmp_path, "2026-01-01", rulebook=rb)
    [f] = result.findings
    assert (f.code, f.location.line, f.location.column) == ("EM010", 4, 6)
    assert f.location.file.endswith("rules.md") and "U+2603" in f.message


def test_a_named_rulebook_that_is_missing_is_an_info_finding_and_no_volume(tmp_path):
    deck = load_game(CARDDATA / "enchant")
    deck = deck.model_copy(update={"game": deck.game.model_copy(update={"rulebook": "rules/none.txt"})})
    result = write_volumes(deck, EVEREST, tmp_path, "2026-01-01")
    [f] = result.findings
    assert (f.code, f.severity.value) == ("EM011", "info") and "rules/none.txt" in f.message
    assert [v["volume"] for v in result.sidecar["volumes"]] == ["card-reference", "braille-key"]


def test_a_named_rulebook_that_exists_gives_the_volume(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "rules.txt").write_text("SETUP\n\nDeal five cards.\n", encoding="utf-8")
    deck = load_game(CARDDATA / "enchant")
    deck = deck.model_copy(update={"folder": str(tmp_path / "game"),
                                   "game": deck.game.model_copy(update={"rulebook": "rules.txt"})})
    result = write_volumes(deck, EVEREST, tmp_path, "2026-01-01")
    assert [v["volume"] for v in result.sidecar["volumes"]][-1] == "rulebook"
    assert json.loads((tmp_path / "enchant-index-everest-d-volumes.json").read_text())["volumes"][-1]["source"] == "rules.txt"


@pytest.mark.parametrize("content", [None, b"\x00\x01binary"])
def test_build_with_a_rulebook_that_is_missing_or_not_text_exits_2_naming_it(tmp_path, content):
    path = tmp_path / "rules.bin"
    if content is not None:
        path.write_bytes(content)
    result = CliRunner().invoke(app, ["build", str(CARDDATA / "enchant"), "--out", str(tmp_path / "out"), "--rulebook", str(path)])
    assert result.exit_code == 2 and str(path) in result.output.replace("\n", "")


def test_a_changed_rulebook_text_changes_the_build_key(tmp_path):
    from pipeline.build.manifest import build_key

    rb = tmp_path / "rules.txt"
    rb.write_text("SETUP\n\nDeal five cards.\n", encoding="utf-8")
    first = build_key(CARDDATA / "enchant", {"rulebook": str(rb)})
    rb.write_text("SETUP\n\nDeal six cards.\n", encoding="utf-8")
    assert build_key(CARDDATA / "enchant", {"rulebook": str(rb)}) != first


def test_a_card_reference_entry_that_fits_on_a_page_is_not_split():
    """An entry's last line alone on the next page (a new user's try: ",P[]3 #G4" of a 4-card game
    sat alone on the next page). Synthetic blocks on pages of 20 cells x 6 lines (5 text lines and
    the page number): an entry of 4 lines after a 3-line one moves whole to the next page; one
    longer than a page still runs on (control), and without ``keep`` the old flow stands (control)."""
    from pipeline.emboss.bana import Item, paginate_book

    cells = "\u2801" * 5  # one short line
    first = [Item("heading", cells, keep=True), Item("item", cells)]
    entry = [Item("heading", cells, keep=True), Item("item", cells), Item("item", cells)]
    kept = paginate_book(first + entry, 20, 6)
    assert [len([r for r in page[:-1] if r]) for page in kept.pages] == [2, 3]  # blank + 3 lines > the 3 left: moved whole
    loose = paginate_book([Item(i.kind, i.cells) for i in first + entry], 20, 6)
    assert [len([r for r in page[:-1] if r]) for page in loose.pages] == [4, 1]  # heading kept with its next line only
    long = [Item("heading", cells, keep=True)] + [Item("item", cells)] * 7
    assert len(paginate_book(first + long, 20, 6).pages) == 3  # 8 lines, more than a page: runs on from page 1 (2 + blank + 2, 5, 1)


def test_no_entry_of_a_shipped_card_reference_spans_two_pages_when_it_fits_on_one():
    """The reference: each entry's heading page (its anchor) against the page of its last line."""
    from pipeline.emboss.volumes import card_reference

    deck = load_game(CARDDATA / "apprentice")
    volume = card_reference(deck, 40, 25, "2026-11-29")
    assert len(volume.pages) > 2
    for n in range(1, len(deck.cards) + 1):
        start = volume.anchors[f"entry-{n}"]
        nxt = volume.anchors.get(f"entry-{n + 1}")
        if nxt is not None and start != nxt:  # entry n ends on the page before entry n+1 starts, or on its own
            assert int(nxt) - int(start) <= 1
