"""The CLI through typer's runner: help, check, schema, exit codes and located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from typer.testing import CliRunner

from pipeline.cli.app import app

runner = CliRunner()


def test_help_lists_commands():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("check", "schema", "rules", "build"):
        assert command in result.output


def test_check_clean_fixture(mini_dir):
    result = runner.invoke(app, ["check", str(mini_dir), "--select", "DA"])
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output


def test_check_typo_names_line_7(game_copy):
    game = game_copy("mini")
    lines = (game / "cards.yaml").read_text().splitlines()
    lines[6] = "    powr: 1"
    (game / "cards.yaml").write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["check", str(game)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.endswith("cards.yaml:7:5: error DA004 unknown-key: [ember-apprentice] unknown key 'powr' (at cards.0.powr)")
    assert "hint: did you mean 'power'?" in result.output
    assert "Traceback" not in result.output


def test_check_unreadable_exits_2(tmp_path):
    result = runner.invoke(app, ["check", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "is not a game folder" in result.output


def test_check_json(game_copy):
    game = game_copy("mini")
    (game / "cards.yaml").write_text("cards:\n  - id: x\n    name: [unclosed\n")
    result = runner.invoke(app, ["check", str(game), "--format", "json"])
    assert result.exit_code == 2
    doc = json.loads(result.output)
    assert doc["counts"]["error"] == 1 and doc["findings"][0]["code"] == "DA001"
    assert doc["findings"][0]["location"]["line"] == 3  # where the unclosed [ opens


def test_schema_is_json_schema():
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert "class" in doc["cards.yaml"]["$defs"]["Card"]["properties"]
    assert "provenance" in doc["cards.yaml"]["$defs"]["Card"]["required"]


def test_rules_lists_every_family_in_a_fresh_interpreter():
    import subprocess
    import sys
    from pathlib import Path

    from conftest import ROOT

    run = subprocess.run([str(Path(sys.executable).with_name("deckpress")), "rules"], cwd=ROOT, capture_output=True, text=True)
    families = {line[:2] for line in run.stdout.splitlines() if line[:5].isalnum()}
    assert {"DA", "CP", "KW", "PW", "DQ", "RB", "BR", "DI", "PR", "QR", "UV", "IM", "EM", "AR"} <= families, run.stdout + run.stderr
    # The summaries' reST literals read as Markdown-style `x` on a terminal (DQ005's doc writes ``ignore:``).
    assert "``" not in run.stdout and "A card's `ignore:` entry matches no rule" in run.stdout


def test_check_reports_what_the_build_would_stop_on(game_copy):
    """check runs the build's preflight: an emoji (BR002, PR005) and a name too long for 18 pt (PR001)."""
    game = game_copy("mini")
    text = (game / "cards.yaml").read_text()
    text = text.replace("name: Fireball", "name: Fireball \U0001F525").replace("name: Ember Ranger", "name: Ember Ranger of the Far Northern Volcanic Wastes")
    (game / "cards.yaml").write_text(text)
    result = runner.invoke(app, ["check", str(game)])
    assert result.exit_code == 1
    codes = {line.split()[2] for line in result.output.splitlines() if " error " in line}
    assert {"BR002", "PR001"} <= codes, result.output


def test_unknown_select_entry_exits_2(mini_dir):
    result = runner.invoke(app, ["check", str(mini_dir), "--ignore", "DQ02"])
    assert result.exit_code == 2 and "no rule matches DQ02" in result.output
    assert runner.invoke(app, ["check", str(mini_dir), "--select", "DQ", "--ignore", "provisional-card"]).exit_code == 0


def test_schema_of_one_file_is_plain_json_schema():
    result = runner.invoke(app, ["schema", "cards"])
    doc = json.loads(result.output)
    assert result.exit_code == 0 and doc["title"] == "CardsFile" and "cards" in doc["properties"]


