"""The dependency files agree (issue 23): every direct dependency of pyproject.toml is pinned in
the lock that `make build`/`make test` install from, and its floor is the version
requirements/floors.txt pins, which `make test-oldest` installs and tests.

The reference is pyproject.toml itself, read with the standard library's tomllib and
packaging's requirement parser (pip's own).
"""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement

from conftest import ROOT


def _canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(path) -> dict[str, str]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            out[_canon(name)] = version.split(";")[0].strip()
    return out


def _direct() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["test"]]


def test_every_direct_dependency_is_locked_within_its_range():
    lock = _pins(ROOT / "requirements" / "lock.txt")
    for req in _direct():
        assert _canon(req.name) in lock, f"{req.name} is not in requirements/lock.txt: run make lock"
        assert req.specifier.contains(lock[_canon(req.name)]), (req, lock[_canon(req.name)])


def test_every_floor_is_pinned_for_test_oldest():
    floors = _pins(ROOT / "requirements" / "floors.txt")
    for req in _direct():
        lower = [s.version for s in req.specifier if s.operator == ">="]
        assert lower, f"{req} has no floor"
        assert _canon(req.name) in floors, f"{req.name} has no pin in requirements/floors.txt"
        assert floors[_canon(req.name)].startswith(lower[0]) and req.specifier.contains(floors[_canon(req.name)]), (req, floors[_canon(req.name)])


def test_the_accelerator_comes_through_reportlabs_extra_with_a_platform_marker():
    accel = [r for r in _direct() if _canon(r.name) == "reportlab" and "accel" in r.extras]
    assert accel and accel[0].marker is not None and "platform_machine" in str(accel[0].marker)
    assert not any(_canon(r.name) == "rl-accel" for r in _direct())
