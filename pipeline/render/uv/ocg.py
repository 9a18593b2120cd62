"""ISO 19593-1 processing steps on the braille content: an optional-content group of group Braille.

ISO 19593-1 (Use of PDF to associate processing steps and content data, Part 1) marks the
content of a processing step (cutting, varnish, white, braille …) with an optional-content
group (OCG, ISO 32000-1 §8.11) whose dictionary carries ``/GTS_Metadata`` with
``/GTS_ProcStepsGroup``: so the braille plate survives automated prepress as braille instead of
being printed as ink or dropped. As the Ghent Workgroup's Processing Steps Test Suite (2025)
writes it, Braille (like White, Varnish, Legend, Dimensions) is a group with no types: the
dictionary is ``<< /Type /OCG /Name (Braille) /GTS_Metadata << /GTS_ProcStepsGroup /Braille >> >>``
and a ``/GTS_ProcStepsType`` on it is an error of the suite (patch PS-012-02E); the typed groups
are Structural (Cutting, Creasing …) and Positions. (Second-hand: the standard's own text was not
available; the key names and the untyped groups are read off the suite's test patches.)

How the content is marked (ISO 32000-1 §8.11.3.2): a page's content is wrapped in
``/OC /DeckpressBraille BDC … EMC`` and the page's ``/Resources /Properties`` maps that name to
the OCG; the document's ``/OCProperties`` lists every OCG with the default configuration ``/D``
(all ON). pikepdf writes the dictionaries and the wrapped content stream. A card page merged onto
the fronts or a press sheet (as a Form XObject, :mod:`pipeline.render.formpages`) keeps its
marked content and its resources; :func:`register_ocgs` then lists the OCGs it finds in the new
document's ``/OCProperties``.

PDF/X note: optional content is a PDF 1.5 feature and PDF/X-1a:2003 is PDF 1.4, so every PDF
holding this group is finished as PDF/X-4 (ISO 15930-7, PDF 1.6, which allows optional content:
:mod:`pipeline.render.pdfx4`); the PDFs without braille stay PDF/X-1a:2003 (README, "UV braille").
"""

from __future__ import annotations

import io

import pikepdf
from pikepdf import Array, Dictionary, Name, String

#: The resource name the braille OCG is given in a page's /Properties.
PROPERTY_NAME = "/DeckpressBraille"

#: ISO 19593-1 processing-step groups deckpress writes: the braille dots and the white underbase.
BRAILLE, WHITE = "Braille", "White"


def processing_step_ocg(pdf: pikepdf.Pdf, group: str = BRAILLE, name: str | None = None) -> pikepdf.Object:
    """A new indirect OCG in ``pdf`` for ISO 19593-1 processing step ``group`` (Braille, White);
    ``name`` (default: the group) is the layer name viewers show."""
    return pdf.make_indirect(Dictionary(
        Type=Name.OCG,
        Name=String(name or group),
        GTS_Metadata=Dictionary(GTS_ProcStepsGroup=Name("/" + group)),
    ))


def mark_pages(pdf: pikepdf.Pdf, group: str = BRAILLE, name: str | None = None) -> pikepdf.Object:
    """Wrap every page's whole content of ``pdf`` in ``/OC /DeckpressBraille BDC … EMC`` for one
    new processing-step OCG (see :func:`processing_step_ocg`), and register it. Returns the OCG."""
    ocg = processing_step_ocg(pdf, group, name)
    for page in pdf.pages:
        body = page.obj.get("/Contents")
        streams = list(body) if isinstance(body, Array) else [body] if body is not None else []
        data = b"\n".join(s.read_bytes() for s in streams)
        page.obj.Contents = pdf.make_stream(f"/OC {PROPERTY_NAME} BDC\n".encode() + data + b"\nEMC\n")
        resources = page.obj.get("/Resources")
        if resources is None:
            page.obj.Resources = resources = Dictionary()
        if "/Properties" not in resources:
            resources.Properties = Dictionary()
        resources.Properties[PROPERTY_NAME] = ocg
    register_ocgs(pdf)
    return ocg


def marked_pdf(data: bytes, group: str = BRAILLE, name: str | None = None) -> pikepdf.Pdf:
    """The PDF ``data`` opened with :func:`mark_pages` applied, for :func:`pipeline.render.pdfx.finish`
    to take as it is (no save and re-parse between); the caller closes it."""
    pdf = pikepdf.open(io.BytesIO(data))
    mark_pages(pdf, group, name)
    return pdf


def mark_pdf_bytes(data: bytes, group: str = BRAILLE, name: str | None = None) -> bytes:
    """:func:`mark_pages` on a PDF given as bytes; returns the new PDF's bytes (structure kept, not linearised)."""
    pdf = pikepdf.open(io.BytesIO(data))
    mark_pages(pdf, group, name)
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def _sorted_values(category) -> list:
    """The values of a resource category (a dictionary) in the order of their names. pikepdf's
    ``keys()`` is a set: sorted, or the order (and the bytes) would vary by process."""
    return [value for _, value in sorted(category.items(), key=lambda item: item[0])]


