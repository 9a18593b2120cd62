"""The stage chains of one game on worker processes (pipeline.build.workers.ChainPool): the chains
that need nothing of the print stage start while it runs, the rest after it, findings in table
order; a game the print stage stops ends the early chains and leaves nothing behind."""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

import pytest

from engine.findings import Finding, Location, Severity
from pipeline.build import workers
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.build.stages import branches, needs_print, stages_to_run


@dataclasses.dataclass
class _Job:
    """A stand-in for pipeline.build.job.Job: the chains hand it to the stage functions; a worker
    rebuilds it from its forked copy with the print product and findings of the moment its task
    starts (workers._job_now), as for the real one."""

    folder: Path
    note: str
    printed: object = None
    findings: list = dataclasses.field(default_factory=list)
    prepared: dict = dataclasses.field(default_factory=dict)


def _finding(stage: str, job: _Job) -> list[Finding]:
    return [Finding("XX001", "test", Severity.info, f"{stage} saw {job.note} printed {job.printed} in pid {os.getpid()}",
                    location=Location("x"))]


def _mark(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (another process polls for the file)."""
    path.with_suffix(".tmp").write_text(text)
    os.replace(path.with_suffix(".tmp"), path)


def _wait_for(path: Path, seconds: float = 60.0) -> bool:
    """Poll until ``path`` exists (a synchronisation, not a timing: the limit only ends a broken run)."""
    end = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_which_chains_need_the_print_stage():
    chains = branches(stages_to_run(None))
    # The archive's pages need only the braille layout; its faces are rendered from the fronts.
    assert [c for c in chains if not needs_print(c)] == [["dice"], ["emboss"], ["archive"], ["boxes"]]
    assert needs_print(["tactile", "impose"]) and needs_print(["qr"]) and needs_print(["faces"])


def test_early_chains_run_while_this_process_works_and_findings_come_in_table_order(tmp_path, monkeypatch):
    def dice(job):
        _mark(job.folder / "dice-ran", str(os.getpid()))
        return _finding("dice", job)

    def qr(job):
        return _finding("qr", job)

    monkeypatch.setattr(workers, "STAGES", (("dice", dice), ("qr", qr)))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pool = workers.ChainPool([["qr"], ["dice"]])
    job = _Job(tmp_path, "the job")
    pool.start_early(job, [1])
    # The early chain runs before finish() is called: this process waits for its file.
    assert _wait_for(tmp_path / "dice-ran")
    assert int((tmp_path / "dice-ran").read_text()) != os.getpid()
    job.printed, job.note = "the fronts", "a note set after the fork"  # only the print product travels to a worker
    found = pool.finish(job)
    # qr, the one chain left after the print stage, runs in this process (which would only wait), on the job as it is
    assert [f.message for f in found] == [f"qr saw a note set after the fork printed the fronts in pid {os.getpid()}",
                                          f"dice saw the job printed None in pid {(tmp_path / 'dice-ran').read_text()}"]


def test_the_cheapest_chain_left_after_print_runs_here_the_others_on_workers(tmp_path, monkeypatch):
    """Costs from pipeline.build.schedule.STAGE_COST: faces 6.0, archive 2.5, qr 1.7 ms a card."""
    def stage(name):
        def run(job):
            job.prepared[name] = "made"  # as a real stage sets its product on the job it is given
            return _finding(name, job)
        return run

    monkeypatch.setattr(workers, "STAGES", tuple((name, stage(name)) for name in ("qr", "archive", "faces")))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pool = workers.ChainPool([["qr"], ["archive"], ["faces"]])
    job = _Job(tmp_path, "the job", printed="the fronts")
    found = pool.finish(job)
    pids = [int(f.message.rsplit(" ", 1)[1]) for f in found]
    assert [f.message.split(" saw")[0] for f in found] == ["qr", "archive", "faces"]  # table order
    assert pids[0] == os.getpid() and os.getpid() not in pids[1:]
    assert job.findings == [] and job.prepared == {}  # the chain ran on a copy: the game's job is as it was


def test_one_core_runs_every_chain_here_after_print(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "STAGES", (("dice", lambda job: _finding("dice", job)), ("qr", lambda job: _finding("qr", job))))
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    pool = workers.ChainPool([["dice"], ["qr"]])
    pool.start_early(_Job(tmp_path, "before"), [0])
    found = pool.finish(_Job(tmp_path, "after", printed="the fronts"))
    assert [f.message for f in found] == [f"dice saw after printed the fronts in pid {os.getpid()}",
                                          f"qr saw after printed the fronts in pid {os.getpid()}"]


def test_abandon_ends_a_running_early_chain(tmp_path, monkeypatch):
    def endless(job):
        _mark(job.folder / "started", str(os.getpid()))
        while True:
            (job.folder / "still-writing").write_text(str(time.monotonic()))
            time.sleep(0.01)

    monkeypatch.setattr(workers, "STAGES", (("dice", endless),))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pool = workers.ChainPool([["dice"], ["qr"]])
    pool.start_early(_Job(tmp_path, "x"), [0])
    assert _wait_for(tmp_path / "started")
    pid = int((tmp_path / "started").read_text())
    pool.abandon()
    with pytest.raises(ProcessLookupError):  # gone (and reaped) when abandon() returns
        os.kill(pid, 0)
    (tmp_path / "still-writing").unlink()
    time.sleep(0.2)  # nothing writes any more (the file would be back)
    assert not (tmp_path / "still-writing").exists()


def test_a_game_the_print_stage_stops_leaves_no_output_and_no_staging(tmp_path, game_copy, monkeypatch):
    """Only the print stage finds an error (a name too long for its box at 18 pt, PR001): the
    early chains (dice, emboss, the archive's pages, boxes) had started; they are ended, nothing of the game is written."""
    started = []
    original = workers.ChainPool.start_early

    def spy(self, job, early):
        started.extend(self.chains[i][0] for i in early)
        original(self, job, early)

    monkeypatch.setattr(workers.ChainPool, "start_early", spy)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    game = game_copy("mini")
    text = (game / "cards.yaml").read_text().replace("name: Ember Ranger", "name: Ember Ranger of the Far Northern Volcanic Wastes")
    (game / "cards.yaml").write_text(text)
    out = tmp_path / "out"
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out)))
    assert outcome.status == "stopped"
    assert {f.code for f in outcome.findings if f.severity == Severity.error} == {"PR001"}
    assert started == ["dice", "emboss", "archive", "boxes"]
    assert sorted(p.name for p in out.iterdir()) == [".deckpress-files", ".deckpress.lock", "report.json"]


