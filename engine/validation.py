"""Validate located YAML into the data model: pydantic errors become located DA findings.

The loader (:mod:`engine.load`) reads the files; this module turns what pydantic says about
their data into findings that name file, line, column, field and card in plain words
(DA002 missing field, DA003 invalid value, DA004 unknown key, with a "did you mean"), and
gives validated models the locations of the YAML they came from.
"""

from __future__ import annotations

import difflib
from typing import Callable

from pydantic import BaseModel, ValidationError

from engine.fields import Located, locations
from engine.findings import Finding, Severity
from engine.registry import declare
from engine.yamlsource import Source

MISSING_FIELD = declare(
    "DA002",
    "missing-field",
    Severity.error,
    """A required field is missing from a game or card.

    Fails: a card without ``provenance:``.
    Passes: ``provenance: rulebook`` on every card.
    """,
)
INVALID_VALUE = declare(
    "DA003",
    "invalid-value",
    Severity.error,
    """A field has the wrong type or a value outside what the field accepts.

    Also: blank text where a reader needs some (a name, the title, a keyword summary);
    two classes, two dice or two keywords with one id or name; two classes with one
    indicator letter (blind players tell classes apart by its braille cell).

    Fails: ``copies: two``; ``name: ""``; a second class with ``indicator: E``.
    Passes: ``copies: 2``; ``name: Ember Rogue``; ``indicator: F``.
    """,
)
UNKNOWN_KEY = declare(
    "DA004",
    "unknown-key",
    Severity.error,
    """A key the data model does not know, usually a typo; it would otherwise be ignored.

    Fails: ``powr: 7`` on a card.
    Passes: ``power: 7``.
    """,
)
#: Plainer words for pydantic's generic messages, by error type; ``{…}`` takes the error's ctx.
_PLAIN = {
    **dict.fromkeys(("int_parsing", "int_type", "int_from_float"), "expected a whole number"),
    **dict.fromkeys(("float_parsing", "float_type"), "expected a number"),
    **dict.fromkeys(("bool_parsing", "bool_type"), "expected true or false"),
    **dict.fromkeys(("list_type", "tuple_type", "set_type"), "expected a list"),
    **dict.fromkeys(("dict_type", "model_type", "model_attributes_type"), "expected a mapping of keys to values"),
    **dict.fromkeys(("date_parsing", "date_type", "date_from_datetime_parsing", "date_from_datetime_inexact"), "expected a date written YYYY-MM-DD"),
    **dict.fromkeys(("literal_error", "enum"), "expected {expected}"),
    "string_type": "expected text",
    "string_too_short": lambda ctx: "must not be empty" if ctx.get("min_length") == 1 else "expected at least {min_length} characters",
    "string_too_long": lambda ctx: "expected a single character" if ctx.get("max_length") == 1 else "expected at most {max_length} characters",
    "greater_than_equal": "expected at least {ge}",
    "less_than_equal": "expected at most {le}",
    "greater_than": "expected more than {gt}",
    "less_than": "expected less than {lt}",
}

#: Plainer words for one field's error, by (field name, error type): where "expected text" says too little.
_FIELD_PLAIN = {
    ("power", "string_type"): 'a power value is text such as "7", "?" or "x2", or a whole number',
}

def _describe(path: tuple) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


def schema_findings(exc: ValidationError, source: Source, model: type[BaseModel], data: object = None) -> list[Finding]:
    """Turn the pydantic errors of validating ``data`` as ``model`` into DA findings.

    ``source`` is the located YAML tree of ``data`` (:mod:`engine.yamlsource`): each finding
    is at the line and column of the offending key or value, and names the card when the
    path points into ``cards.yaml``'s list. Returns DA002 (missing field), DA003 (invalid
    value) and DA004 (unknown key, with the closest known key) findings, one per error.
    """
    out: list[Finding] = []
    done: set[tuple] = set()
    for err in exc.errors():
        path = tuple(err["loc"])
        loc, _ = source.follow(path)
        card = _card_at(data, path)
        field = _describe(path)
        kind = err["type"]
        if kind == "missing" and path and isinstance(path[-1], int):  # a tuple short of items
            if path[:-1] in done:
                continue
            done.add(path[:-1])
            out.append(INVALID_VALUE.finding(f"{_describe(path[:-1])}: item {path[-1] + 1} is missing (got {err.get('input')!r})", loc.with_card(card), "fix the value; `deckpress schema` shows what each field accepts"))
        elif kind == "missing":
            out.append(MISSING_FIELD.finding(f"missing required field '{path[-1]}' (at {field})", loc.with_card(card), f"add '{path[-1]}:' here; `deckpress schema` lists every field"))
        elif kind == "extra_forbidden":
            known = _known_keys(model, path[:-1])
            guess = difflib.get_close_matches(str(path[-1]), known, n=1)
            hint = f"did you mean '{guess[0]}'?" if guess else f"known keys here: {', '.join(sorted(known))}"
            out.append(UNKNOWN_KEY.finding(f"unknown key '{path[-1]}' (at {field})", loc.with_card(card), hint))
        else:
            out.append(INVALID_VALUE.finding(f"{field}: {_plain_message(err)}", loc.with_card(card), "fix the value; `deckpress schema` shows what each field accepts"))
    return out


