"""What a build tells: each game's :class:`GameOutcome` and the build report ``report.json``.

The report lists every game's status, counts, findings and files; a build of some games
keeps the previous report's entries of the others whose output is still there.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.findings import Finding, FindingList, Location, counts, sort_key
from engine.paths import display_path
from pipeline.build import reportstamp
from pipeline.common.files import write_text
from pipeline.common.jsontext import ItemTexts, document_text

REPORT = "report.json"


@dataclass
class GameOutcome:
    """What happened to one game: ``status`` is built, cached, stopped (errors), unreadable, or
    failed (the build could not finish: a full disk, an unwritable folder, a worker that died;
    ``error`` says why in one line, and the previous output is untouched). ``per_card``: per stage
    and kind of per-card file, how many were rendered and how many kept from the previous build
    (``{"proof": {"card proofs": {"rendered": 1, "kept": 56, "total": 57}}}``, :func:`pipeline.build.cardkeys.collect`)."""

    game_dir: str
    game_id: str
    status: str
    findings: list[Finding]
    files: list[str] = field(default_factory=list)
    cards: int = 0
    copies: int = 0
    provisional: int = 0
    forced: bool = False
    placeholder_faces: int = 0
    run: str = "box"
    release: bool = False
    error: str = ""
    per_card: dict = field(default_factory=dict)
    #: Files stand-alone commands had written into the game's output folder that the build replaced
    #: (:func:`pipeline.build.outputdir.commit`), relative to it: said on the game's line.
    dropped: list[str] = field(default_factory=list)
    #: False when the game's data did not load (unreadable, or a value the loader refused): no deck, so nothing to count.
    loaded: bool = True


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


def cached_outcome(game_dir: str, game_id: str, manifest: dict, out_folder: str | Path | None = None) -> GameOutcome:
    """The outcome of a game whose previous output is current, read back from its manifest, or from
    its brief (:func:`pipeline.build.current.is_current`: the manifest's counts, its file paths as
    ``paths``, its findings' summary and a ``findings`` callable that reads them when first needed).

    The findings are a :class:`~engine.findings.FindingList` of the manifest's portable dicts (what
    the report keeps), each made a finding only when first used, named as a fresh build of ``game_dir``
    into ``out_folder`` (the game's output folder, ``<out>/<game id>``) names them (:func:`shown_names`),
    so a reused build prints paths that open from the working directory.
    """
    shown = shown_names(game_dir, out_folder) if out_folder is not None else None
    found = manifest.get("findings", [])
    return GameOutcome(
        game_dir, game_id, "cached",
        FindingList(found if callable(found) else (lambda: found), shown, manifest.get("summary"), manifest.get("finding_texts")),
        manifest["paths"] if "paths" in manifest else [e["path"] for e in manifest["files"]],
        cards=manifest.get("unique_cards", 0), copies=manifest.get("printed_cards", 0),
        provisional=manifest.get("provisional_cards", 0), forced=manifest.get("forced", False),
        placeholder_faces=manifest.get("placeholder_art_faces", 0), run=manifest.get("run", "box"),
        release=manifest.get("release", False),
    )


def shown_names(game_dir: str | Path, out_folder: str | Path) -> Callable[[str], str]:
    """The inverse of :func:`portable_findings` for display: a function naming each portable file name
    (relative to the game folder's parent, or to the game's output folder for a file a stage wrote)
    as the build names it: a data file as the loader shows it (:func:`engine.paths.display_path`:
    relative to the working directory when inside it, so ``enchant/game.yaml`` of ``nu/enchant`` is
    shown ``nu/enchant/game.yaml``), a written file under ``out_folder`` as given (``sheets/x.pdf`` of
    ``nu/out/enchant`` is ``nu/out/enchant/sheets/x.pdf``). A name is the output folder's when the data
    side holds no such file and the output folder does; otherwise the data side's. Absolute names stay."""
    data_root, out = Path(game_dir).resolve().parent, Path(out_folder)  # resolved: the parent of "." is "."
    names: dict[str, str] = {}  # a few files for thousands of findings: each looked up once

    def name(file: str) -> str:
        if file not in names:
            data, made = data_root / file, out / file
            names[file] = file if os.path.isabs(file) else str(made) if not data.exists() and made.exists() else display_path(data.resolve())
        return names[file]

    return name


def portable_findings(findings: list[Finding], game_dir: str | Path, out_dirs: tuple[Path, ...] = ()) -> list[Finding]:
    """The findings with every file named independently of the working directory, for the files
    a build writes (manifest.json, report.json, contact-sheet.html).

    A file inside one of ``out_dirs`` (the game's output or staging folder) is named relative to
    it (``print/mini-fronts.pdf``); any other file relative to the game folder's parent
    (``mini/cards.yaml``; a base game elsewhere ``../base/cards.yaml``), as the build key names them.
    Locations without a file stay as they are.
    """
    data_root = Path(game_dir).resolve().parent
    outs = [Path(d).resolve() for d in out_dirs]

    names: dict[str, str] = {}  # most findings name one of a few files: resolve each once (a syscall per path part)

    def name(file: str) -> str:
        if not file:
            return file
        if file not in names:
            path = Path(file).resolve()
            inside = next((path.relative_to(out).as_posix() for out in outs if path.is_relative_to(out)), None)
            names[file] = inside if inside is not None else Path(os.path.relpath(path, data_root)).as_posix()
        return names[file]

    def move(loc: Location) -> Location:
        return dataclasses.replace(loc, file=name(loc.file))

    return [dataclasses.replace(f, location=move(f.location), related=tuple(move(r) for r in f.related)) for f in findings]


def report_dict(outcomes: list[GameOutcome], out_dir: Path | None = None, texts: bool = False) -> dict:
    """The build report (``report.json``): findings and counts per game, and totals.

    With ``out_dir`` every file is named independently of the working directory: findings by
    :func:`portable_findings` (a cached game's come from its manifest, where they already are)
    and the game folder relative to ``out_dir``. With ``texts`` a cached game's findings are an
    :class:`~pipeline.common.jsontext.ItemTexts` of the manifest's own texts where it has them (for
    :func:`~pipeline.common.jsontext.document_text`, not ``json.dumps``): neither parsed nor encoded again.
    """
    games = {}
    for o in outcomes:
        # A cached game's findings are shown with the names a build prints (shown_names); the
        # report keeps the manifest's portable, sorted dicts of them (counted, not sorted again).
        kept = o.status == "cached" and isinstance(o.findings, FindingList)
        encoded = o.findings.texts() if kept and texts else None
        dicts = ItemTexts(encoded, o.findings.dicts) if encoded is not None else o.findings.dicts() if kept else None
        items = o.findings if dicts is not None else sorted(o.findings, key=sort_key)
        if out_dir is not None and dicts is None:
            items = portable_findings(items, o.game_dir, (out_dir / o.game_id,))
        # A game whose data did not load has no deck to count: its card counts are null, not 0 (an empty game).
        known = (lambda n: n) if o.loaded else (lambda n: None)
        folder = _folder(o, out_dir)
        games[o.game_id] = {
            "folder": folder,
            "status": o.status,
            "forced": o.forced,
            **({"error": o.error} if o.error else {}),
            "unique_cards": known(o.cards),
            "printed_cards": known(o.copies),
            "provisional_cards": known(o.provisional),
            "placeholder_art_faces": known(o.placeholder_faces),
            "run": o.run,
            "release": o.release,
            "counts": counts(items),
            **({"per_card": o.per_card, "per_card_summary": per_card_summary(o.per_card)} if o.per_card else {}),
            **({"removed_stand_alone_files": o.dropped} if o.dropped else {}),
            "findings": dicts if dicts is not None else [f.to_dict() for f in items],  # the manifest's: already to_dict() of these
            "files": o.files,
        }
    return {"games": games, "counts": {s: sum(counts(o.findings)[s] for o in outcomes) for s in ("error", "warning", "info")}}


def _folder(o: GameOutcome, out_dir: Path | None) -> str:
    """The report's ``folder`` of a game: its data folder relative to ``out_dir`` (as given without one)."""
    return Path(os.path.relpath(Path(o.game_dir).resolve(), out_dir.resolve())).as_posix() if out_dir is not None else o.game_dir


def per_card_summary(per_card: dict) -> str:
    """``proof: 1 of 57 card proofs rendered, 56 kept; archive: …`` from a :attr:`GameOutcome.per_card` ("" when empty)."""
    return "; ".join(f"{stage}: " + ", ".join(f"{c['rendered']} of {c['total']} {noun} rendered, {c['kept']} kept" for noun, c in nouns.items())
                     for stage, nouns in per_card.items())


def write_report(out_dir: Path, outcomes: list[GameOutcome]) -> None:
    """Write ``<out_dir>/report.json``: these outcomes merged into the previous report. A report
    that already holds exactly this data (a second unchanged rebuild) is left as it is: no
    temporary file, fsync and rename, which on a busy disk took longer than the rest of such a build.

    The previous report is read only when something of it could be kept: another game's folder is
    in ``out_dir``, or it may be this very report (:mod:`pipeline.build.reportstamp`); when the
    stamp says it is, it is not parsed (a racy stamp reads its bytes to hash them)."""
    entries = {o.game_id: (o.game_id, o.status, _folder(o, out_dir)) for o in outcomes}  # the last of a game id, as report_dict
    key = reportstamp.inputs_key(out_dir, list(entries.values()))
    if reportstamp.holds(out_dir, key, list(entries)):
        return  # before report_dict: a cached game's findings are then never read (engine.findings.FindingList)
    new = report_dict(outcomes, out_dir, texts=True)
    old, old_bytes = None, b""  # nothing of a previous report survives the merge, and it was made from other inputs: written anew
    if _other_games(out_dir, new["games"]) or (key is not None and reportstamp.known_inputs(out_dir) == key):
        try:
            old_bytes = (out_dir / REPORT).read_bytes()
            old = json.loads(old_bytes)
        except (OSError, ValueError):
            old = None  # none yet, unreadable or not JSON: written anew (write_text says why it cannot)
    report = _merged_report(out_dir, new, old if isinstance(old, dict) else {})
    # Compared as data (dict equality) rather than as encoded text: encoding is ~37 ms for a
    # 10,000-finding report, which an unchanged rebuild need not pay.
    if old != report:
        text = document_text(report)
        write_text(out_dir / REPORT, text)
        old_bytes = text.encode("utf-8")  # what write_text wrote (UTF-8, no newline translation)
    reportstamp.record(out_dir, key, list(report["games"]), hashlib.sha256(old_bytes).hexdigest() if key is not None else None)


def _other_games(out_dir: Path, games: dict) -> bool:
    """Whether ``out_dir`` holds a folder (not a dot-folder) of a game other than ``games``: a previous report's entry for it is kept."""
    try:
        return any(e.is_dir() and not e.name.startswith(".") and e.name not in games for e in os.scandir(out_dir))
    except OSError:
        return True  # the folder cannot be listed: read the previous report as before
def _merged_report(out_dir: Path, new: dict, old: dict) -> dict:
    """The new report plus the previous report's (``old``) games that this build did not touch (their output is still there)."""
    games = {gid: entry for gid, entry in old.get("games", {}).items() if gid not in new["games"] and (out_dir / gid).is_dir()}
    games.update(new["games"])
    total = {s: sum(g["counts"].get(s, 0) for g in games.values()) for s in ("error", "warning", "info")}
    return {"games": dict(sorted(games.items())), "counts": total}
