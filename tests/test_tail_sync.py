"""The build's tail flushes the stages' files while it makes the manifest (pipeline.build.outputdir.syncing),
and flushes once more after the manifest, before the staging folder replaces the previous build.
Reference: the calls of os.sync themselves (a recording stand-in), with what was on disk at each."""

from __future__ import annotations

import os
import threading

from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings


def test_the_flush_runs_beside_the_manifest_and_once_more_after_it(game_copy, tmp_path, monkeypatch):
    game, out = game_copy("mini"), tmp_path / "out"
    events: list[tuple[str, str, bool, bool]] = []

    def staged_manifest() -> bool:
        return any((d / "manifest.json").is_file() for d in out.glob(".staging-*")) if out.is_dir() else False

    def recording_sync() -> None:
        who = threading.current_thread().name
        events.append(("start", who, staged_manifest(), (out / "mini" / "manifest.json").is_file()))
        events.append(("end", who, staged_manifest(), (out / "mini" / "manifest.json").is_file()))

    monkeypatch.setattr(os, "sync", recording_sync)
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)))
    assert outcome.status == "built"
    assert [(e, who) for e, who, _, _ in events] == [("start", "deckpress-sync"), ("end", "deckpress-sync"),
                                                      ("start", "MainThread"), ("end", "MainThread")]
    last = events[2]
    assert last[2] and not last[3]  # after the manifest was written into staging, before the swap
    assert (out / "mini" / "manifest.json").is_file()
