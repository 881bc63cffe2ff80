"""A graph with no op that raises for its values may still raise when the caller's
ufunc settings say so (``with np.errstate(divide="raise"): f(x)``, ``np.seterr``):
``np.sqrt(x) + 1 / x`` warns at the sqrt, then raises at the divide. The glue then
reruns the frame, which must not report the sqrt's warning again: on such calls the
graph runs under the floating-point guard (``raising.OnRaise.guard_if_raising``), so
it raises at its first warning and the rerun reports each warning once
(tests/hostile/prog_round27_globals.py ``large_errstate_around_call``)."""

import sys
import warnings

import numpy as np
import pytest

import dynamo

X = np.array([-1.0, 0.0, 2.0])


def _chain(x):
    return np.sqrt(x) + 1 / x


def _caught(x):
    try:
        return np.sqrt(x) * 2 + 1 / x
    except FloatingPointError as e:
        return "caught: " + str(e)


def _run(fn, x, **settings):
    """(result or exception, warnings) of ``fn(x)`` under the caller's ``settings``."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with np.errstate(**settings):
            try:
                out = fn(x)
            except FloatingPointError as e:
                out = repr(e)
    return out, [str(w.message) for w in seen]


def _same(want, got):
    (a, wa), (b, wb) = want, got
    assert wa == wb
    if isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [_chain, _caught])
@pytest.mark.parametrize("settings", [{"divide": "raise"}, {"all": "raise"},
                                      {"invalid": "raise"}, {},
                                      {"divide": "raise", "invalid": "ignore"}],
                         ids=["divide", "all", "invalid", "default", "divide-quiet"])
def test_warnings_before_a_raise_are_reported_once(backend, fn, settings):
    g = dynamo.compile(fn, backend=backend)
    for x in (X, np.abs(X) + 1, X):
        _same(_run(fn, x, **settings), _run(g, x, **settings))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_settings_changed_between_calls_by_seterr(backend):
    g = dynamo.compile(_chain, backend=backend)
    old = np.seterr(divide="raise")
    try:
        want = _run(_chain, X)
        got = _run(g, X)
        np.seterr(divide="warn")
        want2, got2 = _run(_chain, X), _run(g, X)
    finally:
        np.seterr(**old)
    _same(want, got)
    _same(want2, got2)
    assert got[1] == ["invalid value encountered in sqrt"]
    assert len(got2[1]) == 2


def _inner_warn(x):
    with np.errstate(all="warn"):
        a = np.sqrt(x)
    return a, 1 / x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("settings", [{"divide": "raise"}, {"invalid": "raise"}, {}],
                         ids=["divide", "invalid", "default"])
def test_an_errstate_block_that_warns_runs_eagerly_when_the_caller_raises(backend, settings):
    """The block's ``warn`` is set over the guard, so the guard cannot stop the sqrt's
    warning: on calls whose settings raise, the frame runs eagerly
    (``OnRaise.eager_if_raising``); on the others the graph warns as eager does."""
    g = dynamo.compile(_inner_warn, backend=backend)
    for x in (X, np.abs(X) + 1, X):
        want, got = _run(_inner_warn, x, **settings), _run(g, x, **settings)
        assert got[1] == want[1]
        if isinstance(want[0], str):
            assert got[0] == want[0]
        else:
            for w, v in zip(want[0], got[0]):
                np.testing.assert_array_equal(v, w)


def _settings_sets(fn, *args) -> tuple[object, list[str]]:
    """(``fn(*args)``, the C functions named ``set`` it called: ``ContextVar.set`` is
    how NumPy 2's ufunc settings change; ``sys.setprofile`` sees every C call)."""
    calls = []

    def profile(frame, event, arg):
        if event == "c_call" and getattr(arg, "__name__", "") == "set":
            calls.append(repr(arg))
    sys.setprofile(profile)
    try:
        out = fn(*args)
    finally:
        sys.setprofile(None)
    return out, calls


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_hit_whose_settings_raise_nothing_sets_no_ufunc_settings(backend):
    """Issue #15: on the usual call (the caller's settings make nothing raise) the
    guard is neither entered nor left; the settings are set (entered, then the
    caller's set back) only where they make some condition raise."""
    g = dynamo.compile(_chain, backend=backend)
    x = np.abs(X) + 1
    for _ in range(3):
        g(x)
    out, calls = _settings_sets(g, x)
    np.testing.assert_array_equal(out, _chain(x))
    assert calls == [], calls
    with np.errstate(divide="raise"):
        before = np.geterr()
        g(x)   # (fills errstate's tables for these settings: set and reset there)
        out, calls = _settings_sets(g, x)
        assert np.geterr() == before
    np.testing.assert_array_equal(out, _chain(x))
    assert len(calls) == 2, calls   # the guard entered, the caller's settings set back
