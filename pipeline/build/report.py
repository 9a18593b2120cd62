"""What a build tells: each game's :class:`GameOutcome` and the build report ``report.json``.

The report lists every game's status, counts, findings and files; a build of some games
keeps the previous report's entries of the others whose output is still there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.findings import Finding, Location, Severity, counts, sort_key
from pipeline.common.files import write_text

REPORT = "report.json"


@dataclass
class GameOutcome:
    """What happened to one game: ``status`` is built, cached, stopped (errors), unreadable, or
    failed (the build could not finish: a full disk, an unwritable folder, a worker that died;
    ``error`` says why in one line, and the previous output is untouched)."""

    game_dir: str
    game_id: str
    status: str
    findings: list[Finding]
    files: list[str] = field(default_factory=list)
    cards: int = 0
    copies: int = 0
    provisional: int = 0
    forced: bool = False
    error: str = ""


def failed_outcome(game_dir: str, exc: BaseException, game_id: str | None = None) -> GameOutcome:
    """The outcome of a game whose build raised ``exc``: status failed, the error in one line.
    ``game_id`` defaults to the folder's name."""
    name = game_id or Path(game_dir).name
    if isinstance(exc, OSError) and exc.strerror:
        text = f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
        if type(exc).__name__ == "OutputError":
            text = str(exc.args[1]) if len(exc.args) > 1 else str(exc)
    else:
        text = f"{type(exc).__name__}: {exc}"
    return GameOutcome(game_dir, name, "failed", [], error=text)


def finding_from_dict(data: dict) -> Finding:
    """A finding read back from its ``to_dict()`` form (a manifest's or report's ``findings`` entry)."""
    loc = Location(**data["location"])
    related = tuple(Location(**r) for r in data.get("related", ()))
    return Finding(data["code"], data["name"], Severity(data["severity"]), data["message"], data.get("hint", ""), loc, related)


def cached_outcome(game_dir: str, game_id: str, manifest: dict) -> GameOutcome:
    """The outcome of a game whose previous output is current, read back from its manifest."""
    return GameOutcome(
        game_dir, game_id, "cached",
        [finding_from_dict(d) for d in manifest.get("findings", [])],
        [e["path"] for e in manifest["files"]],
        cards=manifest.get("unique_cards", 0), copies=manifest.get("printed_cards", 0),
        provisional=manifest.get("provisional_cards", 0), forced=manifest.get("forced", False),
    )


def report_dict(outcomes: list[GameOutcome]) -> dict:
    """The build report (``report.json``): findings and counts per game, and totals."""
    games = {}
    for o in outcomes:
        items = sorted(o.findings, key=sort_key)
        games[o.game_id] = {
            "folder": o.game_dir,
            "status": o.status,
            "forced": o.forced,
            **({"error": o.error} if o.error else {}),
            "unique_cards": o.cards,
            "printed_cards": o.copies,
            "provisional_cards": o.provisional,
            "counts": counts(items),
            "findings": [f.to_dict() for f in items],
            "files": o.files,
        }
    return {"games": games, "counts": counts([f for o in outcomes for f in o.findings])}


def write_report(out_dir: Path, outcomes: list[GameOutcome]) -> None:
    """Write ``<out_dir>/report.json``: these outcomes merged into the previous report."""
    report = _merged_report(out_dir, report_dict(outcomes))
    write_text(out_dir / REPORT, json.dumps(report, indent=2, ensure_ascii=False) + "\n")


def _merged_report(out_dir: Path, new: dict) -> dict:
    """The new report plus the previous report's games that this build did not touch (their output is still there)."""
    try:
        old = json.loads((out_dir / REPORT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    games = {gid: entry for gid, entry in old.get("games", {}).items() if gid not in new["games"] and (out_dir / gid).is_dir()}
    games.update(new["games"])
    total = {s: sum(g["counts"].get(s, 0) for g in games.values()) for s in ("error", "warning", "info")}
    return {"games": dict(sorted(games.items())), "counts": total}
