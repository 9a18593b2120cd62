"""The soft proof's byte-level colour rewrite (pipeline.render.softproof._rewrite_colours) against
the reference it replaces for speed: pikepdf's full content-stream parser (qpdf), whose
instructions the same colour mapping rewrites. Both must give the same operators and operands."""

from __future__ import annotations

import pikepdf
import pytest

from pipeline.render import softproof
from pipeline.render.targets import DEFAULT_TARGET, load_target


def _reference(content: bytes, target) -> list:
    """The instructions pikepdf's parser gives after the slow path's rewrite, as comparable tuples."""
    pdf = pikepdf.new()
    stream = pdf.make_stream(content)
    return [(tuple(map(str, i.operands)), str(i.operator)) for i in softproof._instructions(stream, target)]


def _parsed(content: bytes) -> list:
    pdf = pikepdf.new()
    return [(tuple(map(str, i.operands)), str(i.operator)) for i in pikepdf.parse_content_stream(pdf.make_stream(content))]


@pytest.fixture(scope="module")
def target():
    return load_target(DEFAULT_TARGET)


def _as_numbers(ops):
    out = []
    for operands, op in ops:
        try:
            out.append((tuple(round(float(v), 4) for v in operands), op))
        except ValueError:
            out.append((operands, op))
    return out


def test_colours_are_rewritten_like_the_parser_does(target):
    content = (b"1 0 0 1 0 0 cm\n0 0 0 0 k\nn 0 0 234 378 re f*\n0 0 0 1 K\n3 w\n.5 g 0.2 G\n"
               b"q 0.1 0.7 0 .25 k 10 10 5 5 re f Q\nBT /F1 12 Tf (Rally 0 0 0 1 k \\(x\\) % no) Tj ET\n"
               b"% 0 0 0 1 k in a comment\n0 0 0 1 k")
    fast = softproof._rewrite_colours(content, target)
    assert fast is not None
    assert b"(Rally 0 0 0 1 k \\(x\\) % no)" in fast and b"% 0 0 0 1 k in a comment" in fast  # strings and comments untouched
    assert _as_numbers(_parsed(fast)) == _as_numbers(_reference(content, target))
    assert sum(op in ("rg", "RG") for _, op in _parsed(fast)) == 6


@pytest.mark.parametrize("content", [
    b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI 0 0 0 1 k",  # inline image: binary data
    b"BT (a (0 0 0 1 k) b) Tj ET 0 0 0 1 k",  # unescaped parentheses nested in a string
    b"/Name k",  # an operand that is not a number
])
def test_streams_the_rewrite_cannot_read_go_to_the_parser(content, target):
    assert softproof._rewrite_colours(content, target) is None


def test_operands_longer_than_the_first_window_are_read_whole(target):
    # 4 operands of 12 digits: 52 bytes, more than the 40 the rewrite looks at first
    content = b"q 0.1234567890 0.2345678901 0.3456789012 0.4567890123 k 0 0 5 5 re f Q\n0.25 g\n0.000000000000000000000000000000000000005 G"
    fast = softproof._rewrite_colours(content, target, {})
    assert fast is not None and fast.startswith(b"q ") and b"0.4567890123" not in fast
    assert _as_numbers(_parsed(fast)) == _as_numbers(_reference(content, target))
    assert [op for _, op in _parsed(fast) if op in ("rg", "RG")] == ["rg", "rg", "RG"]
