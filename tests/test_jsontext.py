"""pipeline/common/jsontext.py: manifest.json and report.json text, objects indented and one list
item a line. Reference: the standard library's json.loads gives back the same data, and json.dumps
of each item gives its line; the expected text below was written out by hand."""

from __future__ import annotations

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
