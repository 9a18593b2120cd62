"""Pages appended to a ``pikepdf.Pdf`` in constant time each (issue 22).

pikepdf 10.18's ``PageList`` lists the whole page tree for ``len(pdf.pages)``, for ``pdf.pages[i]``
and for ``pdf.pages.append`` (it checks the page is not there yet), so building a document one page
at a time is quadratic: 10,000 appends took 4.5 s, and reading each new page back as
``pdf.pages[-1]`` another 4.5 s (this machine, December 2026), where qpdf's own ``addPage`` is O(1)
at the end of the tree (``QPDF::insertPage``: the page made indirect, or copied in when it is another
document's, then put in ``/Kids``). pikepdf binds that call as the
private ``Pdf._add_page``; a pikepdf without it gets the public append: the same pages, slower.
"""

from __future__ import annotations

import pikepdf

__all__ = ["append_page", "append_own_page"]


def append_page(pdf: pikepdf.Pdf, page: pikepdf.Object | pikepdf.Page) -> None:
    """Append ``page`` (a page dictionary, or a ``Page``) at the end of ``pdf``'s page tree. A page of another
    document is copied in, as ``pdf.pages.append`` copies it. Raises what qpdf raises for a non-page object."""
    add_page = getattr(pdf, "_add_page", None)
    obj = page.obj if isinstance(page, pikepdf.Page) else page
    if add_page is not None:
        add_page(obj, first=False)
    else:
        pdf.pages.append(pikepdf.Page(obj))


def append_own_page(pdf: pikepdf.Pdf, page: pikepdf.Dictionary) -> pikepdf.Page:
    """Append the page dictionary ``page``, made in ``pdf`` (direct: it is made indirect here), at the end of
    ``pdf``'s page tree and return it as a ``Page``: the object ``pdf.pages[-1]`` would give, without listing
    the tree to find it."""
    obj = page if page.is_indirect else pdf.make_indirect(page)
    append_page(pdf, obj)
    return pikepdf.Page(obj)
