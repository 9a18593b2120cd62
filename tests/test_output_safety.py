"""Never a file deckpress did not write deleted or overwritten (issue 14, data loss).

Each case puts files of a user's own beside or inside the output folder, runs the real
``deckpress`` command line, and checks the exit code, the message, and that every foreign
file is still there byte for byte (the reference is the sha256 of every file taken before).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import GAMES
from pipeline.cli.app import app

runner = CliRunner()
NOTES = b"my own notes \x00\xff, not deckpress's\n"


def _tree(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` by relative path (symlinks as their target text)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _build(game: Path, out: Path, *extra: str):
    return runner.invoke(app, ["build", str(game), "--out", str(out), "--quiet", "--paper", "letter", *extra])


def test_out_that_holds_card_data_is_refused_and_nothing_changes(tmp_path):
    """`deckpress build --out carddata` once deleted every shipped game's YAML."""
    carddata = tmp_path / "carddata"
    shutil.copytree(GAMES / "mini", carddata / "mini")
    before = _tree(carddata)
    result = _build(carddata / "mini", carddata)
    assert result.exit_code == 2
    assert f"refusing to write into {carddata}: {carddata / 'mini' / 'game.yaml'} is card data" in result.output
    assert _tree(carddata) == before
    assert sorted(p.name for p in carddata.iterdir()) == ["mini"]  # not even a lock file


def test_out_inside_a_game_folder_is_refused(tmp_path):
    game = tmp_path / "mini"
    shutil.copytree(GAMES / "mini", game)
    before = _tree(game)
    result = _build(game, game / "out")
    assert result.exit_code == 2 and "is card data" in result.output
    assert _tree(game) == before and not (game / "out").exists()


def test_a_game_folder_holding_foreign_files_is_not_replaced(tmp_path):
    out = tmp_path / "out"
    (out / "mini" / "print").mkdir(parents=True)
    (out / "mini" / "notes.txt").write_bytes(NOTES)
    (out / "mini" / "print" / "other-tool.pdf").write_bytes(b"%PDF-1.4 someone else's\n")
    before = _tree(out / "mini")
    result = _build(GAMES / "mini", out)
    assert result.exit_code == 2
    assert f"refusing to replace {out / 'mini'}: it holds files deckpress did not write (notes.txt, print/other-tool.pdf)" in result.output
    assert _tree(out / "mini") == before
    assert not list(out.glob(".staging-*")) and not list(out.glob(".old-*"))
    # Nothing of deckpress's is left in a folder it never wrote to: no lock file either, whether the
    # typer command or the whole program (its unchanged-build shortcut first) refused it.
    assert sorted(p.name for p in out.iterdir()) == ["mini"]
    import subprocess
    import sys

    main = "import sys\nfrom pipeline.cli.app import main\nsys.argv = ['deckpress', *sys.argv[1:]]\nmain()"
    proc = subprocess.run([sys.executable, "-c", main, "build", str(GAMES / "mini"), "--out", str(out), "--quiet"], capture_output=True, text=True)
    assert proc.returncode == 2 and "refusing to replace" in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["mini"] and _tree(out / "mini") == before


def test_a_file_dropped_into_a_build_stops_the_next_build_and_survives(tmp_path):
    out = tmp_path / "out"
    assert _build(GAMES / "mini", out).exit_code == 0
    (out / "mini" / "print" / "proof-notes.txt").write_bytes(NOTES)
    for extra in (("--only", "emboss"), ("--spot", "Other")):  # a partial and a changed build (unchanged: reused, below)
        result = _build(GAMES / "mini", out, *extra)
        assert result.exit_code == 2, extra
        assert "print/proof-notes.txt" in result.output
        assert (out / "mini" / "print" / "proof-notes.txt").read_bytes() == NOTES
    # Moved away, the build goes ahead and replaces its own output.
    (out / "mini" / "print" / "proof-notes.txt").unlink()
    assert _build(GAMES / "mini", out, "--spot", "Other").exit_code == 0


