"""Round 43, names in a loop node's trip code (``numpy_backend/carried_names.py``: the
trips run as program code, carried values printed under their own names): names
rebound to another type each trip, names that shadow globals and builtins (``sum``,
``len``, ``np``, ``x`` a global too), closures that capture the loop variable (late
binding: every closure sees the last value), a ``nonlocal`` counter stepped in the
body, walrus in the ``if`` conditions, a swap of two carried arrays, a carried name
that is also the written array, names like the generated code's own (``setitem``,
``branch_select``, ``trip``).

    >>> def _shadow_sum(x):
    ...     sum = 0.0
    ...     for i in range(len(x)):
    ...         sum = sum + x[i]
    ...     return sum
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round43_loops")
NAN = float("nan")
x = np.arange(3.0)   # a global named like the programs' parameters
setitem = "global setitem"


def _data(n, seed=8):
    d = np.random.default_rng(seed + n).random(n) * 4 - 2
    if n > 3:
        d[3] = NAN
    return d


def _sized(fn, make=None, sizes=(11, 0, 1, 3, 13), name=None):
    make = make or (lambda n: (_data(n),))
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


def _rebound_types(x):
    v = 0
    kinds = []
    for i in range(len(x)):
        v = x[i] if i % 2 else int(i)
        kinds.append(type(v).__name__)
    return v, kinds


def _shadow_sum(x):
    sum = 0.0   # noqa: A001
    for i in range(len(x)):
        sum = sum + x[i]
    return sum


def _shadow_len(x):
    n = x.shape[0]
    len = 0   # noqa: A001
    for i in range(n):
        len = len + (x[i] > 0)
    return len


def _shadow_np(d):
    s = 0.0
    for i in range(len(d)):
        np_ = d[i] * 2.0
        s = s + np_
    return s + np.float64(0.5)


def _global_named_param(d):
    out = np.zeros_like(d)
    for i in range(len(d)):
        out[i] = d[i] + x[i % 3]
    return out


def _names_like_code(d):
    setitem = 0.0
    branch_select = 0
    trip = 1.0
    for i in range(len(d)):
        if d[i] > 0:
            setitem = setitem + d[i]
            branch_select += 1
        trip = trip * 0.5
    return setitem, branch_select, trip


def _closures_capture_index(d):
    fs = []
    s = 0.0
    for i in range(len(d)):
        s = s + d[i]
        fs.append(lambda: i)   # noqa: B023 (late binding is the point)
    return s, [f() for f in fs]


def _closure_over_acc(d):
    s = 0.0
    for i in range(len(d)):
        s = s + d[i]
    get = lambda: s   # noqa: E731
    return get()


def _nonlocal_counter(d):
    n = 0

    def bump():
        nonlocal n
        n += 1
    s = 0.0
    for i in range(len(d)):
        if d[i] > 0:
            bump()
        s = s + d[i]
    return n, s


def _walrus_cond(d):
    c = 0
    last = None
    for i in range(len(d)):
        if (v := d[i] * 2.0) > 1.0:
            c += 1
            last = v
    return c, last


def _walrus_in_elif(d):
    c = 0
    for i in range(len(d)):
        if (a := d[i]) > 1.0:
            c += 2
        elif (b := a * 3.0) < -1.0:
            c -= b
    return c


def _swap_arrays(d):
    a = d.copy()
    b = np.zeros_like(d)
    for i in range(len(d)):
        b[i] = a[i] * 2.0
        a, b = b, a
    return a, b


def _carried_is_written(d):
    y = d.copy()
    prev = y
    for i in range(len(d)):
        y[i] = y[i] + 1.0
        prev = y
    return prev is y, y


def _builtin_rebound_in_loop(d):
    m = 0.0
    for i in range(len(d)):
        max = d[i]   # noqa: A001
        if max > m:
            m = max
    return m


def _name_int_then_array(d):
    acc = 0
    for i in range(len(d)):
        acc = acc + d[i:i + 2]
    return acc


def _rebinding_param(d):
    for i in range(len(d)):
        d = d * 0.5
    return d


def _loop_var_reused_after(d):
    i = "before"
    s = 0.0
    for i in range(len(d)):
        s = s + d[i]
    return s, i


def _index_name_shadows_global(d):
    global setitem
    s = 0.0
    for setitem_ in range(len(d)):
        s = s + d[setitem_]
    return s, setitem


for fn in (_rebound_types, _shadow_sum, _shadow_len, _shadow_np, _global_named_param,
           _names_like_code, _closures_capture_index, _closure_over_acc, _nonlocal_counter,
           _walrus_cond, _walrus_in_elif, _swap_arrays, _carried_is_written,
           _builtin_rebound_in_loop, _name_int_then_array, _rebinding_param,
           _loop_var_reused_after, _index_name_shadows_global):
    _sized(fn)
_sized(_shadow_sum, make=lambda n: (_data(n).astype(np.float32),), name="shadow_sum_f32")
_sized(_walrus_cond, make=lambda n: (np.arange(n) - 3,), name="walrus_cond_ints")
