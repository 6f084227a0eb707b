"""Ctrl-C during a long call: `bataille.Interrupted` (a KeyboardInterrupt), promptly, and
the interpreter goes on."""

from __future__ import annotations

import _thread
import threading
import time

import numpy as np
import pytest

import bataille


def interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_explore_stops_on_ctrl_c() -> None:
    started = time.monotonic()
    interrupt_after(0.5)
    with pytest.raises(bataille.Interrupted, match="nothing was kept"):
        # Minutes of work on two cores: only Ctrl-C ends it this soon.
        bataille.explore(4, 13, random=10**9, threads=1)
    assert time.monotonic() - started < 10
    # The interpreter and the package go on.
    assert bataille.play("5,3/2,4,1").period_tricks == 6


def test_play_many_stops_on_ctrl_c() -> None:
    rng = np.random.default_rng(0)
    deck = np.repeat(np.arange(1, 14), 4)
    deals = np.array([rng.permutation(deck) for _ in range(2000)], dtype=np.uint8)
    deals = np.tile(deals, (500, 1))  # a million 52-card deals
    started = time.monotonic()
    interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt) as caught:
        bataille.play_many(deals, threads=1)
    assert isinstance(caught.value, bataille.Interrupted)
    assert time.monotonic() - started < 10


def test_interrupted_is_a_keyboard_interrupt() -> None:
    assert issubclass(bataille.Interrupted, KeyboardInterrupt)