def test_an_unchanged_rebuild_with_a_foreign_file_reuses_and_touches_nothing(tmp_path):
    out = tmp_path / "out"
    assert _build(GAMES / "mini", out).exit_code == 0
    (out / "mini" / "notes.txt").write_bytes(NOTES)
    before = _tree(out / "mini")
    result = _build(GAMES / "mini", out)
    assert result.exit_code == 0 and "unchanged, reused" in result.output
    assert _tree(out / "mini") == before


def test_a_foreign_report_json_is_not_overwritten(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text('{"my": "report"}\n')
    result = _build(GAMES / "mini", out)
    assert result.exit_code == 2
    assert f"refusing to overwrite {out / 'report.json'}: deckpress did not write it" in result.output
    assert (out / "report.json").read_text() == '{"my": "report"}\n'
    assert not (out / "mini").exists()  # refused before any game was built


@pytest.mark.parametrize("only", [("--only", "emboss"), ()])
def test_a_report_json_replaced_after_a_build_is_not_overwritten(tmp_path, only):
    """Once deckpress had written report.json in a folder, any file there of that name was replaced
    without a word (its ledger entry was trusted by name). Now it is overwritten only while it holds
    the bytes the build recorded (the ledger's sha256), like every ledger file. Both the unchanged
    fast path (``--only emboss`` twice) and a build that renders are checked."""
    out = tmp_path / "out"
    assert _build(GAMES / "mini", out, *only).exit_code == 0
    (out / "report.json").write_bytes(NOTES)
    game_before = _tree(out / "mini")
    for _ in range(2):  # a second run finds it just as refused
        result = _build(GAMES / "mini", out, *only)
        assert result.exit_code == 2
        assert (f"refusing to overwrite {out / 'report.json'}: it was changed after deckpress wrote it" in result.output
                and "move it away to keep the edit, or delete it" in result.output)
        assert (out / "report.json").read_bytes() == NOTES
        assert _tree(out / "mini") == game_before


@pytest.mark.parametrize("edit", ["count", "note", "entry"])
def test_a_report_json_edited_is_the_users_and_nothing_is_built(tmp_path, edit):
    """An edited report, even one still shaped as a report, holds the user's words: a note added at the
    top was lost, and a game entry without its counts crashed the build after the game was rebuilt
    (KeyError in the merge, report.json left stale; a new user's try). Now refused before any game
    is built. The control: the report as written is rewritten (the second build)."""
    import json

    out = tmp_path / "out"
    assert _build(GAMES / "mini", out).exit_code == 0
    assert _build(GAMES / "mini", out, "--only", "checks").exit_code == 0  # the control: deckpress's own bytes
    report = json.loads((out / "report.json").read_text())
    if edit == "count":
        report["counts"]["error"] = 99
    elif edit == "note":
        report["note"] = "keep me"
    else:
        del report["games"]["mini"]["counts"]
    (out / "report.json").write_text(json.dumps(report))
    before, game_before = (out / "report.json").read_bytes(), _tree(out / "mini")
    result = _build(GAMES / "mini", out, "--only", "checks,braille,print")
    assert result.exit_code == 2 and "it was changed after deckpress wrote it" in result.output
    assert (out / "report.json").read_bytes() == before and _tree(out / "mini") == game_before


def test_a_report_json_symlink_is_not_replaced(tmp_path):
    """A symbolic link named report.json was replaced by a regular file (its target left alone),
    though a link counts as foreign everywhere else (foreign_files): now refused, the link kept."""
    out, mine = tmp_path / "out", tmp_path / "mine.json"
    assert _build(GAMES / "mini", out).exit_code == 0
    mine.write_bytes((out / "report.json").read_bytes())  # even a byte-identical copy of the report
    (out / "report.json").unlink()
    (out / "report.json").symlink_to(mine)
    result = _build(GAMES / "mini", out, "--only", "checks,braille,print")
    assert result.exit_code == 2 and "it is a symbolic link" in result.output
    assert (out / "report.json").is_symlink() and os.readlink(out / "report.json") == str(mine)


def test_a_report_shaped_file_with_more_keys_in_a_fresh_folder_is_not_deckpress_s(tmp_path):
    """A fresh folder's report.json is taken as an old build's only with exactly its two keys: one
    with a key of the user's was overwritten and the key lost. The control: exactly the two keys."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text('{"games": {}, "counts": {}, "my": "keep me"}')
    result = _build(GAMES / "mini", out)
    assert result.exit_code == 2 and "deckpress did not write it" in result.output
    assert "keep me" in (out / "report.json").read_text() and not (out / "mini").exists()
    (out / "report.json").write_text('{"games": {}, "counts": {}}')
    assert _build(GAMES / "mini", out).exit_code == 0


def test_stand_alone_commands_write_beside_foreign_files_but_never_over_them(tmp_path):
    out = tmp_path / "print"
    out.mkdir()
    (out / "mini-fronts.pdf").write_bytes(NOTES)  # a user's file under deckpress's name
    (out / "readme.txt").write_bytes(NOTES)
    result = runner.invoke(app, ["render", str(GAMES / "mini"), "--out", str(out)])
    assert result.exit_code == 2
    assert f"refusing to overwrite {out / 'mini-fronts.pdf'}: deckpress did not write it" in result.output
    assert (out / "mini-fronts.pdf").read_bytes() == NOTES
    # Into a folder of its own the command writes; run again, it replaces its own files.
    own = tmp_path / "own"
    for _ in range(2):
        result = runner.invoke(app, ["render", str(GAMES / "mini"), "--out", str(own)])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in own.iterdir()) == [".deckpress-files", "mini-backs.pdf", "mini-fronts.pdf"]
    # A stand-alone file added to a build's folder does not make the next build refuse.
    build_out = tmp_path / "out"
    assert _build(GAMES / "mini", build_out).exit_code == 0
    args = ["emboss", str(GAMES / "mini"), "--profile", "index-everest-d", "--layout", "sheet", "--out", str(build_out / "mini" / "emboss")]
    assert runner.invoke(app, args).exit_code == 0
    assert _build(GAMES / "mini", build_out, "--spot", "Other").exit_code == 0


def test_stand_alone_out_holding_card_data_is_refused(tmp_path):
    game = tmp_path / "mini"
    shutil.copytree(GAMES / "mini", game)
    before = _tree(game)
    for command in (["render"], ["dice"], ["emboss", "--profile", "card-3x5"], ["uv"]):
        result = runner.invoke(app, [command[0], str(game), *command[1:], "--out", str(game)])
        assert result.exit_code == 2, (command, result.output)
        assert "is card data" in result.output
    assert _tree(game) == before


def test_a_symlink_in_a_game_output_counts_as_foreign(tmp_path):
    out = tmp_path / "out"
    assert _build(GAMES / "mini", out).exit_code == 0
    precious = tmp_path / "precious.txt"
    precious.write_bytes(NOTES)
    (out / "mini" / "link.txt").symlink_to(precious)
    result = _build(GAMES / "mini", out, "--spot", "Other")
    assert result.exit_code == 2 and "link.txt" in result.output
    assert precious.read_bytes() == NOTES and (out / "mini" / "link.txt").is_symlink()


@pytest.mark.parametrize("option, message", [
    (["--spot", "a/b"], "deckpress: spot colour name 'a/b' is not usable: it contains '/'"),
    (["--profile", "x"], "deckpress: unknown embosser profile 'x'; known: card-3x5,"),
    (["--geometry", "nope"], "deckpress: unknown braille geometry profile 'nope'; known: spec800, ada-signage"),
])
def test_a_bad_spot_profile_or_geometry_is_refused_before_any_game_is_built(tmp_path, option, message):
    # These failed inside every game's build ("FAILED, nothing written; run box: 0 unique cards"
    # and a Python class name, once per game); now one line and exit 2 like --paper or --target.
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(GAMES / "mini"), str(GAMES / "mini-plus"), "--out", str(out), "-q", *option])
    assert result.exit_code == 2 and result.output.startswith(message) and len(result.output.splitlines()) == 1
    assert not out.exists()


def test_an_edited_export_is_never_overwritten_nor_removed_by_a_build(tmp_path):
    """The README's export -> edit -> import loop: `deckpress export` writes the card table into the
    game's output folder; once the designer has edited it, it is theirs. A later build refused to
    replace nothing and deleted it, a second export wrote over it (a new user's try, round 10).
    The reference: the edited file's sha256 before and after each command. Control: an unedited
    table is deckpress's own and is written over, and an old ledger (a JSON list) still reads."""
    out = tmp_path / "out"
    table = out / "mini" / "mini-cards.csv"
    assert _build(GAMES / "mini", out).exit_code == 0
    export = ["export", str(GAMES / "mini"), "--out", str(table)]
    assert runner.invoke(app, export).exit_code == 0
    first = table.read_bytes()
    assert runner.invoke(app, export).exit_code == 0 and table.read_bytes() == first  # its own: written over
    edited = first.replace(b"Fireball", b"Firestorm", 1)
    assert edited != first
    table.write_bytes(edited)
    result = runner.invoke(app, export)
    assert result.exit_code == 2
    assert f"refusing to overwrite {table}: it was changed after deckpress wrote it" in result.output
    result = _build(GAMES / "mini", out, "--spot", "Other")  # a changed setting: the folder would be replaced
    assert result.exit_code == 2
    assert "files deckpress wrote that were changed since (mini-cards.csv)" in result.output
    assert "move them away to keep them" in result.output
    assert table.read_bytes() == edited
    # An older ledger names the files without their bytes: trusted by name, as before.
    (table.parent / ".deckpress-files").write_text('["mini-cards.csv"]\n', encoding="utf-8")
    assert runner.invoke(app, export).exit_code == 0 and table.read_bytes() == first


def test_a_build_says_which_stand_alone_files_its_new_folder_does_not_keep(tmp_path):
    """A stand-alone command's files in a game's output folder (an export, an embosser file of
    another profile) go with the folder a build replaces: they may be stale with the new data.
    They vanished without a word (a new user's try); the line and report.json now name them."""
    import json

    out = tmp_path / "out"
    assert _build(GAMES / "mini", out).exit_code == 0
    assert runner.invoke(app, ["export", str(GAMES / "mini"), "--out", str(out / "mini" / "mini-cards.csv")]).exit_code == 0
    args = ["emboss", str(GAMES / "mini"), "--profile", "index-everest-d", "--layout", "sheet", "--out", str(out / "mini" / "extra")]
    assert runner.invoke(app, args).exit_code == 0
    extra = sorted(p.name for p in (out / "mini" / "extra").iterdir() if p.name != ".deckpress-files")
    result = _build(GAMES / "mini", out, "--spot", "Other")
    assert result.exit_code == 0, result.output
    dropped = ["extra/" + n for n in extra] + ["mini-cards.csv"]
    shown = ", ".join(dropped[:3]) + (f" and {len(dropped) - 3} more" if len(dropped) > 3 else "")
    assert f"; removed {len(dropped)} file(s) stand-alone commands had written there ({shown}): run them again" in result.output
    assert json.loads((out / "report.json").read_text())["games"]["mini"]["removed_stand_alone_files"] == dropped
    assert not (out / "mini" / "mini-cards.csv").exists()
    again = _build(GAMES / "mini", out, "--spot", "Third")  # control: nothing of theirs left to remove
    assert again.exit_code == 0 and "stand-alone" not in again.output


def test_the_ledger_grows_by_one_line_a_file_and_reads_back_whole(tmp_path):
    """A stand-alone command's ledger was rewritten whole for every file it wrote: O(n²) bytes, 6 of
    the 24 s of `deckpress proof` for 2,000 cards. The first record of a process rewrites it (merged),
    each later one appends a line. Reference: sha256 of each file's bytes by hashlib here; controls:
    a line cut short by a crash is skipped, a line appended by another process (or the ledger
    removed) since this process wrote it is seen, and an older list-of-names ledger is still read."""
    import hashlib
    import json

    from pipeline.common.ownership import LEDGER, ledger, record_written

    def write(name: str, data: bytes) -> str:
        (tmp_path / name).write_bytes(data)
        record_written(tmp_path / name)
        return hashlib.sha256(data).hexdigest()

    digests = {f"f{i:03}.png": write(f"f{i:03}.png", i.to_bytes(2, "big") * 5) for i in range(300)}
    text = (tmp_path / LEDGER).read_text(encoding="utf-8")
    assert text.count("\n") == 3 + 299  # the first record's object ({, one entry, }), then a line a file
    assert json.loads(text.splitlines()[-1]) == ["f299.png", digests["f299.png"]]
    assert ledger(tmp_path) == digests
    digests["f000.png"] = write("f000.png", b"new bytes")  # a later line wins
    assert ledger(tmp_path) == digests
    with open(tmp_path / LEDGER, "a", encoding="utf-8") as fh:  # another process's line, then a crash's half line
        fh.write(json.dumps(["other.pdf", "ab" * 32]) + '\n["cut.pdf", "12')
    assert ledger(tmp_path) == {**digests, "other.pdf": "ab" * 32}
    digests["g.png"] = write("g.png", b"g")  # the ledger changed under this process: read again and merged
    assert ledger(tmp_path) == {**digests, "other.pdf": "ab" * 32}
    assert json.loads((tmp_path / LEDGER).read_text(encoding="utf-8"))["other.pdf"] == "ab" * 32  # rewritten whole, valid JSON
    (tmp_path / LEDGER).unlink()
    digests = {"h.png": write("h.png", b"h")}
    assert ledger(tmp_path) == digests
    (tmp_path / LEDGER).write_text('["old.csv"]\n', encoding="utf-8")
    assert ledger(tmp_path) == {"old.csv": None}


@pytest.mark.parametrize("where", ["game", "out"])
def test_a_path_not_in_utf8_is_refused_by_name_before_anything_is_written(tmp_path, where):
    """A game or output folder named in Latin-1 (``caf\\xe9``) gave exit 2 with a bare codec message
    (``'utf-8' codec can't encode character '\\udce9'``) naming no file, after the game was built
    (report.json could not be written). Now refused first, by name; the control, the same name in
    UTF-8, builds."""
    latin1, utf8 = os.fsdecode(b"caf\xe9"), "caf\u00e9"
    for name, refused in ((latin1, True), (utf8, False)):
        game = tmp_path / name / "mini" if where == "game" else GAMES / "mini"
        if where == "game":
            shutil.copytree(GAMES / "mini", game)
            link = tmp_path / f"link-{name.encode('utf-8', 'surrogateescape').hex()}"
            link.symlink_to(tmp_path / name)  # a UTF-8 name leading to the folder: its real path is what report.json names
            game = link / "mini"
        out = tmp_path / (f"out-{name}" if where == "out" else f"out-{name.encode('utf-8', 'surrogateescape').hex()}")
        result = _build(game, out, "--only", "checks")
        if refused:
            assert result.exit_code == 2
            assert "caf\\xe9" in result.output and "is not valid UTF-8" in result.output and "rename the folder" in result.output
            assert not out.exists()
        else:
            assert result.exit_code == 0, result.output
            assert (out / "mini" / "manifest.json").is_file()
