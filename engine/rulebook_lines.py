"""How the rulebook reader (:mod:`engine.rulebook`) reads one line: its Markdown and bullet markers,
and whether a line that is not marked as a heading reads as one (the rules are in that module's
docstring). Works on strings, so :class:`engine.rulebook.Line` is made once per line, after both.
"""

from __future__ import annotations

import re
from pathlib import Path

#: Refuse files larger than this (bytes): a rulebook is text, not an archive.
MAX_RULEBOOK_BYTES = 5_000_000


class RulebookError(OSError):
    """A rulebook file that cannot be used as text (binary, empty, or larger than MAX_RULEBOOK_BYTES)."""


def decode_rulebook(data: bytes, path: Path) -> str:
    """The text of a rulebook file's bytes: UTF-16 when they start with its byte order mark, else
    UTF-8 (a BOM dropped), else Windows-1252, else Latin-1. Raises :class:`RulebookError` naming
    ``path`` for more than :data:`MAX_RULEBOOK_BYTES`, a binary file (a NUL in its first 4 kB) or
    one with no text."""
    if len(data) > MAX_RULEBOOK_BYTES:
        raise RulebookError(f"{path} is {len(data):,} bytes, over the {MAX_RULEBOOK_BYTES:,} bytes deckpress reads as a rulebook; give the rules text alone")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # a UTF-16 byte order mark (Notepad's "Unicode")
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise RulebookError(f"{path} starts with a UTF-16 byte order mark but is not UTF-16 text") from None
    elif b"\x00" in data[:4096]:
        raise RulebookError(f"{path} is not a text file (give the rulebook as plain text or Markdown, UTF-8 or UTF-16)")
    else:
        for encoding in ("utf-8-sig", "cp1252", "latin-1"):  # latin-1 decodes any bytes: the loop always ends with a text
            text = _decoded(data, encoding)
            if text is not None:
                break
    if not text.strip():
        raise RulebookError(f"{path} is empty: there is no rules text to check")
    return text


