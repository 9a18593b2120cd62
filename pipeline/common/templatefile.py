"""Template files (card layouts, press sheets, embosser profiles) read like the card data.

They go through the same located YAML reader as ``cards.yaml`` (:mod:`engine.yamlsource`):
a duplicate key is an error instead of silently winning, and every problem, a YAML
syntax error or a value the schema refuses, names ``file:line:column``.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ValidationError

from engine.yamlsource import Source, YamlProblem, load_yaml


class TemplateError(ValueError):
    """A template file that cannot be used; the message starts with ``file:line:column:``."""


def read_template(path: Path) -> tuple[object, Source]:
    """Read one template YAML file; returns ``(data, source tree)`` (``data`` is None when empty).

    Raises FileNotFoundError for a missing file, :class:`TemplateError` for one that cannot
    be read as UTF-8, is not YAML, or repeats a key (message ``file:line:col: …``).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TemplateError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return load_yaml(text, str(path))
    except YamlProblem as exc:
        raise TemplateError(f"{exc.location}: {exc.message}") from None


def located_error(exc: ValidationError, source: Source, prefix: tuple = ()) -> str:
    """The first schema error of ``exc`` as ``file:line:col: field a.b: message``.

    ``prefix`` is the path of the validated value inside the file (for a preset nested under
    ``sheets: {letter: …}``, ``("sheets", "letter")``), so the line is the one in the file.
    """
    err = exc.errors()[0]
    loc = tuple(err["loc"])
    where, _ = source.follow(prefix + loc)
    field = ".".join(str(p) for p in loc) or "<top>"
    return f"{where}: field {field}: {err['msg']}"


def validate_template(model: type[BaseModel], data: object, source: Source, prefix: tuple = ()) -> BaseModel:
    """``model.model_validate(data)``; raises :class:`TemplateError` with :func:`located_error`'s message."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise TemplateError(located_error(exc, source, prefix)) from None
