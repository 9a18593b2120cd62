"""Tabletop Simulator export: deck sheets, back images and the saved object that loads them as decks.

Tabletop Simulator's custom deck takes a *deck sheet*: one image holding up to 10 × 7 card
faces in a grid, read left to right, top to bottom; the grid's last slot is the "hidden card",
the face shown for a card in another player's hand (here the deck's back). Each deck also
names a back image. The saved-object JSON (what TTS's Objects → Saved Objects loads) holds
one ``DeckCustom`` object per deck: ``CustomDeck`` maps a sheet number to its ``FaceURL``,
``BackURL``, ``NumWidth`` and ``NumHeight``; ``DeckIDs`` lists every physical card as
``sheet number × 100 + slot`` (copies repeat their id), and ``ContainedObjects`` holds one
``Card`` per id with its name (``Nickname``) and alt text (``Description``). A deck of one
physical card is saved as a lone ``Card`` (TTS has no deck of one).

The faces and backs are the print PDFs (fronts and backs, :mod:`pipeline.render.deck_pdf`)
rasterised by :mod:`pipeline.common.raster`, the proofs' rasteriser, cropped to the trim.
"""

from __future__ import annotations

import io
import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from engine.cards import Card
from engine.model import Deck
from pipeline.common.files import write_bytes, write_text
from pipeline.common.raster import render_pages
from pipeline.render.deck_pdf import render_backs, render_fronts

#: TTS's largest deck sheet grid (columns × rows).
MAX_COLUMNS, MAX_ROWS = 10, 7
#: Faces per sheet: every slot but the last, which is the hidden card.
FACES_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1
#: Resolution of the faces: a 3 × 5 in card is 300 × 500 px, a full 10 × 7 sheet 3000 × 3500 px.
TTS_DPI = 100
#: TTS's stock card is 2.5 × 3.5 in (poker); the card object is stretched on its long side to the game's aspect.
TTS_CARD_ASPECT = 3.5 / 2.5


@dataclass(frozen=True)
class TtsDeck:
    """One deck on the table: its ``key`` (file names), ``name``, the ``back`` page index of the
    backs PDF, and its unique ``cards`` in deck order (copies say how many of each)."""

    key: str
    name: str
    back: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class TtsSheet:
    """One deck sheet image: its file ``name``, grid ``columns`` × ``rows``, and the cards of its slots."""

    name: str
    columns: int
    rows: int
    cards: tuple[Card, ...]


def decks_by_back(deck: Deck) -> list[TtsDeck]:
    """The game's cards grouped by the back they print with: one deck per back.

    Today every class prints its own back (``render_backs`` draws one per class, in the
    game's class order), so this is one deck per class that has cards. When the game data
    gets its own back model, this function alone changes.
    """
    out = []
    for index, cls in enumerate(deck.game.classes):
        cards = tuple(deck.cards_of(cls.id))
        if cards:
            out.append(TtsDeck(key=cls.id, name=cls.name, back=index, cards=cards))
    return out


def sheet_grid(slots: int) -> tuple[int, int]:
    """Columns and rows of a sheet for ``slots`` slots (faces plus the hidden card): up to 10 wide, then rows.

    ``sheet_grid(16)`` → (10, 2); ``sheet_grid(4)`` → (4, 1); ``sheet_grid(70)`` → (10, 7).
    Raises ValueError past 70 slots.
    """
    if not 1 <= slots <= MAX_COLUMNS * MAX_ROWS:
        raise ValueError(f"a deck sheet holds 1 to {MAX_COLUMNS * MAX_ROWS} slots, not {slots}")
    columns = min(MAX_COLUMNS, slots)
    return columns, math.ceil(slots / columns)


