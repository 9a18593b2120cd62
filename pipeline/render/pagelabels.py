"""Every page label of a PDF in one pass over its ``/PageLabels`` number tree.

pikepdf's ``Page.label`` (qpdf ``QPDFPageLabelDocumentHelper``) first looks the page's index
up in the page list, so labelling every page that way costs O(pages²): 1,000 cards spent
~1 s a file in it (cProfile, a 1,000-card build's impose and tactile stages). Here the tree is
read once and each page's label worked out from the range that holds it (ISO 32000-1:2008
§12.4.2, Table 159), which is linear; a test checks every style against pikepdf's own labels.
"""

from __future__ import annotations

import pikepdf

_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def _roman(n: int) -> str:
    """Lower-case roman numeral of ``n`` ≥ 1."""
    out = []
    for value, digits in _ROMAN:
        count, n = divmod(n, value)
        out.append(digits * count)
    return "".join(out)


def _letters(n: int) -> str:
    """Upper-case letters for ``n`` ≥ 1 as §12.4.2 counts them: A–Z, then AA–ZZ, AAA …"""
    repeat, index = divmod(n - 1, 26)
    return chr(ord("A") + index) * (repeat + 1)


def _numeral(style: str, n: int) -> str:
    """Page number ``n`` in a ``/S`` numbering style (``D``, ``R``, ``r``, ``A``, ``a``; none: empty)."""
    if style == "/D":
        return str(n)
    if n < 1 or style not in ("/R", "/r", "/A", "/a"):
        return str(n) if style in ("/R", "/r", "/A", "/a") else ""
    text = _roman(n) if style in ("/R", "/r") else _letters(n)
    return text.upper() if style in ("/R", "/A") else text.lower()


def _get(spec, key: str, default):
    """``spec.get(key, default)``, a ``key in`` test first for a dictionary: pikepdf's ``get()`` of a missing
    key costs ~8 µs (an exception inside), and deckpress writes one range a page, most without ``/S`` or
    ``/St`` (30,000 ranges in a 10,000-card impose stage's card PDFs)."""
    if isinstance(spec, pikepdf.Dictionary):
        return spec[key] if key in spec else default
    return spec.get(key, default)


def labels_of(pdf: pikepdf.Pdf) -> list[str]:
    """The label of every page of ``pdf``, in page order, as pikepdf's ``str(page.label)`` gives it.

    A PDF without ``/PageLabels`` labels its pages "1", "2" …; a page before the tree's first
    range, likewise its page number. Each range's label is its ``/P`` prefix and the page's number
    from ``/St`` (default 1) in the ``/S`` style (none: the prefix alone). Costs one pass over the
    tree and the pages (O(pages + ranges)).
    """
    count = len(pdf.pages)
    root = pdf.Root.get("/PageLabels")
    if root is None:
        return [str(i + 1) for i in range(count)]
    ranges = sorted((int(k), v) for k, v in pikepdf.NumberTree(root).items() if 0 <= int(k) < count)
    labels = [str(i + 1) for i in range(ranges[0][0] if ranges else count)]
    for n, (start, spec) in enumerate(ranges):
        end = ranges[n + 1][0] if n + 1 < len(ranges) else count
        prefix = str(_get(spec, "/P", ""))
        style = str(_get(spec, "/S", ""))
        first = int(_get(spec, "/St", 1))
        labels.extend(prefix + _numeral(style, first + i) for i in range(end - start))
    return labels
