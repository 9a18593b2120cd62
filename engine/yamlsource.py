"""Safe YAML reading that keeps the file, line and column of every value.

PyYAML's safe parser gives the document's events (no object construction); this module
turns them into plain Python data plus a parallel :class:`Source` tree of locations as they
come, with no node tree of the whole file; a document with anchors or aliases, or one with a
problem, goes through PyYAML's composer's node tree instead (:func:`load_yaml`).
Aliases are allowed but the number of nodes visited is bounded, so an alias bomb
("billion laughs") is refused instead of exhausting memory. Duplicate keys are an
error (PyYAML would keep the last one silently).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

import yaml

from engine.findings import Location
from engine.limits import ALIAS_ALLOWANCE, MAX_INT_DIGITS, MAX_YAML_DEPTH
from engine.yamlplain import NUMBER_TAGS, misread, number_problem, tab_near

#: libyaml's parser when PyYAML was built with it: ten times faster than the pure-Python one.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}


#: A hook :func:`load_yaml` passes each row of a top-level list to: ``(value, source) -> (value, source)``.
RowHook = Callable[[object, "Source"], tuple[object, "Source"]]


class YamlProblem(Exception):
    """A YAML file that cannot be read as data: syntax error, duplicate key, alias bomb.

    ``location`` points at the offending place; ``kind`` is ``syntax``, ``duplicate-key``,
    ``too-large`` (an alias bomb, nesting past :data:`engine.limits.MAX_YAML_DEPTH`) or
    ``value`` (a scalar YAML reads as a type but no such value exists: a 30 February, a
    13th month, an integer of more than :data:`engine.limits.MAX_INT_DIGITS` digits).
    """

    def __init__(self, message: str, location: Location, kind: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.kind = kind
        self.hint = hint
        #: Further problems of the same read, reported with this one: every duplicate key of a
        #: file after its first (a designer fixes them all in one go, not one a run).
        self.also: list[YamlProblem] = []


@dataclass(slots=True)
class Source:
    """Locations of one YAML value and its children.

    ``at`` is where the value starts; for mappings ``keys`` holds where each key is
    written and ``items`` the children by key; for sequences ``items`` is by index. A scalar's
    ``keys`` and ``items`` (:mod:`engine.yamlsource` makes them) are one shared read-only empty mapping.
    """

    at: Location
    keys: dict = field(default_factory=dict)
    items: dict = field(default_factory=dict)

    def child(self, key: object) -> Source | None:
        """The Source of a child value by mapping key or list index, or None."""
        return self.items.get(key)

    def follow(self, path: tuple) -> tuple[Location, bool]:
        """Walk a path of keys/indices as far as it exists.

        Returns the deepest location found and whether the whole path existed. For
        a mapping key that exists, the key's own location is used (that is where
        a typo is).
        """
        node: Source = self
        loc = self.at
        for step in path:
            nxt = node.items.get(step)
            if nxt is None:
                return loc, False
            loc = node.keys.get(step, nxt.at)
            node = nxt
        return loc, True


#: A scalar's Source has no keys and no items: one shared, read-only empty mapping for both
#: (two empty dicts a value were ~15 MB of a 10,000-card load's peak).
_NONE: Mapping = MappingProxyType({})


def _loc(path: str, mark: yaml.Mark | None) -> Location:
    if mark is None:
        return Location(path)
    return Location(path, mark.line + 1, mark.column + 1)


def load_yaml(text: str, path: str, rows: tuple[str, RowHook] | None = None) -> tuple[object, Source]:
    """Parse one YAML document safely; return ``(data, source_tree)``.

    ``rows = (key, hook)``: each item of the sequence under the top-level mapping's ``key`` is
    passed, as soon as it is read, to ``hook(value, source)``, whose ``(value, source)`` is kept in
    its place (the loader validates a card there, so the raw rows of the whole file are never
    held at once: issue 22). The hook must not raise; a whole read (below) does not call it.

    An empty document gives ``(None, Source)``. Raises :class:`YamlProblem` for a
    syntax error, a duplicate key, a merge key, or aliases expanding to more values
    than the text has characters plus :data:`ALIAS_ALLOWANCE`.

    The document is converted from the parser's events as they come (:func:`_load_streaming`), so
    PyYAML's node tree of the whole file (~9 kB a card) is never held (issue 22). A document with
    an anchor or alias, and any document a problem stops, is read whole (:func:`_load_whole`),
    so every error and its location are exactly what the whole read reports.
    """
    try:
        streamed = _load_streaming(text, path, rows)
    except Exception:  # noqa: BLE001  any problem: the whole read raises it, located as ever
        streamed = None
    return streamed if streamed is not None else _load_whole(text, path)


def _load_whole(text: str, path: str) -> tuple[object, Source]:
    """:func:`load_yaml` by PyYAML's composer: the document's whole node tree, then converted."""
    loader = None
    try:
        loader = _Loader(text)  # PyYAML's Python reader checks the characters here, libyaml's while parsing
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        # For "while scanning a quoted scalar" the cause is where the construct began
        # (the context mark); PyYAML's problem mark is where it gave up, often far below.
        use_context = bool(exc.context and exc.context_mark and exc.context.startswith(("while scanning", "while parsing a flow")))
        mark = exc.context_mark if use_context else exc.problem_mark
        problem = exc.problem or "invalid YAML"
        hint = "check indentation, colons and quotes on this line and the one before it"
        if use_context and exc.problem_mark:
            problem = f"{problem} {exc.context} (noticed at line {exc.problem_mark.line + 1})"
        elif exc.context and exc.context_mark and exc.problem_mark and exc.context_mark.line < exc.problem_mark.line:
            # A block mapping or sequence that began lines above: the slip is often there (a quote
            # left open runs on over the following lines), so name where the construct began.
            start = exc.context_mark
            problem = f"{problem} ({exc.context} that starts at line {start.line + 1}, column {start.column + 1})"
            hint = (f"check indentation, colons and quotes from line {start.line + 1} to this line: "
                    "a quote left open runs on to the next quote")
        tab = tab_near(text, exc.problem_mark)
        if tab is not None:  # YAML forbids tabs in indentation; its messages rarely say that is the cause
            mark, hint = tab, f"YAML indents with spaces only: replace the tab at line {tab.line + 1}, column {tab.column + 1} with spaces"
        raise YamlProblem(f"YAML syntax error: {problem}", _loc(path, mark), "syntax", hint) from None
    except yaml.reader.ReaderError as exc:  # a control character or NUL: located by its character position
        raise YamlProblem(
            f"YAML cannot contain the control character U+{_code_point(exc.character):04X}",
            _position(path, text, exc.position),
            "syntax",
            "delete the character, or write it as an escape inside double quotes (\\t, \\x01)",
        ) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(f"YAML error: {exc}", Location(path), "syntax") from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        return None, Source(Location(path, 1, 1))
    budget = [len(text) + ALIAS_ALLOWANCE]
    duplicates: list[YamlProblem] = []
    result = _convert(node, path, loader, budget, 0, duplicates)
    if duplicates:
        duplicates[0].also = duplicates[1:]
        raise duplicates[0]
    return result


class _Whole(Exception):
    """The streamed read met what it leaves to the whole read (an anchor, an alias, a problem)."""


def _load_streaming(text: str, path: str, rows: tuple[str, RowHook] | None = None) -> tuple[object, Source] | None:
    """:func:`load_yaml` converting the loader's events as they come, with no node tree: None for
    a stream without a document; raises :class:`_Whole` or the parser's error where the document
    holds an anchor or an alias, a second document, or anything :func:`_load_whole` reports."""
    loader = _Loader(text)
    try:
        loader.get_event()  # the stream's start
        if loader.check_event(yaml.StreamEndEvent):
            return None
        loader.get_event()  # the document's start
        result = _stream_value(loader, path, [len(text) + ALIAS_ALLOWANCE], 0, rows)
        loader.get_event()  # the document's end
        if not loader.check_event(yaml.StreamEndEvent):
            raise _Whole("a second document")
        return result
    finally:
        loader.dispose()


def _stream_value(loader: yaml.BaseLoader, path: str, budget: list[int], depth: int, rows: tuple[str, RowHook] | None = None,
                  hook: RowHook | None = None) -> tuple[object, Source]:
    """The next value of the event stream, as :func:`_convert` converts the node PyYAML's composer
    makes of it (the same tags: a plain scalar's resolved from its value and implicit flags, a
    collection's from its kind; the same checks, in the same order). The loaders deckpress uses
    have no path resolvers, so where a node sits never changes its tag."""
    event = loader.get_event()
    if event.anchor is not None:  # an anchor or an alias: PyYAML's composer shares nodes
        raise _Whole("anchor")
    at = _loc(path, event.start_mark)
    if isinstance(event, yaml.ScalarEvent):
        return _stream_scalar(loader, event, at, budget, depth), Source(at, _NONE, _NONE)
    here = Source(at)
    mapping = isinstance(event, yaml.MappingStartEvent)
    tag = event.tag
    if tag is None or tag == "!":
        tag = loader.resolve(yaml.MappingNode if mapping else yaml.SequenceNode, None, event.implicit)
    _enter(tag, here.at, budget, depth)
    if not mapping:
        items = []
        while not loader.check_event(yaml.SequenceEndEvent):
            value, source = _stream_value(loader, path, budget, depth + 1)
            if hook is not None:
                value, source = hook(value, source)
            here.items[len(items)] = source
            items.append(value)
        loader.get_event()
        return items, here
    data: dict = {}
    while not loader.check_event(yaml.MappingEndEvent):
        key_event = loader.get_event()
        if not isinstance(key_event, yaml.ScalarEvent) or key_event.anchor is not None or key_event.tag == "tag:yaml.org,2002:merge":
            raise _Whole("key")
        key_at = _loc(path, key_event.start_mark)
        key = _stream_scalar(loader, key_event, key_at, budget, depth + 1)
        if key in data:
            raise _Whole("duplicate key")
        row_hook = rows[1] if rows is not None and key == rows[0] else None  # rows is only given at the top level
        value, source = _stream_value(loader, path, budget, depth + 1, hook=row_hook)
        data[key] = value
        here.keys[key] = key_at
        here.items[key] = source
    loader.get_event()
    return data, here


def _stream_scalar(loader: yaml.BaseLoader, event: yaml.ScalarEvent, at: Location, budget: list[int], depth: int) -> object:
    """A scalar event's value as :func:`_scalar` gives its node's (checked by :func:`_enter` first)."""
    tag = event.tag
    if tag is None or tag == "!":
        tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag == "tag:yaml.org,2002:merge":
        raise _Whole("merge key")
    _enter(tag, at, budget, depth)
    if tag == _STR_TAG:
        return event.value
    value = _scalar(yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style), loader, at)
    loader.constructed_objects.clear()  # its memo would keep every node
    return value


def _code_point(character: int | str) -> int:
    """libyaml reports the character as a code point, PyYAML's Python reader as a string."""
    return character if isinstance(character, int) else ord(character)


def _position(path: str, text: str, position: int) -> Location:
    """The line and column (1-based) of character ``position`` of ``text``."""
    before = text[:position]
    return Location(path, before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1)


def _enter(tag: str, at: Location, budget: list[int], depth: int) -> None:
    """The checks every node (of tag ``tag``) passes before it is converted (``at`` is where it
    starts): nesting depth, the alias budget, plain tags only; raises :class:`YamlProblem`."""
    if depth > MAX_YAML_DEPTH:
        raise YamlProblem(
            f"YAML nested more than {MAX_YAML_DEPTH} levels deep (card data needs at most 6)",
            at,
            "too-large",
            "flatten the lists and mappings here",
        )
    budget[0] -= 1
    if budget[0] < 0:
        raise YamlProblem(
            "YAML aliases expand this document to more values than its text holds (an alias bomb)",
            at,
            "too-large",
            "remove deeply nested aliases",
        )
    if tag not in _PLAIN_TAGS:
        raise YamlProblem(
            f"YAML tag {tag!r} is not allowed in card data",
            at,
            "syntax",
            "remove the tag; card data is plain values, lists and mappings",
        )


def _key(node: yaml.Node, at: Location, path: str, loader: yaml.BaseLoader, budget: list[int], depth: int,
         duplicates: list[YamlProblem]) -> object:
    """A mapping key's value: a scalar key converted in place (its location ``at`` is kept by the
    caller, no Source of its own), any other node through :func:`_convert`."""
    if not isinstance(node, yaml.ScalarNode):
        return _convert(node, path, loader, budget, depth, duplicates)[0]
    _enter(node.tag, at, budget, depth)
    return _scalar_or_noted(node, loader, at, duplicates)


def _scalar_or_noted(node: yaml.ScalarNode, loader: yaml.BaseLoader, at: Location, problems: list[YamlProblem]) -> object:
    """:func:`_scalar`, a value problem (a number YAML misreads, an impossible date) added to
    ``problems`` instead of raised, so that one read reports them all with the duplicate keys."""
    try:
        return _scalar(node, loader, at)
    except YamlProblem as problem:
        if problem.kind != "value":
            raise
        problems.append(problem)
        return None


def _convert(node: yaml.Node, path: str, loader: yaml.BaseLoader, budget: list[int], depth: int,
             duplicates: list[YamlProblem]) -> tuple[object, Source]:
    """A node's value and Source. A duplicate key or a value problem is added to ``duplicates``
    (a duplicate's value still read, for the problems inside it) and the read goes on; the caller
    raises them together."""
    at = _loc(path, node.start_mark)
    _enter(node.tag, at, budget, depth)
    if not isinstance(node, yaml.CollectionNode):
        return _scalar_or_noted(node, loader, at, duplicates), Source(at, _NONE, _NONE)
    here = Source(at)
    if isinstance(node, yaml.MappingNode):
        data: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlProblem(
                    "YAML merge keys ('<<') are not supported in card data",
                    _loc(path, key_node.start_mark),
                    "syntax",
                    "write the values out in full",
                )
            key_at = _loc(path, key_node.start_mark)
            key = _key(key_node, key_at, path, loader, budget, depth + 1, duplicates)
            if isinstance(key, (list, dict)):
                raise YamlProblem("a mapping key must be a plain value", key_at, "syntax")
            value, source = _convert(value_node, path, loader, budget, depth + 1, duplicates)
            if key in data:
                duplicates.append(YamlProblem(
                    f"duplicate key {key!r} (first written at line {here.keys[key].line})",
                    _loc(path, key_node.start_mark),
                    "duplicate-key",
                    "remove or rename one of the two",
                ))
                continue
            data[key] = value
            here.keys[key] = key_at
            here.items[key] = source
        return data, here
    if isinstance(node, yaml.SequenceNode):
        items = []
        for index, item_node in enumerate(node.value):
            value, source = _convert(item_node, path, loader, budget, depth + 1, duplicates)
            items.append(value)
            here.items[index] = source
    return items, here


def _scalar(node: yaml.ScalarNode, loader: yaml.BaseLoader, at: Location) -> object:
    """The Python value of a scalar; YamlProblem (``value``) for one YAML types but Python cannot hold."""
    if node.tag == "tag:yaml.org,2002:int" and sum(ch.isdigit() for ch in node.value) > MAX_INT_DIGITS:
        raise YamlProblem(
            f"the number {node.value[:20]}... has {sum(ch.isdigit() for ch in node.value)} digits; card data allows at most {MAX_INT_DIGITS}",
            at,
            "value",
            "write a smaller number, or quote it if it is text",
        )
    if node.tag == _STR_TAG:
        return node.value  # what PyYAML's construct_yaml_str returns for a scalar, without its bookkeeping
    if node.tag in NUMBER_TAGS and misread(node):
        message, hint = number_problem(node, loader)
        raise YamlProblem(message, at, "value", hint)
    try:
        return loader.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        raise YamlProblem(f"YAML value cannot be read: {exc}", at, "syntax") from None
    except (ValueError, OverflowError) as exc:  # timestamps: datetime refuses a 30 February, a 13th month, hour 25
        raise YamlProblem(
            f"{node.value!r} reads as a date but is not a real one ({exc})",
            at,
            "value",
            "write a real date as YYYY-MM-DD, or quote the value if it is text",
        ) from None
