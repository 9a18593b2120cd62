"""Every bound deckpress puts on what card data may ask for, in one place, with why.

Card data drives loops (one PDF page per card, one press-sheet face per copy, one braille
translation per allowed power value) and memory (decoded art, parsed YAML). Each number
here caps one of them far above what a real game needs, so hostile or mistyped data is
refused with a finding that states the limit instead of running for hours or exhausting
memory. The shipped games' largest values are given for comparison.
"""

from __future__ import annotations

#: Bytes in one game.yaml or cards.yaml. The shipped cards.yaml files are under 100 kB; the
#: bound caps what the YAML parser reads before any other limit applies.
MAX_FILE_BYTES = 5_000_000

#: YAML values a document may expand to beyond one per character of its text. Every value
#: written out costs at least one character, so only aliases can exceed ``len(text)``; an
#: alias bomb ("billion laughs") passes this bound within a few levels.
ALIAS_ALLOWANCE = 100_000

#: Nesting depth of lists and mappings in a YAML document. Card data is at most 6 deep
#: (``classes[].palette.background.cmyk[]``); past about 1,000 levels Python's recursion
#: limit would end the loader, validator and printer with a RecursionError.
MAX_YAML_DEPTH = 64

#: Digits in a YAML integer. No count or number in card data is near 10^15, and Python
#: refuses to convert integers of more than 4,300 digits at all (``sys.int_info``).
MAX_INT_DIGITS = 15

#: Characters in an id (game, class, die, card). Ids name files
#: (``sheets/<game>-<paper>-duplex-calibration.pdf``, ``cards/<card>.html``): two ids and
#: their decoration stay well under the 255-byte file-name limit of ext4, APFS and NTFS.
MAX_ID_LENGTH = 64

#: Printed copies of one card. The shipped games print at most 2 copies of a card; each
#: copy is one press-sheet face on every paper and one braille page with ``--copies``.
MAX_COPIES = 200

#: Unique cards in one game (base and expansion together): one PDF page, proof PNG and
#: archive page each. The largest shipped game has 120; issue 22 asks for 10,000 (measured on
#: 2 cores with every output but proofs: 448 s CPU, 1.5 GiB peak, exit 0, 2026-12-01).
MAX_CARDS = 10_000

#: Printed cards (copies counted) in one game: the press sheets hold one face per copy,
#: so 20,000 cards are about 2,230 letter sheets per side and paper (two copies of the largest
#: deck :data:`MAX_CARDS` allows). The largest shipped game prints 120.
MAX_PRINTED_CARDS = 20_000

#: Values in a game's numeric power range (``power.numbers``): every allowed value is
#: translated to braille and compared with every other for collisions (PW002) on each
#: check. Shipped ranges have 11 or 12 values; a maximum of 10^8 once took 15.7 GB.
MAX_POWER_VALUES = 1_000

#: Largest magnitude of a power value: six digits, which no card's power box prints at 18 pt anyway.
MAX_POWER_MAGNITUDE = 999_999

#: Pixels in one card art image (width × height). A 3×5 in card at 300 dpi needs 1.35 Mpx;
#: 40 Mpx decodes to 160 MB as RGBA. Pillow's own decompression-bomb error is at 179 Mpx
#: (twice ``Image.MAX_IMAGE_PIXELS``); its warning at half that would reach stderr.
MAX_ART_PIXELS = 40_000_000

#: Faces on one die (engine.game.Die): a die-face sheet draws one face each; the shipped dice have 12.
MAX_DIE_FACES = 100
