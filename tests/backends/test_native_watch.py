"""Tier 2 watched after the race (backends/native/watch.py): a running minimum of its
calls' wall times, and a new race of the tiers when a whole window of calls was slower
than the race said (grey-level opening: tier 2 won its race, then ran 7.9 ms a call
against tier 1's 1.6 for the rest of the run). The watch as a pure function of injected
times; a Tiered whose watch is due at once races again, every call equal to eager."""

import math

import numpy as np
import pytest
from dynamo.backends.native.watch import (
    MAX_WINDOW,
    SLOWER,
    WATCH_MIN_S,
    WINDOW,
    Watch,
    watch_after_race,
)

MS = 1e-3


def test_a_window_of_slow_calls_races_again():
    """The opening's numbers: tier 1's best race call 1.58 ms, tier 2's 0.80; then
    every call takes 7.9 ms: the window's last call says race again, once per window."""
    w = watch_after_race(1.58 * MS, 0.80 * MS, previous=None)
    assert w.limit == 1.58 * MS and w.window == WINDOW
    said = [w.record(7.9 * MS) for _ in range(2 * WINDOW)]
    assert said == ([False] * (WINDOW - 1) + [True]) * 2
    assert w.slow_low == 7.9 * MS


def test_one_fast_call_in_a_window_is_not_slow():
    """Slow calls that wait for a core, or a thread-count check on the other count
    (hundreds of ms), do not start a race while one call of the window ran as fast as
    the race said."""
    w = Watch(limit=1.58 * MS, window=4)
    times = [503 * MS, 7.9 * MS, 0.9 * MS, 7.9 * MS] * 3
    assert not any(w.record(t) for t in times)
    assert w.slow_low == math.inf


def test_the_limit_is_tier1s_time_or_a_margin_over_tier2s():
    """Tiers that tied in the race (1.44 ms against 1.58): tier 2 must be ``SLOWER``
    times its own best before a race, so that noise alone starts none; a kernel too fast
    to time cheaply is not watched."""
    w = watch_after_race(1.58 * MS, 1.44 * MS, previous=None)
    assert w.limit == pytest.approx(SLOWER * 1.44 * MS)
    assert not any(w.record(1.60 * MS) for _ in range(WINDOW))
    assert watch_after_race(10 * MS, WATCH_MIN_S / 2, previous=None) is None


def test_a_race_that_keeps_tier2_doubles_the_next_window():
    """Under a load that stays, the races' tier-1 calls cost a share that halves."""
    w = None
    windows = []
    for _ in range(12):
        w = watch_after_race(1.0 * MS, 0.5 * MS, previous=w)
        windows.append(w.window)
    assert windows[:3] == [WINDOW, 2 * WINDOW, 4 * WINDOW]
    assert max(windows) == MAX_WINDOW


def test_a_slow_window_races_the_tiers_again_and_results_stay_eagers():
    """A Tiered in tier 2 whose watch allows no time at all (``limit=0``, an injected
    baseline: every call is slower): the second watched call starts a race, the race's
    calls (tier 2 on all threads, on one thread, tier 1) and the ones after it are
    bit-equal to eager, written inputs included, and the race decides again."""
    pytest.importorskip("numba")
    from test_native_threads import _jacobi_tier, jacobi  # (it needs numba)
    tier, c = _jacobi_tier()
    rng = np.random.default_rng(4)
    assert tier.state == "native" and tier.races == 0
    tier.watch_from_now(Watch(limit=0.0, window=2))
    states, races, windows = [], [], []
    for _ in range(30):
        A = rng.random((200, 200))
        want_args = [A.copy(), A.copy()]
        want = jacobi(*want_args)
        got_args = [A.copy(), A.copy()]
        got = c(*got_args)
        for g, w in zip((*got, *got_args), (*want, *want_args)):
            np.testing.assert_array_equal(g, w, strict=True)
        states.append(tier.state)
        races.append(tier.races)
        windows.append(tier.watch.window if tier.watch is not None else None)
    assert states[:2] == ["native", "trial"]   # the second call ended the slow window
    # The race decided: the first call out of it is tier 2 or tier 1, and its new watch
    # has a doubled window. (Later calls are timed for real: on a loaded machine a whole
    # window of them may be slower and start another race, which is right.)
    decided = next(i for i in range(2, len(states)) if states[i] != "trial")
    assert races[decided] == 1 and states[decided] in ("native", "tier1")
    if states[decided] == "native" and windows[decided] is not None:
        assert windows[decided] == 4   # (doubled from the watch that started it)
