"""Proofs: pixel size at 150 dpi, the braille dot overlay exactly where the dot map puts the dots,
provisional and placeholder-art stamps, back proofs and the contact sheet."""

from __future__ import annotations

import math

import lxml.html
import pytest
from PIL import Image

from engine.findings import Finding, Location, Severity
from engine.load import load_game
from engine.units import mm_to_pt
from pipeline.braille.layout import layout_deck
from pipeline.proofs.proof import DOT_RGBA, PROOF_DPI, proof_front, write_contact_sheet, write_proofs
from pipeline.common.raster import expected_size, render_page
from pipeline.render.deck_pdf import render_backs, render_fronts
from pipeline.render.tactile import dot_map


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The mini fixture game: deck, blocks, fronts and backs PDFs, and its proofs at 150 dpi."""
    from conftest import GAMES

    tmp = tmp_path_factory.mktemp("proof")
    deck = load_game(GAMES / "mini")
    blocks, findings = layout_deck(deck)
    fronts = render_fronts(deck, tmp / "fronts.pdf")
    backs = render_backs(deck, tmp / "backs.pdf")
    extra = Finding("BR001", "braille-overflow", Severity.error, "needs 12 lines <but> the box holds 9",
                    location=Location("cards.yaml", 3, 5, "fireball"))
    written = write_proofs(deck, blocks, fronts.path, backs.path, tmp / "proofs", [*findings, extra],
                           front_ids=fronts.pages, back_ids=backs.pages)
    return {"deck": deck, "blocks": blocks, "fronts": fronts.path, "dir": tmp / "proofs", "written": written, "tmp": tmp}


def test_proof_png_is_the_bled_card_at_150_dpi(built):
    # 234 × 378 pt × 150/72 = 487.5 × 787.5 px; pypdfium2 renders ceil() of each side.
    assert expected_size(234, 378, 150) == (488, 788)
    for card in built["deck"].cards:
        with Image.open(built["dir"] / "fronts" / f"{card.id}.png") as im:
            assert im.size == (488, 788) and im.mode == "RGB"
    assert PROOF_DPI == 150


def _blend(over: tuple[int, int, int, int], under: tuple[int, int, int]) -> tuple[int, ...]:
    a = over[3] / 255
    return tuple(round(o * a + u * (1 - a)) for o, u in zip(over[:3], under))


def test_dot_overlay_sits_where_the_dot_map_says(built, tmp_path):
    from pipeline.render.softproof import soft_proof_pdf

    deck, blocks = built["deck"], built["blocks"]
    card = deck.card_by_id("forest-apprentice")
    # the proof shows the page as FOGRA39 prints it (soft proof), under the overlay
    soft = soft_proof_pdf(built["fronts"], tmp_path / "soft.pdf")
    raster = render_page(soft, [c.id for c in deck.cards].index(card.id), dpi=150)
    base = proof_front(raster, deck, card, blocks[card.id], overlay=False)
    with Image.open(built["dir"] / "fronts" / f"{card.id}.png") as im:
        proof = im.convert("RGB")
    scale = 150 / 72
    bleed_pt = 9  # 0.125 in
    centres = [((bleed_pt + mm_to_pt(x)) * scale, (bleed_pt + mm_to_pt(y)) * scale)
               for x, y in dot_map(blocks)["cards"][card.id]["dots"]]
    assert len(centres) == len(blocks[card.id].dots()) > 20
    # every dot centre shows the overlay colour blended over the proof underneath
    for cx, cy in centres:
        px = (int(cx), int(cy))
        expected = _blend(DOT_RGBA, base.getpixel(px))
        assert all(abs(a - b) <= 2 for a, b in zip(proof.getpixel(px), expected)), (px, proof.getpixel(px), expected)
    # and nothing else changed: every differing pixel lies within a dot (radius 0.72 mm = 4.25 px)
    radius = 1.44 / 2 / 25.4 * 150
    diff = _diff_pixels(proof, base)
    assert diff
    assert all(min(math.hypot(x + 0.5 - cx, y + 0.5 - cy) for cx, cy in centres) <= radius + 1.5 for x, y in diff)


def _diff_pixels(a: Image.Image, b: Image.Image) -> list[tuple[int, int]]:
    from PIL import ImageChops

    mask = ImageChops.difference(a, b).convert("L").tobytes()
    return [(i % a.width, i // a.width) for i, v in enumerate(mask) if v]


def _red_stamp_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels of the stamp's translucent dark red over the white card ground (about (198, 71, 71))."""
    data = image.crop(box).convert("RGB").tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i] > 150 and data[i + 1] < 110 and data[i + 2] < 110)


