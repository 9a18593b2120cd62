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


def _imports_of(path, module: str) -> set[str]:
    """Every module ``module`` imports anywhere in its file (top level, in functions, under
    TYPE_CHECKING), resolved to deckpress modules: ``from a.b import c`` counts as ``a.b.c``
    when that is a module, else as ``a.b``."""
    known = set(MODULES)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known and m != module}


def import_graph() -> dict[str, set[str]]:
    """deckpress's import graph: module name → the deckpress modules it imports."""
    graph = {}
    for pkg in ("engine", "pipeline"):
        for path in (ROOT / pkg).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            graph[name] = _imports_of(path, name)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_cycle_finder_finds_a_planted_circle():
    # Control: the finder itself must see a circle of three and ignore a chain.
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_import_graph_sees_function_level_imports():
    # Control: a function-level import (stage functions import their modules lazily) is an edge.
    graph = import_graph()
    assert "pipeline.build.stages" in graph
    assert any(m.startswith("pipeline.render") for m in graph["pipeline.build.stages"])


def test_no_import_circles():
    """No import circle anywhere in engine/ or pipeline/, function-level and TYPE_CHECKING imports included."""
    assert find_cycles(import_graph()) == []


MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80


def oversized(source: str, name: str) -> list[str]:
    """What in one module breaks the house size rules: the module at 400 lines or more, any
    function or method (nested ones included) of 80 lines or more, decorators and docstring
    counted. Each entry reads ``name: N lines`` or ``name:function: N lines``."""
    out = []
    lines = len(source.splitlines())
    if lines >= MAX_MODULE_LINES:
        out.append(f"{name}: {lines} lines")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            length = node.end_lineno - first + 1
            if length >= MAX_FUNCTION_LINES:
                out.append(f"{name}:{node.name}: {length} lines")
    return out


def test_size_checker_flags_a_long_function_and_a_long_module():
    # Control: an 80-line function (def, 78 body lines, return) and a 400-line module are flagged,
    # a 79-line function and a 399-line module are not.
    long_fn = "def long():\n" + "    x = 1\n" * 78 + "    return x\n"
    short_fn = "def short():\n" + "    x = 1\n" * 77 + "    return x\n"
    assert oversized(long_fn, "m") == ["m:long: 80 lines"]
    assert oversized(short_fn, "m") == []
    assert oversized("x = 1\n" * 400, "m") == ["m: 400 lines"]
    assert oversized("x = 1\n" * 399, "m") == []
    nested = "class C:\n    def method(self):\n" + "        y = 2\n" * 79
    assert oversized(nested, "m") == ["m:method: 80 lines"]


def test_modules_under_400_lines_and_functions_under_80():
    """Every module in engine/ and pipeline/ is under 400 lines and every function under 80 (house rules)."""
    found = []
    for pkg in ("engine", "pipeline"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            found += oversized(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


def test_stage_codes_keep_out_of_the_check_families():
    # `deckpress check --select RB` runs the engine checks alone (engine.registry.only_checks):
    # sound only while no stage declares a code in a family the engine's checks use.
    probe = (
        "import engine.checks\n"
        "from engine.registry import RULES\n"
        "before = {r.code for r in RULES}\n"
        "families = {r.family for r in RULES.checks()}\n"
        "from pipeline.build.stages import import_stage_modules\n"
        "import_stage_modules()\n"
        "print(sorted(r.code for r in RULES if r.code not in before and r.family in families), len(RULES.rules) - len(before))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT).stdout.split(" ", 1)
    assert out[0] == "[]" and int(out[1]) > 40  # the stages declare their 50-odd codes, none in RB, CP, KW, PW, DQ
