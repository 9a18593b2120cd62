"""PEF validation: the official RELAX NG schema plus its two Schematron rules, checked in Python.

The schema ``templates/pef/pef-2008-1.rng`` is a verbatim copy of
``src/validation/pef-2008-1.rng`` from the PEF specification repository
(braillespecs/pef; a test compares it with ``../shared/pef/``). Its companion
``pef-2008-1.sch`` holds two Schematron assertions in XPath 2.0, which lxml cannot
run, so they are written out here:

- Rule 1, per ``page``: ``ceiling(sum of each row's rowgap ÷ 4) + count(rows) ≤ rows``,
  where a row's rowgap is the nearest ``rowgap`` on the row or an ancestor and
  ``rows`` the nearest on an ancestor ("Rows do not fit within the defined page height");
- Rule 2, per ``row``: ``string-length(text()) ≤ cols`` of the nearest ancestor with
  ``cols`` ("Too many characters on row").
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from lxml import etree

from pipeline.emboss.pef import PEF_NS

SCHEMA = Path(__file__).resolve().parent.parent.parent / "templates" / "pef" / "pef-2008-1.rng"


@lru_cache(maxsize=4)
def _relaxng(path: str) -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(path))


def _nearest(el: etree._Element, attr: str, include_self: bool) -> str | None:
    node = el if include_self else el.getparent()
    while node is not None:
        if node.get(attr) is not None and isinstance(node.tag, str) and node.tag.startswith(f"{{{PEF_NS}}}"):
            return node.get(attr)
        node = node.getparent()
    return None


def schematron_problems(root: etree._Element) -> list[str]:
    """The two Schematron rules of PEF 2008-1 over a parsed document; one message per failing page or row.

    Messages name the page (and row) by 1-based position in the document and quote the rule.
    """
    problems: list[str] = []
    for p, page in enumerate(root.iter(f"{{{PEF_NS}}}page"), 1):
        rows = list(page.iterfind(f"{{{PEF_NS}}}row"))
        gaps = sum(int(_nearest(row, "rowgap", True) or 0) for row in rows)
        limit = _nearest(page, "rows", False)
        if limit is not None and math.ceil(gaps / 4) + len(rows) > int(limit):
            problems.append(
                f"[Rule 1] Rows do not fit within the defined page height: page {p} (line {page.sourceline}) "
                f"needs {math.ceil(gaps / 4) + len(rows)} rows, rows={limit}"
            )
        for r, row in enumerate(rows, 1):
            cols = _nearest(row, "cols", False)
            length = len(row.text or "")
            if cols is not None and length > int(cols):
                problems.append(
                    f"[Rule 2] Too many characters on row: page {p} row {r} (line {row.sourceline}) has {length}, cols={cols}"
                )
    return problems


def validate_pef(source: str | Path | bytes, schema: str | Path | None = None) -> list[str]:
    """Every problem of a PEF document: XML syntax, RELAX NG schema, then the two Schematron rules.

    ``source`` is a path (str or Path) or the document's bytes; ``schema`` a RELAX NG
    file (default: the vendored PEF 2008-1 schema). Returns an empty list for a valid
    document; messages carry line numbers. Raises OSError when a path cannot be read.
    """
    try:
        if isinstance(source, bytes):
            root = etree.fromstring(source)
        else:
            root = etree.parse(str(source)).getroot()
    except etree.XMLSyntaxError as exc:
        return [f"not well-formed XML: {exc}"]
    rng = _relaxng(str(schema or SCHEMA))
    problems: list[str] = []
    if not rng.validate(root.getroottree()):
        problems += [f"line {e.line}: RELAX NG: {e.message}" for e in rng.error_log]
    return problems + schematron_problems(root)
