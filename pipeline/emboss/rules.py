"""Finding codes of the emboss stage (family EM), declared in the rule registry.

Importing this module registers them; :mod:`pipeline.emboss.pages` and
:mod:`pipeline.emboss.write` raise them.
"""

from __future__ import annotations

from engine.findings import Severity
from engine.registry import declare

BLOCK_TOO_TALL = declare(
    "EM001",
    "braille-block-too-tall",
    Severity.error,
    """A card's braille block has more lines than one embosser page holds.

    A card is never split across embosser pages and never cut short: the card is left
    out of the BRF and PEF and named here, with the lines needed and available.

    Fails: a 12-line block for the card-3x5 profile, whose 3×5 in page holds 11 lines.

    Passes: an 8-line block on the same profile.
    """,
)

LINE_TOO_WIDE = declare(
    "EM002",
    "braille-line-too-wide",
    Severity.error,
    """A line of a card's braille block has more cells than the embosser page's line holds.

    Lines are never re-wrapped or cut here: the embosser files carry the same laid-out
    cells as the UV layer, so the card is left out and named, with the cells needed.

    Fails: a 12-cell line for the card-3x5 profile (10 cells per line).

    Passes: a 10-cell line on the same profile.
    """,
)

NOT_SIX_DOT = declare(
    "EM003",
    "braille-cell-not-six-dot",
    Severity.error,
    """A card's braille block holds a character that is not a six-dot braille cell.

    BRF (North American Braille ASCII) has a byte for each of the 64 six-dot cells
    only (U+2800–U+283F); the card is left out and the character named.

    Fails: a line holding "⡁" (U+2841, dot 7) or a print letter "A".

    Passes: a line of six-dot cells such as "⠠⠑⠍⠃⠑⠗".
    """,
)

PEF_INVALID = declare(
    "EM004",
    "pef-invalid",
    Severity.error,
    """The PEF document deckpress made does not validate (RELAX NG schema or Schematron rules).

    The file is not written: an embosser or PEF viewer may reject it or emboss it wrongly.
    This points at a deckpress defect; the message gives the validator's first problem.

    Fails: a page with more rows than the volume's ``rows`` attribute.

    Passes: every row within ``cols`` cells and every page within ``rows`` rows.
    """,
)

BRF_INVALID = declare(
    "EM005",
    "brf-invalid",
    Severity.error,
    """The BRF file deckpress made breaks the BRF rules, so it is not written.

    The rules: only bytes 0x20–0x5F inside lines, CR LF after each line, a form feed
    after each page, no line or page longer than the profile's, no blank trailing page. This points at a deckpress defect; the message names the first problem.

    Fails: a line of 11 cells for a 10-cell profile, or a lowercase letter (0x61).

    Passes: lines of Braille ASCII within the profile, CR LF after each, a form feed after each page.
    """,
)

NOTHING_TO_EMBOSS = declare(
    "EM006",
    "nothing-to-emboss",
    Severity.error,
    """No card could be placed on an embosser page, so no BRF or PEF is written for this profile and layout.

    Fails: every card's braille block too tall for the profile's page.

    Passes: at least one card fits.
    """,
)

BLOCK_MISSING = declare(
    "EM007",
    "braille-block-missing",
    Severity.error,
    """A card of the deck has no braille block (or an empty one) to emboss.

    Fails: the braille stage laid out no block for the card ``fireball``.

    Passes: every card of the deck has a block with at least its class indicator.
    """,
)

PAPER_MISMATCH = declare(
    "EM008",
    "embosser-cannot-take-page",
    Severity.error,
    """The chosen embosser profile cannot take the page the layout needs, so its files are not made.

    Loose 3×5 in cards do not feed most embossers: the Index Everest-D needs paper at
    least 130 mm across. Use the card layout with a card-stock profile, or the sheet layout.

    Fails: ``--profile index-everest-d --layout card`` for 3×5 in cards (76.2 mm across).

    Passes: ``--profile index-everest-d --layout sheet``, or ``--profile card-3x5 --layout card``.
    """,
)

CARD_START_UNREACHABLE = declare(
    "EM009",
    "card-braille-start-unreachable",
    Severity.error,
    """The embosser profile cannot start a card's braille where the card layout (and the UV layer) puts it.

    The card-per-page file must put its braille exactly on the layout's braille box, below
    the QR code, so it serves blank card stock and pre-printed cards alike. An embosser
    that starts at its top margin and moves only in whole lines (``start_offset: fixed``)
    can reach the box only if it lies a whole number of lines below that margin.

    Fails: ``--profile index-basic-d --layout card``: its lines start 6.35 mm down and every
    10.16 mm, the braille box 33.02 mm down (2.62 lines).

    Passes: ``--profile card-3x5 --layout card`` (``start_offset: adjustable``: the first
    line is set to 33.02 mm from the top, 6.35 mm from the left, as the sidecar states).
    """,
)
