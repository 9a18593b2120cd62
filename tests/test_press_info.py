"""finish() inside press_info() writes a press file once with its final document info: the same Info
and XMP a second pass of set_document_info gave it before, only under the press folders, and a later
set_document_info leaves such a file as it is (issue 22). Read back with pikepdf."""

from __future__ import annotations

import io

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from pipeline.render.docinfo import press_info, press_info_for, set_document_info
from pipeline.render.fonts import face
from pipeline.render.pdfx import check_pdfx, finish
from pipeline.render.uv.ocg import mark_pdf_bytes

INFO = {"/Author": "Tidewater", "/Creator": "Tidewater (deckpress)", "/CreationDate": "D:20261015000000+00'00'",
        "/ModDate": "D:20261015000000+00'00'", "game": "Mini ICG", "game_id": "mini",
        "draft": "DRAFT - not for press (run box: 0 provisional cards, 4 faces with placeholder art)"}


def _page() -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(234, 378), invariant=1, initialFontName=face("regular").name)
    c.setBleedBox((0, 0, 234, 378))
    c.setTrimBox((9, 9, 225, 369))
    c.setFillColorCMYK(0, 0, 0, 1)
    c.drawString(20, 20, "Ember")
    c.showPage()
    c.save()
    return buf.getvalue()


def _info(path) -> dict[str, str]:
    with pikepdf.open(path) as pdf:
        return {str(k): str(v) for k, v in pdf.docinfo.items()}


def _xmp(path) -> bytes:
    with pikepdf.open(path) as pdf:
        return pdf.Root.Metadata.read_bytes()


def test_finish_in_press_info_gives_the_info_and_xmp_of_a_later_stamp(tmp_path):
    for name, data in (("x1a", _page()), ("x4", mark_pdf_bytes(_page()))):  # the braille group
        with press_info(INFO, [tmp_path / "print"]):
            once = finish(data, tmp_path / "print" / f"{name}.pdf", "mini fronts", ["a"], subject="1 card front")
        twice = finish(data, tmp_path / "plain" / f"{name}.pdf", "mini fronts", ["a"], subject="1 card front")
        assert _info(twice)["/Title"] == "mini fronts"  # no press_info: not stamped
        set_document_info(twice, INFO)
        info = _info(once)
        assert info == _info(twice)
        assert info["/Title"] == "DRAFT - not for press: Mini ICG: fronts"
        assert info["/Subject"] == f"{INFO['draft']}; 1 card front"
        assert info["/Author"] == "Tidewater" and info["/CreationDate"] == INFO["/CreationDate"]
        with pikepdf.open(once) as pdf:
            assert check_pdfx(pdf) == []
        if name == "x4":
            assert info["/GTS_PDFXVersion"] == "PDF/X-4"
            assert _xmp(once) == _xmp(twice)
            assert b"<rdf:li xml:lang=\"x-default\">DRAFT - not for press: Mini ICG: fronts</rdf:li>" in _xmp(once)
        before = once.read_bytes()
        set_document_info(once, INFO)  # already stamped: left as it is
        assert once.read_bytes() == before


def test_press_info_covers_only_its_folders_and_an_explicit_info_wins(tmp_path):
    with press_info(INFO, [tmp_path / "print"]):
        assert press_info_for(tmp_path / "print" / "vendor" / "a.pdf") == INFO
        assert press_info_for(tmp_path / "archive" / "a.pdf") is None
        outside = finish(_page(), tmp_path / "archive" / "a.pdf", "mini card", ["a"])
        mine = finish(_page(), tmp_path / "print" / "b.pdf", "mini card", ["a"], info={"/Author": "Someone else"})
    assert press_info_for(tmp_path / "print" / "a.pdf") is None  # the block is over
    assert (_info(outside)["/Title"], _info(outside)["/Author"]) == ("mini card", "anonymous")  # reportlab's, unstamped
    assert _info(mine)["/Author"] == "Someone else" and _info(mine)["/Title"] == "mini card"
    with press_info(INFO):  # no folders: every file
        everywhere = finish(_page(), tmp_path / "elsewhere" / "c.pdf", "mini card", ["a"])
    assert _info(everywhere)["/Title"] == "DRAFT - not for press: Mini ICG: card"


def test_a_build_stamps_after_its_stages_only_what_finish_did_not_write(tmp_path, monkeypatch):
    """The chains are forked inside press_info and inherit it: their files come out stamped, so the
    stamp pass after the stages writes only the UV job ticket (reportlab's, not finish's)."""
    import shutil

    import pipeline.render.docinfo as docinfo
    from conftest import GAMES
    from pipeline.build.runner import run_build
    from pipeline.build.settings import BuildSettings

    shutil.copytree(GAMES / "mini", tmp_path / "mini")
    rewritten = []
    atomic_path = docinfo.atomic_path
    monkeypatch.setattr(docinfo, "atomic_path", lambda path: rewritten.append(path.name) or atomic_path(path))
    (outcome,) = run_build([str(tmp_path / "mini")], BuildSettings(out_dir=str(tmp_path / "out"), papers=("letter",)))
    assert outcome.status == "built", [f.render() for f in outcome.findings]
    assert rewritten == ["mini-uv-ticket.pdf"]
    for path in (tmp_path / "out" / "mini").rglob("*.pdf"):
        if path.parent.name in ("print", "uv", "sheets", "dice", "boxes"):
            with pikepdf.open(path) as pdf:
                assert str(pdf.docinfo.Title).startswith("DRAFT - not for press: Mini ICG"), path.name


def _no_open(monkeypatch):
    from pipeline.render import docinfo

    def refuse(*args, **kwargs):
        raise AssertionError("set_document_info opened the file")

    monkeypatch.setattr(docinfo.pikepdf, "open", refuse)


def test_the_stamp_leaves_a_file_finish_wrote_unopened_and_stamps_one_changed_since(tmp_path, monkeypatch):
    kept, changed = tmp_path / "print" / "kept.pdf", tmp_path / "print" / "changed.pdf"
    with press_info(INFO, [tmp_path / "print"]):
        finish(_page(), kept, "mini fronts", ["a"])
        finish(_page(), changed, "mini fronts", ["a"])
    finish(_page(), changed, "mini fronts, another title", ["a"])  # rewritten outside the block: not as recorded
    before = kept.read_bytes()
    with monkeypatch.context() as patched:
        _no_open(patched)
        set_document_info(kept, INFO)  # recorded with this info and unchanged: not opened
        with pytest.raises(AssertionError, match="opened"):
            set_document_info(kept, {**INFO, "/Author": "Someone else"})  # other entries: opened
        with pytest.raises(AssertionError, match="opened"):
            set_document_info(changed, INFO)
    assert kept.read_bytes() == before
    set_document_info(changed, INFO)
    assert _info(changed)["/Title"] == "DRAFT - not for press: Mini ICG: fronts, another title"


def test_files_a_forked_worker_finished_inside_the_block_are_recorded(tmp_path, monkeypatch):
    import multiprocessing

    target = tmp_path / "print" / "child.pdf"
    data = _page()
    with press_info(INFO, [tmp_path / "print"]):
        child = multiprocessing.get_context("fork").Process(target=finish, args=(data, target, "mini fronts", ["a"]))
        child.start()
        child.join()
        assert child.exitcode == 0
    assert _info(target)["/Title"] == "DRAFT - not for press: Mini ICG: fronts"
    with monkeypatch.context() as patched:
        _no_open(patched)
        set_document_info(target, INFO)
    assert not list(tmp_path.glob("deckpress-press-info-*"))
