"""The README's finding-code table is generated from the registry and must stay current."""

from __future__ import annotations

from pipeline.docs import README, updated_readme


def test_readme_codes_table_is_current():
    text = README.read_text(encoding="utf-8")
    assert text == updated_readme(text), "run: .venv/bin/python -m pipeline.docs"


def test_readme_names_both_setup_commands():
    text = README.read_text(encoding="utf-8")
    assert "make build" in text and "make test" in text
