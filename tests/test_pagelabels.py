"""Page labels read in one pass (pipeline/render/pagelabels.py).

Reference: pikepdf's own ``Page.label`` (qpdf's QPDFPageLabelDocumentHelper) for decimal and
roman styles, prefixes, ``/St`` and ranges that do not start at page 0; for the letter styles
the numbers of ISO 32000-1:2008 §12.4.2 Table 159 (A–Z, then AA–ZZ), where qpdf counts
bijectively (Z, AA, AB) instead, so a check against it would test qpdf's deviation.
"""

from __future__ import annotations

import random

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name, String

from pipeline.render.pagelabels import labels_of


def _pdf(pages: int, nums: list | None) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page()
    if nums is not None:
        pdf.Root.PageLabels = Dictionary(Nums=Array(nums))
    return pdf


def test_no_page_labels_gives_page_numbers():
    assert labels_of(_pdf(3, None)) == ["1", "2", "3"]


def test_prefix_only_labels_as_deckpress_writes_them():
    pdf = _pdf(3, [0, Dictionary(P=String("ember-1")), 1, Dictionary(P=String("ember-2")), 2, Dictionary(P=String("back"))])
    assert labels_of(pdf) == ["ember-1", "ember-2", "back"] == [str(p.label) for p in pdf.pages]


def test_styles_start_and_prefix():
    pdf = _pdf(9, [0, Dictionary(S=Name.r), 3, Dictionary(S=Name.D, St=7, P=String("A-")), 6, Dictionary(S=Name.R, St=48)])
    assert labels_of(pdf) == ["i", "ii", "iii", "A-7", "A-8", "A-9", "XLVIII", "XLIX", "L"]
    assert labels_of(pdf) == [str(p.label) for p in pdf.pages]


def test_a_first_range_after_page_zero_numbers_the_pages_before_it():
    pdf = _pdf(4, [2, Dictionary(P=String("x"))])
    assert labels_of(pdf) == [str(p.label) for p in pdf.pages] == ["1", "2", "x", "x"]


def test_letters_count_as_iso_32000_says():
    pdf = _pdf(54, [0, Dictionary(S=Name.A), 52, Dictionary(S=Name.a, St=27)])
    labels = labels_of(pdf)
    assert labels[:3] == ["A", "B", "C"]
    assert labels[25:28] == ["Z", "AA", "BB"]  # §12.4.2: "AA to ZZ for the next 26"
    assert labels[51] == "ZZ"
    assert labels[52:] == ["aa", "bb"]


@pytest.mark.parametrize("seed", range(5))
def test_random_trees_agree_with_pikepdf(seed):
    rng = random.Random(seed)
    for _ in range(40):
        pages = rng.randint(1, 40)
        nums: list = []
        for start in sorted(rng.sample(range(pages), rng.randint(0, min(pages, 5)))):
            spec = Dictionary()
            if rng.random() < 0.8:
                spec.S = Name(rng.choice(["/D", "/R", "/r"]))
            if rng.random() < 0.5:
                spec.P = String(rng.choice(["card ", "é-", ""]))
            if rng.random() < 0.5:
                spec.St = rng.randint(1, 3000)
            nums += [start, spec]
        pdf = _pdf(pages, nums)
        assert labels_of(pdf) == [str(p.label) for p in pdf.pages]
