"""Card pages as Form XObjects that pypdf merges cheaply, bleed included.

Merging a whole card page onto a press sheet with pypdf copies and re-parses its
content for every copy. Instead each source page becomes one Form XObject
(ISO 32000-1 §8.10) whose BBox is the page's BleedBox, wrapped in a *stub* page that
only paints it (``/Front3 Do``) and whose MediaBox is the same BleedBox. Merging the
stub with ``PageObject.merge_transformed_page`` costs a few operators, pypdf clips
it to the stub's box (the bleed is kept, nothing spills beyond it), and the card's
content is stored once in the output however many copies print.

Also here: :func:`check_page_ids`, which refuses a card PDF whose page labels (the card
or class ids deckpress writes) no longer match the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.errors import PyPdfError
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject, RectangleObject, StreamObject

from pipeline.render.sheets import ImpositionError, Rect


class CardPdfError(ValueError):
    """A card PDF that cannot be read; the message names the file."""


@dataclass(frozen=True)
class PageBoxes:
    """A source page's BleedBox and TrimBox (PDF pt) and whether the TrimBox was written."""

    bleed: Rect
    trim: Rect
    has_trim: bool

    @property
    def trim_inset(self) -> tuple[float, float, float, float]:
        """The trim's inset inside the bleed box ``(left, bottom, right, top)`` in pt (9 pt each for 0.125 in bleed)."""
        return (self.trim.x0 - self.bleed.x0, self.trim.y0 - self.bleed.y0, self.bleed.x1 - self.trim.x1, self.bleed.y1 - self.trim.y1)

    def same_as(self, other: PageBoxes, tol: float = 0.01) -> bool:
        """True when both pages have the same bled size and, where both write a TrimBox, the same trim inset (``tol`` pt)."""
        a, b = self.bleed, other.bleed
        same_size = abs(a.width - b.width) <= tol and abs(a.height - b.height) <= tol
        if not (self.has_trim and other.has_trim):
            return same_size
        return same_size and all(abs(x - y) <= tol for x, y in zip(self.trim_inset, other.trim_inset))


def _rect(box) -> Rect:
    return Rect(float(box.left), float(box.bottom), float(box.right), float(box.top))


def page_boxes(page: PageObject) -> PageBoxes:
    """The page's BleedBox (else MediaBox) and TrimBox (else the bleed box), read from the raw keys."""
    bleed = _rect(page.bleedbox) if "/BleedBox" in page else _rect(page.mediabox)
    has_trim = "/TrimBox" in page
    return PageBoxes(bleed, _rect(page.trimbox) if has_trim else bleed, has_trim)


