"""``deckpress watch``: rebuild the proofs of changed cards whenever the card data or templates change.

The core is :func:`rebuild`, a pure step from one :class:`WatchState` to the next: it
reloads the game, works out which cards changed since the last step (a card's data,
its art file, or everything when game.yaml or a template changed), re-proofs only
those, rewrites the contact sheet and returns the findings that are new. :func:`watch`
runs that step in a loop on file-system events (watchfiles) and hands every
:class:`WatchReport` to a callback (the CLI prints it). Tests drive :func:`rebuild`
directly with a changed file instead of running the loop.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from engine.findings import Finding, sort_key
from engine.load import DataError, load_game
from engine.model import Card, Deck
from pipeline.common.layout import TEMPLATES
from pipeline.build.preflight import deck_findings
from pipeline.proofs.proof import PROOF_DPI, proof_cards, write_contact_sheet

#: File kinds whose change can alter a proof (card data, art, templates and layouts).
WATCHED_SUFFIXES = (".yaml", ".yml", ".png", ".jpg", ".jpeg", ".j2", ".css")


@dataclass(frozen=True)
class WatchState:
    """What the last step saw: a fingerprint per card id, of the game and of the templates; every
    finding reported, and the braille/print stage findings among them (kept for cards not redrawn)."""

    cards: dict[str, str] = field(default_factory=dict)
    game: str = ""
    templates: str = ""
    findings: tuple[Finding, ...] = ()
    stage_findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class WatchReport:
    """One rebuild: cards re-proofed and removed, findings that appeared, all current findings,
    and ``error`` (the data could not be loaded; its findings are in ``findings``)."""

    rebuilt: tuple[str, ...]
    removed: tuple[str, ...]
    new_findings: tuple[Finding, ...]
    findings: tuple[Finding, ...]
    error: bool = False


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()


def card_fingerprint(deck: Deck, card: Card) -> str:
    """A digest of everything a card's proof depends on besides the game: its data and its art file's bytes."""
    art = b""
    if card.image:
        path = Path(deck.folder or ".") / card.image
        art = path.read_bytes() if path.is_file() else b"missing"
    return _digest(card.model_dump_json(by_alias=True), art)


def templates_fingerprint(root: Path = TEMPLATES) -> str:
    """A digest of every template file (layouts, styles) by path, size and modification time."""
    entries = sorted(
        f"{p.relative_to(root)}:{p.stat().st_size}:{p.stat().st_mtime_ns}"
        for p in root.rglob("*") if p.is_file() and p.suffix in WATCHED_SUFFIXES
    )
    return _digest(*entries)


def rebuild(game_dir: str | Path, out_dir: str | Path, state: WatchState | None = None, dpi: float = PROOF_DPI) -> tuple[WatchState, WatchReport]:
    """One watch step: re-proof the cards of ``game_dir`` that changed since ``state`` (None: all).

    Returns the new state and a report. A game that no longer loads gives a report with
    ``error=True`` and the loader's findings, and keeps the old state (the next good
    save rebuilds what changed). Proofs of removed cards are deleted. Raises only for
    problems outside the data (an unwritable ``out_dir``: OutputError).
    """
    state = state or WatchState()
    out_dir = Path(out_dir)
    try:
        deck = load_game(game_dir)
    except DataError as exc:
        findings = tuple(sorted(exc.findings, key=sort_key))
        return state, WatchReport((), (), tuple(f for f in findings if f not in state.findings), findings, error=True)
    game_fp = _digest(deck.game.model_dump_json(by_alias=True))
    templates_fp = templates_fingerprint()
    cards = {c.id: card_fingerprint(deck, c) for c in deck.cards}
    everything = game_fp != state.game or templates_fp != state.templates
    # A card whose class the game lacks cannot be drawn; its CP008 finding (in ``checks``) says so.
    drawable = {c.id for c in deck.cards if deck.game.class_by_id(c.class_id) is not None}
    changed = [cid for cid, fp in cards.items() if (everything or state.cards.get(cid) != fp) and cid in drawable]
    removed = sorted(set(state.cards) - set(cards))
    checks = deck_findings(deck)
    stage: list[Finding] = []
    if changed:
        whole = len(changed) == len(cards) == len(drawable)
        stage = list(proof_cards(deck, None if whole else changed, out_dir, dpi, checks=()).findings)
        if not whole:  # keep the stage findings of the cards (and the game) that were not redrawn
            stage += [f for f in state.stage_findings if f.location.card not in changed and (not f.location.card or f.location.card in cards)]
    else:
        stage = [f for f in state.stage_findings if not f.location.card or f.location.card in cards]
    for cid in removed:
        (out_dir / "fronts" / f"{cid}.png").unlink(missing_ok=True)
    findings = tuple(sorted(set(checks) | set(stage), key=sort_key))
    if changed or removed:
        write_contact_sheet(deck, out_dir, findings)
    new = tuple(f for f in findings if f not in state.findings)
    return WatchState(cards, game_fp, templates_fp, findings, tuple(stage)), WatchReport(tuple(changed), tuple(removed), new, findings)


def watched_paths(game_dir: str | Path) -> list[Path]:
    """The folders to watch: the game folder, its base game's for an expansion, and templates/."""
    game_dir = Path(game_dir)
    paths = [game_dir, TEMPLATES]
    try:
        deck = load_game(game_dir)
        if deck.game.extends is not None:
            paths.append((game_dir / deck.game.extends.game).resolve())  # as engine.load resolves it
    except DataError:
        pass  # unloadable data: watch the game folder and templates; rebuild() reports the findings
    return [p for p in dict.fromkeys(paths) if p.is_dir()]


def change_filter(out_dir: str | Path) -> Callable[[object, str], bool]:
    """A watchfiles filter: data, art and template files, never anything under ``out_dir``
    (the proofs written there would otherwise trigger the next rebuild)."""
    out = str(Path(out_dir).resolve())

    def relevant(_change: object, path: str) -> bool:
        resolved = str(Path(path).resolve())
        return path.endswith(WATCHED_SUFFIXES) and not (resolved == out or resolved.startswith(out + "/"))

    return relevant


def watch(game_dir: str | Path, out_dir: str | Path, report: Callable[[WatchReport], None],
          stop: threading.Event | None = None, dpi: float = PROOF_DPI, paths: Iterable[Path] | None = None) -> None:
    """Build every proof once, then rebuild changed cards on each change until ``stop`` is set
    (or Ctrl-C). Each step's :class:`WatchReport` goes to ``report``."""
    import watchfiles

    state, first = rebuild(game_dir, out_dir, None, dpi)
    report(first)
    targets = [str(p) for p in (paths or watched_paths(game_dir))]
    for _changes in watchfiles.watch(*targets, watch_filter=change_filter(out_dir), stop_event=stop, debounce=300, rust_timeout=500):
        state, step = rebuild(game_dir, out_dir, state, dpi)
        report(step)
