"""Architecture: every module imports cleanly in a fresh interpreter; the engine never imports pipeline."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from conftest import ROOT

MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for pkg in ("engine", "pipeline")
    for p in (ROOT / pkg).rglob("*.py")
)


def test_engine_never_imports_pipeline():
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n == "pipeline" or n.startswith("pipeline.") for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("engine")])
def test_engine_module_loads_without_pipeline(module):
    code = f"import sys, {module}; bad = [m for m in sys.modules if m == 'pipeline' or m.startswith('pipeline.')]; print(bad); sys.exit(1 if bad else 0)"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_module_imports_in_a_fresh_interpreter():
    code = "import importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in MODULES)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
