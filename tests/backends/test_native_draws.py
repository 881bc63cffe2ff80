"""Random draws in tier 2 (``backends/native/draws.py``): a Generator's draws
(``rng.normal``, ``rng.random``, ``rng.integers``...) and ``np.random``'s global ones run
from the kernel in program order, so every call gives eager's numbers and leaves the
random state (``bit_generator.state``, ``np.random.get_state()``) exactly as eager leaves
it, also when the kernel's call is undone (a NaN or infinity eager warns about, a draw
that raises) and tier 1 draws again.

Each program runs eagerly and compiled, on a Generator seeded the same way for both
(several seeds, so several calls of the same kernel): results (values, dtypes, shapes),
the inputs after the call, warnings, exceptions and the random state after the call must
be eager's. Each program compiles one kernel (1-3 s of CPU under Numba).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.tier import Tiered  # noqa: E402
from test_native import compiled, same  # noqa: E402 (needs numba)


def _state(rng) -> str:
    """The whole state of ``rng`` (a Generator, or None: NumPy's global RandomState)."""
    if rng is None:
        name, key, pos, has_gauss, gauss = np.random.get_state()
        return repr((name, key.tobytes(), pos, has_gauss, gauss))
    return repr(rng.bit_generator.state)


def _call(fn, x, seed, bitgen, global_state):
    """``fn(x.copy(), rng)`` (or ``fn(x.copy())`` on the seeded global state): (result or
    exception type, x afterwards, warnings, the random state afterwards)."""
    x = x.copy()
    if global_state:
        np.random.seed(seed)
        args, rng = (x,), None
    else:
        rng = np.random.Generator(bitgen(seed))
        args = (x, rng)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args)
        except Exception as e:  # noqa: BLE001 (eager's exception is the expected one)
            out = type(e)
    return out, x, [(w.category, str(w.message)) for w in caught], _state(rng)


def check(fn, x, seeds=(1, 2, 3, 4), bitgen=np.random.PCG64, global_state=False,
          inputs=None, **options):
    """``fn`` compiled against eager, one call per seed (the first in tier 1, the rest
    in tier 2 where the graph lowers); returns the Tiered objects made. ``inputs``
    gives another x per seed (the same x otherwise); ``options``: the backend's."""
    c, made = compiled(fn, **options)
    for k, seed in enumerate(seeds):
        xk = x if inputs is None else inputs[k]
        want = _call(fn, xk, seed, bitgen, global_state)
        got = _call(c, xk, seed, bitgen, global_state)
        if isinstance(want[0], type):
            assert got[0] is want[0], (seed, got[0], want[0])
        else:
            same(got[0], want[0])
        same(got[1], want[1])
        assert got[2] == want[2], (seed, got[2], want[2])
        assert got[3] == want[3], f"seed {seed}: the random state differs from eager's"
    return [m for m in made if isinstance(m, Tiered)]


def _noisy(x, rng):
    a = rng.normal(0.0, 0.1, size=x.shape)
    b = rng.random(x.shape)
    k = rng.integers(0, 10, size=x.shape)
    return x * 2.0 + a - b, k, (x + k).sum()


def _dependent(x, rng):
    mu = np.sqrt(np.abs(x)) + x.mean()          # the kernel's values as the parameters
    y = rng.normal(mu, np.abs(x) + 0.5)
    return y + rng.exponential(mu)


def _walk(x, rng):
    pos = x
    for _ in range(6):
        pos = pos + rng.standard_normal(x.shape)
    return pos


def _long_walk(x, rng):
    pos = x
    for _ in range(300):                       # a loop node: a draw on every trip
        pos = pos + rng.standard_normal(x.shape)
    return pos


def _overflow(x, rng):
    return x * 1e300 * rng.random(x.shape)    # overflows for large x: eager warns


def _bad_scale(x, rng):
    y = rng.normal(0.0, x - 1.0)               # a negative scale: NumPy's ValueError
    return y + rng.random(x.shape)


def _float32(x, rng):
    return x + rng.random(x.shape, dtype=np.float32), rng.standard_normal(3, np.float32)


def _legacy(x):
    return x + np.random.normal(0.0, 1.0, size=x.shape) * np.random.rand(*x.shape)


