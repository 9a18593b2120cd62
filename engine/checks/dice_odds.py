"""An exact dice calculator: the probability of an event on fair dice, as a fraction.

Every face of a fair die with ``faces`` faces (numbered 1..faces) is equally likely, so the
chance of an event is (outcomes in the event) / faces**count, counted exactly by
convolving the faces (no sampling, no floats until a message prints a percentage).

>>> chance(Event(faces=6, values=frozenset({5, 6})))
Fraction(1, 3)
>>> chance(Event(faces=4, values=frozenset({4}), tries=2))   # two chances at one face of a D4
Fraction(7, 16)
>>> chance(Event(faces=6, count=2, at_least=7))              # a sum of 7 or more on two D6
Fraction(7, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction


@dataclass(frozen=True)
class Event:
    """What must come up: on ``count`` dice of ``faces`` faces (their sum when count > 1),
    a value in ``values``, or at least ``at_least``, or at most ``at_most``; ``tries``
    independent attempts, any one succeeding; ``chosen`` marks "your number" (one face)."""

    faces: int
    values: frozenset[int] = frozenset()
    at_least: int | None = None
    at_most: int | None = None
    count: int = 1
    tries: int = 1
    chosen: bool = False  # "your number": one face, whichever the player picked

    def wins(self, total: int) -> bool:
        """True when a roll (or sum) of ``total`` is in the event."""
        if self.values:
            return total in self.values
        if self.at_least is not None:
            return total >= self.at_least
        if self.at_most is not None:
            return total <= self.at_most
        return False

    def describe(self) -> str:
        """The event in words for a message: "5 or 6 on a D6", "a sum of 7 or more on 2 D6"."""
        dice = f"{self.count} D{self.faces}" if self.count > 1 else f"a D{self.faces}"
        if self.chosen:
            what = "one chosen number"
        elif self.values:
            what = " or ".join(map(str, sorted(self.values)))
        elif self.at_least is not None:
            what = f"{self.at_least} or more"
        else:
            what = f"{self.at_most} or less"
        what = f"a sum of {what}" if self.count > 1 else what
        tries = f", {self.tries} tries" if self.tries > 1 else ""
        return f"{what} on {dice}{tries}"


def sums(faces: int, count: int) -> dict[int, int]:
    """Ways to roll each sum of ``count`` dice of ``faces`` faces: ``sums(6, 2)[7] == 6``."""
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, faces + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return ways


@lru_cache(maxsize=4096)  # a book states the same few events again and again (an Event is frozen: hashable)
def chance(event: Event) -> Fraction:
    """The exact probability of ``event`` (0..1). Raises ValueError for a die of fewer than 2 faces."""
    if event.faces < 2 or event.count < 1:
        raise ValueError(f"no die with {event.faces} faces")
    ways = sums(event.faces, event.count)
    one = Fraction(sum(n for total, n in ways.items() if event.wins(total)), event.faces**event.count)
    return 1 - (1 - one) ** event.tries