def plan_sheets(game_id: str, tts_deck: TtsDeck) -> list[TtsSheet]:
    """The deck's sheets: its unique cards in order, :data:`FACES_PER_SHEET` per sheet, each with room for the hidden card."""
    chunks = [tts_deck.cards[i:i + FACES_PER_SHEET] for i in range(0, len(tts_deck.cards), FACES_PER_SHEET)]
    sheets = []
    for n, chunk in enumerate(chunks, 1):
        suffix = f"-{n}" if len(chunks) > 1 else ""
        columns, rows = sheet_grid(len(chunk) + 1)
        sheets.append(TtsSheet(f"{game_id}-{tts_deck.key}-faces{suffix}.png", columns, rows, chunk))
    return sheets


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _sheet_image(sheet: TtsSheet, faces: dict[str, Image.Image], hidden: Image.Image) -> Image.Image:
    """The sheet: faces in slot order, the hidden card (the back) in the grid's last slot."""
    width, height = hidden.size
    image = Image.new("RGB", (sheet.columns * width, sheet.rows * height), "white")
    for slot, card in enumerate(sheet.cards):
        image.paste(faces[card.id].resize((width, height)), ((slot % sheet.columns) * width, (slot // sheet.columns) * height))
    last = sheet.columns * sheet.rows - 1
    image.paste(hidden, ((last % sheet.columns) * width, (last // sheet.columns) * height))
    return image


def _card_object(card: Card, card_id: int, custom: dict, scale: float) -> dict:
    return {"Name": "Card", "CardID": card_id, "Nickname": card.name, "Description": card.description.alt,
            "GMNotes": card.id, "CustomDeck": custom, "Transform": _transform(0.0, scale)}


def _transform(x: float, scale_z: float) -> dict:
    """Lying face down (rotZ 180) at ``x`` on the table, stretched to the card's aspect along z."""
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": round(scale_z, 4)}


def saved_object(game_title: str, decks: list[tuple[TtsDeck, list[TtsSheet], str]], base_url: str, aspect: float) -> dict:
    """The saved-object document: one DeckCustom (or lone Card) per deck, side by side.

    ``decks`` pairs each deck with its sheets and back image name; ``base_url`` (ending in
    ``/``) is where the images will be found; ``aspect`` is the card's height / width.
    """
    objects = []
    number = 1
    scale = aspect / TTS_CARD_ASPECT
    for position, (tts_deck, sheets, back_name) in enumerate(decks):
        custom, ids, contained = {}, [], []
        for sheet in sheets:
            entry = {"FaceURL": base_url + sheet.name, "BackURL": base_url + back_name, "NumWidth": sheet.columns,
                     "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
            custom[str(number)] = entry
            for slot, card in enumerate(sheet.cards):
                for _ in range(card.copies):
                    ids.append(number * 100 + slot)
                    contained.append(_card_object(card, number * 100 + slot, {str(number): entry}, scale))
            number += 1
        x = position * 3.0
        if len(ids) == 1:
            lone = contained[0]
            lone["Transform"] = _transform(x, scale)
            objects.append(lone)
            continue
        objects.append({"Name": "DeckCustom", "Nickname": f"{game_title}: {tts_deck.name}", "Description": "",
                        "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained, "Transform": _transform(x, scale)})
    return {"SaveName": game_title, "ObjectStates": objects}


def write_tts(deck: Deck, out_dir: Path, base_url: str | None = None) -> list[Path]:
    """Write the game's TTS files into ``out_dir``: ``<game>-<deck>-faces.png`` sheets,
    ``<game>-<deck>-back.png`` backs and ``<game>-tts.json``; returns the paths written.

    ``base_url`` is the URL the images will be uploaded to (``/`` added when missing); by
    default the ``file://`` URL of ``out_dir``, which TTS opens on this machine. Raises what
    :func:`render_fronts` raises (NoCardLayout, UnknownClassError), and OutputError /
    ForeignOutput when ``out_dir`` cannot be written or holds a file deckpress did not write.
    """
    out_dir = Path(out_dir)
    url = base_url if base_url is not None else out_dir.resolve().as_uri()
    url = url if url.endswith("/") else url + "/"
    game = deck.game.id
    with tempfile.TemporaryDirectory(prefix="deckpress-tts-") as tmp:
        fronts = render_fronts(deck, Path(tmp) / "fronts.pdf")
        backs = render_backs(deck, Path(tmp) / "backs.pdf")
        faces = {card_id: r.image for card_id, r in zip(fronts.pages, render_pages(fronts.path, TTS_DPI, crop_to_trim=True))}
        back_images = [r.image for r in render_pages(backs.path, TTS_DPI, crop_to_trim=True)]
    written: list[Path] = []
    planned = []
    for tts_deck in decks_by_back(deck):
        back = back_images[tts_deck.back]
        back_name = f"{game}-{tts_deck.key}-back.png"
        written.append(write_bytes(out_dir / back_name, _png(back)))
        sheets = plan_sheets(game, tts_deck)
        for sheet in sheets:
            written.append(write_bytes(out_dir / sheet.name, _png(_sheet_image(sheet, faces, back))))
        planned.append((tts_deck, sheets, back_name))
    trim = deck.game.card
    document = saved_object(deck.game.title, planned, url, float(trim.height) / float(trim.width))
    written.append(write_text(out_dir / f"{game}-tts.json", json.dumps(document, indent=2, ensure_ascii=False) + "\n"))
    return written
