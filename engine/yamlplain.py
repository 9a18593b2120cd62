"""What YAML 1.1 (PyYAML) reads otherwise than a designer wrote it, for :mod:`engine.yamlsource`'s messages.

- Numbers: PyYAML reads a leading 0 as octal (``010`` is 8), ``0x``/``0b`` prefixes, ``_`` between
  digits and base 60 (``1:30`` is 90); each gives a value other than the digits a reader sees, so
  the loader refuses them (:data:`PLAIN_NUMBER`, :func:`number_problem`).
- Tabs: YAML indents with spaces only, and its messages for a tab ("found character that cannot
  start any token") rarely say so (:func:`tab_near`).
"""

from __future__ import annotations

import re

import yaml

#: The tags of the numbers :data:`PLAIN_NUMBER` judges.
NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
#: A number as a designer writes it: decimal digits, a sign, a point, an exponent; ``.inf`` and
#: ``.nan`` too (the schema's ranges judge them).
PLAIN_NUMBER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.[0-9]+(?:[eE][-+]?[0-9]+)?"
                          r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")


def misread(node: yaml.ScalarNode) -> bool:
    """True for a number node YAML 1.1 reads otherwise than its digits: an int not in
    :data:`PLAIN_NUMBER`'s form, a float in base 60 or with ``_`` (``010.5`` reads as 10.5: fine)."""
    if node.tag == NUMBER_TAGS[0]:
        return not PLAIN_NUMBER.fullmatch(node.value)
    return ":" in node.value or "_" in node.value


def number_problem(node: yaml.ScalarNode, loader: yaml.BaseLoader) -> tuple[str, str]:
    """``(message, hint)`` for a number node :data:`PLAIN_NUMBER` refuses: what PyYAML reads it as,
    why, and what to write instead (the digits without leading zeros, or the decimal value)."""
    try:
        read = loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError):
        read = None
    text = node.value
    bare = text.lstrip("+-")
    octal = bare[:1] == "0" and bare[1:2].isdigit()
    prefix = {"0x": "a 0x prefix makes it hexadecimal", "0b": "a 0b prefix makes it binary"}.get(bare[:2].lower())
    why = prefix or ("a leading 0 makes it octal" if octal else
                     "base 60" if ":" in text else "digits grouped with '_'" if "_" in text else "not a decimal number")
    reads = f"YAML reads it as {read!r}" if read is not None else "YAML cannot read it as a number"
    if octal and prefix is None:
        meant = text[: len(text) - len(bare)] + (bare.lstrip("0") or "0")
        hint = f"write {meant} without the leading zeros if that is the number meant, or quote it if it is text"
    else:
        decimal = f" ({read!r})" if isinstance(read, int) and not isinstance(read, bool) else ""
        hint = f"write the number in plain decimal digits{decimal}, or quote it if it is text"
    return f"the number {text} is not written in plain decimal: {reads} ({why})", hint


def tab_near(text: str, mark: yaml.Mark | None) -> yaml.Mark | None:
    """A mark at the first tab in the indentation of ``mark``'s line or the line before it, or None."""
    if mark is None:
        return None
    lines = text.split("\n")
    for n in (mark.line - 1, mark.line):
        if 0 <= n < len(lines):
            indent = lines[n][: len(lines[n]) - len(lines[n].lstrip(" \t"))]
            if "\t" in indent:
                return yaml.Mark(mark.name, 0, n, indent.index("\t"), None, None)
    return None