def test_provisional_card_is_stamped_and_a_rulebook_card_is_not(built):
    d = built["dir"] / "fronts"
    middle = (40, 230, 450, 400)  # the diagonal PROVISIONAL band crosses the card's middle
    with Image.open(d / "ember-ranger.png") as provisional, Image.open(d / "ember-apprentice.png") as rulebook:
        assert _red_stamp_pixels(provisional.convert("RGB"), middle) > 5000
        assert _red_stamp_pixels(rulebook.convert("RGB"), middle) == 0


def test_placeholder_art_is_stamped_until_the_art_exists(built, game_copy):
    d = built["dir"] / "fronts"
    art_band = (19, 430, 469, 505)  # lower 30 % of the art box (0.25–2.75 in × 1.32–3.42 in, plus 9 pt bleed)
    with Image.open(d / "ember-apprentice.png") as placeholder:
        assert _red_stamp_pixels(placeholder.convert("RGB"), art_band) > 3000
    # the same card with an art file in the game folder: no stamp
    folder = game_copy("mini")
    Image.new("RGB", (300, 250), (40, 160, 60)).save(folder / "art.png")
    text = (folder / "cards.yaml").read_text(encoding="utf-8")
    (folder / "cards.yaml").write_text(text.replace("    provenance: rulebook\n", "    image: art.png\n    provenance: rulebook\n", 1), encoding="utf-8")
    deck = load_game(folder)
    blocks, _ = layout_deck(deck)
    fronts = render_fronts(deck, folder / "fronts.pdf")
    raster = render_page(fronts.path, 0, dpi=150)
    image = proof_front(raster, deck, deck.cards[0], blocks[deck.cards[0].id], overlay=False)
    assert _red_stamp_pixels(image, art_band) == 0


def test_placeholder_stamp_follows_the_print_rule(game_copy):
    """The stamp and the print's PR004 count agree: a rules card (no art box) is never stamped,
    even with a missing image; an image Pillow cannot read is stamped (the print draws placeholder art)."""
    from pipeline.proofs.proof import has_placeholder_art

    art_band = (19, 430, 469, 505)  # as in test_placeholder_art_is_stamped_until_the_art_exists
    game_copy("mini")  # mini-plus extends ../mini
    folder = game_copy("mini-plus")
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8").replace("    provenance: provisional\n", "    provenance: rulebook\n")
    text = text.replace("    indicator: A\n", "    indicator: A\n    image: art/rally.png\n", 1)
    text = text.replace("    name: Ember Delver\n", "    name: Ember Delver\n    image: art/broken.png\n", 1)
    cards.write_text(text, encoding="utf-8")
    (folder / "art").mkdir()
    (folder / "art" / "broken.png").write_bytes(b"not a PNG at all")
    deck = load_game(folder)
    fronts = render_fronts(deck, folder / "fronts.pdf")
    (info,) = [f for f in fronts.findings if f.code == "PR004"]
    assert info.message.startswith("4 of 4 unique cards with an art box")
    stamped = {c.id: has_placeholder_art(deck, c) for c in deck.cards}
    assert stamped == {"ember-apprentice": True, "forest-apprentice": True, "fireball": True,
                       "ember-delver": True, "crystal-rally": False}
    assert sum(stamped.values()) == 4
    for card_id, band in (("crystal-rally", None), ("ember-delver", art_band)):
        card = deck.card_by_id(card_id)
        raster = render_page(fronts.path, list(fronts.pages).index(card_id), dpi=150)
        image = proof_front(raster, deck, card, None, overlay=False)
        if band is None:
            assert _red_stamp_pixels(image, (0, 0, *image.size)) == 0
        else:
            assert _red_stamp_pixels(image, band) > 3000


def test_back_proofs_one_per_class(built):
    backs = sorted(p.name for p in (built["dir"] / "backs").iterdir())
    assert backs == [".deckpress-files", "ember.png", "forest.png"]
    with Image.open(built["dir"] / "backs" / "ember.png") as im:
        assert im.size == (488, 788)


def test_contact_sheet_lists_every_card_with_its_findings(built):
    doc = lxml.html.fromstring((built["dir"] / "contact-sheet.html").read_bytes())
    items = doc.xpath("//li[@data-card-id]")
    assert [li.get("data-card-id") for li in items] == [c.id for c in built["deck"].cards]
    for li in items:
        img = li.xpath(".//img")[0]
        assert (built["dir"] / img.get("src")).is_file()
    fireball = next(li for li in items if li.get("data-card-id") == "fireball")
    assert "BR001 braille-overflow: needs 12 lines <but> the box holds 9" in " ".join(fireball.text_content().split())
    ranger = next(li for li in items if li.get("data-card-id") == "ember-ranger")
    assert "PROVISIONAL" in ranger.text_content()
    assert "1 error(s)" in doc.xpath("//p[@class='summary']")[0].text_content()
    assert built["written"][-1] == built["dir"] / "contact-sheet.html"