def test_a_prepared_chain_makes_its_part_during_print_then_gets_the_print_product(tmp_path, monkeypatch):
    from pipeline.build import stages

    def prepare(job):
        _mark(job.folder / "prepared", str(os.getpid()))
        return "package made before print"

    def tactile(job):
        return [Finding("XX002", "test", Severity.info, f"{job.prepared['tactile']}; printed {job.printed}", location=Location("x"))]

    monkeypatch.setattr(stages, "PREPARE", {"tactile": prepare})
    monkeypatch.setattr(workers, "STAGES", (("tactile", tactile), ("qr", lambda job: _finding("qr", job))))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pool = workers.ChainPool([["tactile"], ["qr"]])
    job = _Job(tmp_path, "the job")
    pool.start_early(job, [])
    assert _wait_for(tmp_path / "prepared")  # made before finish(): while this process "prints"
    job.printed = "the fronts"
    found = pool.finish(job)
    assert [f.message.split(" in pid")[0] for f in found] == ["package made before print; printed the fronts",
                                                             "qr saw the job printed the fronts"]


def test_the_outputs_are_the_same_bytes_with_one_core_and_with_chains_started_early(tmp_path, mini_dir, monkeypatch):
    """The reference is the one-core build (every stage in one process, one after another, as
    before chains started early): the two-core build, whose UV package is made in a worker while
    the print stage runs and whose dice and emboss run beside it, writes the same files, byte for byte."""
    trees = {}
    for cores in (1, 2):
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        out = tmp_path / f"out-{cores}"
        (outcome,) = run_build([str(mini_dir)], BuildSettings(out_dir=str(out), papers=("letter",)))
        assert outcome.status == "built", outcome.error
        root = out / "mini"
        trees[cores] = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and ".deckpress-stat" not in p.parts}
    assert any(name.startswith("uv/") for name in trees[2]) and any(name.startswith("dice/") for name in trees[2])
    assert trees[1].keys() == trees[2].keys()
    assert [name for name in trees[1] if trees[1][name] != trees[2][name]] == []


