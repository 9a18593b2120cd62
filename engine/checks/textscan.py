"""Where a rulebook's words are: sentences, and the lines, paragraphs and sentences holding a word, found once.

Python's ``re`` tries a pattern that starts with ``\\b``, a look-behind or a number word at
every position of the text (about 25–80 ms per MB of text here), while a literal search
runs at about 1 ms per MB. So a check first asks where its *anchor* is (a lower-case
literal every match must contain: "cards", "class", "player") and runs its patterns only
there: on those lines or paragraphs (:func:`lines_with`, :func:`paragraphs_with`, each
worked out once per rulebook with ``str.find`` over the whole text), or on the runs of
sentences holding the anchor (:func:`windows`; ``pattern.finditer(text, start, end)``
keeps the paragraph's offsets and the context its ``\\b`` and look-behinds see). A match
is then missed only if it runs across a sentence break out of its anchor's sentences,
which none of the patterns that use windows can do without a full stop.

The windows of every paragraph come from one pass over the whole book (:func:`scanned`,
:func:`sentences_in`, :func:`window_map`): the paragraph texts are joined by a NUL (which
no sentence break can run across, so the breaks of the joined text are exactly those of
each paragraph), their sentence breaks found by one ``SENTENCE_BREAK`` search, and each
anchor hit in the lower-cased joined text placed by bisection (a paragraph and a sentence
per hit) instead of a search and a break table per paragraph.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple
from functools import lru_cache

from engine.gcpause import collector_paused
from engine.rulebook import SENTENCE_BREAK, Line, Paragraph, Rulebook

#: Anchors of a die's name ("D6", "d12"): a "d" and a digit, lower-cased.
DIE_ANCHORS = tuple(f"d{digit}" for digit in range(10))

@lru_cache(maxsize=4096)
def _breaks(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sentence breaks of ``text``, found once per text: (break starts, break ends)."""
    found = [(m.start(), m.end()) for m in SENTENCE_BREAK.finditer(text)]
    return tuple(a for a, _ in found), tuple(b for _, b in found)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence of ``text``, in order (a sentence ends after its ``.``, ``!`` or ``?``)."""
    starts, ends = _breaks(text)
    bounds = [0, *ends]
    tails = [a + 1 for a in starts] + [len(text)]
    return list(zip(bounds, tails))


def sentence_of(text: str, offset: int) -> str:
    """The sentence of ``text`` holding character ``offset`` (breaks found once per text, then a bisection)."""
    starts, ends = _breaks(text)
    i = bisect_right(ends, offset)  # breaks wholly before the offset
    start = ends[i - 1] if i else 0
    j = bisect_left(starts, offset, lo=max(i - 1, 0))
    while j < len(starts) and ends[j] <= offset:
        j += 1
    end = starts[j] + 1 if j < len(starts) else len(text)
    return text[start:end]


def built(rb: Rulebook, key: str, build):
    """``rb.memo(key, build)`` with the cyclic collector paused while ``build`` runs: the tables
    built here are many small long-lived lists and tuples, whose allocation bursts otherwise make
    the collector walk the whole parsed book again and again (see :mod:`engine.gcpause`)."""

    def paused():
        with collector_paused():
            return build()

    return rb.memo(key, paused)


def _joined(rb: Rulebook, kind: str) -> tuple[str, list[int]]:
    """The lower-cased line bodies (``kind`` "lines") or paragraph texts ("paragraphs") joined by
    newlines, and where each starts in it (lower-cased one by one: ``lower()`` may lengthen a text)."""

    def build() -> tuple[str, list[int]]:
        texts = [ln.body for ln in rb.lines] if kind == "lines" else [p.text for p in rb.paragraphs()]
        lowered = [t.lower() for t in texts]
        starts, at = [], 0
        for t in lowered:
            starts.append(at)
            at += len(t) + 1
        return "\n".join(lowered), starts

    return built(rb, f"joined:{kind}", build)


def _holding(rb: Rulebook, kind: str, words: tuple[str, ...]) -> list[int]:
    """Indexes of the lines or paragraphs whose lower-cased text contains any of ``words``, in order."""
    text, starts = _joined(rb, kind)
    hits: set[int] = set()
    for word in words:
        i = text.find(word)
        while i >= 0:
            k = bisect_right(starts, i) - 1
            hits.add(k)
            i = text.find(word, starts[k + 1]) if k + 1 < len(starts) else -1  # next item: one hit each
    return sorted(hits)


def lines_with(rb: Rulebook, *words: str) -> list[Line]:
    """The lines whose body, lower-cased, contains any of ``words`` (lower-case literals without a
    newline), in order; worked out once per rulebook and words. Shape: a list of :class:`Line`."""
    return rb.memo("lines_with:" + "\x00".join(words), lambda: [rb.lines[k] for k in _holding(rb, "lines", words)])


def paragraphs_with(rb: Rulebook, *words: str) -> list[Paragraph]:
    """The paragraphs whose text, lower-cased, contains any of ``words`` (as :func:`lines_with`)."""
    paragraphs = rb.paragraphs()
    return rb.memo("paragraphs_with:" + "\x00".join(words), lambda: [paragraphs[k] for k in indexes_with(rb, *words)])


def indexes_with(rb: Rulebook, *words: str) -> list[int]:
    """Indexes in :meth:`Rulebook.paragraphs` of the paragraphs :func:`paragraphs_with` gives."""
    return rb.memo("indexes_with:" + "\x00".join(words), lambda: _holding(rb, "paragraphs", words))


def _sentence_indexes(p: Paragraph, words: tuple[str, ...]) -> list[int]:
    """Indexes (in order) of the sentences of ``p`` holding any of ``words``; ``p.lowered`` has
    ``p.text``'s length (the callers see to it)."""
    low = p.lowered
    _, ends = p.breaks
    chosen: set[int] = set()
    for word in words:
        i = low.find(word)
        while i >= 0:
            k = bisect_right(ends, i)  # the breaks wholly before i: the sentence's index
            chosen.add(k)
            i = low.find(word, ends[k]) if k < len(ends) else -1  # on from the next sentence
    return sorted(chosen)


