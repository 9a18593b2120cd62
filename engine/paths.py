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
    """Game folders directly under ``root``, sorted by name; [] if root is no folder.

    A game folder holds a game.yaml, or looks like one that lost it: a cards.yaml, or a game or
    cards file under another spelling (``game.yml``, ``Game.yaml``). Those are listed too, so the
    loader reports the missing game.yaml (DA005) instead of the build passing the game over in silence.
    """
    root = Path(root)
    return sorted(p for p in root.iterdir() if p.is_dir() and _looks_like_a_game(p)) if root.is_dir() else []


def _looks_like_a_game(folder: Path) -> bool:
    """True when ``folder`` holds a file named game or cards (any case) ending .yaml or .yml."""
    if (folder / GAME_FILE).is_file():
        return True
    try:
        return any(entry.is_file() and entry.name.lower() in _GAME_LIKE for entry in folder.iterdir())
    except OSError:
        return False  # unreadable folder: not listed, as before


_GAME_LIKE = {f"{stem}.{suffix}" for stem in ("game", "cards") for suffix in ("yaml", "yml")}
