"""PEF 1.0 (Portable Embosser Format, DAISY, version ``2008-1``) documents, written and read back.

Structure written (PEF 1.0 specification, public draft revised 12 September 2011):
``pef@version="2008-1"`` → ``head/meta`` with Dublin Core ``dc:format``
(``application/x-pef+xml``), ``dc:identifier``, ``dc:title``, ``dc:language``,
``dc:date`` (YYYY-MM-DD) → ``body/volume`` with ``cols rows rowgap duplex`` →
one ``section`` → one ``page`` per embosser page → one ``row`` per line of Unicode
braille. An empty row is written as ``<row/>`` (a blank line). The output is
deterministic: the same pages and metadata give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from lxml import etree

PEF_NS = "http://www.daisy.org/ns/2008/pef"
DC_NS = "http://purl.org/dc/elements/1.1/"
PEF_VERSION = "2008-1"
PEF_MIME = "application/x-pef+xml"


@dataclass(frozen=True)
class PefMeta:
    """Dublin Core metadata of a PEF document. ``date`` is ``YYYY-MM-DD``; ``language`` an RFC 3066 tag."""

    title: str
    identifier: str
    date: str
    language: str = "en"
    creator: str = "deckpress"
    description: str = ""


def content_identifier(game_id: str, parts: Sequence[object]) -> str:
    """A stable ``dc:identifier``: ``deckpress:<game>:<16 hex digits of SHA-256 of the parts as JSON>``.

    The same game, profile, layout and cells give the same identifier; any change of content changes it.
    """
    digest = hashlib.sha256(json.dumps(list(parts), ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()
    return f"deckpress:{game_id}:{digest[:16]}"


def pef_bytes(pages: Sequence[Sequence[str]], cols: int, rows: int, meta: PefMeta, duplex: bool = False, rowgap: int = 0) -> bytes:
    """A PEF document (UTF-8 bytes) of ``pages`` of rows of Unicode braille.

    ``cols`` / ``rows`` are the volume's cells per row and rows per page, ``rowgap``
    the extra gap between rows in dot heights (0 for six-dot braille), ``duplex``
    whether pages are meant for both sides of the paper. Does not validate: see
    :func:`pipeline.emboss.validate.validate_pef`.
    """
    nsmap = {None: PEF_NS}
    root = etree.Element(f"{{{PEF_NS}}}pef", nsmap=nsmap, version=PEF_VERSION)
    head = etree.SubElement(root, f"{{{PEF_NS}}}head")
    meta_el = etree.SubElement(head, f"{{{PEF_NS}}}meta", nsmap={"dc": DC_NS})
    for name, value in (
        ("title", meta.title),
        ("creator", meta.creator),
        ("date", meta.date),
        ("format", PEF_MIME),
        ("identifier", meta.identifier),
        ("description", meta.description),
        ("language", meta.language),
    ):
        if value:
            etree.SubElement(meta_el, f"{{{DC_NS}}}{name}").text = value
    body = etree.SubElement(root, f"{{{PEF_NS}}}body")
    volume = etree.SubElement(
        body, f"{{{PEF_NS}}}volume", cols=str(cols), rows=str(rows), rowgap=str(rowgap), duplex="true" if duplex else "false"
    )
    section = etree.SubElement(volume, f"{{{PEF_NS}}}section")
    for page_rows in pages:
        page = etree.SubElement(section, f"{{{PEF_NS}}}page")
        for row in page_rows:
            el = etree.SubElement(page, f"{{{PEF_NS}}}row")
            if row:
                el.text = row
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def read_pef(source: str | Path | bytes) -> list[list[str]]:
    """Every page's rows of a PEF document, in document order (all volumes and sections).

    ``source`` is a path or the document's bytes. Raises ``lxml.etree.XMLSyntaxError``
    for a document that is not well-formed XML.
    """
    tree = etree.fromstring(source) if isinstance(source, bytes) else etree.parse(str(source)).getroot()
    return [[row.text or "" for row in page.iterfind(f"{{{PEF_NS}}}row")] for page in tree.iter(f"{{{PEF_NS}}}page")]
