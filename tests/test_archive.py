"""The card archive: pages at the QR paths, escaping of untrusted card text, dead-link check,
page structure (one h1, description first, unique titles), dice braille key."""

from __future__ import annotations

import json

from pathlib import Path

import lxml.html
import pytest
import yaml

from engine.load import load_game
from engine.model import Die
from pipeline.archive.site import check_qr_links, die_view, page_path, write_archive
from pipeline.braille.layout import layout_deck


def _edit(folder: Path, name: str, change) -> None:
    path = folder / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_every_qr_path_has_its_card_page(mini_dir, tmp_path):
    deck = load_game(mini_dir)
    written = write_archive(deck, {}, None, tmp_path)
    assert tmp_path / "index.html" in written
    for card in deck.cards:
        url = deck.game.archive.url_for(card)
        assert url == f"https://cards.example.invalid/mini/cards/{card.id}.html"
        page = tmp_path / url.removeprefix(deck.game.archive.base_url)
        assert page in written and page.is_file()
        doc = lxml.html.fromstring(page.read_bytes())
        assert [h.text_content() for h in doc.iter("h1")] == [card.name]
        assert doc.find(".//meta[@name='deckpress-card']").get("content") == card.id
    assert check_qr_links(deck, tmp_path) == []


def test_index_lists_every_card_by_class_with_working_links(mini_dir, tmp_path):
    deck = load_game(mini_dir)
    write_archive(deck, {}, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "index.html").read_bytes())
    links = [a.get("href") for a in doc.xpath("//ul[@class='card-list']//a")]
    assert links == ["cards/ember-apprentice.html", "cards/ember-ranger.html", "cards/forest-apprentice.html", "cards/fireball.html"]
    assert all((tmp_path / href).is_file() for href in links)
    assert [h.text_content() for h in doc.iter("h1")] == ["Mini ICG"]
    assert doc.get("lang") == "en"
    # the provisional card is marked in words, not by colour
    ranger = next(li for li in doc.xpath("//ul[@class='card-list']/li") if "Ember Ranger" in li.text_content())
    assert "Provisional" in ranger.text_content()


def test_card_page_reading_order_and_content(mini_dir, tmp_path):
    deck = load_game(mini_dir)
    write_archive(deck, {}, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "cards" / "fireball.html").read_bytes())
    main = doc.get_element_by_id("main")
    blocks = [el for el in main.iter("h1", "h2", "p") if el.text_content().strip()]
    # name first, then the image description (short alt, then the long description)
    assert blocks[0].tag == "h1" and blocks[0].text_content() == "Fireball"
    assert blocks[1].text_content() == "Image description"
    assert blocks[2].text_content() == "A ball of fire."
    assert blocks[3].text_content() == "A ball of fire streaks across a dark sky."
    kw = {dt.text_content(): dt.getnext().text_content() for dt in main.xpath(".//dl[@class='keywords']//dt")}
    assert kw == {"Rally!": "Play another card into the battle.", "Enchant!": "Roll the D12 and add it to the power."}
    details = {dt.text_content(): dt.getnext().text_content() for dt in main.xpath(".//dl[@class='details']//dt")}
    assert details["Power"] == "?"
    assert details["Class"].startswith("Forest")
    # landmarks and skip link
    assert doc.xpath("//a[@class='skip-link']")[0].get("href") == "#main"
    assert doc.xpath("//header") and doc.xpath("//footer") and doc.xpath("//nav[@aria-label]")
    # headings never skip a level
    levels = [int(h.tag[1]) for h in doc.iter("h1", "h2", "h3")]
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:]))


def test_titles_are_unique_even_for_cards_with_the_same_name(game_copy, tmp_path):
    folder = game_copy("mini")
    _edit(folder, "cards.yaml", lambda d: d["cards"][1].update(name="Ember Apprentice"))
    deck = load_game(folder)
    write_archive(deck, {}, None, tmp_path / "site")
    titles = [lxml.html.fromstring(p.read_bytes()).findtext(".//title") for p in sorted((tmp_path / "site").rglob("*.html"))]
    assert len(titles) == 6 and len(set(titles)) == 6  # 4 cards, the index, the quickstart page
    assert "Ember Apprentice, Ember card – Mini ICG card archive (ember-ranger)" in titles


