"""Card pages as Form XObjects painted many times, bleed included (pikepdf/qpdf).

Each used source page becomes one Form XObject (ISO 32000-1 §8.10) of the output file whose
BBox is the page's BleedBox: the form clips its content to the bleed (§8.10.1), so the whole
bleed travels with the card and nothing beyond it spills onto a neighbour. The form is made
once per output file and painted per copy with ``q 1 0 0 1 tx ty cm /Front3 Do Q``
(:meth:`CardPages.paint`); the card's content is stored once however many copies print. The
page's content stream is copied still encoded (qpdf ``copy_foreign``), its resources once per
output file (shared fonts once). pikepdf copies a stream's data into memory (qpdf
``setImmediateCopyFrom``), so an output made from one card PDF is made inside it
(:meth:`CardPages.adopt`): each form is then the page's own stream, read from the file at the save.

Also here: :func:`check_page_ids`, which refuses a card PDF whose page labels (the card
or class ids deckpress writes) no longer match the data.
"""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Sequence

import deflate
import pikepdf
from pikepdf import Array, Dictionary, Name

from pipeline.render.pageboxes import PageBoxes, inherited, page_boxes, pages_boxes  # noqa: F401 (PageBoxes, page_boxes: re-exported)
from pipeline.render.pagelabels import labels_of
from pipeline.render.sheets import ImpositionError, Rect


_XOBJECT, _FORM = Name.XObject, Name.Form

#: At most this many bytes of compressed joined content streams kept per card PDF (:meth:`CardPages._joined_stream`):
#: 4 MiB, ~2,700 composite cards; memory, not speed, sets it (issue 22: a 10,000-card build under 200 MiB).
JOINED_CACHE_BYTES = 4 << 20
#: libdeflate's level for the joined content streams (:meth:`CardPages._joined_stream`), as the braille layer's
#: pages (pipeline.render.uv.discpdf.LEVEL). Measured on the shipped games' 796 composite and fronts pages, CPU a
#: page, best of 3: zlib level 6 (before) 168 µs and 2,169 bytes, libdeflate level 1 35 µs and 2,274 bytes,
#: level 6 89 µs and 2,128 bytes.
JOIN_LEVEL = 1


class CardPdfError(ValueError):
    """A card PDF that cannot be read; the message names the file."""


