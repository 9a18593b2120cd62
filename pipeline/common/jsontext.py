"""JSON text of deckpress's large records (manifest.json, report.json): one list item a line.

``json.dumps(doc, indent=2)`` runs CPython's pure-Python encoder (its C encoder has no indent),
0.20 s for the 12 MB manifest of a 10,000-card game and 0.12 s for its report, on the serial
tail of a build and on every rebuild whose report changes. Here objects are indented as
``indent=2`` does, but each item of a list is written on one line by the C encoder: the same
data (``json.loads`` gives back an equal object), a file that diffs and greps a record a line
(one output file, one finding), at about a quarter of the time.
"""

from __future__ import annotations

import hashlib
import json
from json import encoder as _encoder
from typing import Callable

# The C encoder of one value, compact but with json.dumps's default separators; None where
# CPython's _json accelerator is missing (then the JSONEncoder below does the same, slower).
_C_ENCODE = (_encoder.c_make_encoder(None, None, _encoder.encode_basestring, None, ": ", ", ", False, False, True)
             if _encoder.c_make_encoder is not None else None)
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def _one_line(value: object) -> str:
    """``value`` as ``json.dumps(value, ensure_ascii=False)`` writes it (one line: JSON escapes every newline in a string)."""
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def items_sha256(items: list) -> str:
    """Hex sha256 over the texts :func:`document_text` writes for the items of a list, one a line:
    what :func:`items_texts_sha256` gives for :func:`top_level_items` of that text."""
    return items_texts_sha256([_one_line(item) for item in items])


def items_texts_sha256(texts: list[str]) -> str:
    """Hex sha256 over items' one-line texts, each followed by a newline (UTF-8)."""
    return hashlib.sha256("".join(text + "\n" for text in texts).encode("utf-8")).hexdigest()


class ItemTexts:
    """A JSON list given by its items' texts as :func:`document_text` writes them (one line each,
    :func:`top_level_items`), so the list is written again without encoding its items; ``data``
    gives the items themselves when something compares them. Equal to a list of the same data.
    A report.json that copies a manifest's 10,000 findings spends 0.04 s encoding them (issue 22)."""

    def __init__(self, texts: list[str], data: Callable[[], list]) -> None:
        self.texts, self._data, self._items = texts, data, None

    def data(self) -> list:
        """The items (``data()`` once)."""
        if self._items is None:
            self._items = self._data()
        return self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ItemTexts):
            return self.texts == other.texts or self.data() == other.data()
        return self.data() == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # as a list


def top_level_items(text: bytes, key: str) -> list[str] | None:
    """The items' texts of the list under ``key`` of the top-level object of a :func:`document_text`
    ``text`` (UTF-8 bytes), each as its line holds it; ``[]`` for an empty list; None when ``text``
    has no such list in that layout, or the key twice (another writer's text: parse it instead).

    Found by the layout: a top-level key starts its line after two spaces and a list's items follow
    one a line after four, ending ``\n  ]``; an item's text holds no line break (JSON escapes it in a
    string). A text edited by hand in the same layout passes: a caller that copies the items' texts
    checks them against what it recorded (:func:`items_texts_sha256`, as
    :class:`pipeline.build.current.OpenManifest` does). Raises nothing; undecodable UTF-8 gives None."""
    head = b'\n  ' + _one_line(key).encode() + b': ['
    start = text.find(head)
    if start < 0:
        return None
    body = start + len(head)
    if text.startswith(b"]", body):
        return [] if text.find(head, body) < 0 else None
    end = text.find(b"\n  ]", body)
    if not text.startswith(b"\n    ", body) or end < 0 or text.find(head, end) >= 0:
        return None
    try:
        lines = text[body + 1:end].decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return None
    items = [line[4:-1] for line in lines[:-1]] + [lines[-1][4:]]
    if not all(line.startswith("    ") and line[4:5] not in ("", " ") for line in lines) or not all(line.endswith(",") for line in lines[:-1]):
        return None
    return items


def _lines(value: object, pad: str, out: list[str]) -> None:
    """Append ``value``'s text to ``out``; its first line continues the current one, the rest start with ``pad`` or deeper."""
    if isinstance(value, ItemTexts):
        value = value.texts
        if value:
            out.append("[\n" + pad + "  " + (",\n" + pad + "  ").join(value) + "\n" + pad + "]")
        else:
            out.append("[]")
    elif isinstance(value, dict) and value:
        inner = pad + "  "
        out.append("{")
        for n, (key, item) in enumerate(value.items()):
            out.append(("\n" if n == 0 else ",\n") + inner + _one_line(str(key)) + ": ")
            _lines(item, inner, out)
        out.append("\n" + pad + "}")
    elif isinstance(value, list) and value:
        inner = ",\n" + pad + "  "
        # a list of names (report.json's files): the C string encoder alone, a third of the time a name
        each = _encoder.encode_basestring if all(type(item) is str for item in value) else _one_line
        out.append("[\n" + pad + "  " + inner.join(map(each, value)) + "\n" + pad + "]")
    else:
        out.append(_one_line(value))


def document_text(doc: object) -> str:
    """The text of ``doc`` (JSON data: dicts, lists, strings, numbers, booleans, None) ending in a newline.

    Objects are indented two spaces a level; every non-empty list puts one item a line, each item
    compact on that line (``{"path": "a.pdf", "bytes": 12}``); keys keep their order; non-ASCII
    is written as UTF-8; keys must be strings; an :class:`ItemTexts` is written as the list it
    stands for, from its items' texts. Raises TypeError for what ``json.dumps`` refuses (a set, bytes).
    """
    out: list[str] = []
    _lines(doc, "", out)
    out.append("\n")
    return "".join(out)