def test_card_text_is_html_escaped(game_copy, tmp_path):
    folder = game_copy("mini")
    evil = '<script>alert("x")</script> & <b>bold</b>'

    def change(d):
        d["cards"][0]["name"] = evil
        d["cards"][0]["rules"] = "<img src=x onerror=alert(1)>"
        d["cards"][0]["description"]["alt"] = '"><script>alert(2)</script>'

    _edit(folder, "cards.yaml", change)
    deck = load_game(folder)
    write_archive(deck, {}, None, tmp_path / "site")
    for page in (tmp_path / "site" / "cards" / "ember-apprentice.html", tmp_path / "site" / "index.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script" not in html
        assert "<img src=x" not in html and "<b>" not in html
    html = (tmp_path / "site" / "cards" / "ember-apprentice.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html
    doc = lxml.html.fromstring(html)
    assert doc.findtext(".//h1") == evil  # the browser shows the text exactly as written


def test_dead_qr_link_is_reported_at_the_card(mini_dir, tmp_path):
    deck = load_game(mini_dir)
    write_archive(deck, {}, None, tmp_path)
    (tmp_path / "cards" / "ember-ranger.html").unlink()
    findings = check_qr_links(deck, tmp_path)
    assert [(f.code, f.name, f.location.card) for f in findings] == [("AR001", "qr-link-without-page", "ember-ranger")]
    assert "https://cards.example.invalid/mini/cards/ember-ranger.html" in findings[0].message
    assert findings[0].location.file.endswith("cards.yaml") and findings[0].location.line is not None


def test_shared_archive_path_is_a_wrong_page(game_copy, tmp_path):
    folder = game_copy("mini")
    deck = load_game(folder)
    deck.game.archive.card_path = "cards/{class_id}.html"  # refused by the model (DA003); set after loading to test the archive's own check
    write_archive(deck, {}, None, tmp_path / "site")
    findings = check_qr_links(deck, tmp_path / "site")
    # the last card of each class owns the page; the first card of each class links to it
    assert sorted((f.code, f.location.card) for f in findings) == [("AR003", "ember-apprentice"), ("AR003", "forest-apprentice")]


def test_unsafe_archive_path_writes_nothing_outside(game_copy, tmp_path):
    folder = game_copy("mini")
    deck = load_game(folder)
    deck.game.archive.card_path = "../{id}.html"  # refused by the model (DA003); set after loading to test the archive's own guard
    written = write_archive(deck, {}, None, tmp_path / "site")
    assert all(tmp_path / "site" in p.parents for p in written)
    assert not list(tmp_path.glob("*.html"))
    findings = check_qr_links(deck, tmp_path / "site")
    assert {f.code for f in findings} == {"AR002"} and len(findings) == 4


@pytest.mark.parametrize(
    ("card_path", "expected"),
    [("cards/x.html", "cards/x.html"), ("cards/x/", "cards/x/index.html"), ("../x.html", None),
     ("/x.html", None), ("cards//x.html", None), ("cards/x.html?y=1", None), ("a\\b.html", None)],
)
def test_page_path(card_path, expected):
    result = page_path(card_path)
    assert (str(result) if result else None) == expected


def test_die_view_takes_the_faces_from_the_braille_stage():
    d6 = Die(id="d6", name="D6", faces=6, size="16mm", shape="d6-cube", encoding="ueb-numbers")
    view = die_view(d6)
    assert [(r["label"], r["cells"], r["dots"]) for r in view["key_rows"]][-1] == ("6", "⠼⠋", "dots 3456 dots 124")
    assert [r["underline"] for r in view["key_rows"]] == [False] * 5 + [True]  # 6 reads as 9 upside down


def test_index_shows_the_dice_key(mini_dir, tmp_path):
    deck = load_game(mini_dir)
    write_archive(deck, {}, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "index.html").read_bytes())
    rows = [[c.text_content() for c in tr] for tr in doc.xpath("//section[@aria-labelledby='dice']//tbody/tr")]
    assert len(rows) == 12
    assert rows[11] == ["12", "⠇", "dots 123"]


def test_braille_lines_with_their_print_equivalent(mini_dir, tmp_path):
    deck = load_game(mini_dir)
    blocks, _ = layout_deck(deck)
    write_archive(deck, blocks, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "cards" / "fireball.html").read_bytes())
    rows = [[c.text_content() for c in tr] for tr in doc.xpath("//table[@class='braille-lines']/tbody/tr")]
    block = blocks["fireball"]
    assert [r[1] for r in rows] == list(block.lines)
    # checked by hand against UEB grade 2: class indicator F standing alone = grade 1 symbol indicator
    # + capital sign + f ⠰⠠⠋ (⠠⠋ alone would read "From", UEB §5.7); "Fireball" letter by
    # letter ⠠⠋⠊⠗⠑⠃⠁⠇⠇ (no contraction applies); power "?" = full cell ⠿ then question mark ⠦
    assert rows[0] == ["1", "⠰⠠⠋", "Class indicator"]
    assert rows[1] == ["2", "⠠⠋⠊⠗⠑⠃⠁⠇⠇", "Name"]
    assert rows[-1][1:] == ["⠿⠦", "Power"]
    assert all(r[1].strip() and all("⠀" <= ch <= "⠿" for ch in r[1]) for r in rows)
    assert doc.xpath("//table[@class='braille-lines']//span/@lang") == ["en-Brai"] * len(rows)
    parts = {dt.text_content(): dt.getnext().text_content() for dt in doc.xpath("//section[@aria-labelledby='braille-heading']//dl//dt")}
    assert parts == {"Class indicator": "F (Forest)", "Name": "Fireball", "Keywords": "Rally! Enchant!", "Power": "?"}