class CardPages:
    """A card PDF read (pikepdf), its page boxes and labels, and each page as a Form XObject to paint.

    ``role`` names the PDF in messages and prefixes the XObject names (``/Front3``).
    Raises :class:`CardPdfError` naming the file when it cannot be read or a page is rotated
    (card pages must be upright). pikepdf copies a stream's data into memory when it is copied
    into another PDF (qpdf ``setImmediateCopyFrom``), so an output holds the forms it was given
    until it is dropped: :meth:`release` after each output drops this object's hold on it (the
    output and its forms) and closes the file, whose parsed pages cost about 6-9 kB each;
    the boxes, page count and labels stay, and the next :meth:`form` opens the file again.
    """

    def __init__(self, path: str | Path, role: str):
        self.path = Path(path)
        self.role = role
        self._pdf: pikepdf.Pdf | None = None
        self._pages: list[pikepdf.Page] | None = None
        self._labels: list[str] | None = None
        try:
            pages = self.pages
            self.boxes = pages_boxes(pages)
            rotations = [int(inherited(p.obj, "/Rotate") or 0) for p in pages]
            #: Whether the PDF has ``/PageLabels`` (:func:`page_labels`).
            self.has_labels = "/PageLabels" in self.pdf.Root
        except (OSError, ValueError, TypeError, AttributeError, pikepdf.PdfError) as exc:
            raise CardPdfError(f"cannot read the {role} PDF {self.path}: {exc}") from None
        for i, rotation in enumerate(rotations):
            if rotation % 360:
                raise CardPdfError(f"page {i + 1} of the {role} PDF {self.path} is rotated ({rotation}°); card pages must be upright")
        #: The number of pages.
        self.count = len(pages)
        self._joined: dict[int, bytes] = {}  # a page's joined content streams, compressed (_joined_stream), kept across outputs
        self._joined_size = 0
        self._bboxes: dict[Rect, Array] = {}
        self._forget()

    def _forget(self) -> None:
        self._dest: pikepdf.Pdf | None = None
        self._forms: dict[int, pikepdf.Object] = {}
        self._copied: set[tuple[int, int]] = set()
        self._wrapped: dict[bytes, pikepdf.Object] = {}  # a direct resource dictionary's copy in _dest, by its text

    @property
    def pdf(self) -> pikepdf.Pdf:
        """The open card PDF (opened again after :meth:`release`)."""
        if self._pdf is None:
            self._pdf = pikepdf.open(self.path)
        return self._pdf

    @property
    def pages(self) -> list[pikepdf.Page]:
        """The card PDF's pages (read again after :meth:`release`)."""
        if self._pages is None:
            self._pages = list(self.pdf.pages)
        return self._pages

    def release(self) -> None:
        """Drop the output the forms were made in (so it is freed once its caller drops it) and close
        the card PDF; call it once that output is written. Boxes, ``count`` and labels stay."""
        self._forget()
        self._pages = None
        if self._pdf is not None:
            self._pdf.close()
            self._pdf = None

    def adopt(self, other: pikepdf.Pdf) -> pikepdf.Pdf:
        """This card PDF made into ``other`` (closed here): ``other``'s pages, catalogue and trailer ``/ID``
        copied in, the card pages taken out of the page tree and every catalogue and page tree entry of
        its own removed, so :meth:`form` makes each form from the card page's own content stream, whose
        data qpdf reads from the file when the result is saved instead of holding a copy in memory.

        Saved, it is the same PDF as ``other`` with the forms copied in (qpdf numbers objects in the order
        it reaches them from the trailer and writes only those it reaches). The result is the caller's: it
        calls :meth:`release` once it is written and closed; until then every form is made in it.
        """
        pdf = self.pdf
        self.pages  # the card pages, listed before they leave the page tree
        with other:
            root, tree = pdf.Root, pdf.Root.Pages
            for key in [k for k in root.keys() if k != "/Pages"]:
                del root[key]
            for key in [k for k in tree.keys() if k not in ("/Type", "/Count", "/Kids")]:
                del tree[key]
            for key, value in other.Root.items():
                if key != "/Pages":
                    root[key] = pdf.copy_foreign(value) if value.is_indirect else _copied(pdf, other, value)
            # The card pages out first, last to first: qpdf's removePage of the last page is O(1), while
            # `del pages[:count]` after the appends took each from the front (10,000 cards: 11 s a file).
            for page in reversed(self.pages):
                pdf.pages.remove(page)
            for page in other.pages:
                pdf.pages.append(page)
            pdf.trailer.ID = _copied(pdf, other, other.trailer.ID)
        return pdf

    @property
    def labels(self) -> list[str]:
        """Every page's label (``/PageLabels``; the page number "1", "2" … where the PDF has none), read in one pass, once."""
        if self._labels is None:
            self._labels = labels_of(self.pdf)
        return list(self._labels)

    def paint(self, dest: pikepdf.Pdf, page: pikepdf.Page, index: int, dx: float = 0.0, dy: float = 0.0) -> bytes:
        """Add page ``index`` as a Form XObject to ``page``'s resources (``/Front3``; the form made in
        ``dest`` once, later calls for the same ``dest`` reuse it) and return the content operators that
        paint it moved by ``dx``, ``dy`` pt: ``q 1 0 0 1 dx dy cm /Front3 Do Q``.
        """
        ops, forms = self.place(dest, [(index, dx, dy)])
        add_xobjects(page, forms)
        return ops

    def place(self, dest: pikepdf.Pdf, slots: Sequence[tuple[int, float, float]]) -> tuple[bytes, dict[str, pikepdf.Object]]:
        """The content operators that paint page ``index`` moved by ``dx``, ``dy`` pt for each ``(index, dx, dy)``
        of ``slots``, in order (``q 1 0 0 1 dx dy cm /Front3 Do Q`` each), and the forms they name, by name
        (:meth:`form`, made in ``dest`` once), for :func:`add_xobjects`: :meth:`paint` for a whole page at once."""
        forms: dict[str, pikepdf.Object] = {}
        ops = []
        for index, dx, dy in slots:
            name = f"/{self.role.capitalize()}{index}"
            if name not in forms:
                forms[name] = self.form(dest, index)
            ops.append(f"q 1 0 0 1 {_num(dx)} {_num(dy)} cm {name} Do Q\n")
        return "".join(ops).encode(), forms

    def form(self, dest: pikepdf.Pdf, index: int) -> pikepdf.Object:
        """Page ``index`` as a Form XObject of ``dest`` (BBox its BleedBox, its resources), made once per ``dest``.

        A single content stream is copied still encoded (no decode and re-encode); an array of
        streams is joined (ISO 32000-1 §7.8.2: the array is one content stream).
        """
        if dest is not self._dest:
            self._dest, self._forms, self._copied, self._wrapped = dest, {}, set(), {}
        if index in self._forms:
            return self._forms[index]
        page, box = self.pages[index].obj, self.boxes[index].bleed
        raw = page.get("/Contents")
        if isinstance(raw, pikepdf.Stream) and raw.is_indirect and raw.objgen not in self._copied:
            self._copied.add(raw.objgen)  # a stream shared by two pages is copied once by qpdf: join it for the second
            form = raw if dest is self._pdf else dest.copy_foreign(raw)  # own stream (adopt): its data stays in the file
        else:
            form = self._joined_stream(dest, index, raw)
        bbox = self._bboxes.get(box)
        if bbox is None:  # one pikepdf Array per distinct box, copied into each form (converting 4 floats: ~20 µs)
            bbox = self._bboxes[box] = Array([box.x0, box.y0, box.x1, box.y1])
        form.Type, form.Subtype = _XOBJECT, _FORM
        form.BBox = copy.copy(bbox)
        form.Resources = self._resources(dest, index)
        self._forms[index] = form
        return form

    def _joined_stream(self, dest: pikepdf.Pdf, index: int, raw: pikepdf.Object | None) -> pikepdf.Stream:
        """Page ``index``'s content streams (``raw``: an array, a stream copied already, or None) joined into one
        stream of ``dest``, Flate-compressed here by libdeflate at :data:`JOIN_LEVEL` (zlib's level 6 took 1.07 s
        of a 10,000-card impose stage; libdeflate's output does not depend on the CPU, pipeline.render.uv.discpdf), once per page
        for all outputs: the composite's cards are an array of streams (tactile's ``paint_on_top``), decoded and
        deflated at every paper's save before (14 ms a 60-card file). Kept up to :data:`JOINED_CACHE_BYTES` in all
        (~1.5 kB a composite card); beyond that a page is joined and compressed again for each output. Empty: an
        empty unfiltered stream, as before (qpdf's deflate of nothing is not zlib's)."""
        data = self._joined.get(index)
        if data is None:
            streams = list(raw) if isinstance(raw, Array) else [raw] if raw is not None else []
            joined = b"\n".join(s.read_bytes() for s in streams)
            if not joined:
                return dest.make_stream(b"")
            data = bytes(deflate.zlib_compress(joined, JOIN_LEVEL))
            if self._joined_size + len(data) <= JOINED_CACHE_BYTES:
                self._joined[index], self._joined_size = data, self._joined_size + len(data)
        form = dest.make_stream(b"")
        form.write(data, filter=Name.FlateDecode)
        return form

    def _resources(self, dest: pikepdf.Pdf, index: int) -> pikepdf.Object:
        """Page ``index``'s resources copied into ``dest`` (objects they share with other pages once per ``dest``).

        qpdf copies indirect objects only: a direct dictionary (reportlab writes them) is copied
        through an indirect wrapper made in the source and stays direct in ``dest``.
        """
        resources = self.pages[index].obj.get("/Resources")
        if resources is None:
            return Dictionary()
        if dest is self._pdf:  # adopt(): the page's own resources, a direct dictionary as a (shallow) copy as copying gives
            return resources if resources.is_indirect else Dictionary(resources)
        if resources.is_indirect:
            return dest.copy_foreign(resources)
        # One copy per distinct direct dictionary (the braille layer's pages all have the same one), shared by
        # the forms: qpdf writes a direct object in full wherever it stands, so the file is the same bytes as
        # with a copy per form, and the output holds one copy (a copy per form was ~6 kB a card)
        key = bytes(resources.unparse())
        if key not in self._wrapped:
            # (through an indirect wrapper of a shallow copy: make_indirect of the entry itself turns the page's entry indirect)
            self._wrapped[key] = Dictionary(dest.copy_foreign(self.pdf.make_indirect(Dictionary(resources))))
        return self._wrapped[key]


