"""The build's parent fills the per-process caches and freezes its heap before it forks (pipeline.build.warmup, workers)."""

from pipeline.archive import site
from pipeline.build.settings import BuildSettings
from pipeline.build.warmup import warm_up
from pipeline.render import colour, fonts


def _clear() -> None:
    fonts.face.cache_clear()
    site.environment.cache_clear()
    colour._to_lab.cache_clear()
    colour._to_srgb.cache_clear()


def test_warm_up_fills_fonts_templates_and_transforms(tmp_path):
    _clear()
    warm_up(BuildSettings(out_dir=str(tmp_path)))
    assert fonts.face.cache_info().currsize == len(fonts.FONT_NAMES)
    env = site.environment()
    names = env.list_templates()
    assert "card.html.j2" in names
    # every template compiled into the environment's cache (keys are (loader weakref, name))
    assert sorted(key[1] for key in env.cache.keys()) == sorted(names)
    assert colour._to_lab.cache_info().currsize == 1 and colour._to_srgb.cache_info().currsize == 1


def test_warm_up_skips_templates_when_no_stage_reads_them(tmp_path):
    _clear()
    warm_up(BuildSettings(out_dir=str(tmp_path), only=("print",)))
    assert site.environment.cache_info().currsize == 0
    assert fonts.face.cache_info().currsize == len(fonts.FONT_NAMES)


def test_warm_up_leaves_a_bad_target_to_the_stage(tmp_path):
    _clear()
    warm_up(BuildSettings(out_dir=str(tmp_path), target="no-such-target"))  # does not raise: the print stage reports it
    assert colour._to_lab.cache_info().currsize == 0
    assert fonts.face.cache_info().currsize == len(fonts.FONT_NAMES)  # what comes before the target is still filled


def test_workers_fork_from_a_frozen_heap_and_the_parent_thaws_after():
    import gc

    import pytest

    from pipeline.build.workers import heap_frozen

    assert gc.get_freeze_count() == 0
    with heap_frozen():
        frozen = gc.get_freeze_count()
    assert frozen > 1000 and gc.get_freeze_count() == 0  # every object the test process holds, then back
    with pytest.raises(RuntimeError), heap_frozen():
        raise RuntimeError("a fork that fails")
    assert gc.get_freeze_count() == 0