def test_card_face_image_from_the_fronts_pdf(mini_dir, tmp_path):
    import zxingcpp
    from PIL import Image

    from pipeline.render.deck_pdf import render_fronts

    deck = load_game(mini_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    written = write_archive(deck, {}, fronts.path, tmp_path / "site", page_ids=fronts.pages)
    for card in deck.cards:
        image = tmp_path / "site" / "images" / f"{card.id}.png"
        assert image in written
        with Image.open(image) as im:
            assert im.size == (288, 480)  # the 3×5 in trim at 96 dpi, bleed cut off
        page = tmp_path / "site" / "cards" / f"{card.id}.html"
        img = lxml.html.fromstring(page.read_bytes()).xpath("//figure[@class='card-face']/img")[0]
        assert img.get("alt") == card.description.alt
        assert (page.parent / img.get("src")).resolve() == image.resolve()
        assert (img.get("width"), img.get("height")) == ("288", "480")
        # the face is this card's: its QR code decodes to the URL of this very page
        with Image.open(image) as im:
            assert [r.text for r in zxingcpp.read_barcodes(im)] == [deck.game.archive.url_for(card)]


def test_fronts_pdf_missing_a_card_is_an_error(mini_dir, tmp_path):
    from pipeline.archive.site import ArchiveError
    from pipeline.render.deck_pdf import render_fronts

    deck = load_game(mini_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    with pytest.raises(ArchiveError, match="fireball"):
        write_archive(deck, {}, fronts.path, tmp_path / "site", page_ids=list(fronts.pages[:3]) + ["other"])


def test_fronts_pdf_shorter_than_its_page_ids_is_an_error(mini_dir, tmp_path):
    from pipeline.archive.site import ArchiveError
    from pipeline.render.deck_pdf import render_fronts

    deck = load_game(mini_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    # every card's first page index lies past the PDF's last page: no face, named in the error
    ids = ["other"] * len(fronts.pages) + list(fronts.pages)
    with pytest.raises(ArchiveError, match="no face page for card.*ember-apprentice"):
        write_archive(deck, {}, fronts.path, tmp_path / "site", page_ids=ids)


def test_index_classes_show_the_braille_indicator(mini_dir, tmp_path):
    deck = load_game(mini_dir)
    write_archive(deck, {}, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "index.html").read_bytes())
    rows = [[" ".join(c.text_content().split()) for c in tr] for tr in doc.xpath("//section[@aria-labelledby='classes']//tbody/tr")]
    # a letter standing alone in grade 2 (UEB §5.7): grade 1 symbol indicator ⠰, capital sign ⠠, letter (e ⠑, f ⠋)
    assert [r[1:] for r in rows] == [["E ⠰⠠⠑", "2 unique, 4 printed"], ["F ⠰⠠⠋", "2 unique, 4 printed"]]
    note = doc.xpath("//section[@aria-labelledby='classes']/p/text()")[0]
    assert "⠰⠠⠑" in note and "Every" in note
    assert doc.xpath("//section[@aria-labelledby='classes']//tbody/tr/th/a/text()") == ["Ember", "Forest"]


def test_shortened_braille_rules_are_labelled(game_copy, tmp_path):
    folder = game_copy("mini")
    _edit(folder, "cards.yaml", lambda d: d["cards"][3].update(rules="Swap this card with any card in the battle, then roll.", braille_rules="Swap a card."))
    deck = load_game(folder)
    blocks, _ = layout_deck(deck)
    write_archive(deck, blocks, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "cards" / "fireball.html").read_bytes())
    parts = {dt.text_content(): dt.getnext().text_content() for dt in doc.xpath("//section[@aria-labelledby='braille-heading']//dl//dt")}
    assert parts["Rules text (not the full print text)"] == "Swap a card."
    assert doc.xpath("//section[@aria-labelledby='rules-heading']/p/text()") == ["Swap this card with any card in the battle, then roll."]
    fields = [tr[2].text_content() for tr in doc.xpath("//table[@class='braille-lines']/tbody/tr")]
    # "Swap a card." is ⠠⠎⠺⠁⠏⠀⠁⠀⠉⠜⠙⠲ (13 cells): two lines of a 10-cell box
    assert fields == ["Class indicator", "Name", "Keywords", "Keywords", "Rules text", "Rules text", "Power"]


def test_card_page_links_its_card_reference_entry_and_the_index_offers_the_volumes(tmp_path):
    from conftest import CARDDATA
    from pipeline.emboss.brf import check_brf
    from pipeline.emboss.validate import validate_pef

    deck = load_game(CARDDATA / "claim-reinforcements-magic")
    blocks, _ = layout_deck(deck)
    write_archive(deck, blocks, None, tmp_path)
    doc = lxml.html.fromstring((tmp_path / "cards" / "eternal-lantern.html").read_bytes())
    section = doc.xpath("//section[@aria-labelledby='reference-heading']")[0]
    sidecar = json.loads((tmp_path / "braille" / "claim-reinforcements-magic-index-everest-d-volumes.json").read_text())
    entry = sidecar["volumes"][0]["entries"]["eternal-lantern"]
    assert f"entry {entry['entry']} of the braille card reference, on braille page {entry['page']}" in section.text_content()
    hrefs = section.xpath(".//a/@href")
    assert hrefs == ["../braille/claim-reinforcements-magic-index-everest-d-card-reference.brf",
                     "../braille/claim-reinforcements-magic-index-everest-d-card-reference.pef"]
    assert check_brf((tmp_path / "cards" / hrefs[0]).resolve().read_bytes(), 43, 25) == []
    assert validate_pef((tmp_path / "cards" / hrefs[1]).resolve()) == []
    # Its braille carries the reference in place of rules too long for the card.
    parts = {dt.text_content(): dt.getnext().text_content() for dt in doc.xpath("//section[@aria-labelledby='braille-heading']//dl//dt")}
    assert parts["Rules text (not the full print text)"] == f"See card reference {entry['entry']}."
    index = lxml.html.fromstring((tmp_path / "index.html").read_bytes())
    items = [" ".join(li.text_content().split()) for li in index.xpath("//section[@aria-labelledby='volumes']//li")]
    assert items == [f"{v['title']} ({v['pages']} braille pages): BRF file, PEF file" for v in sidecar["volumes"]]
    assert [v["volume"] for v in sidecar["volumes"]] == ["card-reference", "braille-key"] and sidecar["volumes"][0]["pages"] > 10


def test_index_has_the_power_braille_key_with_the_game_s_own_choices():
    from conftest import CARDDATA
    from engine.load import load_game
    from pipeline.archive.site import power_key, render_index

    deck = load_game(CARDDATA / "apprentice-power-crystal")
    rows = {r["value"]: r for r in power_key(deck)}
    assert (rows["0"]["cells"], rows["0"]["decided"]) == ("⠼⠴", True)  # the data's override (Nemeth zero)
    assert (rows["10"]["cells"], rows["10"]["decided"]) == ("⠼⠚", False)  # the core set's single letter j
    assert rows["?"]["cells"] == "⠿⠦"
    html = render_index(deck)
    assert 'id="power"' in html and "chosen for this game, not standard UEB" in html


@pytest.mark.parametrize("target, page, expected", [
    ("images/fireball.png", "cards/fireball.html", "../images/fireball.png"),
    ("cards/ember-ranger.html", "cards/fireball.html", "ember-ranger.html"),
    ("braille/mini-card-reference.brf", "index.html", "braille/mini-card-reference.brf"),
    ("cards/forest/a.html", "cards/ember/b/index.html", "../../forest/a.html"),
    ("cards/x.html", "cards/x.html/index.html", "."),
    ("cards//./a.html", "cards/b.html", "a.html"),
    ("../outside.html", "cards/b.html", "../../outside.html"),
])
def test_relative_href_is_relpath_without_the_working_folder(target, page, expected):
    import posixpath
    from pathlib import PurePosixPath

    from pipeline.archive.links import relative_href

    assert relative_href(target, PurePosixPath(page)) == expected == posixpath.relpath(target, str(PurePosixPath(page).parent))


def test_the_archive_s_own_places_are_those_dq006_reserves(mini_dir, tmp_path):
    """DQ006 (engine/archive_paths.py) keeps card pages off the archive's own files and folders; its
    list is held against what the archive stage really writes (the reference: the folder's
    entries after a build of the mini archive, card pages in cards/, faces in images/)."""
    from engine.archive_paths import ARCHIVE_FILES, ARCHIVE_FOLDERS
    from pipeline.archive.downloads import DOWNLOADS
    from pipeline.archive.quickstart import QUICKSTART_PAGE
    from pipeline.archive.site import STYLESHEET

    deck = load_game(mini_dir)
    write_archive(deck, {}, None, tmp_path)
    own = {p.name for p in tmp_path.iterdir()} - {"cards", ".deckpress-files"}
    assert own <= set(ARCHIVE_FILES) | set(ARCHIVE_FOLDERS), own
    assert set(ARCHIVE_FILES) == {"index.html", QUICKSTART_PAGE, STYLESHEET} <= own
    assert set(ARCHIVE_FOLDERS) == {"images", DOWNLOADS}
