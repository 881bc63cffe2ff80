"""Round 40's way of running a program in tier 2 (the default backend "auto" reaches it):
``twice(reg, name, fn, make, *hostile)`` registers two programs, ``fn`` on backend
"native" and on "auto" with tier 2 forced (``hostile_check.TIER2``), each calling ``fn``
**twice** on every input set: a hostile input of a new dtype, layout or rank makes a new
graph (the guards), whose first call is tier 1's and whose second is tier 2's, so each
hostile input reaches tier 2 too (``Programs.tiers`` calls a hostile input once: a new
graph's tier 1 only). Then ``make()`` once more.

    >>> twice(reg, "i8_wrap", _i8_wrap, lambda: (X8.copy(),), lambda: (X8[::-1],))
    # round40_native_*/i8_wrap_native and .../i8_wrap_auto

``options`` adds to ``TIER2`` (``prefer="measure"``: the race of the tiers). The kernels
are Numba's disk cache's (``cache`` on, the default): the programs of one body share
one kernel per input signature, and a second run loads it.
"""

from __future__ import annotations

from hostile_check import TIER2


def twice(reg, name, fn, make, *hostile, options=None, calls=2):
    for backend in ("native", "auto"):
        def scenario(r, backend=backend):
            f = r.compile_on(fn, backend, options={**TIER2, **(options or {})})
            for maker in (make, *hostile):
                for _ in range(calls):
                    r.call(f, *maker())
            r.call(f, *make())
        reg._add(f"{name}_{backend}", scenario, (fn.__doc__ or "").strip(),
                 own_backend=True)


def scenario_twice(reg, name, body):
    """``body(r, backend)`` as two programs, on "native" and "auto"; it compiles with
    ``r.compile_on(fn, backend, options=...)`` itself."""
    for backend in ("native", "auto"):
        def scenario(r, backend=backend):
            body(r, backend)
        reg._add(f"{name}_{backend}", scenario, (body.__doc__ or "").strip(),
                 own_backend=True)


def within_ulps(got, want, ulps: int = 4) -> bool:
    """``got`` is ``want`` as the native tier's stated tolerance for ``exp``/``log``/
    ``sin``/``cos``/``power`` allows (docs/native.md, "Tolerances"): the same type, dtype
    and shape, NaN and infinities (with their signs) at the same places, every other
    element at most ``ulps`` units in the last place apart."""
    import numpy as np
    if type(got) is not type(want):
        return False
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if not (np.array_equal(np.isnan(got), np.isnan(want))
            and np.array_equal(got[np.isinf(got)], want[np.isinf(got)])
            and np.array_equal(np.isinf(got), np.isinf(want))):
        return False
    fin = np.isfinite(want)
    try:
        np.testing.assert_array_max_ulp(got[fin], want[fin], maxulp=ulps)
    except AssertionError:
        return False
    return True


def ulps_twice(reg, name, fn, make, *hostile, ulps: int = 4):
    """Two programs (``twice``'s inputs, each input set called twice) that record, for
    each call, whether each result is within ``ulps`` of ``fn``'s plain result
    (``within_ulps``) rather than the results themselves, plus everything else a call
    shows (warnings, the inputs afterwards); the plain run compares ``fn`` with itself."""
    def body(r, backend):
        f = r.compile_on(fn, backend, options={**TIER2})

        def call(*args):
            want = fn(*[a.copy() for a in args])
            got = f(*args)
            pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
            return [within_ulps(g, w, ulps) for g, w in pairs]
        for maker in (make, *hostile):
            for _ in range(2):
                r.call(call, *maker())
    scenario_twice(reg, name, body)
