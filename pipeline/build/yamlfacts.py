"""What a build needs of a game.yaml before loading the game: its ``id`` and ``extends.game``.

:mod:`pipeline.build.manifest` asks for them to name the output folder and to find the files
the build key hashes. They are remembered by the sha256 of the file's bytes, in this process and
across runs in ``<out>/.deckpress-stat/game-yaml.json`` (written under the output folder's
lock), so an unchanged rebuild runs no YAML parser and does not import PyYAML (its import
compiles some 30 regular expressions; with the parse of four game.yaml files that was ~0.05 s
of such a rebuild). The file is read and hashed every time, so an edit is always seen; the
record is keyed by the bytes and by PyYAML's version, so it can only be right or unused.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from engine.limits import MAX_FILE_BYTES
from pipeline.build.statcache import STAT_DIR, replace_text

FACTS_FILE = "game-yaml.json"
_KEEP = 256  # records kept in the file (the most recent): a few per game folder ever built there

_facts: dict[str, list] = {}
_new: set[str] = set()


def facts(path: Path) -> tuple[str | None, str | None] | None:
    """``(id, extends.game)`` of the game.yaml at ``path`` parsed as safe YAML: the id when it is a
    string, ``extends.game`` as text when ``extends`` is a mapping that has it, else None each;
    None for a file that cannot be read, decoded as UTF-8 or parsed (the loader reports it)."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_FILE_BYTES:
            return None  # a device (/dev/zero), FIFO or oversized file would never end or block: the loader reports it
        raw = path.read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256(raw).hexdigest()
    if digest not in _facts:
        import yaml

        try:
            data = yaml.load(raw.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml's when there: 10x faster
        except (UnicodeDecodeError, yaml.YAMLError):
            return None
        game_id = data.get("id") if isinstance(data, dict) else None
        extends = data.get("extends") if isinstance(data, dict) else None
        base = str(extends["game"]) if isinstance(extends, dict) and "game" in extends else None
        _facts[digest] = [game_id if isinstance(game_id, str) else None, base]
        _new.add(digest)
    game_id, base = _facts[digest]
    return game_id, base


def _file(out_dir: str | Path) -> str:
    return os.path.join(out_dir, STAT_DIR, FACTS_FILE)


def load(out_dir: str | Path, parser: str) -> None:
    """Add the records of ``<out_dir>/.deckpress-stat/game-yaml.json`` made with PyYAML ``parser``
    (its version); a missing, unreadable or other version's file adds none."""
    try:
        with open(_file(out_dir), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return
    if isinstance(data, dict) and data.get("parser") == parser and isinstance(data.get("facts"), dict):
        for digest, record in data["facts"].items():
            if isinstance(record, list) and len(record) == 2 and all(v is None or isinstance(v, str) for v in record):
                _facts.setdefault(digest, record)


def save(out_dir: str | Path, parser: str) -> None:
    """Write the records (the most recent :data:`_KEEP`) when this process parsed a new game.yaml;
    call under the output folder's lock. Best effort: a file that cannot be written is skipped."""
    if not _new:
        return
    text = json.dumps({"parser": parser, "facts": dict(list(_facts.items())[-_KEEP:])}, separators=(",", ":"))  # the C encoder (json.dump is pure Python)
    if replace_text(_file(out_dir), text):
        _new.clear()