def _legacy_overflow(x):
    return np.random.standard_normal(x.shape) + x * 1e300 * np.random.random_sample(x.shape)


@pytest.mark.parametrize("fn, dtype, by_numba, by_numpy", [
    (_noisy, "float64", True, True), (_dependent, "float64", False, True),
    (_walk, "float64", True, False), (_long_walk, "float64", True, False),
    (_float32, "float32", True, False)])
def test_draws_are_eagers_numbers_and_state(fn, dtype, by_numba, by_numpy):
    """Draws with constant or kernel-computed parameters, several draws in one graph, a
    draw per trip of an unrolled loop and of a loop node, float32 draws: eager's numbers,
    dtypes and final state, answered by tier 2. ``standard_normal`` and ``random`` are
    drawn by Numba itself (nopython_draws.py), the others through NumPy (draws.py);
    ``_noisy`` does both, in program order, from one Generator."""
    x = np.random.default_rng(0).standard_normal((7, 5)).astype(dtype)
    tiers = check(fn, x)
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    assert sum(t.native_calls for t in tiers) >= 3
    assert all(t.kernel.generators for t in tiers)
    assert all(t.kernel.nopython_draws is by_numba for t in tiers)
    assert all(("_np_ops.generator_" in t.kernel.source) is by_numpy for t in tiers)


def test_other_bit_generators():
    """MT19937 and Philox buffer part of a draw (a 32-bit half, a counter block): their
    whole state is put back too."""
    x = np.ones(5)
    for bitgen in (np.random.MT19937, np.random.Philox, np.random.SFC64):
        tiers = check(_noisy, x, bitgen=bitgen, seeds=(5, 6, 7))
        assert sum(t.native_calls for t in tiers) >= 2


def test_numba_draws_on_every_bit_generator():
    """Numba's own draws (nopython_draws.py) advance each bit generator's live state as
    NumPy's would (PCG64, MT19937 and Philox buffer a 32-bit half the float32 draws
    share); the probe that allows them agrees."""
    from dynamo.backends.native.nopython_draws import draws_match
    assert draws_match()
    x = np.random.default_rng(3).standard_normal(9).astype(np.float32)
    for bitgen in (np.random.MT19937, np.random.Philox, np.random.SFC64):
        tiers = check(_float32, x, bitgen=bitgen, seeds=(5, 6, 7))
        assert sum(t.native_calls for t in tiers) >= 2
        assert all(t.kernel.nopython_draws for t in tiers)


def test_numba_draws_fall_back_to_numpy_calls():
    """Where the probe finds Numba's draws unlike NumPy's (or with ``numba_draws=False``,
    the same path), the kernel compiled is the graph's other lowering (every draw a
    NumPy call): still eager's numbers and state."""
    tiers = check(_walk, np.ones((4, 3)), numba_draws=False)
    assert sum(t.native_calls for t in tiers) >= 3
    assert all(not t.kernel.nopython_draws and "_np_ops.generator_standard_normal"
               in t.__dynamo_native_source__ for t in tiers)


def test_numba_draws_hold_the_generator_lock():
    """Calls from several threads on one Generator (tier 2's kernel draws without the
    GIL) and NumPy's own draws between them: each call's draws are whole, so the
    state at the end is the serial one (the stream is consumed in order)."""
    import threading
    c, made = compiled(_long_walk)
    x = np.zeros(2000)                        # (600,000 draws a call: calls overlap)
    rng = np.random.default_rng(9)
    c(x, rng), c(x, rng)                     # tier 1, then tier 2 compiled and used
    calls = 8

    def work():
        for _ in range(calls):
            c(x, rng)
            rng.standard_normal(7)
    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    serial = np.random.default_rng(9)
    for _ in range(2 + 3 * calls):
        _long_walk(x, serial)
    for _ in range(3 * calls):
        serial.standard_normal(7)
    assert repr(rng.bit_generator.state) == repr(serial.bit_generator.state)
    tiers = [m for m in made if isinstance(m, Tiered)]
    assert sum(t.native_calls for t in tiers) >= 3 * calls
    assert all(t.kernel.nopython_draws for t in tiers)


