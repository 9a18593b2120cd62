"""Findings: what the engine and the stages report, the way a linter does.

A finding is an immutable record (DESIGN.md §6): a code of two family letters and
three digits (``CP001``; ``--select CP`` picks the family), a kebab-case name that
reads well after "ignore" (``power-encoding-collision``), a severity, a location
(file, line, column, card id), a one-sentence message naming the offending value
and a hint with the next action. Rendering to text and JSON lives here too.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterable, Iterator, Sequence


class Severity(str, Enum):
    """How bad a finding is. Errors stop a build; warnings fail only under ``--strict``."""

    error = "error"
    warning = "warning"
    info = "info"


@dataclass(frozen=True, order=True, slots=True)
class Location:
    """Where a finding points: a file, 1-based line and column, and the card id if any."""

    file: str = ""
    line: int | None = None
    column: int | None = None
    card: str | None = None

    def to_dict(self) -> dict:
        """``{"file", "line", "column", "card"}``, as ``dataclasses.asdict`` gives it."""
        return {"file": self.file, "line": self.line, "column": self.column, "card": self.card}

    def with_card(self, card: str | None) -> Location:
        """The same place, naming a card."""
        return Location(self.file, self.line, self.column, card)

    def __str__(self) -> str:
        parts = [self.file or "<data>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


@dataclass(frozen=True)
class Finding:
    """One reported problem. ``related`` holds other locations involved (e.g. the rulebook line)."""

    code: str
    name: str
    severity: Severity
    message: str
    hint: str = ""
    location: Location = field(default_factory=Location)
    related: tuple[Location, ...] = ()

    def to_dict(self) -> dict:
        """A JSON-ready dict: severity as text, locations as dicts (``related`` a tuple of them), keys
        in field order: what ``dataclasses.asdict`` gives with the severity's value, without its deep
        copy of every field (a quarter of a 2,000-card manifest's time)."""
        return {"code": self.code, "name": self.name, "severity": self.severity.value, "message": self.message,
                "hint": self.hint, "location": self.location.to_dict(), "related": tuple(r.to_dict() for r in self.related)}

    def render(self) -> str:
        """``path:line:col: severity CODE name: message`` then the hint indented (one line each)."""
        card = f" [{self.location.card}]" if self.location.card else ""
        text = f"{self.location}: {self.severity.value} {self.code} {self.name}:{card} {self.message}"
        for other in self.related:
            text += f"\n    see {other}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text


_SEVERITIES = {s.value: s for s in Severity}
_LOCATION_KEYS = frozenset(("file", "line", "column", "card"))
_FINDING_KEYS = frozenset(("code", "name", "severity", "message", "hint", "location", "related"))


def location_from_dict(data: dict, rename: Callable[[str], str] | None = None) -> Location:
    """The :class:`Location` of its ``to_dict()`` form; ``rename`` maps a non-empty file name.

    Filled through the instance dict, as ``dataclasses`` itself does for a frozen class, without
    the four ``object.__setattr__`` calls of its ``__init__``: a 10,000-finding manifest read back
    in a quarter of the time. A dict with other keys goes through ``__init__`` (TypeError as it gives).
    """
    if data.keys() != _LOCATION_KEYS:
        data = {**data, "file": rename(data["file"])} if rename and data.get("file") else data
        return Location(**data)
    file = data["file"]
    return Location(rename(file) if rename is not None and file else file, data["line"], data["column"], data["card"])


def finding_from_dict(data: dict, rename: Callable[[str], str] | None = None) -> Finding:
    """The :class:`Finding` of its ``to_dict()`` form (a manifest's or report's ``findings`` entry);
    ``rename`` maps each location's non-empty file name. Raises KeyError for a missing field, ValueError
    for an unknown severity, TypeError for a location with other keys (as the constructors do)."""
    if len(data) > len(_FINDING_KEYS) or not _FINDING_KEYS.issuperset(data):
        raise TypeError(f"unexpected finding field(s): {', '.join(sorted(data.keys() - _FINDING_KEYS))}")
    finding = object.__new__(Finding)
    related = data.get("related")
    finding.__dict__.update(code=data["code"], name=data["name"], severity=_SEVERITIES.get(data["severity"]) or Severity(data["severity"]),
                            message=data["message"], hint=data.get("hint", ""), location=location_from_dict(data["location"], rename),
                            related=tuple(location_from_dict(r, rename) for r in related) if related else ())
    return finding


def sort_key(finding: Finding) -> tuple:
    """Order findings by file, line, column, then code, for stable output."""
    loc = finding.location
    return (loc.file, loc.line or 0, loc.column or 0, finding.code, finding.message)


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """Counts by severity, every severity present as a key: ``{"error": n, "warning": n, "info": n}``
    (of a :class:`FindingList`, from its summary: no finding is made)."""
    if isinstance(findings, FindingList):
        return dict(findings.summary()["counts"])
    tally = Counter(f.severity for f in findings)  # the members, not .value: an enum property lookup each
    return {s.value: tally.get(s, 0) for s in Severity}


def render_text(findings: Iterable[Finding], counted: Iterable[Finding] | None = None) -> str:
    """Findings as text lines, sorted, then a summary line counting ``counted`` (default: the same findings)."""
    items = sorted(findings, key=sort_key)
    lines = [f.render() for f in items]
    c = counts(items if counted is None else counted)
    lines.append(f"{c['error']} error(s), {c['warning']} warning(s), {c['info']} info")
    return "\n".join(lines)


def render_json(findings: Iterable[Finding]) -> str:
    """All findings as a JSON document ``{"findings": [...], "counts": {...}}``.

    A file name holding bytes that are not UTF-8 (a folder named in Latin-1: Python gives each such
    byte as a lone surrogate, U+DC80–U+DCFF, PEP 383) is written with each byte as the text ``\\xNN``,
    as the build's message shows it: the document stays UTF-8 JSON (RFC 8259 §8.1), which the raw
    byte or a lone surrogate escape would not be."""
    items = sorted(findings, key=sort_key)
    text = json.dumps({"findings": [f.to_dict() for f in items], "counts": counts(items)}, indent=2, ensure_ascii=False)
    return _UNDECODED.sub(lambda m: f"\\\\x{ord(m.group()) - 0xDC00:02x}", text) if _UNDECODED.search(text) else text


#: The lone surrogates that stand for undecodable bytes (os.fsdecode's surrogateescape, PEP 383).
_UNDECODED = re.compile("[\udc80-\udcff]")


def exit_code(findings: Iterable[Finding], strict: bool = False) -> int:
    """0 when clean, 1 when an error (or, under ``strict``, a warning) is present."""
    bad = {Severity.error, Severity.warning} if strict else {Severity.error}
    if isinstance(findings, FindingList):  # its errors and warnings are known without making the info findings
        findings = findings.shown()
    return 1 if any(f.severity in bad for f in findings) else 0


def finding_summary(dicts: Iterable[dict]) -> dict:
    """What a summary line needs of findings in their ``to_dict()`` form, without making them:
    ``{"counts": {"error": n, "warning": n, "info": n}, "shown": [the error and warning dicts, in
    order], "infos": [[code, name, n], …] sorted}``. Raises KeyError for a dict without a severity."""
    tally = {s.value: 0 for s in Severity}
    shown: list[dict] = []
    infos: Counter = Counter()
    for d in dicts:
        severity = d["severity"]
        tally[severity] = tally.get(severity, 0) + 1
        if severity == "info":
            infos[d["code"], d["name"]] += 1
        else:
            shown.append(d)
    return {"counts": tally, "shown": shown, "infos": [[code, name, n] for (code, name), n in sorted(infos.items())]}


class FindingList(Sequence):
    """Findings kept in their ``to_dict()`` form (a build manifest's, read back for an unchanged game),
    made :class:`Finding` objects only when first iterated or indexed, each file name mapped by
    ``rename``. ``dicts`` gives the dicts when first needed; ``summary`` (:func:`finding_summary` of
    those dicts, made from them when None) answers :func:`counts`, :func:`exit_code` and a summary line
    without them: a cached game of 10,000 cards has as many info findings, 0.05 s to make and, from
    the build's stat record, 0.1 s more to read (issue 22). ``texts``, when given, gives the dicts'
    JSON texts without them (:meth:`texts`). Equal to a list of the same findings."""

    def __init__(self, dicts: Callable[[], list[dict]], rename: Callable[[str], str] | None = None,
                 summary: dict | None = None, texts: Callable[[], list[str] | None] | None = None) -> None:
        self._source, self._rename, self._summary, self._texts = dicts, rename, summary, texts
        self._dicts: list[dict] | None = None
        self._items: list[Finding] | None = None

    def dicts(self) -> list[dict]:
        """The findings as their ``to_dict()`` form, file names as given (not renamed): read once."""
        if self._dicts is None:
            self._dicts = self._source()
        return self._dicts

    def texts(self) -> list[str] | None:
        """The dicts' compact JSON texts, one a finding, as the record they were read from holds
        them (``json.loads`` of one gives its dict), when that record can tell; else None."""
        return self._texts() if self._texts is not None else None

    def summary(self) -> dict:
        """:func:`finding_summary` of :meth:`dicts` (given, or made from them once)."""
        if self._summary is None:
            self._summary = finding_summary(self.dicts())
        return self._summary

    def shown(self) -> list[Finding]:
        """The errors and warnings, in order, as findings (renamed): what a summary prints one by one."""
        return [finding_from_dict(d, self._rename) for d in self.summary()["shown"]]

    def info_counts(self) -> dict[tuple[str, str], int]:
        """``{(code, name): n}`` of the info findings."""
        return {(code, name): n for code, name, n in self.summary()["infos"]}

    def _all(self) -> list[Finding]:
        if self._items is None:
            self._items = [finding_from_dict(d, self._rename) for d in self.dicts()]
        return self._items

    def __len__(self) -> int:
        return sum(self.summary()["counts"].values())

    def __getitem__(self, index):
        return self._all()[index]

    def __iter__(self) -> Iterator[Finding]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (FindingList, list, tuple)):
            return self._all() == list(other)
        return NotImplemented

    __hash__ = None  # mutable-like, as a list

    def __repr__(self) -> str:
        return f"FindingList({self._all()!r})"