#: Made once: ``Name.Form`` and ``Name.OCG`` make a new Name at each use (~0.7 µs, once an owner or value).
_FORM, _OCG = Name.Form, Name.OCG


def _forms_and_pages(pdf: pikepdf.Pdf):
    """Every page dictionary and every Form XObject reachable from a page, each once, with its resources (or None).

    Each key is tested with ``in`` before it is read (one lookup fewer than :func:`_get` where it is
    present, as /Resources mostly is): syn2000's 9 sheet and UV PDFs 0.15 -> 0.13-0.14 s CPU, the same owners."""
    seen: set = set()
    todo = [p.obj for p in pdf.pages]
    while todo:
        owner = todo.pop()
        key = owner.objgen
        if key != (0, 0):
            if key in seen:
                continue
            seen.add(key)
        resources = owner["/Resources"] if "/Resources" in owner else None
        yield owner, resources
        if resources is not None and "/XObject" in resources:
            for xobj in _sorted_values(resources["/XObject"]):
                if "/Subtype" in xobj and xobj["/Subtype"] == _FORM:
                    todo.append(xobj)


def find_ocgs(pdf: pikepdf.Pdf) -> list[pikepdf.Object]:
    """Every OCG named in the ``/Properties`` of a page or of a Form XObject it paints, each once, in page order
    (within one ``/Properties``, by resource name: the same PDF gives the same order in every process)."""
    found: dict = {}
    for _owner, resources in _forms_and_pages(pdf):
        if resources is None or "/Properties" not in resources:
            continue
        for value in _sorted_values(resources["/Properties"]):
            if isinstance(value, Dictionary) and "/Type" in value and value["/Type"] == _OCG:
                found.setdefault(value.objgen, value)
    return list(found.values())


def register_ocgs(pdf: pikepdf.Pdf) -> int:
    """Set ``pdf``'s ``/OCProperties`` to list every OCG :func:`find_ocgs` finds (default
    configuration: all ON, in that order). Returns how many; a PDF without any is left alone.

    A caller holding ``pdf`` hands it on to :func:`pipeline.render.pdfx.finish` as it is: no save
    and re-parse between (:func:`register_ocgs_bytes` is the round trip for a PDF given as bytes)."""
    return list_ocgs(pdf, find_ocgs(pdf))


def list_ocgs(pdf: pikepdf.Pdf, ocgs: list[pikepdf.Object]) -> int:
    """Set ``pdf``'s ``/OCProperties`` to list ``ocgs`` (default configuration: all ON, in that order), as
    :func:`register_ocgs` does for those it finds; for a caller that knows them (it marked every page
    itself). Returns how many; with none the PDF is left alone."""
    if not ocgs:
        return 0
    pdf.Root.OCProperties = Dictionary(
        OCGs=Array(ocgs),
        D=Dictionary(Name=String("Default"), BaseState=Name.ON, ON=Array(ocgs), Order=Array(ocgs)),
    )
    return len(ocgs)


def register_ocgs_bytes(data: bytes) -> bytes:
    """:func:`register_ocgs` on a PDF given as bytes (the bytes unchanged when it holds no OCG)."""
    pdf = pikepdf.open(io.BytesIO(data))
    if not register_ocgs(pdf):
        return data
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def processing_steps_by_page(pdf: pikepdf.Pdf) -> list[list[str]]:
    """For each page, the ISO 19593-1 groups (``GTS_ProcStepsGroup``) of the OCGs its content
    or its Form XObjects mark with ``/OC … BDC`` and that ``/OCProperties`` lists (for checks and tests)."""
    listed = {o.objgen for o in pdf.Root.get("/OCProperties", {}).get("/OCGs", [])}
    out = []
    for page in pdf.pages:
        groups: list[str] = []
        stack = [page.obj]
        while stack:
            owner = stack.pop()
            resources = owner.get("/Resources") or Dictionary()
            props = resources.get("/Properties") or Dictionary()
            for op in pikepdf.parse_content_stream(owner, "BDC Do"):
                if str(op.operator) == "BDC" and str(op.operands[0]) == "/OC":
                    ocg = props.get(str(op.operands[1]))
                    if ocg is not None and ocg.objgen in listed:
                        groups.append(str(ocg.GTS_Metadata.GTS_ProcStepsGroup)[1:])
                elif str(op.operator) == "Do":
                    xobj = resources.get("/XObject", {}).get(str(op.operands[0]))
                    if xobj is not None and xobj.get("/Subtype") == Name.Form:
                        stack.append(xobj)
        out.append(groups)
    return out