def add_xobjects(page: pikepdf.Page, forms: dict[str, pikepdf.Object]) -> None:
    """``forms`` (by name, ``/Front3``) into ``page``'s ``/XObject`` resources, made when the page has none; none given: nothing changes."""
    if not forms:
        return
    resources = page.obj.get("/Resources")
    if resources is None:
        page.obj.Resources = resources = Dictionary()
    xobjects = resources.get("/XObject")
    if xobjects is None:
        resources.XObject = Dictionary(forms)
    else:
        for name, form in forms.items():
            xobjects[name] = form


def _copied(pdf: pikepdf.Pdf, other: pikepdf.Pdf, value: pikepdf.Object) -> pikepdf.Object:
    """A direct object of ``other`` copied into ``pdf`` (qpdf copies indirect objects only: through a wrapper)."""
    if not isinstance(value, (Dictionary, Array)):
        return value
    copy = pdf.copy_foreign(other.make_indirect(value))
    return Dictionary(copy) if isinstance(value, Dictionary) else Array(list(copy))


def _num(v: float) -> str:
    """A PDF number for a content stream: at most 6 decimals (pypdf wrote about as many), no trailing zeros, no ``-0``."""
    text = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def set_content(pdf: pikepdf.Pdf, page: pikepdf.Page, after: bytes) -> None:
    """Replace ``page``'s content by one stream: its old content inside ``q … Q`` (so no graphics
    state it leaves behind reaches what follows), then the operators ``after`` (drawn on top)."""
    body = page.obj.get("/Contents")
    streams = list(body) if isinstance(body, pikepdf.Array) else [body] if body is not None else []
    page.obj.Contents = pdf.make_stream(b"q\n" + b"\n".join(s.read_bytes() for s in streams) + b"\nQ\n" + after)