def test_check_broken_extends_exits_1_at_the_value(game_copy, monkeypatch, tmp_path):
    # The expansion's game.yaml reads fine; one value in it is wrong: a data error (exit 1).
    monkeypatch.chdir(tmp_path)
    game_copy("mini")
    plus = game_copy("mini-plus")
    (plus / "game.yaml").write_text((plus / "game.yaml").read_text().replace("game: ../mini\n", "game: ../mimi\n"))
    result = runner.invoke(app, ["check", "mini-plus"])
    assert result.exit_code == 1
    assert result.output.splitlines()[:2] == [
        "mini-plus/game.yaml:5:9: error DA003 invalid-value: extends.game '../mimi' is not a game folder (no game.yaml in mimi)",
        "    hint: did you mean '../mini'? (game folders there: mini)",
    ]


def test_check_binary_cards_file_exits_2(game_copy, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    game = game_copy("mini")
    (game / "cards.yaml").write_bytes(b"\x89PNG\r\n\x1a\n")
    result = runner.invoke(app, ["check", "mini"])
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == "mini/cards.yaml:1:1: error DA005 unreadable-data-file: cards.yaml is not UTF-8 text (byte 0x89 at line 1, column 1 cannot be read; a binary file or another encoding, such as Latin-1)"


def test_check_reports_dice_and_archive_problems_the_build_would_stop_on(game_copy):
    game = game_copy("mini")
    text = (game / "game.yaml").read_text().replace("size: 35mm", "size: 3mm")
    (game / "game.yaml").write_text(text)
    result = runner.invoke(app, ["check", str(game)])
    assert result.exit_code == 1 and " DI002 " in result.output


def test_check_and_a_card_of_an_unknown_class(game_copy):
    game = game_copy("mini")
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text().replace("class: forest", "class: forst", 1))
    result = runner.invoke(app, ["check", str(game)])
    assert result.exit_code == 1 and " CP008 " in result.output and "internal error" not in result.output


def test_a_missing_icc_profile_is_a_setup_error_naming_make_setup_not_an_internal_error(mini_dir, monkeypatch, capsys):
    """As on a machine where `make setup` has not built the profiles: the profile path points nowhere."""
    import sys

    from pipeline.cli import app as app_module
    from pipeline.render import colour

    def no_profile(path):
        raise OSError("cannot open profile file")

    caches = (colour._profile, colour._to_lab, colour._to_srgb, colour._srgb_to_cmyk)  # transforms built by earlier tests
    for cached in caches:
        cached.cache_clear()
    monkeypatch.setattr(colour.ImageCms, "getOpenProfile", no_profile)
    monkeypatch.setattr(sys, "argv", ["deckpress", "check", str(mini_dir)])
    with pytest.raises(SystemExit) as exc:
        app_module.main()
    for cached in caches:
        cached.cache_clear()
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and "internal error" not in err
    assert err.startswith("deckpress: no ICC profile for printing target 'fogra39'") and "run `make setup`" in err


