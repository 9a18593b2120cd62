"""Where card data lives: the file names of a game folder and how game folders are found.

Kept apart from the loader so that finding games costs no import of the data model.
"""

from __future__ import annotations

from pathlib import Path

GAME_FILE = "game.yaml"
CARDS_FILE = "cards.yaml"


def find_games(root: str | Path) -> list[Path]:
    """Game folders directly under ``root`` (those holding a game.yaml), sorted by name; [] if root is no folder."""
    root = Path(root)
    return sorted(p for p in root.iterdir() if (p / GAME_FILE).is_file()) if root.is_dir() else []
