"""Where card data lives: the file names of a game folder and how game folders are found.

Kept apart from the loader so that finding games costs no import of the data model.
"""

from __future__ import annotations

import re
from pathlib import Path

GAME_FILE = "game.yaml"
#: Ids (game, class, die, card) are lowercase slugs: they name files, folders and URLs,
#: so a slug keeps them inside their folder (``../victim`` is not one).
#: Use it with ``fullmatch``: ``$`` in ``match`` would accept a trailing newline.
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
CARDS_FILE = "cards.yaml"


def display_path(path: Path) -> str:
    """A path as the user should see it in a finding: relative to the working directory when inside it, else as given."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def find_games(root: str | Path) -> list[Path]:
    """Game folders directly under ``root`` (those holding a game.yaml), sorted by name; [] if root is no folder."""
    root = Path(root)
    return sorted(p for p in root.iterdir() if (p / GAME_FILE).is_file()) if root.is_dir() else []
