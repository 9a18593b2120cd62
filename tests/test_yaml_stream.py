"""engine.yamlsource reads a document from the parser's events, with no node tree of the whole
file (issue 22); what it gives and every problem it reports, with its location, are those of the
whole-document read (PyYAML's composer, then conversion)."""

from __future__ import annotations

import pytest

from engine.yamlsource import Source, YamlProblem, _load_streaming, _load_whole, load_yaml
from tests.conftest import CARDDATA

DOCUMENTS = [
    "cards:\n- id: a\n  name: Ember\n  copies: 2\n  keywords: [Rally!, 'x: y']\n  when: 2024-05-01\n  flag: yes\n  none: ~\n",
    "- 1\n- 2.5\n- -3\n- true\n- null\n- '007'\n- 0x1F\n",
    "plain scalar\n",
    "---\n",
    "",
    "# only a comment\n",
    "a: {b: {c: [1, {d: e}]}}\n",
    "? [complex, key]\n: v\n",
    "a: 1\na: 2\n",
    "a: 1\n1: x\ntrue: y\n",
    "a: &x {b: 1}\nc: *x\n",
    "cards:\n- &c {id: a}\n- *c\n",
    "a: &x 1\nb: &x 2\n",
    "a: *nothing\n",
    "a: &r [*r]\n",
    "base: &b {x: 1}\nder:\n  <<: *b\n  y: 2\n",
    "a: !!python/object:os.system x\n",
    "a: !custom 1\n",
    "a: !!str 12\nb: !!int '12'\n",
    "a: 2024-02-30\n",
    "n: " + "9" * 40 + "\n",
    "a: [1, 2\nb: 3\n",
    'name: "Forest Apprentice\nnext: 1\n',
    "a: 1\n---\nb: 2\n",
    "a:\tb\n",
    "a: \x01\n",
    "cards:\n- id: a\n  name: x\n- id: b\n  name: y\n  name: z\n",
    "x: " + "[" * 70 + "]" * 70 + "\n",
    "cards:\n- id: a\n- id: b\n  tags: [!!binary aGk=]\n",
]


def _outcome(read, text):
    try:
        data, source = read(text, "cards.yaml")
    except YamlProblem as exc:
        return ("problem", exc.message, exc.location, exc.kind, exc.hint)
    return ("data", data, source)


@pytest.mark.parametrize("text", DOCUMENTS)
def test_a_document_reads_as_the_whole_read_reads_it(text):
    assert _outcome(load_yaml, text) == _outcome(_load_whole, text)


def test_plain_card_data_is_read_from_the_events_with_every_location():
    text = DOCUMENTS[0]
    data, source = _load_streaming(text, "cards.yaml")
    assert data == {"cards": [{"id": "a", "name": "Ember", "copies": 2, "keywords": ["Rally!", "x: y"],
                               "when": __import__("datetime").date(2024, 5, 1), "flag": True, "none": None}]}
    card = source.child("cards").child(0)
    assert (card.at.line, card.at.column) == (2, 3)
    assert card.follow(("keywords", 1))[0].column == 22 and card.keys["copies"].line == 4
    assert isinstance(card.child("when"), Source)


def test_anchors_and_problems_are_left_to_the_whole_read():
    for text in ("a: &x {b: 1}\nc: *x\n", "a: 1\na: 2\n", "a: 1\n---\nb: 2\n"):
        with pytest.raises(Exception) as caught:
            _load_streaming(text, "cards.yaml")
        assert type(caught.value).__name__ == "_Whole"
    assert load_yaml("a: &x {b: 1}\nc: *x\n", "f")[0] == {"a": {"b": 1}, "c": {"b": 1}}


def test_the_shipped_games_read_the_same_from_the_events():
    files = sorted(CARDDATA.glob("*/*.yaml"))
    assert len(files) >= 8
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert _load_streaming(text, str(path)) == _load_whole(text, str(path)), path
