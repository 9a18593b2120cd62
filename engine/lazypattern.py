"""Regular expressions compiled on first use, for modules that declare many at import.

The rules-text checks declare ~70 patterns at module level; compiling them costs ~0.1 s CPU
(``python -X importtime``, December 2026, this machine), paid by every ``deckpress build`` and
``deckpress check`` that imports the engine checks, though only a run with ``--rulebook`` uses
them. ``re`` has no lazy form (its cache only saves a second compile), so :func:`lazy_compile`
gives a stand-in that compiles at its first attribute access and then carries the compiled
pattern's methods and attributes itself, so later calls cost what a compiled pattern's do.
"""

from __future__ import annotations

import re

#: What a stand-in copies from its compiled pattern at first use (every public attribute of re.Pattern).
_ATTRIBUTES = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub", "subn", "scanner",
               "pattern", "flags", "groups", "groupindex")


class LazyPattern:
    """A ``re.Pattern`` made at the first use of any of its attributes (``search``, ``pattern``, ...).

    Not a ``re.Pattern`` itself: pass it to ``re.sub`` or ``isinstance`` and it is a plain object;
    call its own methods instead. ``compiled`` is the ``re.Pattern`` (a match's ``m.re is p.compiled``).
    Raises ``re.error`` at that first use for an invalid pattern.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str):
        # Called only for an attribute the instance does not hold yet: compile, then hold them all.
        if name.startswith("__") or name == "_source":
            raise AttributeError(name)
        compiled = self.compiled = re.compile(*self._source)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source[0]!r}, {self._source[1]!r})"


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)`` deferred to the pattern's first use (:class:`LazyPattern`)."""
    return LazyPattern(pattern, flags)


__all__ = ["LazyPattern", "lazy_compile"]