def _fresh_check(*args: str) -> tuple[int, list[str], set[str]]:
    """``deckpress check ARGS --format json`` in a fresh interpreter: (exit code, finding codes,
    which of the stage modules and trimesh it imported)."""
    import subprocess
    import sys

    from conftest import ROOT

    probe = (
        "import json, sys\n"
        "from pipeline.cli.app import main\n"
        f"sys.argv = ['deckpress', 'check', *{list(args)!r}, '--format', 'json']\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "heavy = {'trimesh', 'pipeline.render.deck_pdf', 'pipeline.dice.output', 'pipeline.archive.site'}\n"
        "print(json.dumps([code, sorted(heavy & set(sys.modules))]), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    code, imported = json.loads(proc.stderr.strip().splitlines()[-1])
    return code, [f["code"] for f in json.loads(proc.stdout)["findings"]], set(imported)


def test_check_of_the_rulebook_alone_draws_nothing_and_keeps_its_findings():
    # --select RB: no dry run can give an RB finding, so none runs and none of its modules loads
    from conftest import SHARED

    rulebook = str(SHARED / "seeds" / "002_b3267fe8c2d61182.txt")
    code, codes, imported = _fresh_check("carddata/enchant", "--rulebook", rulebook, "--select", "RB")
    assert (code, imported) == (0, set()) and sorted(codes) == ["RB004", "RB010", "RB018"]
    # an --ignore naming a stage's code is still known (the stage modules load to say so)
    assert sorted(_fresh_check("carddata/enchant", "--rulebook", rulebook, "--select", "RB", "--ignore", "BR001")[1]) == sorted(codes)


def test_check_with_a_stage_family_selected_still_draws(game_copy):
    # --select PR,RB is not checks alone: the print dry run runs and finds the name too long for 18 pt
    game = game_copy("mini")
    text = (game / "cards.yaml").read_text().replace("name: Ember Ranger", "name: Ember Ranger of the Far Northern Volcanic Wastes")
    (game / "cards.yaml").write_text(text)
    result = runner.invoke(app, ["check", str(game), "--select", "PR,RB"])
    assert result.exit_code == 1 and {line.split()[2] for line in result.output.splitlines() if " error " in line} == {"PR001"}


def test_unknown_ignore_alone_still_knows_the_stages_codes():
    # DQ005 judges a card's ignore: against every code: the Claim card's ignore: [braille-word-split] is a stage's rule
    assert _fresh_check("carddata/claim-reinforcements-magic", "--select", "DQ005")[:2] == (0, [])


@pytest.mark.parametrize("select, alone", [
    (("RB",), True), (("RB017", "keyword-spelling-variant"), True), (("DQ", "CP", "KW", "PW"), True),
    ((), False), (("R",), False), (("BX",), False), (("DA",), False), (("RB", "PR"), False), (("braille-word-split",), False),
])
def test_only_checks_reads_a_selection_of_engine_checks_alone(select, alone):
    # BX has a declared rule (BX001, the boxes) and DA the loader's: not checks alone; "R" could be any family
    import engine.checks  # noqa: F401
    from engine.registry import Selection, only_checks

    assert only_checks(Selection(select)) is alone


def test_check_reads_the_rulebook_game_yaml_names_and_says_when_it_is_missing(game_copy):
    # tidepool (three classes: Coral, Kelp, Shell); its game.yaml gets `rulebook: rules.txt`
    game = game_copy("tidepool")
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "\nrulebook: rules.txt\n")
    result = runner.invoke(app, ["check", str(game), "--select", "RB"])
    assert result.exit_code == 0 and "game.yaml names the rulebook 'rules.txt'" in result.stderr and "does not exist" in result.stderr
    (game / "rules.txt").write_text("RULES\n\nPick one of the two classes: Coral or Kelp.\n")
    result = runner.invoke(app, ["check", str(game), "--select", "RB001"])
    assert [line.split()[2] for line in result.stdout.splitlines() if " warning " in line] == ["RB001"]
    assert "rules.txt:3:1: warning RB001" in result.stdout and "never named: Shell" in result.stdout


def test_stats_with_json_says_it_is_text_only():
    result = runner.invoke(app, ["check", "carddata/apprentice", "--select", "RB", "--format", "json", "--stats"])
    assert result.exit_code == 0 and json.loads(result.stdout)["findings"] == []
    assert "--stats prints its table in the text format only" in result.stderr