def _span(p: Paragraph, k: int) -> tuple[int, int]:
    starts, ends = p.breaks
    return (ends[k - 1] if k else 0, starts[k] + 1 if k < len(starts) else len(p.text))


def windows(p: Paragraph, *words: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets in ``p.text`` of each run of consecutive sentences holding any of
    ``words`` (lower-case literals); the whole text when lower-casing changes its length.
    Worked out once per paragraph and words (several patterns share an anchor)."""
    low = p.lowered
    for w in words:
        if w in low:
            break
    else:
        return []  # the common case, kept cheap
    found = p.scans.get(words)
    if found is None:
        found = p.scans[words] = _windows(p, words)
    return found


def _windows(p: Paragraph, words: tuple[str, ...]) -> list[tuple[int, int]]:
    if len(p.lowered) != len(p.text):
        return [(0, len(p.text))]
    out: list[tuple[int, int]] = []
    last = -2
    for k in _sentence_indexes(p, words):
        span = _span(p, k)
        if k == last + 1:
            out[-1] = (out[-1][0], span[1])
        else:
            out.append(span)
        last = k
    return out


def sentences_with(p: Paragraph, *words: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each single sentence of ``p.text`` holding any of ``words`` (lower-case literals)."""
    low = p.lowered
    if not any(w in low for w in words):
        return []
    if len(low) != len(p.text):
        return [(s, e) for s, e in sentence_spans(p.text) if any(w in p.text[s:e].lower() for w in words)]
    return [_span(p, k) for k in _sentence_indexes(p, words)]


class _Book(NamedTuple):
    """The paragraphs as one text: ``text`` (joined by NUL), where each paragraph starts in it
    (``starts``, one more entry: the end), the sentence breaks of ``text`` (``break_starts``,
    ``break_ends``), the index of each paragraph's first break (``first_break``, one more entry),
    the lower-cased joined text and starts of :func:`_joined`, and the paragraphs whose
    lower-cased text is longer than their text (``odd``: their windows are the whole text)."""

    text: str
    starts: list[int]
    break_starts: list[int]
    break_ends: list[int]
    first_break: list[int]
    low: str
    low_starts: list[int]
    odd: frozenset[int]


def _book(rb: Rulebook) -> _Book:
    def build() -> _Book:
        texts = [p.text for p in rb.paragraphs()]
        text = "\x00".join(texts)  # NUL: neither an end mark, a space nor a capital, so no break spans it
        starts, at = [], 0
        for t in texts:
            starts.append(at)
            at += len(t) + 1
        starts.append(at)
        bs, be = [], []
        for m in SENTENCE_BREAK.finditer(text):
            a, b = m.span()
            bs.append(a)
            be.append(b)
        first = [bisect_left(bs, s) for s in starts]
        low, low_starts = _joined(rb, "paragraphs")
        odd = frozenset() if len(low) + 1 == at else frozenset(k for k, t in enumerate(texts) if len(t.lower()) != len(t))
        return _Book(text, starts, bs, be, first, low, [*low_starts, len(low) + 1], odd)

    return built(rb, "book", build)


def _sentence_hits(rb: Rulebook, words: tuple[str, ...]) -> dict[int, list[int] | None]:
    """Paragraph index → the (sorted) indexes of its sentences holding any of ``words``, or None for
    an ``odd`` paragraph holding one; in paragraph order. Worked out once per rulebook and words."""

    def build() -> dict[int, list[int] | None]:
        bk = _book(rb)
        low, lstarts, starts, be, first, odd = bk.low, bk.low_starts, bk.starts, bk.break_ends, bk.first_break, bk.odd
        found: dict[int, set[int] | None] = {}
        for word in words:
            i = low.find(word)
            while i >= 0:
                k = bisect_right(lstarts, i) - 1
                if odd and k in odd:
                    found[k] = None
                    i = low.find(word, lstarts[k + 1])
                    continue
                shift = starts[k] - lstarts[k]  # 0 unless a paragraph before lengthened when lower-cased
                lo, hi = first[k], first[k + 1]
                j = bisect_right(be, i + shift, lo, hi)  # the breaks wholly before the hit
                chosen = found.get(k)
                if chosen is None:
                    chosen = found[k] = set()
                chosen.add(j - lo)
                i = low.find(word, be[j] - shift) if j < hi else low.find(word, lstarts[k + 1])  # on from the next sentence
        return {k: (sorted(v) if v is not None else None) for k, v in sorted(found.items())}

    return built(rb, "sentence_hits:" + "\x00".join(words), build)


def _local_span(bk: _Book, k: int, s: int) -> tuple[int, int]:
    """``(start, end)`` in paragraph ``k``'s text of its sentence ``s`` (as :func:`_span`)."""
    base, lo, hi = bk.starts[k], bk.first_break[k], bk.first_break[k + 1]
    j = lo + s
    return (bk.break_ends[j - 1] - base if s else 0, bk.break_starts[j] + 1 - base if j < hi else bk.starts[k + 1] - 1 - base)


def window_map(rb: Rulebook, *words: str) -> dict[int, list[tuple[int, int]]]:
    """Paragraph index (in :meth:`Rulebook.paragraphs`) → the windows of :func:`windows` for
    ``words``, for every paragraph holding one, in order; worked out once per rulebook and words."""

    def build() -> dict[int, list[tuple[int, int]]]:
        bk = _book(rb)
        out: dict[int, list[tuple[int, int]]] = {}
        for k, chosen in _sentence_hits(rb, words).items():
            if chosen is None:
                out[k] = [(0, bk.starts[k + 1] - 1 - bk.starts[k])]
                continue
            runs: list[tuple[int, int]] = []
            last = -2
            for s in chosen:
                a, b = _local_span(bk, k, s)
                if s == last + 1:
                    runs[-1] = (runs[-1][0], b)
                else:
                    runs.append((a, b))
                last = s
            out[k] = runs
        return out

    return built(rb, "window_map:" + "\x00".join(words), build)


def windows_at(rb: Rulebook, k: int, *words: str) -> list[tuple[int, int]]:
    """``windows(p, *words)`` for paragraph ``k`` alone, from the book's break table (no break search
    of the paragraph): for checks that want windows of only a few paragraphs. Kept in ``p.scans``."""
    p = rb.paragraphs()[k]
    found = p.scans.get(words)
    if found is not None:
        return found
    if len(p.lowered) != len(p.text):
        return windows(p, *words)
    bk, low = _book(rb), p.lowered
    base, lo, hi, be = bk.starts[k], bk.first_break[k], bk.first_break[k + 1], bk.break_ends
    chosen: set[int] = set()
    for word in words:
        i = low.find(word)
        while i >= 0:
            j = bisect_right(be, base + i, lo, hi)
            chosen.add(j - lo)
            i = low.find(word, be[j] - base) if j < hi else -1
    runs: list[tuple[int, int]] = []
    last = -2
    for s in sorted(chosen):
        a, b = _local_span(bk, k, s)
        runs[-1:] = [(runs[-1][0], b)] if s == last + 1 else runs[-1:] + [(a, b)]
        last = s
    p.scans[words] = runs
    return runs


def scanned(rb: Rulebook, *words: str) -> list[tuple[Paragraph, list[tuple[int, int]]]]:
    """``(paragraph, windows)`` of every paragraph holding any of ``words``, in order: what
    ``windows(p, *words)`` gives for each of :func:`paragraphs_with`, found in one pass."""
    paragraphs = rb.paragraphs()
    return rb.memo("scanned:" + "\x00".join(words), lambda: [(paragraphs[k], w) for k, w in window_map(rb, *words).items()])


def sentences_in(rb: Rulebook, *words: str) -> list[tuple[Paragraph, list[tuple[int, int]]]]:
    """``(paragraph, sentences)`` of every paragraph holding any of ``words``, in order: what
    ``sentences_with(p, *words)`` gives for each of :func:`paragraphs_with`, found in one pass."""

    def build() -> list[tuple[Paragraph, list[tuple[int, int]]]]:
        bk, paragraphs = _book(rb), rb.paragraphs()
        out = []
        for k, chosen in _sentence_hits(rb, words).items():
            p = paragraphs[k]
            spans = sentences_with(p, *words) if chosen is None else [_local_span(bk, k, s) for s in chosen]
            out.append((p, spans))
        return out

    return built(rb, "sentences_in:" + "\x00".join(words), build)


def sentence_at(rb: Rulebook, k: int, offset: int) -> str:
    """``sentence_of(p.text, offset)`` for paragraph ``k`` of :meth:`Rulebook.paragraphs`, from the
    book's break table (no search of the paragraph)."""
    bk = _book(rb)
    base, lo, hi = bk.starts[k], bk.first_break[k], bk.first_break[k + 1]
    starts, ends, g = bk.break_starts, bk.break_ends, base + offset
    i = bisect_right(ends, g, lo, hi)
    start = ends[i - 1] if i > lo else base
    j = bisect_left(starts, g, max(i - 1, lo), hi)
    while j < hi and ends[j] <= g:
        j += 1
    end = starts[j] + 1 if j < hi else bk.starts[k + 1] - 1
    return bk.text[start:end]
