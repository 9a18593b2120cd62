"""Numbers written in digits or English words, for reading rulebook claims: ``NUMBER`` (a
regular expression) and :func:`to_int`. Re-exported by :mod:`engine.rulebook`."""

from __future__ import annotations

import re

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}
def _trie(words: list[str]) -> str:
    """A regular expression matching any of ``words``, as a trie ("t(?:en|w(?:o|elve))"), so
    the engine tries one branch per letter instead of every word at every position."""
    tree: dict = {}
    for w in words:
        node = tree
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(ch) + emit(child) if ch else "" for ch, child in sorted(node.items(), key=lambda kv: kv[0] == "")]
        if len(branches) == 1:
            return branches[0]
        optional = "" in node
        body = "|".join(b for b in branches if b)
        return f"(?:{body})?" if optional else f"(?:{body})"

    return emit(tree)


_TENS = _trie([w for w, n in _NUMBER_WORDS.items() if n >= 20 and n % 10 == 0 and n < 100])
_UNITS = _trie([w for w, n in _NUMBER_WORDS.items() if 1 <= n <= 9])
_WORD = _trie(list(_NUMBER_WORDS))
#: A number written with digits or in English words: "12", "twelve", "twenty-six", "one hundred".
NUMBER = rf"(?:\d+|(?=[a-z])(?:{_TENS}[- ]{_UNITS}\b|{_UNITS}\s+hundred\b|{_WORD}\b))"


def to_int(token: str) -> int | None:
    """``"12"`` → 12, ``"twelve"`` → 12, ``"twenty-six"`` → 26, ``"one hundred"`` → 100, ``"2x"`` → 2;
    None when the token is not a number."""
    token = " ".join(token.strip().lower().replace("-", " ").split())
    if token.rstrip("x").isdigit():
        return int(token.rstrip("x"))
    parts = token.split()
    if len(parts) == 2 and parts[1] == "hundred" and parts[0] in _NUMBER_WORDS:
        return _NUMBER_WORDS[parts[0]] * 100
    if len(parts) == 2 and all(p in _NUMBER_WORDS for p in parts):
        tens, unit = _NUMBER_WORDS[parts[0]], _NUMBER_WORDS[parts[1]]
        return tens + unit if tens % 10 == 0 and tens >= 20 and 1 <= unit <= 9 else None
    return _NUMBER_WORDS.get(token) if len(parts) == 1 else None
