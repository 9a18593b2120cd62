"""find_ocgs' walk (pipeline.render.uv.ocg) against a reference: the walk as it was before its keys were
tested with ``in`` (pikepdf's get(), Name.Form made at each use), copied here, on a PDF with two OCGs,
nested and shared forms, an image, a page without resources and a /Properties entry that is no OCG."""

from __future__ import annotations

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from pipeline.render.uv.ocg import _forms_and_pages, find_ocgs, processing_step_ocg


def _reference_ocgs(pdf: pikepdf.Pdf) -> list:
    seen: set = set()
    todo = [p.obj for p in pdf.pages]
    found: dict = {}
    while todo:
        owner = todo.pop()
        key = owner.objgen
        if key != (0, 0) and key in seen:
            continue
        seen.add(key)
        resources = owner.get("/Resources")
        props = resources.get("/Properties") if resources is not None else None
        for _, value in sorted(props.items(), key=lambda item: item[0]) if props is not None else ():
            if isinstance(value, Dictionary) and value.get("/Type") == Name.OCG:
                found.setdefault(value.objgen, value)
        xobjects = resources.get("/XObject") if resources is not None else None
        for _, xobj in sorted(xobjects.items(), key=lambda item: item[0]) if xobjects is not None else ():
            if xobj.get("/Subtype") == Name.Form:
                todo.append(xobj)
    return list(found.values())


def _form(pdf, resources: Dictionary) -> pikepdf.Object:
    form = pdf.make_stream(b"")
    form.Type, form.Subtype, form.BBox, form.Resources = Name.XObject, Name.Form, Array([0, 0, 1, 1]), resources
    return form


def _sample() -> tuple[pikepdf.Pdf, list]:
    pdf = pikepdf.new()
    braille, white = processing_step_ocg(pdf), processing_step_ocg(pdf, "White")
    inner = _form(pdf, Dictionary(Properties=Dictionary(B=braille, N=Dictionary(Type=Name.Pattern))))
    outer = _form(pdf, Dictionary(XObject=Dictionary(In=inner), Properties=Dictionary(W=white)))
    image = pdf.make_stream(b"\0", Type=Name.XObject, Subtype=Name.Image, Width=1, Height=1, BitsPerComponent=8,
                            ColorSpace=Name.DeviceGray)
    for resources in (Dictionary(XObject=Dictionary(A=outer, Im=image)), None, Dictionary(XObject=Dictionary(A=outer, B=inner)),
                      Dictionary(Properties=Dictionary(X=String("not a group")))):
        pdf.add_blank_page()
        if resources is not None:
            pdf.pages[-1].obj.Resources = resources
    return pdf, [white, braille]


def test_find_ocgs_gives_the_reference_walks_groups_in_its_order():
    pdf, made = _sample()
    found = find_ocgs(pdf)
    assert [o.objgen for o in found] == [o.objgen for o in _reference_ocgs(pdf)]
    assert {o.objgen for o in found} == {o.objgen for o in made}
    owners = [owner for owner, _ in _forms_and_pages(pdf)]
    assert len(owners) == 4 + 2  # four pages, the two forms once each (the image is no owner)