def test_games_start_largest_print_run_first(tmp_path):
    """The order games are handed to the workers (longest-processing-time first) weighs what the run
    prints: an expansion's box run is its own folder only (its 22 cards, not its 60-card base's too),
    a combined run counts the base game's files as well. Reference: the shipped games' file sizes,
    read here with os.stat, against the ranking :func:`workers._data_size` gives."""
    root = Path(__file__).resolve().parent.parent / "carddata"
    own = {g: sum(p.stat().st_size for p in (root / g).rglob("*") if p.is_file())
           for g in ("apprentice", "apprentice-power-crystal", "enchant")}
    assert workers._data_size(str(root / "apprentice-power-crystal")) == own["apprentice-power-crystal"]
    assert workers._data_size(str(root / "apprentice-power-crystal"), "combined") == own["apprentice-power-crystal"] + own["apprentice"]
    # the 22-card expansion box now ranks below the 57-card Enchant; combined, above the 60-card base
    assert workers._data_size(str(root / "apprentice-power-crystal")) < workers._data_size(str(root / "enchant"))
    assert workers._data_size(str(root / "apprentice-power-crystal"), "combined") > workers._data_size(str(root / "apprentice"))
    # a base game counts the same in either run
    assert workers._data_size(str(root / "enchant"), "combined") == workers._data_size(str(root / "enchant")) == own["enchant"]


def test_chains_run_in_turn_while_every_core_has_a_game_waiting():
    # two game workers: the first two of four games run their chains in their own process, the last two fork chain workers
    assert [workers.chains_in_turn(waiting, 2) for waiting in (3, 2, 1, 0)] == [True, True, False, False]
    assert workers.chains_in_turn(1, 1) and not workers.chains_in_turn(0, 1)


def test_a_game_taken_while_others_wait_forks_no_chain_workers(monkeypatch):
    import multiprocessing

    seen = []

    def build(game_dir, settings, progress):
        seen.append((game_dir, workers._CHAINS_IN_TURN, workers.ChainPool([["qr"], ["dice"]]).workers))

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(workers, "_WAITING", multiprocessing.get_context("fork").Value("i", 4))
    monkeypatch.setattr(workers, "_GAME_WORKERS", 2)
    for game in "abcd":
        workers._worker_build(build, game, None)
    assert seen == [("a", True, 1), ("b", True, 1), ("c", False, 2), ("d", False, 2)]
    assert workers._CHAINS_IN_TURN is False  # reset after each game


def test_the_outputs_are_the_same_bytes_when_games_run_their_chains_in_turn(tmp_path, monkeypatch):
    """The reference is the one-core build (every game and chain in this process): three games on two cores,
    the first run with its chains in turn in its game worker, the others with chain workers, write the same files."""
    import shutil

    from conftest import GAMES

    games = []
    for name in ("mini-a", "mini-b", "mini-c"):
        shutil.copytree(GAMES / "mini", tmp_path / name)
        meta = tmp_path / name / "game.yaml"
        meta.write_text(meta.read_text().replace("id: mini\n", f"id: {name}\n", 1))
        games.append(str(tmp_path / name))
    trees = {}
    for cores in (1, 2):
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        out = tmp_path / f"out-{cores}"
        outcomes = run_build(games, BuildSettings(out_dir=str(out), papers=("letter",), only=("emboss", "tactile", "dice")))
        assert [o.status for o in outcomes] == ["built"] * 3, [o.error for o in outcomes]
        trees[cores] = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
                        if p.is_file() and ".deckpress-stat" not in p.parts and p.name != "report.json"}
    assert len(trees[1]) > 20 and trees[1].keys() == trees[2].keys()
    assert [name for name in trees[1] if trees[1][name] != trees[2][name]] == []