@pytest.mark.parametrize("command", [["check", "{game}", "--verbose"], ["build", "{game}", "--out", "{out}", "--only", "checks,braille,emboss"]])
def test_a_reader_that_leaves_early_does_not_change_the_exit_code(command, game_copy, tmp_path):
    # `deckpress ... | head -1`: the pipe's read end is closed before deckpress writes a line, so
    # its first write meets EPIPE for certain. Click made that exit 1 (error findings); the
    # reference is the same command with its output read to the end (a game with a warning: exit 0).
    import subprocess
    import sys
    from pathlib import Path

    game = game_copy("mini")
    args = [str(Path(sys.executable).with_name("deckpress"))] + [a.format(game=game, out=tmp_path / "out") for a in command]
    read = subprocess.run(args, capture_output=True, text=True)
    left = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    left.stdout.close()
    _, errors = left.communicate(timeout=300)
    assert read.stdout and left.returncode == read.returncode == 0
    assert errors == read.stderr  # nothing more on stderr: no "Broken pipe", no traceback


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_standard_output_that_cannot_be_written_is_one_line_and_exit_2(game_copy):
    """`deckpress check > /dev/full` (every write fails with ENOSPC, as on a full disk) said
    "internal error: OSError" (a new user's try). The reference is /dev/full itself."""
    import subprocess
    import sys

    game = game_copy("mini")
    with open("/dev/full", "w") as full:
        run = subprocess.run([str(Path(sys.executable).with_name("deckpress")), "check", str(game)], stdout=full, stderr=subprocess.PIPE, text=True)
    assert run.returncode == 2
    assert run.stderr == "deckpress: cannot write to standard output: No space left on device\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_standard_output_and_error_that_cannot_be_written_still_exit_2(game_copy):
    """`deckpress check > /dev/full 2> /dev/full`: the one line about standard output cannot be
    written either; that failure raised inside the handler and Python exited 1 (which means error
    findings). The exit code is all that is left to tell, and it says "could not run". Reference:
    /dev/full, and a control with a clean game whose own exit code is 0."""
    import subprocess
    import sys

    game = game_copy("mini")
    command = [str(Path(sys.executable).with_name("deckpress")), "check", str(game)]
    assert subprocess.run(command, capture_output=True).returncode == 0  # control: the game itself is clean
    with open("/dev/full", "w") as full:
        run = subprocess.run(command, stdout=full, stderr=full)
    assert run.returncode == 2


def test_flags_show_no_value_type_in_help():
    """typer 0.29 printed `--quiet <bool>` in every command's help, which reads as "give a value":
    `deckpress build --quiet true` then took `true` for the game folder. Flags now show no type;
    options that take a value keep theirs (control: `--out <path>`, `--paper <list[str]>`)."""
    from typer.testing import CliRunner

    from pipeline.cli.app import app

    for command in ("build", "check", "emboss", "export"):
        shown = CliRunner().invoke(app, [command, "--help"], terminal_width=200).output
        assert "<bool>" not in shown, command
    build = CliRunner().invoke(app, ["build", "--help"], terminal_width=200).output
    assert "<path>" in build and "<list[str]>" in build
    assert any(line.split("│")[1].split()[:2] == ["--quiet", "-q"] and "No progress bar." in line for line in build.splitlines() if "--quiet" in line)


def test_check_json_of_a_folder_named_in_latin1_is_utf8_json(tmp_path, mini_dir):
    """``check --format json`` of a game under a Latin-1 folder name printed the raw byte 0xE9, so the
    output was not UTF-8 and no JSON reader took it (a new user's try); the reference is a strict UTF-8
    decode and ``json.loads``. The name shows each such byte as ``\\xNN``, as the build's refusal does."""
    import os
    import shutil
    import subprocess
    import sys

    game = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9")) / "mini"
    shutil.copytree(mini_dir, game)
    code = "import sys; sys.argv = ['deckpress'] + sys.argv[1:]; from pipeline.cli.app import main; main()"
    done = subprocess.run([sys.executable, "-c", code, "check", game, "--format", "json"], capture_output=True,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout.decode("utf-8"))  # strict: a raw 0xE9 raises here
    files = {f["location"]["file"] for f in document["findings"] if f["location"].get("file")}
    assert files and all(f"{tmp_path}/caf\\xe9/mini/" in f for f in files)
