"""``deckpress build`` with nothing to build, answered without typer (pipeline/cli/unchanged.py):
the same command line reading, settings, output, report and exit code as the typer command, and
every other command line left to typer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from conftest import ROOT
from pipeline.cli import unchanged
from pipeline.cli.app import app

PROBE = (
    "import json, sys\n"
    "from pipeline.cli.app import main\n"
    "tag = sys.argv[2]\n"
    "sys.argv = ['deckpress', *json.loads(sys.argv[1])]\n"
    "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
    "with open(tag + '.probe', 'w') as fh:\n"
    "    json.dump([code, sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'rich', 'pydantic', 'click', 'yaml'}),\n"
    "               'pipeline.cli.commands' in sys.modules], fh)\n"
    "sys.exit(code)\n"
)
TYPER = "import json, sys\nfrom pipeline.cli.commands import app\napp(json.loads(sys.argv[1]), prog_name='deckpress')\n"


def _run(script: str, args: list[str], tag: Path) -> tuple[int, str, str, list]:
    """Run ``script`` with ``args`` in a fresh interpreter; (exit code, stdout, stderr, the probe's record)."""
    proc = subprocess.run([sys.executable, "-c", script, json.dumps(args), str(tag)], capture_output=True, text=True, cwd=ROOT)
    probe = Path(str(tag) + ".probe")
    record = json.loads(probe.read_text()) if probe.exists() else None
    probe.unlink(missing_ok=True)
    return proc.returncode, proc.stdout, proc.stderr, record


def test_the_option_table_is_the_typer_commands():
    command = typer.main.get_command(app).commands["build"]
    values, flags, defaults, multiple = {}, {}, {}, set()
    for p in command.params:
        defaults[p.name] = [str(v) for v in p.default] if isinstance(p.default, (list, tuple)) else (str(p.default) if isinstance(p.default, Path) else p.default)
        if p.param_type_name == "argument":
            continue
        if p.is_flag:
            flags.update({o: (p.name, True) for o in p.opts})
            flags.update({o: (p.name, False) for o in p.secondary_opts})
        else:
            values.update({o: p.name for o in p.opts})
        if p.multiple:
            multiple.add(p.name)
    assert values == unchanged.VALUE_OPTIONS
    assert flags == unchanged.FLAGS
    assert multiple == unchanged.MULTIPLE
    assert defaults == unchanged.DEFAULTS


@pytest.mark.parametrize("args", [
    ["build"],
    ["build", "carddata/enchant/", "--out", "out", "-q"],
    ["build", "--out=o", "carddata/enchant", "--paper", "a4,letter", "--paper", "sra3", "--only", "print, emboss", "--strict", "--no-strict"],
    ["build", "--back-offset", "0.5mm, 1mm", "--run", "combined", "--target", "gracol", "--geometry", "spec800", "--force", "-v", "--verify"],
    ["build", "--profile", "x", "--spot", "Spot 1", "--uv-printer", "arizona", "--release", "--out", "a", "--out", "b"],
])
def test_settings_are_the_typer_commands(args, monkeypatch):
    import pipeline.build.runner as runner

    seen = {}

    def record(dirs, settings, progress=None, before_building=None, verify=False):
        seen.update(dirs=dirs, settings=settings, verify=verify)
        return []

    monkeypatch.setattr(runner, "run_build", record)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    params = unchanged.parse(args)
    dirs, settings = unchanged.settings_of(params)
    assert (dirs, settings, params["verify"]) == (seen["dirs"], seen["settings"], seen["verify"])


@pytest.mark.parametrize("args", [
    ["check", "x"], ["build", "--help"], ["build", "--outt", "x"], ["build", "-qv"], ["build", "--", "x"],
    ["build", "--back-offset", "-1mm,0mm"], ["build", "--out"], ["build", "--rulebook", "r.txt"], ["build", "--strict=1"],
    ["build", "--only="], ["build", "--only", " , "],  # names no stage: the typer command refuses it
])
def test_a_command_line_it_does_not_read_exactly_is_typers(args):
    assert unchanged.parse(args) is None or unchanged.settings_of(unchanged.parse(args)) is None


@pytest.mark.parametrize("params", [
    {"out_dir": ""}, {"run": "boxed"}, {"release": True, "force": True}, {"back_offset": "1mm"}, {"target": "fogra-39"},
])
def test_options_the_command_refuses_are_typers(params):
    assert unchanged.settings_of(dict(unchanged.DEFAULTS, game_dirs=["carddata/enchant"], **params)) is None


def test_an_unchanged_build_prints_and_exits_as_the_typer_command(game_copy, tmp_path):
    game, out = game_copy("mini"), tmp_path / "out"
    args = ["build", str(game), "--out", str(out), "--only", "emboss", "--quiet"]
    first = _run(PROBE, args, tmp_path / "first")
    assert first[0] == 0 and "== mini: built" in first[1] and "typer" in first[3][1]
    for extra in ([], ["--verbose"], ["--verify", "-v", "--no-strict"]):
        fast = _run(PROBE, args + extra, tmp_path / "fast")
        fast_report = (out / "report.json").read_bytes()
        (out / "report.json").unlink()  # the typer command must write it again, as it was
        slow = _run(TYPER, args + extra, tmp_path / "slow")
        assert "== mini: unchanged, reused" in fast[1] and fast[3] == [fast[0], [], False]  # no typer, rich, pydantic or PyYAML
        assert fast[:3] == slow[:3]
        assert (out / "report.json").read_bytes() == fast_report


def test_a_closed_stdout_keeps_the_exit_code_in_silence_and_the_fast_path(game_copy, tmp_path):
    # `deckpress build | head -1` on an unchanged build: its own code (0), nothing on stderr, and still
    # answered without typer (click had made any broken pipe exit 1, which means error findings here).
    game, out = game_copy("mini"), tmp_path / "out"
    args = ["build", str(game), "--out", str(out), "--only", "emboss", "--quiet"]
    assert _run(PROBE, args, tmp_path / "first")[0] == 0
    proc = subprocess.Popen([sys.executable, "-c", PROBE, json.dumps(args), str(tmp_path / "closed")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # before the interpreter is up: every line it prints meets a broken pipe
    assert proc.wait(timeout=120) == 0 and proc.stderr.read() == b""
    assert json.loads((tmp_path / "closed.probe").read_text()) == [0, [], False]


def test_a_build_with_something_to_build_runs_the_command_without_typers_parsing(game_copy, tmp_path):
    # A stale build is the build command itself (unchanged.build_now), not typer's option parsing; the
    # reference is the typer app run on the same command line: same exit code, lines and files.
    game = game_copy("mini")
    for extra in ([], ["--verbose", "--paper", "a4,letter"], ["--strict"]):
        runs = {}
        for name, script in (("direct", PROBE), ("typer", TYPER)):
            out = tmp_path / f"{name}-{len(extra)}"
            code, stdout, stderr, record = _run(script, ["build", str(game), "--out", str(out), "--only", "emboss", "--quiet", *extra], out)
            files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
            runs[name] = (code, stdout.replace(str(out), "OUT"), stderr.replace(str(out), "OUT"), files)
            if name == "direct":
                # the typer app (pipeline.cli.commands) never built: build() called as typer would call it
                assert record[0] == code and record[2] is False and ("== mini: built" in stdout or "--strict" in extra)
        assert runs["direct"] == runs["typer"]
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Ember Ranger", "name: Ember Rangers"))
    out = tmp_path / "out"
    assert _run(PROBE, ["build", str(game), "--out", str(out), "--only", "emboss", "--quiet"], tmp_path / "first")[0] == 0
    code, _, stderr, _ = _run(PROBE, ["build", str(game), "--out", str(out), "--paper", "leter"], tmp_path / "typo")
    assert code == 2 and "leter" in stderr  # refused by the build's option check, as through typer


@pytest.mark.parametrize("where", ["inside", "beside", "the game"])
def test_a_reused_build_names_files_as_the_build_did(game_copy, tmp_path, where):
    # The manifest keeps findings with portable names (mini/cards.yaml, sheets/x.pdf); a reused
    # build must print them as the cold build did, so they open from the working directory:
    # relative when the game is inside it, absolute when beside it (engine.paths.display_path),
    # and from inside the game folder given as "." (whose parent, unresolved, is "." again).
    game = game_copy("mini")
    cwd, game_arg, out_arg, data, made = {
        "inside": (tmp_path, "mini", "out", "mini/cards.yaml:", "out/mini/sheets/mini-letter-fronts.pdf:"),
        "beside": (tmp_path / "elsewhere", str(game), str(tmp_path / "out"), f"{game}/cards.yaml:",
                   f"{tmp_path}/out/mini/sheets/mini-letter-fronts.pdf:"),
        "the game": (game, ".", "../out", "cards.yaml:", "../out/mini/sheets/mini-letter-fronts.pdf:"),
    }[where]
    cwd.mkdir(exist_ok=True)
    args = ["build", game_arg, "--out", out_arg, "--only", "impose", "--paper", "letter", "--verbose", "--quiet"]
    run = [sys.executable, "-c", "import sys\nfrom pipeline.cli.app import main\nsys.argv = ['deckpress', *sys.argv[1:]]\nmain()", *args]
    cold, reused = (subprocess.run(run, capture_output=True, text=True, cwd=cwd) for _ in range(2))
    assert cold.returncode == reused.returncode == 0
    assert "== mini: built" in cold.stdout and "== mini: unchanged, reused" in reused.stdout
    named = lambda text: [line for line in text.splitlines() if ": info " in line or ": warning " in line or ": error " in line]
    lines = named(cold.stdout)
    assert any(line.startswith(data) for line in lines) and any(line.startswith(made) for line in lines)
    assert named(reused.stdout) == lines