def test_contact_sheet_without_proofs_says_so(built, tmp_path):
    path = write_contact_sheet(built["deck"], tmp_path)
    doc = lxml.html.fromstring(path.read_bytes())
    assert len(doc.xpath("//li[@data-card-id]")) == 4
    assert doc.xpath("//img") == []
    assert doc.text_content().count("No proof rendered.") == 4


def test_raster_errors_name_the_file(built, tmp_path):
    from pipeline.common.raster import RasterError

    bad = tmp_path / "not.pdf"
    bad.write_text("no pdf here")
    with pytest.raises(RasterError, match="not.pdf"):
        render_page(bad, 0)
    with pytest.raises(RasterError, match="has 4 page"):
        render_page(built["fronts"], 4)


def test_trim_origin_comes_from_the_trimbox(built):
    raster = render_page(built["fronts"], 0, dpi=72)
    assert raster.image.size == (234, 378)
    assert raster.trim_origin_px == (9.0, 9.0) and raster.trim_size_pt == (216.0, 360.0)
    assert raster.mm_to_px(25.4, 0) == (81.0, 9.0)  # 1 in = 72 px at 72 dpi, plus the 9 pt bleed
    cropped = render_page(built["fronts"], 0, dpi=96, crop_to_trim=True)
    assert cropped.image.size == (288, 480) and cropped.trim_origin_px == (0.0, 0.0)


def test_contact_sheet_puts_each_hint_on_its_own_line_after_the_message(built, tmp_path):
    hinted = Finding("DQ001", "provisional-card", Severity.info, "a card we supplied", "confirm the card with the publisher",
                     Location("cards.yaml", 3, 5, "fireball"))
    game_wide = Finding("DQ002", "placeholder-base-url", Severity.warning, "a placeholder host", "set archive.base_url",
                        Location("game.yaml", 9, 3))
    sheet = write_contact_sheet(built["deck"], tmp_path, [hinted, game_wide])
    doc = lxml.html.fromstring(sheet.read_bytes())
    findings = doc.xpath("//ul[@class='findings']/li")
    with_hint = [li for li in findings if li.xpath("./span[@class='hint']")]
    assert len(with_hint) == 2
    for li in with_hint:
        hint = li.xpath("./span[@class='hint']")[0]
        assert hint.text_content().startswith("hint: ") and hint.getprevious() is not None  # after the message, apart
        assert "Hint:" not in li.text_content()
    css = doc.xpath("//style")[0].text_content()
    assert ".findings .hint { display: block;" in css  # its own line, as in the terminal


def test_proof_pages_are_the_soft_proof_pages_in_rgba(built):
    """The proofs' own RGBx render gives the shared rasteriser's RGB pixels, size and trim origin, opaque."""
    from pipeline.proofs.pages import proof_pages
    from pipeline.render.softproof import soft_proof_bytes, soft_proof_pages

    soft = soft_proof_bytes(built["fronts"])
    shared = list(soft_proof_pages(built["fronts"], dpi=150, proofed=soft))
    own = list(proof_pages(built["fronts"], 150))  # its own soft proof
    assert len(own) == len(shared) == len(built["deck"].cards)
    for a, b in zip(own, shared):
        assert a.image.mode == "RGBA" and a.image.getchannel("A").getextrema() == (255, 255)
        assert (a.image.size, a.trim_origin_px, a.trim_size_pt) == (b.image.size, b.trim_origin_px, b.trim_size_pt)
        assert a.image.convert("RGB").tobytes() == b.image.tobytes()


def test_written_fronts_are_proof_front_pixel_for_pixel(built):
    """Each fronts/<id>.png (RGBA render, own PNG writer) decodes to what proof_front draws on the shared RGB render."""
    from pipeline.render.softproof import soft_proof_pages

    deck = built["deck"]
    for card, raster in zip(deck.cards, soft_proof_pages(built["fronts"], dpi=150)):
        expected = proof_front(raster, deck, card, built["blocks"].get(card.id))
        with Image.open(built["dir"] / "fronts" / f"{card.id}.png") as im:
            assert im.mode == "RGB" and im.tobytes() == expected.tobytes()
