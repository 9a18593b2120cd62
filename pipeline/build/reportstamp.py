"""The report stamp: when report.json need not be read to be written (or left as it is).

``write_report`` merges this build's games into the previous report.json and leaves the file
alone when nothing changed. Reading it back is 5 MB of JSON for a 10,000-card game (~45 ms of an
unchanged rebuild). ``<out>/.deckpress-stat/report.json`` records, after each write or check,
the stat of report.json, the time it was taken and the report's inputs: per game, its id, its
folder as the report names it and the stat of its manifest.json, for a build whose games were all
reused (a cached game's entry is made from its manifest alone), and the games the report lists.
While report.json's stat and those inputs are as recorded and it lists only this build's games (an
entry of another game must go when that game's folder does), the report is the one this build
would write.

As with the stat cache (:mod:`pipeline.build.statcache`), a report changed within
:data:`~pipeline.build.statcache.RACY_NS` of the record is not taken on trust by its stat: its
timestamps could equal an edit's. The stamp also keeps the sha256 of the report's bytes, and such a
"racy" report holds when its bytes still have it (as git checks a racy index entry by its content):
the second unchanged rebuild, which comes right after the first rewrote the report, then reads 5 MB of
bytes instead of parsing them and the manifest's 10,000 findings (issue 22). Like the stat cache,
the stamp is an optimisation only: absent, unreadable or stale means the report is read, never a
wrong report.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from pipeline.build import statcache
from pipeline.build.statcache import STAT_DIR, signature

STAMP = "report.json"


def _stamp_path(out_dir: Path) -> Path:
    return out_dir / STAT_DIR / STAMP


def inputs_key(out_dir: Path, entries: list[tuple[str, str, str]]) -> str | None:
    """Hex sha256 over ``(game id, status, report folder)`` of each game with its manifest.json's
    stat, when every status is ``cached``; None otherwise (a built or stopped game's entry holds
    more than its manifest) or when a manifest is missing."""
    if not entries or any(status != "cached" for _, status, _ in entries):
        return None
    try:
        made = [[gid, folder, signature(os.stat(out_dir / gid / "manifest.json"))] for gid, _, folder in entries]
    except OSError:
        return None
    return hashlib.sha256(json.dumps(made).encode()).hexdigest()


def _read(out_dir: Path) -> dict:
    try:
        data = json.loads(_stamp_path(out_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def holds(out_dir: Path, key: str | None, games: list[str]) -> bool:
    """Whether report.json is, unchanged, the report made from inputs ``key`` (:func:`inputs_key`;
    None never holds) holding exactly the games ``games``: a report that also lists another game is
    merged again, since that game's entry goes when its folder does. Unchanged means its stat is as
    stamped, and for a racy stamp (the report changed within RACY_NS of it) also that its bytes have
    the sha256 stamped: those are then read and hashed, and the stamp taken again (:func:`record`),
    so the next build trusts the stat alone."""
    if key is None:
        return False
    stamp = _read(out_dir)
    if stamp.get("games") != sorted(games):
        return False
    try:
        st = os.stat(out_dir / "report.json")
    except OSError:
        return False
    if stamp.get("inputs") != key or stamp.get("report") != signature(st):
        return False
    if max(st.st_mtime_ns, st.st_ctime_ns) < stamp.get("taken", 0) - statcache.RACY_NS:
        return True
    try:  # racy: its timestamps cannot tell it from an edit of the same clock tick; its bytes can
        same = isinstance(stamp.get("sha256"), str) and hashlib.sha256((out_dir / "report.json").read_bytes()).hexdigest() == stamp["sha256"]
    except OSError:
        return False
    if same:
        record(out_dir, key, games, stamp["sha256"])  # taken again, later: the next build may trust the stat alone
    return same


def known_inputs(out_dir: Path) -> str | None:
    """The inputs key recorded with the last report (racy or not), or None."""
    return _read(out_dir).get("inputs")


def record(out_dir: Path, key: str | None, games: list[str], sha256: str | None = None) -> None:
    """Stamp report.json as it is now as the report of inputs ``key`` listing the games ``games``,
    whose bytes have the hex ``sha256`` (None: not known, a racy stamp then never holds); with ``key``
    None (some game was not reused) remove the stamp instead. Best effort: a stamp that cannot be
    written is removed or left out (the next build reads report.json)."""
    path = _stamp_path(out_dir)
    if key is not None:
        try:
            stamp = {"report": signature(os.stat(out_dir / "report.json")), "taken": time.time_ns(), "inputs": key, "games": sorted(games),
                     "sha256": sha256}
        except OSError:
            stamp = None
        if stamp is not None and statcache.replace_text(str(path), json.dumps(stamp)):
            return
    try:
        path.unlink(missing_ok=True)  # no stat folder made for a build that stopped, no stale stamp left
    except OSError:
        pass  # an unwritable stat folder: the stamp there is older than report.json's stat, so it does not hold
