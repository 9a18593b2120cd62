"""jinja2's own on-disk cache of compiled templates for the archive's environment (issue 22).

Compiling the six archive templates was ~30 ms of every build's serial start; jinja2's
:class:`~jinja2.FileSystemBytecodeCache` keeps the compiled code in its per-user folder under the
temp directory (created 0700 and checked to be the user's), keyed by the template's name and
the sha1 of its source, so a later process loads it in ~1.5 ms. Same templates, same code: the
pages are the same bytes either way.
"""

from __future__ import annotations

import jinja2
from jinja2.bccache import Bucket


class TemplateCodeCache(jinja2.FileSystemBytecodeCache):
    """jinja2's own on-disk cache of compiled templates (in its per-user 0700 folder under the temp
    directory, keyed by the template's name and the sha1 of its source), read and written best effort:
    a cache file that does not read, or a folder that cannot be written (a full disk), is a miss."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - a damaged cache file: compile from the source instead
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass  # not cached: the next process compiles the template again


def code_cache() -> jinja2.BytecodeCache | None:
    """The compiled-template cache, or None where jinja2 finds no safe folder for it (then every process compiles)."""
    try:
        return TemplateCodeCache()
    except (OSError, RuntimeError):
        return None
