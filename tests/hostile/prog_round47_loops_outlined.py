"""Round 47, loops whose body breaks (a ``print``, a data-dependent ``if``), run as
outlined bodies (``dynamo/bytecode/outline.py``) with ``config.outline_min_elements``
0, so small arrays are outlined too, and the outline trial choosing between the ways
(``outline_trial``) over 6-7 calls: inside them aliased writes (a view and its base,
``a[i]`` read back as ``a[i - 1]``, two names of one array, ``out=`` into an input),
Python numbers carried and mutated, dicts made in the trip, an exception in a late
trip caught by the caller.

    >>> def _print_and_view(X):
    ...     for i in range(1, 12):
    ...         w = X[i - 1:i + 1]
    ...         w[1] += w[0]
    ...         print(i, X[i])            # the break: the body is a function
    ...     return X
"""

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round47_loops")


def _x(n=14, k=0.0):
    return np.arange(n, dtype=np.float64) * 0.5 - 2.0 + k


def outlined(fn, *sets, calls=3):
    """``fn`` on each input set ``calls`` times, then the first again, outlined."""
    def scenario(r):
        r.patch(dynamo.config, "outline_min_elements", 0)
        f = r.compile(fn)
        for i in [i for i in range(len(sets)) for _ in range(calls)] + [0]:
            r.call(f, *sets[i]())
    reg._add(fn.__name__.removeprefix("_"), scenario, (fn.__doc__ or "").strip())


def _print_and_view(X):
    for i in range(1, 12):
        w = X[i - 1:i + 1]
        w[1] += w[0]
        print(i, X[i])
    return X


outlined(_print_and_view, lambda: (_x(),), lambda: (_x(12, 1.0),))


def _if_on_data_two_names(X, Y):
    for i in range(1, 12):
        if X[i] > 0.5:
            Y[i] = X[i - 1] * 2.0
        else:
            X[i] = Y[i - 1] - 1.0
    return X, Y


def _one_array_twice():
    x = _x()
    return (x, x)


outlined(_if_on_data_two_names, _one_array_twice, lambda: (_x(), _x(k=1.0)))


def _counter_and_dict(X):
    n = 0
    seen = {}
    for i in range(12):
        d = {"v": X[i], "i": i}
        if d["v"] > 0:
            n += 1
            seen[i] = float(d["v"])
        X[i] = d["v"] * -1.0
    return X, n, seen


outlined(_counter_and_dict, lambda: (_x(),), lambda: (_x(13, -1.0),))


def _out_into_input_print(X, Y):
    for i in range(11):
        np.add(X, Y[i], out=X)
        print(f"{X[0]:.2f}")
    return X


outlined(_out_into_input_print, lambda: (_x(3), _x()), lambda: (_x(4, 1.0), _x(12)))


def _raises_late(X):
    for i in range(12):
        X[i] = X[i] * 2.0
        if X[i] > 4.0:
            raise ValueError(f"trip {i}: {X[i]}")
    return X


def _raises_late_caller(X):
    try:
        return _raises_late_compiled[0](X)
    except ValueError as e:
        return str(e), X


_raises_late_compiled = [_raises_late]


def s_raises_late_caught(r):
    """The exception leaves trip k; trips 0..k-1 wrote already; the caller catches."""
    r.patch(dynamo.config, "outline_min_elements", 0)
    _raises_late_compiled[0] = r.compile(_raises_late)
    try:
        for k in range(7):
            r.call(_raises_late_caller, _x(14, k * 0.5))
    finally:
        _raises_late_compiled[0] = _raises_late


reg._add("raises_late_caught", s_raises_late_caught, s_raises_late_caught.__doc__)


def _previous_read_back(a):
    for i in range(1, 13):
        a[i] = a[i - 1] * 0.5 + a[i]
        if a[i] < 0.0:
            a[i - 1] = -a[i]
        print(i)
    return a


outlined(_previous_read_back, lambda: (_x(),), lambda: (_x(14, 1.0),))
