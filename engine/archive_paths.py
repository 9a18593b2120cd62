"""The archive path rule: where a card's page lives inside the card archive.

``archive.card_path`` is a template such as ``cards/{id}.html``; the same relative path is
the file the archive writes and the URL tail a card's QR code encodes, so it must stay
inside the archive folder.
"""

from __future__ import annotations

import string

#: The fields a card path template may name (:meth:`Archive.path_for`).
CARD_PATH_FIELDS = ("id", "class_id")


def card_path_template(value: str) -> str:
    """``value`` when it is a valid ``archive.card_path`` template, else ValueError.

    The template is a relative path with ``{id}`` (required: one page per card) and
    optionally ``{class_id}``, each written bare: no attribute or index access
    (``{id.__class__}``), conversion (``{id!r}``) or format spec (``{id:>9}``). The
    path must stay inside the archive: no leading ``/`` or backslash, no ``..``, ``.`` or
    empty segment (a trailing ``/`` names the folder's ``index.html``), and no
    ``?`` or ``#`` (the page name is also the URL the QR code encodes).
    """
    try:
        parts = list(string.Formatter().parse(value))
    except ValueError as exc:
        raise ValueError(f"is not a path template such as 'cards/{{id}}.html' ({exc}; write a literal brace as '{{{{' or '}}}}'), got {value!r}") from None
    fields = [(name, spec, conv) for _, name, spec, conv in parts if name is not None]
    for name, spec, conv in fields:
        shown = "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
        bare = name if name in CARD_PATH_FIELDS else next((f for f in CARD_PATH_FIELDS if name[len(f):len(f) + 1] in (".", "[") and name.startswith(f)), None)
        if bare is None:
            raise ValueError(f"may use only {{id}} and {{class_id}}, not {shown}, got {value!r}")
        if bare != name or spec or conv:
            raise ValueError(f"may use {{{bare}}} only as it is, not {shown}, got {value!r}")
    if "id" not in [name for name, _, _ in fields]:
        raise ValueError(f"must contain {{id}}, or every card shares one archive page, got {value!r}")
    literal = "".join(text + ("x" if name is not None else "") for text, name, _, _ in parts)
    if literal.startswith("/") or "\\" in literal:
        raise ValueError(f"must be a relative path inside the archive (no leading '/' or '\\'), got {value!r}")
    if any(part in ("", ".", "..") for part in literal.removesuffix("/").split("/")):  # "cards/{id}/" names cards/<id>/index.html
        raise ValueError(f"must stay inside the archive (no '..', '.' or empty segment), got {value!r}")
    if "?" in literal or "#" in literal:
        raise ValueError(f"must not contain '?' or '#' (it names a file and the URL a QR code encodes), got {value!r}")
    return value
