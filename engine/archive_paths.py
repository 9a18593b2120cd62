"""The archive path rule: where a card's page lives inside the card archive.

``archive.card_path`` is a template such as ``cards/{id}.html``; the same relative path is
the file the archive writes and the URL tail a card's QR code encodes, so it must stay
inside the archive folder. :func:`path_problem` is that rule, written once: the model
applies it to the template (DA003), the archive stage to each card's path
(:func:`page_path`; AR002 in :mod:`pipeline.archive.links`).
"""

from __future__ import annotations

import string
from pathlib import PurePosixPath

#: Characters a card path may hold: RFC 3986 §2.3 unreserved characters and the segment separator.
URL_SAFE = frozenset(string.ascii_letters + string.digits + "-._~/")

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
    problem = path_problem("".join(text + ("x" if name is not None else "") for text, name, _, _ in parts))
    if problem is not None:
        raise ValueError(f"{problem}, got {value!r}")
    return value


def path_problem(path: str) -> str | None:
    """Why an archive path (``/``-separated, relative to the archive root) is unsafe, or None when it is safe.

    Unsafe: a leading ``/`` or any backslash (not relative); an empty, ``.`` or ``..`` segment
    (it would leave the archive or name no file; one trailing ``/`` is allowed and names the
    folder's ``index.html``); a ``?`` or ``#`` (the path is also the URL tail a QR code
    encodes, where those start a query or fragment); any character outside RFC 3986's unreserved
    set (``A-Z a-z 0-9 - . _ ~``) and ``/``: a ``%`` escape (a browser reads ``%2e%2e`` as ``..``,
    WHATWG URL "double-dot path segment"), a space or a non-ASCII letter is decoded or
    re-encoded by the browser or server, so the URL would not name the file written. The
    reason reads after "the path".
    """
    if path.startswith("/") or "\\" in path:
        return "must be a relative path inside the archive (no leading '/' or '\\')"
    if any(part in ("", ".", "..") for part in path.removesuffix("/").split("/")):  # "cards/x/" names cards/x/index.html
        return "must stay inside the archive (no '..', '.' or empty segment)"
    if "?" in path or "#" in path:
        return "must not contain '?' or '#' (it names a file and the URL a QR code encodes)"
    odd = sorted({ch for ch in path if ch not in URL_SAFE})
    if odd:
        shown = ", ".join(repr(ch) for ch in odd[:5])
        return (f"may use only letters, digits, '-', '.', '_', '~' and '/', not {shown}: a browser percent-decodes or "
                "re-encodes anything else ('%2e%2e' is '..') and would open another file than the one written")
    return None


def page_path(card_path: str) -> PurePosixPath | None:
    """The file a card's archive path names, relative to the archive root; None when :func:`path_problem` finds it unsafe.

    ``"cards/x.html"`` → ``cards/x.html``; a path ending in ``/`` names its ``index.html``.
    """
    if path_problem(card_path) is not None:
        return None
    return PurePosixPath(card_path + "index.html" if card_path.endswith("/") else card_path)


#: The archive's own files at its root, beside the card pages (pipeline/archive/site.py writes them;
#: tests/test_archive.py holds these names against what that stage writes): a card page of the same
#: path would replace the game's index, the page the tuck boxes' QR codes open, or the style sheet.
ARCHIVE_FILES = ("index.html", "quickstart.html", "archive.css")
#: The archive's own folders: the card faces (``images/<card id>.png``) and the braille downloads.
ARCHIVE_FOLDERS = ("images", "braille")


def reserved_problem(page: PurePosixPath) -> str | None:
    """Why a card page at ``page`` (:func:`page_path`) would take the place of the archive's own
    files, or None when it does not: it is one of :data:`ARCHIVE_FILES`, or lies in one of
    :data:`ARCHIVE_FOLDERS`. The reason reads after "its archive page"."""
    if len(page.parts) == 1 and page.name.lower() in ARCHIVE_FILES:
        return f"{page} is the archive's own {page.name} and would replace it"
    if len(page.parts) == 1 and page.name.lower() in ARCHIVE_FOLDERS:
        return f"{page} is the archive's own {page.name}/ folder"
    if len(page.parts) > 1 and page.parts[0].lower() in ARCHIVE_FOLDERS:
        return f"{page} lies in the archive's own {page.parts[0]}/ folder"
    return None
