"""The README's finding-code table is generated from the registry and must stay current."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_readme_codes_table_is_current():
    # A fresh interpreter: other tests register throwaway rules in this process's registry.
    code = "from pipeline.cli.docs import README, updated_readme; t = README.read_text(encoding='utf-8'); print(t == updated_readme(t))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.stdout.strip() == "True", "README codes table is stale: run .venv/bin/python -m pipeline.cli.docs\n" + run.stderr