def _plain_message(err: dict) -> str:
    """A pydantic error's message in plain words, naming the value given once."""
    msg = str(err["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        msg = msg.removeprefix(prefix)
    loc = tuple(err.get("loc") or ())
    plain = _FIELD_PLAIN.get((loc[-1] if loc else None, err["type"])) or _PLAIN.get(err["type"])
    ctx = err.get("ctx") or {}
    if callable(plain):
        plain = plain(ctx)
    if plain is not None:
        try:
            msg = plain.format(**ctx)
        except (KeyError, IndexError):
            pass  # the plain wording needs a detail pydantic did not give: keep pydantic's message
    if "got " not in msg:
        shown = repr(err.get("input"))
        msg += f" (got {shown if len(shown) <= 60 else shown[:57] + '...'})"
    return msg


def _card_at(data: object, path: tuple) -> str | None:
    """The id of the card a cards.yaml error path points into, when it has one."""
    if len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int) and isinstance(data, dict):
        rows = data.get("cards")
        if isinstance(rows, list) and path[1] < len(rows) and isinstance(rows[path[1]], dict):
            card_id = rows[path[1]].get("id")
            if card_id is None:
                return None
            return card_id if isinstance(card_id, str) and card_id.isprintable() else repr(card_id)  # a newline in an id stays visible
    return None


def _known_keys(model: type[BaseModel], path: tuple) -> list[str]:
    """The field names (aliases) accepted at a path inside a model, for "did you mean"."""
    current: object = model
    for step in path:
        if isinstance(step, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        info = current.model_fields.get(step) or next((f for f in current.model_fields.values() if f.alias == step), None)
        if info is None:
            return []
        current = _inner_model(info.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [f.alias or n for n, f in current.model_fields.items()]
    return []


def _inner_model(annotation: object) -> object:
    """The model type inside ``list[M]``, ``dict[K, M]``, ``M | None``."""
    args = getattr(annotation, "__args__", None)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in args or ():
        found = _inner_model(arg)
        if isinstance(found, type) and issubclass(found, BaseModel):
            return found
    return annotation


def attach_locations(model: BaseModel, source: Source | None, card_of: Callable[[BaseModel], str | None] | None = None,
                     card: str | None = None) -> None:
    """Give a validated model (and its nested models) the locations of the YAML they came from.

    ``card_of`` names the card a nested model is (``Card`` → its id, else None): from there
    down every location names that card, as :func:`name_card` would after it (one pass
    instead of two, for the loader's cards). ``card`` is the card already named above.
    """
    if source is None or not isinstance(model, Located):
        return
    if card is None and card_of is not None:
        card = card_of(model)
    where = locations(model)
    where[""] = source.at if card is None else source.at.with_card(card)
    for name, info in type(model).model_fields.items():
        child = source.items.get(info.alias or name)
        if child is None:
            continue
        where[name] = child.at if card is None else child.at.with_card(card)
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            attach_locations(value, child, card_of, card)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    attach_locations(item, child.items.get(i), card_of, card)
        elif isinstance(value, dict):
            for k, item in value.items():
                if isinstance(item, BaseModel):
                    attach_locations(item, child.items.get(k), card_of, card)


def name_card(model: Located, card_id: str) -> None:
    """Name the card in the locations of a card and of its nested models (``description``)."""
    table = locations(model)
    for field in list(table):
        table[field] = table[field].with_card(card_id)
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, Located):
            name_card(value, card_id)

