"""Power checks (PW): card power values, their braille encodings, and dice that keywords roll."""

from __future__ import annotations

import re
from typing import Iterator

from engine.findings import Severity
from engine.model import Deck, PowerScheme
from engine.registry import Problem, rule

#: Characters typed in place of the scheme's own: minus sign, multiplication sign, full-width "?".
_LOOKALIKES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u00d7": "x", "\uff1f": "?", "\u00bf": "?"})


def _slip_key(value: str) -> str:
    """A power value with case, spaces, look-alike characters and repeated "?" folded away."""
    return re.sub(r"\?+", "?", "".join(value.translate(_LOOKALIKES).split()).casefold())


def near_miss(value: str, allowed: list[str]) -> str | None:
    """The allowed value ``value`` differs from only by case, spacing or a look-alike character
    ("X2" for "x2", "− 5" for "-5", "??" for "?"), else None. A different number is no slip."""
    key = _slip_key(value)
    return next((a for a in allowed if _slip_key(a) == key), None)


def allowed_text(scheme: PowerScheme) -> str:
    """The scheme's allowed values for a message, the number range compacted: ``"1-11, ?"``."""
    parts = [f"{scheme.numbers['min']}-{scheme.numbers['max']}"] if scheme.numbers else []
    return ", ".join(parts + list(scheme.symbols) + list(scheme.modifiers)) or "none"


@rule("PW001", "power-not-allowed", Severity.error)
def power_not_allowed(deck: Deck, ctx) -> Iterator[Problem]:
    """A card's power is outside the game's allowed values (``power:`` scheme), or a text-power card has a value.

    The braille encoder writes only allowed values; anything else cannot be printed in braille.

    Fails: ``power: 12`` with numbers 1-11; ``power: "-5"`` when the modifiers list "−5".
    Passes: ``power: 11``; ``power: "?"`` when "?" is among the symbols.
    """
    scheme = deck.game.power
    allowed = scheme.allowed()
    for card in deck.cards:
        if card.power is None:
            continue
        if card.kind in scheme.text_power_kinds:
            yield Problem(f"'{card.name}' is a {card.kind}, whose power is its rules text, but has power {card.power!r}", card.where("power"), "remove power: and write the effect in rules:")
        elif card.power not in allowed:
            near = near_miss(card.power, allowed)
            hint = f"did you mean {near!r}? (allowed: {allowed_text(scheme)})" if near else f"allowed: {allowed_text(scheme)}"
            yield Problem(f"'{card.name}' has power {card.power!r}, which the game's power scheme does not allow", card.where("power"), hint, (scheme.where(),))


@rule("PW002", "power-encoding-collision", Severity.error)
def power_encoding_collision(deck: Deck, ctx) -> Iterator[Problem]:
    """Two allowed power values of one game encode to the same braille cells.

    A braille reader could not tell the two cards apart. Typical case: single-letter
    numbers (10 = ⠼⠚) in a game that also allows 0 (UEB 0 = ⠼⠚). Skipped when no braille
    encoder is available (the engine alone cannot make cells).

    Fails: numbers 0-11 with ``number_style: single-letter`` (0 and 10 are both ⠼⠚).
    Passes: numbers 1-11 single-letter, or 0-11 with ``number_style: ueb`` (10 = ⠼⠁⠚).
    """
    encoder = getattr(ctx, "power_encoder", None)
    if encoder is None:
        return
    scheme = deck.game.power
    for value, earlier, cells in scheme.cell_clashes(encoder.encode):
        if earlier is None:
            yield Problem(f"power {value!r} cannot be written in braille: {cells}", scheme.where(), "change the value or the power scheme's braille settings")
            continue
        users = [c.id for c in deck.cards if c.power in (earlier, value)]
        shown = f"; cards: {', '.join(users[:6])}{' …' if len(users) > 6 else ''}" if users else ""
        yield Problem(
            f"power {earlier!r} and {value!r} are both written {cells} in braille{shown}",
            scheme.where("number_style") if scheme.where("number_style").line else scheme.where(),
            "use number_style: ueb, drop one value from the scheme, or give one value another symbol",
        )


@rule("PW003", "unknown-die", Severity.error)
def unknown_die(deck: Deck, ctx) -> Iterator[Problem]:
    """A keyword rolls a die (``die:``) the game does not have.

    Fails: ``{name: "Grow!", die: d4}`` in a game whose only die is d12.
    Passes: the game lists a die with ``id: d4``.
    """
    ids = [d.id for d in deck.game.dice]
    for kw in deck.game.keywords:
        if kw.die is not None and kw.die not in ids:
            yield Problem(f"keyword '{kw.name}' rolls die '{kw.die}', which the game does not have", kw.where("die"), f"add the die under dice: (known: {', '.join(ids) or 'none'})")
