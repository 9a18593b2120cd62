"""The XMP packet's text escaping (pipeline.render.pdfx4.escape) is xml.sax.saxutils.escape's, without its import."""

import subprocess
import sys
from xml.sax.saxutils import escape as sax_escape

from pipeline.render.pdfx4 import escape


def test_escape_matches_saxutils():
    for text in ["Tom & Jerry <draft>", "a>b", "&amp; already", "quotes \" and ' stay", "", "Überraschung · €"]:
        assert escape(text) == sax_escape(text)
    assert escape("<&>") == "&lt;&amp;&gt;"


def test_the_pdf_modules_do_not_import_ssl():
    code = "import sys, pipeline.render.pdfx, pipeline.render.pdfx4; print(sorted(m for m in ('ssl', 'urllib.request', 'http.client') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"