def paint_on_top(pdf: pikepdf.Pdf, page: pikepdf.Page, after: bytes, opening: pikepdf.Stream) -> None:
    """Draw the operators ``after`` on top of ``page`` without touching its content: ``/Contents``
    becomes ``[opening, <its streams>, "Q" + after]``, ``opening`` being one ``q`` stream the caller
    makes once for ``pdf`` (``pdf.make_stream(b"q\n")``) and shares between pages. ISO 32000-1 §7.8.2
    reads the array as one content stream, so this draws what :func:`set_content` draws (qpdf's
    overlays wrap pages the same way), but the page's own streams stay as they are, still encoded
    and read from the file at the save, instead of decoded and held whole in memory for the deck."""
    body = page.obj.get("/Contents")
    streams = list(body) if isinstance(body, pikepdf.Array) else [body] if body is not None else []
    page.obj.Contents = Array([opening, *streams, pdf.make_stream(b"\nQ\n" + after)])


def save_bytes(pdf: pikepdf.Pdf) -> bytes:
    """``pdf`` saved deterministically (fixed /ID, no object streams, new streams Flate-compressed)."""
    buf = io.BytesIO()
    pdf.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return buf.getvalue()


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
    if not source.has_labels:
        return None
    return source.labels


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
    count = source.count
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

