"""The book-wide windows of engine.checks.textscan (one pass over the joined paragraphs) against
the per-paragraph ones they replace: same windows, sentences and sentence texts, also where
lower-casing lengthens a paragraph ("İ" → "i̇") and a paragraph ends without an end mark."""

from conftest import FIXTURES

from engine.checks import textscan as T
from engine.rulebook import Rulebook

_ANCHORS = [("card",), ("cards",), ("player",), ("class", "faction"), ("unique",), ("(all",), T.DIE_ANCHORS, ("deal", "each player"), ("e",)]
_ODD = (
    "İstanbul has 3 cards. Each class has 4 cards! İİ (all 5 cards) \"Quote.\" Then 2-4 players.\n\n"
    "Plain. Next card here? Yes player\n\nİ card. And more cards. A D6 here.\n"
)


def _compare(rb: Rulebook) -> int:
    """How many (paragraph, anchor) pairs were compared; asserts each pair agrees."""
    paragraphs, compared = rb.paragraphs(), 0
    for words in _ANCHORS:
        book = T.window_map(rb, *words)
        sentences = T.sentences_in(rb, *words)
        assert list(book) == T.indexes_with(rb, *words) == [paragraphs.index(p) for p, _ in sentences]
        assert [p for p, _ in T.scanned(rb, *words)] == T.paragraphs_with(rb, *words)
        for (k, found), (p, spans) in zip(book.items(), sentences):
            fresh = type(p)(p.text, p.spans)  # no windows kept from the book-wide pass
            assert found == T.windows(fresh, *words) and spans == T.sentences_with(fresh, *words)
            p.__dict__.pop("scans", None)
            assert T.windows_at(rb, k, *words) == found
            for s, e in found:
                for offset in range(s, e):
                    assert T.sentence_at(rb, k, offset) == T.sentence_of(p.text, offset)
            compared += 1
    return compared


def test_book_wide_windows_equal_the_per_paragraph_ones():
    counts = [_compare(Rulebook.read(path)) for path in sorted((FIXTURES / "rulebooks").iterdir())]
    assert all(n > 20 for n in counts), counts


def test_book_wide_windows_where_lower_casing_lengthens_a_paragraph():
    rb = Rulebook.from_text(_ODD * 3, "odd.txt")
    assert _compare(rb) == 39  # 9 anchors over 9 paragraphs, where they hold one
    first = rb.paragraphs()[0]
    assert T.window_map(rb, "card")[0] == [(0, len(first.text))]  # lengthened: the whole text
    assert T.window_map(rb, "player")[1] == [(23, 33)]  # "Yes player" at the paragraph's end, no end mark