class CardPages:
    """A card PDF read once, its page boxes, and each page as a mergeable Form XObject stub.

    ``role`` names the PDF in messages and prefixes the XObject names (``/Front3``).
    Raises :class:`CardPdfError` naming the file when it cannot be read.
    """

    def __init__(self, path: str | Path, role: str):
        self.path = Path(path)
        self.role = role
        try:
            self.reader = PdfReader(self.path)
            self.pages = list(self.reader.pages)
        except (OSError, ValueError, PyPdfError) as exc:
            raise CardPdfError(f"cannot read the {role} PDF {self.path}: {exc}") from None
        for i, page in enumerate(self.pages):
            if page.rotation % 360:
                raise CardPdfError(f"page {i + 1} of the {role} PDF {self.path} is rotated ({page.rotation}°); card pages must be upright")
        self.boxes = [page_boxes(p) for p in self.pages]
        self._writer: PdfWriter | None = None
        self._stubs: dict[int, PageObject] = {}

    def stub(self, writer: PdfWriter, index: int) -> PageObject:
        """A page painting only page ``index`` as a Form XObject (``/Front3 Do``), MediaBox = its BleedBox.

        The XObject is added to ``writer`` once; later calls for the same writer reuse it.
        """
        if writer is not self._writer:
            self._writer, self._stubs = writer, {}
        if index in self._stubs:
            return self._stubs[index]
        page, box = self.pages[index], self.boxes[index].bleed
        form = self._form_stream(page, writer)
        form.update({
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): RectangleObject([box.x0, box.y0, box.x1, box.y1]),
            NameObject("/Resources"): page.get("/Resources", DictionaryObject()).get_object().clone(writer),
        })
        ref = form.indirect_reference
        name = f"/{self.role.capitalize()}{index}"
        stub = PageObject.create_blank_page(None, box.width, box.height)
        stub[NameObject("/MediaBox")] = RectangleObject([box.x0, box.y0, box.x1, box.y1])
        stub[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): DictionaryObject({NameObject(name): ref})})
        body = DecodedStreamObject()
        body.set_data(f"{name} Do".encode())
        stub[NameObject("/Contents")] = body
        self._stubs[index] = stub
        return stub

    @staticmethod
    def _form_stream(page: PageObject, writer: PdfWriter) -> StreamObject:
        """The page's content as a new indirect stream of ``writer``.

        A single content stream is copied still encoded (no decode and re-encode); an array
        of streams is joined (ISO 32000-1 §7.8.2: the array is one content stream) and
        Flate-encoded.
        """
        raw = page.get("/Contents")
        single = raw.get_object() if raw is not None else None
        if isinstance(single, StreamObject) and single.indirect_reference is not None:
            return single.clone(writer, force_duplicate=True)
        joined = DecodedStreamObject()
        content = page.get_contents()
        joined.set_data(content.get_data() if content is not None else b"")
        # pypdf has no public call that adds a new (not cloned) indirect object to a writer
        return writer._add_object(joined.flate_encode()).get_object()


class StaleCardPdfError(ImpositionError):
    """A card PDF does not match the data: its pages are other cards (or classes) than the deck's, in order."""


#: How each role's PDF is named in messages, what its pages hold, and which command writes it.
_ROLES = {
    "front": ("fronts PDF", "cards", "deckpress build or deckpress render"),
    "back": ("backs PDF", "classes", "deckpress build or deckpress render"),
    "braille": ("braille layer", "cards", "deckpress build or deckpress uv"),
}


def page_labels(source: CardPages) -> list[str] | None:
    """The page labels of a card PDF (deckpress writes the card or class id of every page,
    :func:`pipeline.render.pdfx.finish`), or None when the PDF has no ``/PageLabels``."""
    if "/PageLabels" not in source.reader.root_object:
        return None
    return list(source.reader.page_labels)


def _first(ids: Sequence[str], n: int = 5) -> str:
    return ", ".join(ids[:n]) + (" …" if len(ids) > n else "")


def check_page_ids(source: CardPages, ids: Sequence[str]) -> None:
    """Refuse a card PDF that is out of date against the data.

    ``ids`` are the card ids (fronts, braille layer) or class ids (backs) the data has, in
    page order. A PDF with page labels must carry exactly these labels in this order; one
    without labels (not written by deckpress) must at least have one page per id. Raises
    :class:`StaleCardPdfError` saying how the PDF and the data differ and what to run.
    """
    name, what, command = _ROLES.get(source.role, (f"{source.role} PDF", "pages", "deckpress build"))
    labels = page_labels(source)
    count = len(source.pages)
    head = f"the {name} {source.path} is out of date"
    tail = f"; run {command} first"
    if count != len(ids):
        detail = ""
        if labels is not None:
            have, want = set(labels), set(ids)
            gone = [label for label in labels if label not in want]
            new = [i for i in ids if i not in have]
            parts = ([f"pages for {what} no longer in the data: {_first(gone)}"] if gone else []) + \
                    ([f"no page for {_first(new)}"] if new else [])
            detail = f" ({'; '.join(parts)})" if parts else ""
        raise StaleCardPdfError(f"{head}: it has {count} pages, the data {len(ids)} {what}{detail}{tail}")
    if labels is not None:
        for number, (label, wanted) in enumerate(zip(labels, ids), 1):
            if label != wanted:
                raise StaleCardPdfError(f"{head}: page {number} is {label!r}, the data has {wanted!r} there{tail}")
