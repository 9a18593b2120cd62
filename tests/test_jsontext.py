"""pipeline/common/jsontext.py: manifest.json and report.json text, objects indented and one list
item a line. Reference: the standard library's json.loads gives back the same data, and json.dumps
of each item gives its line; the expected text below was written out by hand."""

from __future__ import annotations

import hashlib
import json

from pipeline.common.jsontext import document_text

DOC = {"game": "mini", "files": [{"path": "a.pdf", "bytes": 12}, {"path": "é/b.brf", "bytes": 3}],
       "counts": {"error": 0}, "none": [], "empty": {}, "findings": [{"message": "two\nlines", "related": []}]}


def test_objects_are_indented_and_list_items_take_a_line_each():
    assert document_text(DOC) == (
        '{\n'
        '  "game": "mini",\n'
        '  "files": [\n'
        '    {"path": "a.pdf", "bytes": 12},\n'
        '    {"path": "é/b.brf", "bytes": 3}\n'
        '  ],\n'
        '  "counts": {\n'
        '    "error": 0\n'
        '  },\n'
        '  "none": [],\n'
        '  "empty": {},\n'
        '  "findings": [\n'
        '    {"message": "two\\nlines", "related": []}\n'
        '  ]\n'
        '}\n')


def test_the_text_reads_back_as_the_same_data_and_each_item_as_json_dumps_writes_it():
    doc = {"games": {"g": {"findings": [{"code": "DQ001", "line": 3, "card": None, "ok": True, "x": 1.5}] * 3,
                           "files": ["a", "b\u2800"], "nested": [[1, [2]], {"k": []}]}}}
    text = document_text(doc)
    assert json.loads(text) == doc
    assert '        {"code": "DQ001", "line": 3, "card": null, "ok": true, "x": 1.5},\n' in text
    assert '        "b\u2800"\n' in text  # UTF-8, not \\u escapes
    lines = text.splitlines()
    assert lines.count('        ' + json.dumps(doc["games"]["g"]["findings"][0], ensure_ascii=False) + ",") == 2


def test_a_scalar_document_is_one_line():
    assert document_text("x") == '"x"\n' and document_text(None) == "null\n"


TRICKY = [{"message": 'a "quoted" \\ back\nslash\n  ]\n    {', "file": "é/\u2800.yaml", "line": 3, "related": [{"x": None}]},
          {"message": "tab\there", "card": "c-1", "ok": False, "n": 1.25}]


def test_top_level_items_are_the_lines_json_dumps_writes_for_each_item():
    """Reference: json.dumps(item, ensure_ascii=False), the standard library's encoder, for each item;
    the strings hold what could be mistaken for the layout (a newline, two spaces and a bracket)."""
    from pipeline.common.jsontext import top_level_items

    doc = {"game": "g", "findings": TRICKY, "files": [{"path": "a"}], "after": {"findings": []}}
    text = document_text(doc).encode("utf-8")
    assert top_level_items(text, "findings") == [json.dumps(item, ensure_ascii=False) for item in TRICKY]
    assert top_level_items(text, "files") == ['{"path": "a"}']
    assert [json.loads(t) for t in top_level_items(text, "findings")] == TRICKY
    assert top_level_items(document_text({"findings": []}).encode(), "findings") == []


def test_top_level_items_refuse_another_layout_or_a_nested_list():
    from pipeline.common.jsontext import top_level_items

    assert top_level_items(json.dumps({"findings": TRICKY}, indent=2).encode(), "findings") is None  # an item spans lines
    assert top_level_items(json.dumps({"findings": TRICKY}).encode(), "findings") is None  # one line
    assert top_level_items(document_text({"games": {"findings": TRICKY}}).encode(), "findings") is None  # not top-level
    assert top_level_items(document_text({"other": TRICKY}).encode(), "findings") is None
    assert top_level_items(b'{\n  "findings": [\n    {"a": "\xff"}\n  ]\n}\n', "findings") is None  # not UTF-8
    twice = document_text({"findings": TRICKY, "x": 1}).replace('  "x": 1', '  "findings": []').encode()
    assert json.loads(twice)["findings"] == [] and top_level_items(twice, "findings") is None  # json.loads takes the last
    assert top_level_items(document_text({"findings": [], "y": TRICKY}).replace('"y"', '"findings"').encode(), "findings") is None
    wrapped = b'{\n  "findings": [\n    {"a": 1,\n     "b": 2}\n  ]\n}\n'  # an item over two lines, each starting with four spaces
    assert json.loads(wrapped)["findings"] == [{"a": 1, "b": 2}] and top_level_items(wrapped, "findings") is None


def test_items_sha256_is_that_of_the_texts_document_text_writes():
    from pipeline.common.jsontext import items_sha256, items_texts_sha256, top_level_items

    text = document_text({"findings": TRICKY}).encode()
    assert items_sha256(TRICKY) == items_texts_sha256(top_level_items(text, "findings"))
    assert items_sha256(TRICKY) == hashlib.sha256("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in TRICKY).encode()).hexdigest()
    reformatted = [t.replace('": ', '":') for t in top_level_items(text, "findings")]  # the same data, other bytes
    assert [json.loads(t) for t in reformatted] == TRICKY and items_texts_sha256(reformatted) != items_sha256(TRICKY)


def test_item_texts_write_the_same_text_and_compare_as_their_data():
    from pipeline.common.jsontext import ItemTexts

    texts = [json.dumps(item, ensure_ascii=False) for item in TRICKY]
    for doc in ({"findings": TRICKY}, {"games": {"g": {"counts": {}, "findings": TRICKY, "files": ["a"]}}}, {"findings": []}):
        inner = doc.get("games", {}).get("g", doc)
        stood = json.loads(json.dumps(doc))
        stood_inner = stood.get("games", {}).get("g", stood)
        stood_inner["findings"] = ItemTexts(texts if inner["findings"] else [], lambda inner=inner: inner["findings"])
        assert document_text(stood) == document_text(doc)
        assert stood == doc and doc == stood  # either side of ==, through the data
    parsed: list = []
    lazy = ItemTexts(texts, lambda: parsed.append(1) or TRICKY)
    assert lazy == ItemTexts(list(texts), lambda: 1 / 0) and parsed == []  # same texts: equal without parsing
    assert lazy != TRICKY[:1] and {"f": lazy} != {"f": TRICKY[::-1]} and parsed == [1]
