"""Write or update ``cards.yaml`` from imported card data, keeping the designer's comments and order.

ruamel.yaml (MIT) reads the file in round-trip mode: comments, key order, quoting and flow
lists survive, and a file re-dumped unchanged is byte-identical (checked on every shipped
game). The update is minimal: a field whose value did not change is not touched (so
``power: 3  # chosen low`` keeps its comment), a changed field is set in place, a new field
goes after the fields that precede it in the canonical order, a field the table leaves out is
removed. Cards keep their written form and come in the table's order; a new card is written
in the shipped games' style (double-quoted texts, keywords as a flow list).
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

#: Field order of a card in cards.yaml (as the shipped games write it).
FIELD_ORDER = ("id", "name", "class", "kind", "power", "keywords", "indicator", "copies", "rules", "braille_rules",
               "image", "description", "provenance", "ignore")
#: Text fields a new card writes in double quotes, as the shipped games do.
QUOTED = ("name", "rules", "braille_rules", "alt", "long")


def _yaml() -> YAML:
    """The round-trip YAML of cards.yaml: 2-space mappings, list items indented under their key, no wrapping."""
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _same(old: object, new: object) -> bool:
    """Whether a written value means the same as an imported one (``power: 7`` and "7" do)."""
    if isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new))
    if isinstance(old, bool) or isinstance(new, bool):
        return old is new
    if isinstance(old, int) and isinstance(new, int):
        return old == new
    if isinstance(old, (int, str)) and isinstance(new, str):
        return str(old) == new
    return False


def _styled(key: str, value: object) -> object:
    """A new value in the shipped style: quoted texts, flow keyword lists, a plain number as a number."""
    if key == "power" and isinstance(value, str) and value.isdigit() and (value == "0" or not value.startswith("0")):
        return int(value)
    if isinstance(value, list):
        seq = CommentedSeq([DoubleQuotedScalarString(v) if key == "keywords" else v for v in value])
        seq.fa.set_flow_style()
        return seq
    if isinstance(value, dict):
        return CommentedMap((k, _styled(k, v)) for k, v in value.items())
    if key in QUOTED and isinstance(value, str):
        return DoubleQuotedScalarString(value)
    return value


def _update(old: CommentedMap, new: dict, order: tuple[str, ...]) -> None:
    """Make ``old`` hold exactly ``new``'s fields, touching only what changed (see module docs)."""
    for key in [k for k in old if k not in new]:
        del old[key]
    for key, value in new.items():
        if key in old and isinstance(old[key], CommentedMap) and isinstance(value, dict):
            _update(old[key], value, tuple(value))
        elif key in old:
            if not _same(old[key], value):
                old[key] = _styled(key, value)
        else:
            rank = order.index(key) if key in order else len(order)
            before = [i for i, k in enumerate(old) if k in order and order.index(k) < rank]
            old.insert(before[-1] + 1 if before else 0, key, _styled(key, value))


def _ordered(card: dict) -> dict:
    """A card's fields in :data:`FIELD_ORDER`."""
    return {k: card[k] for k in sorted(card, key=lambda k: FIELD_ORDER.index(k) if k in FIELD_ORDER else len(FIELD_ORDER))}


def updated_text(existing: str | None, cards: list[dict]) -> str:
    """The text of cards.yaml holding ``cards`` (plain data, in order), based on ``existing`` (None: a new file).

    Cards are matched to the written ones by ``id``; see the module docs for what is kept.
    """
    yaml = _yaml()
    doc = yaml.load(existing) if existing and existing.strip() else None
    if not isinstance(doc, CommentedMap):
        doc = CommentedMap()
    written = doc.get("cards") if isinstance(doc.get("cards"), CommentedSeq) else CommentedSeq()
    by_id = {item.get("id"): item for item in written if isinstance(item, CommentedMap)}
    seq = CommentedSeq()
    for card in cards:
        item = by_id.pop(card.get("id"), None)
        if item is None:
            item = _styled("card", _ordered(card))
        else:
            _update(item, _ordered(card), FIELD_ORDER)
        seq.append(item)
    if written and written is doc.get("cards"):
        written.clear()
        written.extend(seq)  # the same list object keeps the comments written around it
    else:
        doc["cards"] = seq
    buf = io.StringIO()
    yaml.dump(doc, buf)
    return buf.getvalue()


def replace_card_data(path: Path, text: str) -> None:
    """Write ``text`` to the card data file ``path`` atomically (temporary file, fsync, rename).

    Card data is the designer's own file, which ``deckpress import`` is asked to update, so it
    is neither an output nor in a ledger (pipeline.common.files would refuse it). The previous
    file stays whole until the new one is complete. Raises OSError when the folder cannot be written.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