def _decoded(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


_BULLET = re.compile(r"^(\s*)(?:[-*+•–—▪◦·]|\(?\d{1,2}[.)])\s+")
#: A Markdown ``#`` heading: its ``#`` marks (group 1) and title (group 2).
MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD_LINE = re.compile(r"^\s*(\*\*|__)(.+?)\1:?\s*$")
#: A Markdown link: its text (group 1).
LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`")
_SENTENCE_END = re.compile(r"[.!?;,]['\"”’)\]]*$")
_STARTS_NUMBERED = re.compile(r"^\s*\(?\d")
_END_MARKS = frozenset(".!?:")  # a line ending in one (then closers, spaces) is not run on (:func:`ends_sentence`)


def marked(raw: str, markdown: bool) -> tuple[str, str, int, int | None, bool]:
    """A raw line read for its markers: ``(raw, body, start, indent, heading)`` as :class:`engine.rulebook.Line` has them,
    ``body`` right-stripped; ``heading`` True for a Markdown ``#`` or bold-only line."""
    body, start, indent, heading = raw, 0, None, False
    if not raw[:1].isalpha():  # a heading, bold line or bullet starts with a space or its marker, never a letter
        m = MD_HEADING.match(raw) if markdown and "#" in raw[:4] else None  # "#" after at most three spaces
        b = _BOLD_LINE.match(raw) if markdown and not m and ("**" in raw or "__" in raw) else None
        if m:
            body, start, heading = m.group(2), m.start(2), True
        elif b:
            body, start, heading = b.group(2), b.start(2), True
        elif bm := _BULLET.match(raw):
            indent, start, body = len(bm.group(1)), bm.end(), raw[bm.end():]
    if markdown and ("](" in body or "*" in body or "_" in body or "`" in body):
        body = _EMPHASIS.sub("", LINK.sub(r"\1", body))  # markers only where there are some
    return raw, body.rstrip(), start, indent, heading


def plain_heading(raw: str, body: str, start: int, indent: int | None, before: bool, after: bool, markdown: bool) -> tuple[str, int, None, bool] | None:
    """``(body, start, indent, heading)`` of a line that reads as a heading though it is not marked as one,
    or None; ``before``/``after`` True when a blank line (or the file's edge) is next to it."""
    text = body.strip()
    if indent is not None:  # "1. Components" standing alone is a numbered heading, not a one-item list
        return (raw.strip(), len(raw) - len(raw.lstrip()), None, True) if before and after and _numbered_title(raw, text) else None
    if not text or len(text) > 70 or len(text.split()) > 8:
        return None
    if _SENTENCE_END.search(text) and not text.isupper():
        return None
    if text.isascii() and not text.isupper():  # a lower-case letter, or none: not capitals (the most lines)
        caps = False
    else:
        letters = [c for c in text if c.isalpha()]
        caps = len(letters) >= 3 and all(c.isupper() for c in letters)
    label, _, rest = text.partition(":")
    if rest.strip() and not caps and not all(w[:1].isupper() or not w[:1].isalpha() for w in rest.split()):
        return None  # "Passive Power Crystals: Apply globally …" is a label and its text
    if text.endswith(":") and not caps and _list_intro(text):
        return None  # "The front of a card, from the top:" introduces a list
    alone = (before and after) if markdown else (before or after)  # Markdown prose is hard-wrapped
    if caps or text.endswith(":") or alone:
        return body, start, None, True
    return None


def _numbered_title(raw: str, text: str) -> bool:
    """True for a numbered line (``raw``, its body stripped ``text``) that reads as a section title:
    "1. Components", "2) Set Up"."""
    return (
        bool(_STARTS_NUMBERED.match(raw))
        and 0 < len(text) <= 60
        and len(text.split()) <= 6
        and not _SENTENCE_END.search(text)
        and text[:1].isupper()
    )


def ends_sentence(body: str) -> bool:
    """True for a line a paragraph does not run on after: it ends in ".", "!", "?" or ":", then maybe
    closing quotes or brackets (``'"”’)]``), then maybe spaces: tested with two ``rstrip`` calls (a
    regular expression search would try every mark in the line)."""
    tail = body.rstrip().rstrip("'\"”’)]")
    return tail[-1:] in _END_MARKS


def _list_intro(text: str) -> bool:
    """True for a line ending in ":" that is a sentence introducing a list, not a title:
    it has a comma, or more than three words of which some (beyond short ones) are lower case."""
    words = text.rstrip(":").split()
    lower = [w for w in words if len(w) > 3 and w[:1].islower()]
    return "," in text or (len(words) > 3 and bool(lower))


_NUMBER_DEPTH = re.compile(r"^\s*\d{1,2}((?:\.\d{1,2})*)(?:[.)]|(?<=\.\d)|(?<=\.\d\d))\s+\S")  # "1.", "2)", "2.1", "2.1." (not "3 Players")


def heading_rank(raw: str, body: str, markdown: bool) -> tuple[str, int]:
    """A heading's kind and depth as the text marks it, ``(kind, depth)`` (depth 1 = top):
    ``("#", n)`` for a Markdown heading of n ``#`` marks; ``("bold", 1)`` for a bold-only
    Markdown line; ``("number", n)`` for a title numbered with n parts ("1. Setup" 1,
    "2.1 Deal" 2); in plain text ``("caps", 1)``, ``("colon", 1)`` (ends with ":") or
    ``("plain", 1)``. Kinds have no order between them; depths order within a kind."""
    m = MD_HEADING.match(raw) if markdown and "#" in raw[:4] else None
    if m:
        return "#", len(m.group(1))
    if markdown and _BOLD_LINE.match(raw):
        return "bold", 1
    n = _NUMBER_DEPTH.match(body)
    if n:
        return "number", n.group(1).count(".") + 1
    text = body.strip()
    if any(c.isalpha() for c in text) and not any(c.islower() for c in text):
        return "caps", 1
    return ("colon", 1) if text.endswith(":") else ("plain", 1)
