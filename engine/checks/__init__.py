"""The registered deck checks. Importing this package registers every check module.

Families: CP composition, KW keywords, PW power, DQ data quality (data alone);
RB rules text (data against the ``--rulebook`` file).
"""

from engine.checks import composition, keywords, power, quality  # noqa: F401
from engine.checks import rulebook_counts, rulebook_terms, rulebook_text  # noqa: F401

# The loader's DA codes belong in every listing of the registry too.
import engine.load  # noqa: E402,F401
