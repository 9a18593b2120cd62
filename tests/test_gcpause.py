"""engine/gcpause.py: the cyclic collector is on again after a pause, also after an error, and a
nested pause keeps it off until the outermost ends. Reference: gc.isenabled()."""

from __future__ import annotations

import gc

import pytest

from engine.gcpause import collector_paused


def test_the_collector_comes_back_after_an_error_and_nested_pauses_hold_it_off():
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with collector_paused():
            assert not gc.isenabled()
            raise ValueError("a stage failed")
    assert gc.isenabled()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()


def test_a_collector_off_before_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass  # an empty block on purpose: what is checked is the collector's state after it
        assert not gc.isenabled()
    finally:
        gc.enable()