def test_an_undone_call_draws_again_from_the_same_state():
    """A call whose kernel flags (an overflow eager warns about) or whose draw raises (a
    negative scale) is undone: the state goes back to what it was before the kernel's
    draws, and tier 1 draws eager's numbers, warns and raises as eager. Both kernels'
    ``rng.random`` is Numba's (nopython_draws.py); in ``_bad_scale`` it follows the
    NumPy call that raised, and its draws are undone too."""
    big, small = np.full(6, 1e10), np.full(6, 0.5)
    tiers = check(_overflow, small, seeds=(1, 2, 3, 4, 5),
                  inputs=[small, big, small, big, small])
    assert sum(t.native_calls for t in tiers) == 2      # the small inputs after the first
    assert all(t.kernel.nopython_draws for t in tiers)
    ok, bad = np.full(6, 3.0), np.array([3.0, 2.0, 0.5, 4.0, 2.0, 1.5])
    tiers = check(_bad_scale, ok, seeds=(1, 2, 3, 4), inputs=[ok, bad, ok, bad])
    assert sum(t.native_calls for t in tiers) == 1
    assert all(t.kernel.nopython_draws and "_np_ops.generator_normal" in t.kernel.source
               for t in tiers)


def test_global_random_state_draws():
    """``np.random.normal``/``rand``: the global RandomState, saved and put back (the
    legacy tuple, its cached Gaussian included) when a call is undone."""
    x = np.arange(12.0).reshape(3, 4)
    tiers = check(_legacy, x, global_state=True)
    assert sum(t.native_calls for t in tiers) >= 3
    assert all(t.kernel.global_draws for t in tiers)
    # standard_normal draws pairs and caches the second Gaussian: an odd count leaves
    # one cached, which the undone call must put back too
    big, small = np.full(5, 1e10), np.full(5, 0.5)
    tiers = check(_legacy_overflow, small, seeds=(1, 2, 3, 4), global_state=True,
                  inputs=[small, big, small, big])
    assert sum(t.native_calls for t in tiers) == 1


def _legacy_object(x, rs):
    return x + rs.normal(0.0, 1.0, size=x.shape)


def test_randomstate_objects_stay_in_tier_1():
    """Numba cannot pass a RandomState object to a kernel: the graph stays in tier 1
    (and still answers as eager)."""
    c, made = compiled(_legacy_object)
    x = np.ones(4)
    for seed in (1, 2):
        got = c(x, np.random.RandomState(seed))
        same(got, _legacy_object(x, np.random.RandomState(seed)))
    assert made and not any(isinstance(m, Tiered) for m in made)


def _seeded(x, s):
    rng = np.random.default_rng(s)             # made by the kernel, from an int argument
    y = x + rng.random(x.shape)
    for _ in range(40):                        # and drawn from in a loop node
        y = y * 0.5 + rng.standard_normal(x.shape)
    return y, rng.integers(0, 100, size=4)


def _seeded_kept(x, s):
    rng = np.random.default_rng(s)
    return x + rng.random(x.shape), rng       # the program keeps the Generator


def test_a_generator_made_in_the_graph():
    """``default_rng(s)`` in the compiled function: the kernel makes it (eager's
    numbers for each seed); a negative seed raises eager's ValueError (the call is
    flagged, tier 1 raises); a graph that returns its Generator stays in tier 1."""
    c, made = compiled(_seeded)
    x = np.linspace(-1.0, 1.0, 8)
    # (an int argument is specialized: one graph per value, tier 2 from its 2nd call)
    for s in (3, 3, 3, -1, -1):
        try:
            want = _seeded(x, s)
        except ValueError:
            with pytest.raises(ValueError):
                c(x, s)
            continue
        same(c(x, s), want)
    tiers = [m for m in made if isinstance(m, Tiered)]
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    assert sum(t.native_calls for t in tiers) == 2
    assert any("_new_generator(" in t.kernel.source for t in tiers)
    c, made = compiled(_seeded_kept)
    for s in (1, 1):
        got, want = c(x, s), _seeded_kept(x, s)
        same(got[0], want[0])
        assert repr(got[1].bit_generator.state) == repr(want[1].bit_generator.state)
