"""Hints and places for the loader's unreadable-file findings (DA005, :mod:`engine.load`): what a
designer most likely meant when a file or folder is not there, and where a file stops being UTF-8."""

from __future__ import annotations

import difflib
from pathlib import Path

from engine.paths import GAME_FILE, display_path


def missing_file_hint(path: Path) -> str:
    """What to do about a missing game.yaml or cards.yaml: rename a near miss in its folder
    (``game.yml``, ``Game.yaml``); for a folder whose subfolders are games (``carddata``), name
    them; else create it."""
    stem = path.stem.lower()
    try:
        near = sorted(p.name for p in path.parent.iterdir() if p.is_file() and p.name.lower() in (f"{stem}.yaml", f"{stem}.yml"))
    except OSError:
        near = []
    if near:
        return f"rename {near[0]} to {path.name} (deckpress reads only that name)"
    try:
        games = sorted(p.name for p in path.parent.iterdir() if (p / GAME_FILE).is_file())
    except OSError:
        games = []
    if games and path.name == GAME_FILE:  # `deckpress check carddata`: the folder of games, not a game
        folder = display_path(path.parent)
        shown = ", ".join(f"{folder}/{g}" for g in games[:4]) + (", …" if len(games) > 4 else "")
        return f"{folder} holds game folders, not a game: name one ({shown})"
    return f"create {path.name}; see README 'Card data: adding a game'"


def folder_hint(folder: Path) -> str:
    """The hint for a game folder that is not there: the game folder of the closest name beside
    it (a typo: ``carddata/enchan``), else an example."""
    parent = folder.parent
    games = sorted(p.name for p in parent.iterdir() if (p / GAME_FILE).is_file()) if parent.is_dir() else []
    guess = difflib.get_close_matches(folder.name, games, n=1)
    if guess:
        return f"did you mean {(parent / guess[0]).as_posix()}? (game folders there: {', '.join(games)})"
    return "give a folder holding game.yaml and cards.yaml, e.g. carddata/apprentice"


def first_bad_byte(path: Path, limit: int) -> tuple[int, int, int] | None:
    """``(line, column, byte)`` of the first byte of ``path``'s first ``limit`` bytes that is not
    UTF-8 (1-based; the column counts the line's characters before it), or None. A text reader's
    UnicodeDecodeError gives an offset within its buffer, so the raw bytes are read again."""
    try:
        raw = path.read_bytes()[:limit]
        raw.decode("utf-8")
        return None
    except OSError:
        return None
    except UnicodeDecodeError as exc:
        start = exc.start
    line_start = raw.rfind(b"\n", 0, start) + 1
    return raw.count(b"\n", 0, start) + 1, len(raw[line_start:start].decode("utf-8", "replace")) + 1, raw[start]
