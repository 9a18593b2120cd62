"""Per-card outputs a rebuild keeps from the previous build (issue 22: a one-card edit rebuilds that card).

The per-card outputs are a card's front proof (``proofs/fronts/<id>.png``), its archive face and
page (``archive/images/<id>.png``, ``archive/cards/<id>.html``) and its height map
(``uv/heightmap/<id>.png``). Each gets a *card key*: a sha256 over

- the :func:`deck_digest`: the build key with the cards taken out (every data file but the
  ``cards.yaml`` files, hence game.yaml and the art; the templates, profiles and code; the
  library versions; the settings but ``--only``, which changes which stages run, not what they draw);
- the file's path in the game's output folder;
- the exact values its renderer reads besides those, handed over by the renderer's loop (the
  card's data, its braille block, the deck's name size, its neighbours' names, ...; each
  renderer's docstring lists them), in the canonical form of :func:`canonical`.

A file is kept when the previous build's manifest gives it the same card key and the file in the
previous output still has the size and sha256 the manifest recorded; it is then hard-linked into
the staging folder and not rendered. Every other file is rendered as before. The keys are written
into the manifest beside each file (``card_key``), so a cold build and a rebuild write the same
manifest. A renderer's loop asks :meth:`Keeper.__call__` per file; the stage (in a chain's worker
process) saves what it asked with :meth:`CardReuse.save`, and the runner collects it
(:func:`collect`) for the manifest and the report.

A stage that reads no card's own data (the dice, the boxes: :mod:`pipeline.build.kept_stages`) is kept whole
instead (:meth:`CardReuse.keep_stage`): one key over the deck digest and exactly what its renderers
read, given to each of its files as their ``card_key``; all its previous files are kept, or none.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from pipeline.build.manifest import code_digest, game_sources, read_manifest, sha256_file, versions

#: Hidden folder of the staging folder where each stage leaves the card keys it asked for.
KEYS_DIR = ".card-keys"

#: What a kept or rendered file is called in the report, by stage and file suffix.
NOUNS: dict[tuple[str, str], str] = {
    ("proof", ".png"): "card proofs",
    ("archive", ".png"): "card faces",
    ("archive", ".html"): "card pages",
    ("tactile", ".png"): "height maps",
}
#: What a kept or rendered file of a stage kept whole (:meth:`CardReuse.keep_stage`) is called in the report.
STAGE_NOUNS: dict[str, str] = {"dice": "dice files", "boxes": "box files"}


def _default(obj: object) -> object:
    """JSON form of the values a renderer reads: pydantic models as their JSON dump (no source
    locations: those are private attributes), dataclasses field by field, enums by value, paths as text."""
    if hasattr(obj, "model_dump") and callable(obj.model_dump):
        return obj.model_dump(mode="json", by_alias=True)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {"__class__": type(obj).__name__, **{f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, PurePath):
        return obj.as_posix()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    raise TypeError(f"no canonical form for {type(obj).__name__}: a card key may only cover data values")


def canonical(value: object) -> bytes:
    """``value`` as canonical JSON bytes (sorted keys). Raises TypeError for a value without a data form."""
    return json.dumps(value, default=_default, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def deck_digest(game_dir: Path, settings: dict) -> str:
    """sha256 (hex) over what every card of the game shares: the build key's inputs
    (:func:`pipeline.build.manifest.build_key`) without the ``cards.yaml`` files and without ``only``."""
    digest = hashlib.sha256(b"deckpress card key 1\0")
    game_parent = game_dir.resolve().parent
    for path in game_sources(game_dir):
        if path.name == "cards.yaml":
            continue  # the cards: each card key covers its own card's data instead
        digest.update(os.path.relpath(path, game_parent).encode() + b"\0")
        digest.update(path.read_bytes())
    digest.update(code_digest())
    shared = {k: v for k, v in settings.items() if k != "only"}
    digest.update(json.dumps(shared, sort_keys=True).encode())
    rulebook = Path(str(settings.get("rulebook") or ""))
    if settings.get("rulebook") and rulebook.is_file():
        digest.update(rulebook.read_bytes())
    digest.update(json.dumps(versions(), sort_keys=True).encode())
    return digest.hexdigest()


@dataclass
class CardReuse:
    """One game's build: the previous output (``final``), the staging folder, the deck digest and the
    previous manifest's ``{path: (card_key, bytes, sha256)}``; ``asked`` records, per stage, the card
    key of every per-card file asked for and whether it was kept (with the size and sha256 it was
    verified at, when kept). Travels to the chains' workers with the job."""

    final: Path
    staging: Path
    digest: str
    previous: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    asked: dict[str, dict[str, tuple]] = field(default_factory=dict)
    #: The previous manifest's findings (portable ``to_dict()`` form), for a stage kept whole.
    findings: list[dict] = field(default_factory=list)
    # The canonical bytes of the models and dataclasses a loop hands over again and again (the
    # layout, the deck's blocks), by identity: the object is held, so its id cannot be reused.
    _memo: dict[int, tuple[object, bytes]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def start(cls, final: Path, staging: Path, game_dir: Path, settings: dict) -> CardReuse:
        """The reuse of a build of ``game_dir`` replacing ``final`` (its manifest read, if any)."""
        manifest = read_manifest(final) or {}
        previous = {e["path"]: (e["card_key"], e["bytes"], e["sha256"]) for e in manifest.get("files", []) if "card_key" in e}
        return cls(final, staging, deck_digest(game_dir, settings), previous, findings=manifest.get("findings", []))

    def keeper(self, stage: str, folder: str, *shared: object) -> Keeper:
        """The callable a renderer's loop asks for each file under ``folder`` (relative to the game's
        output); ``shared`` are values every file of this stage reads besides its own inputs."""
        return Keeper(self, stage, folder, canonical(shared))

    def key(self, path: str, shared: bytes, inputs: tuple) -> str:
        """The card key of the output ``path`` (module docs): each part length-prefixed, so no two
        different inputs give one byte string."""
        digest = hashlib.sha256()
        for part in (self.digest.encode(), path.encode(), shared, *(self._canonical(v) for v in inputs)):
            digest.update(len(part).to_bytes(8, "big") + part)
        return digest.hexdigest()

    def _canonical(self, value: object) -> bytes:
        """:func:`canonical` of ``value``, remembered for a model or dataclass object seen before."""
        if not (hasattr(value, "model_dump") or dataclasses.is_dataclass(value)):
            return canonical(value)
        hit = self._memo.get(id(value))
        if hit is None or hit[0] is not value:
            hit = self._memo[id(value)] = (value, canonical(value))
        return hit[1]

    def keep(self, stage: str, path: str, key: str) -> bool:
        """Hard-link (else copy) the previous ``path`` into the staging folder when its card key is
        ``key`` and its bytes are still those the manifest recorded; record the ask. True when kept."""
        kept = False
        before = self.previous.get(path)
        if before is not None and before[0] == key:
            src, dest = self.final / path, self.staging / path
            try:
                kept = src.stat().st_size == before[1] and sha256_file(src) == before[2]
                if kept:
                    _link(src, dest)
            except OSError:
                kept = False  # gone or unreadable: render it
        self.asked.setdefault(stage, {})[path] = (key, kept, *(before[1:] if kept else ()))
        return kept

    def keep_stage(self, stage: str, folder: str, *inputs: object) -> tuple[str, bool]:
        """A stage whose files depend on the deck digest and ``inputs`` only (no card value): its key
        (sha256 hex over those and ``folder``) and whether all its previous files were kept. Kept when
        the previous manifest lists files under ``folder`` (relative to the game's output), every one
        with this key and still the size and sha256 recorded: then all are hard-linked (else copied)
        into staging; otherwise none is, and the stage renders all and calls :meth:`record_stage`."""
        key = self.key(f"{folder}/", canonical(inputs), ())
        before = {p: v for p, v in self.previous.items() if p.startswith(f"{folder}/")}
        try:
            intact = bool(before) and all(v[0] == key and (self.final / p).stat().st_size == v[1] and sha256_file(self.final / p) == v[2]
                                          for p, v in before.items())
        except OSError:
            intact = False  # gone or unreadable: render them all
        if intact:
            for path, (_, size, sha) in before.items():
                _link(self.final / path, self.staging / path)
                self.asked.setdefault(stage, {})[path] = (key, True, size, sha)
        return key, intact

    def record_stage(self, stage: str, folder: str, key: str) -> None:
        """Record every file the stage rendered under ``folder`` in staging as asked with ``key``, not kept."""
        root = self.staging / folder
        for path in sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else []:
            self.asked.setdefault(stage, {})[path.relative_to(self.staging).as_posix()] = (key, False)

    def save(self, stage: str) -> None:
        """Write what ``stage`` asked into the staging folder (``.card-keys/<stage>.json``), for :func:`collect`.

        Every file the stage rendered (not kept) is hashed here, in the chain's worker that wrote it,
        and recorded with its size and sha256 as a kept file is: the manifest, made after every chain
        in the game's process, takes them as hashed (:func:`pipeline.build.manifest.file_entries`)
        instead of reading them again there (~0.6 s of one core at 10,000 cards: 30,000 files, 330 MB)."""
        root = os.path.join(self.staging, "")
        asked = self.asked.get(stage, {})
        for path, entry in asked.items():
            if not entry[1]:  # rendered: its bytes as written
                try:
                    size = os.stat(root + path).st_size
                    asked[path] = (entry[0], False, size, sha256_file(root + path))
                except OSError:
                    pass  # asked but not written (a stage that stopped short): collect leaves it out
        folder = self.staging / KEYS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{stage}.json").write_text(json.dumps(self.asked.get(stage, {}), sort_keys=True), encoding="utf-8")


def _link(src: Path, dest: Path) -> None:
    """Hard-link (else copy) ``src`` to ``dest``, making its folder."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dest)
    except OSError:
        shutil.copy2(src, dest)


@dataclass
class Keeper:
    """Asked by a renderer's loop as ``keep(name, inputs)``: ``name`` is the file's path relative to
    the stage's folder, ``inputs`` the values that file is made of besides the deck digest and the
    stage's shared values. True: the file is in place, kept from the previous build; do not render it."""

    reuse: CardReuse
    stage: str
    folder: str
    shared: bytes

    def __call__(self, name: str, inputs: tuple) -> bool:
        path = f"{self.folder}/{name}" if self.folder else name
        return self.reuse.keep(self.stage, path, self.reuse.key(path, self.shared, inputs))


def collect(staging: Path) -> tuple[dict[str, str], dict[str, dict[str, dict[str, int]]], dict[str, tuple[int, str]]]:
    """Read and remove the stages' ``.card-keys`` files: ``({path: card key}, {stage: {noun: counts}},
    {path: (bytes, sha256) it was verified at (kept) or written with (rendered)})``, the counts as ``{"rendered", "kept", "total"}``
    per noun of :data:`NOUNS`, stages in build order."""
    from pipeline.build.stages import STAGES

    folder = staging / KEYS_DIR
    keys: dict[str, str] = {}
    verified: dict[str, tuple[int, str]] = {}
    counts: dict[str, dict[str, dict[str, int]]] = {}
    order = [name for name, _ in STAGES]
    merged: dict[str, dict[str, list]] = {}  # "<stage>.<part>.json" counts for <stage> (the archive's faces)
    for sidecar in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        merged.setdefault(sidecar.stem.partition(".")[0], {}).update(json.loads(sidecar.read_text(encoding="utf-8")))
    root = os.path.join(staging, "")
    for stage in sorted(merged, key=lambda s: order.index(s) if s in order else len(order)):
        asked = merged[stage]
        # strings, not PurePaths: three Path objects a file were most of this serial step (30,000 files at 10,000 cards)
        suffixes = {path: os.path.splitext(path)[1] for path in asked}
        for path in sorted(asked, key=lambda p: (suffixes[p] != ".png", p)):  # images first, as NOUNS lists them
            key, kept, *seen = asked[path]
            if not os.path.isfile(root + path):
                continue  # asked but not written (a stage that stopped short): no key, no count
            keys[path] = key
            if seen:  # kept, or rendered and hashed by its stage (CardReuse.save)
                verified[path] = (seen[0], seen[1])
            noun = NOUNS.get((stage, suffixes[path])) or STAGE_NOUNS.get(stage, "card files")
            tally = counts.setdefault(stage, {}).setdefault(noun, {"rendered": 0, "kept": 0, "total": 0})
            tally["kept" if kept else "rendered"] += 1
            tally["total"] += 1
    shutil.rmtree(folder, ignore_errors=True)
    return keys, counts, verified


def carried_keys(final: Path, staging: Path, remade: set[str]) -> dict[str, str]:
    """The previous card keys of files a partial build (``--only``) kept whole from ``final`` (their
    top folder not in ``remade``), where the staged file still has the recorded sha256."""
    out = {}
    for entry in (read_manifest(final) or {}).get("files", []):
        path = entry["path"]
        if "card_key" in entry and PurePath(path).parts[0] not in remade and (staging / path).is_file():
            if sha256_file(staging / path) == entry["sha256"]:
                out[path] = entry["card_key"]
    return out


__all__ = ["CardReuse", "Keeper", "canonical", "carried_keys", "collect", "deck_digest"]
