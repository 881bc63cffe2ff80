"""The native tier's ``Tiered`` in dynamo's disk cache (backends/native/stored_tier.py):
stored as data (its tier 1, its kernel, its settings), loaded as a new ``Tiered`` with
an equal kernel, which finds its machine code in the native tier's own kernel cache and
reaches tier 2 without tracing. Before, ``encode`` raised NotStorable for it, and with
``backend="auto"`` (the default where Numba is installed) nothing was stored.

One Numba compile in all (``test_a_loaded_entry_reaches_tier_2``, a one-line kernel).
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.emitter import Buffer  # noqa: E402
from dynamo.backends.native.kernel_files import module_source  # noqa: E402
from dynamo.backends.native.lower import Kernel  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402

import dynamo  # noqa: E402
from dynamo import listeners  # noqa: E402
from dynamo.config import config  # noqa: E402
from dynamo.disk_cache.values import Context, Rebuild, decode, encode  # noqa: E402

N = 1 << 17   # float64: 1 MiB, so the kernel takes its new array as a Buffer


def step(A, B):
    """A written input (B), constants, a new array output large enough to be lifted."""
    B[1:-1] = 0.25 * (A[:-2] + A[2:]) + 0.5 * A[1:-1]
    return np.exp(A) * 0.7978845608, B


def noisy(x, rng):
    """Draws by Numba's Generator methods: a kernel with a fallback kernel inside."""
    return x * 2.0 + rng.standard_normal(x.shape)


def double(x):
    return x * 2.0 + 1.0


def stored(fn, args, **options):
    """(the Tiered the native backend made for ``fn``'s graph, it as JSON text's data)."""
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs,
                                   options={"cache": False, "after_calls": 1000, **options}))
        return made[-1]
    dynamo.compile(fn, backend=backend)(*args)
    tiered, = made
    assert isinstance(tiered, Tiered)
    return tiered, json.loads(json.dumps(encode(tiered, Context(fn))))


def loaded(fn, data):
    return decode(data, Rebuild(fn.__globals__, fn.__code__.co_consts))


def step_args():
    return np.linspace(-1.0, 1.0, N), np.zeros(N)


def noisy_args():
    return np.arange(6.0), np.random.default_rng(1)


@pytest.mark.parametrize("fn, make_args", [(step, step_args), (noisy, noisy_args)])
def test_a_tiered_is_stored_as_data_and_loaded_with_an_equal_kernel(fn, make_args):
    tiered, data = stored(fn, make_args())
    back = loaded(fn, data)
    assert type(back) is Tiered and back is not tiered and back.name != tiered.name
    assert back.state == "counting" and back.settings == tiered.settings
    assert back.kernel == tiered.kernel
    assert module_source(back.kernel) == module_source(tiered.kernel)   # the kernel file
    assert [type(v) for v in back.kernel.consts.values()] == \
        [type(v) for v in tiered.kernel.consts.values()]
    assert type(back.kernel.writes) is list and type(back.kernel.buffers) is tuple
    if fn is step:
        assert back.kernel.writes == [1] and back.kernel.consts
        buffer, = back.kernel.buffers
        assert type(buffer) is Buffer and buffer.shape == (N,) and buffer.result
    else:
        assert back.kernel.nopython_draws and type(back.kernel.fallback) is Kernel
    # the graph's outputs and written inputs, as the Tiered made here gives them (both
    # in tier 1: not hot yet; the frame's results are the glue's)
    ours, theirs = make_args(), make_args()
    for g, w in zip(back(*ours), tiered(*theirs), strict=True):
        np.testing.assert_array_equal(g, w, strict=True)
    for g, w in zip(ours, theirs, strict=True):
        if isinstance(g, np.ndarray):
            np.testing.assert_array_equal(g, w, strict=True)


def test_a_stored_kernel_with_other_fields_is_not_loaded():
    """A Kernel of another version of the lowering (a field more) raises: the disk cache
    then ignores the entry and traces."""
    _, data = stored(double, (np.arange(4.0),))
    data["backend_value"][1]["kernel"]["Kernel"]["new_field"] = {"value": 1}
    with pytest.raises(ValueError, match="new_field"):
        loaded(double, data)


def test_the_default_kernel_directory_is_the_loading_processs(tmp_path, monkeypatch):
    """A ``cache_dir`` that was the default is the loading process's default (its own
    ``$XDG_CACHE_HOME``); one given as an option stays."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "storing"))
    tiered, data = stored(double, (np.arange(4.0),), cache=True)
    assert tiered.settings.cache_dir == str(tmp_path / "storing" / "dynamo" / "native")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "loading"))
    assert loaded(double, data).settings.cache_dir == \
        str(tmp_path / "loading" / "dynamo" / "native")
    _, data = stored(double, (np.arange(4.0),), cache=True, cache_dir=str(tmp_path / "given"))
    assert loaded(double, data).settings.cache_dir == str(tmp_path / "given")


def test_without_numba_the_loaded_entry_is_tier_1(monkeypatch):
    tiered, data = stored(double, (np.arange(4.0),))
    monkeypatch.setitem(sys.modules, "numba", None)   # (not importable: blocked)
    back = loaded(double, data)
    assert not isinstance(back, Tiered)
    assert back.__dynamo_source__ == tiered.tier1.__dynamo_source__
    x = np.arange(4.0)
    got, = back(x)
    np.testing.assert_array_equal(got, double(x), strict=True)


def frames_traced(fn, *args):
    frames = []
    starts = type("Starts", (), {"on_frame_start": lambda self, f, ctx: frames.append(f)})
    with listeners.listening(starts()):
        result = fn(*args)
    return result, len(frames)


def the_tiered(compiled) -> Tiered:
    """The Tiered the one entry of ``compiled`` runs (a global of its glue)."""
    entry, = [e for c in compiled._ctx.caches.values() for e in c.entries]
    tiers = [v for v in entry.run.__globals__.values() if isinstance(v, Tiered)]
    assert len(tiers) == 1, entry.run.__dynamo_source__
    return tiers[0]


def test_a_loaded_entry_reaches_tier_2(tmp_path):
    """Traced, stored, tier 2 compiled (its machine code in the kernel cache); after
    ``dynamo.reset()`` the entry loads without tracing, its Tiered finds the kernel in
    the cache (a Numba cache hit, no compile) and tier 2 answers."""
    before = config.disk_cache_dir
    config.disk_cache_dir = str(tmp_path / "entries")
    try:
        compiled = dynamo.compile(double, backend="native", options={
            "after_calls": 1, "background": False, "prefer": "native",
            "cache_dir": str(tmp_path / "kernels")})
        x = np.linspace(-1.0, 1.0, 5)
        first, traced = frames_traced(compiled, x)
        assert traced == 1
        made = the_tiered(compiled)
        assert made.state == "native" and made.error is None
        dynamo.reset()
        again, traced = frames_traced(compiled, x)   # loaded; the kernel loads too
        assert traced == 0
        back = the_tiered(compiled)
        assert back is not made and back.kernel == made.kernel
        assert back._cached and back.state == "native" and back.error is None
        stats = back._dispatcher.stats
        assert sum(stats.cache_hits.values()) == 1 and not sum(stats.cache_misses.values())
        third, traced = frames_traced(compiled, x)
        assert traced == 0 and back.native_calls == 1
    finally:
        config.disk_cache_dir = before
    for got in (first, again, third):
        np.testing.assert_array_equal(got, double(x), strict=True)
