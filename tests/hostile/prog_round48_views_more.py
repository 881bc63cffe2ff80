"""Round 48, views (2 of 2): views held by closures, containers and a tuple argument,
flags changed inside the function before a write, and tier 2's new arrays (do they own
their data, as eager's do?). The helpers and the other 41 programs are in
``prog_round48_views.py``.

    >>> def _list_twice(xs):             # [x, x]: one array reached through two items
    ...     xs[0] += 1.0
    ...     return xs[1].sum(), xs[1] is xs[0]
"""

import numpy as np
from hostile_check import Programs
from prog_round48_views import Keep, _kept_pair, _m, _v

reg = Programs("round48_views")
case, scenario = reg.case, reg.scenario


def _make_closure_view(x):
    w = x[1:3]

    def bump(k):
        w[:] += k
        return x.sum()
    return bump


@scenario
def s_closure_holds_view(r):
    """A closure's cell holds a view of the argument; calling it writes the argument."""
    f = r.compile(_make_closure_view)
    x = _v()
    bump = r.call(f, x)
    r.see("x", x)
    r.see("bump", bump(2.0))
    r.see("x", x)
    r.call(f, x)


def _sliding_window_write(x):
    w = np.lib.stride_tricks.sliding_window_view(x, 3)
    s = w.sum(axis=1)
    try:
        w[0, 0] = 1.0
    except ValueError as e:
        return s, str(e)
    return s, "wrote"


case(_sliding_window_write, (_v(),))


def _flat_iter_write(m):
    m.T.flat[:3] = -1.0
    return m.copy(), m.flat[4]


case(_flat_iter_write, lambda: (_m(),), lambda: (_m().T.copy().T,))


def _view_attr_swapped(k, x):
    old = k.v
    k.v = x[:3]
    old += 10.0
    k.v *= 2.0
    return k.x.sum(), x.sum()


case(_view_attr_swapped, _kept_pair, lambda: (Keep(_v()), _v(k=2.0)))


def _freeze_then_write(x, log):
    x.flags.writeable = False
    log.append(x.sum())
    x[0] = 1.0
    return x


case(_freeze_then_write, lambda: (_v(), []))


def _setflags_then_out(x, y):
    y.setflags(write=False)
    try:
        np.add(x, 1.0, out=y)
    except ValueError as e:
        return str(e), y.flags.writeable
    return y


case(_setflags_then_out, lambda: (lambda b: (b[:5], b[5:]))(_v()), lambda: (_v(5), _v(5)))


def _owns_its_data(x):
    y = x * 2.0 + 1.0
    return y.base is None, y.flags.owndata, y


reg.tiers("fresh_result_owns_data", _owns_its_data, lambda: (_v(),), lambda: (_v(12),))


def _fresh_result_resized(x):
    return x * 0.5 - 1.0


def s_fresh_result_resized(r):
    """ndarray.resize of a result: eager's owns its data; the default backend's tier 2
    (forced from the second call) must give one that does too."""
    f = r.compile_on(_fresh_result_resized, "auto", options={"after_calls": 1,
                                                             "background": False,
                                                             "prefer": "native"})
    for _ in range(3):
        y = r.call(f, _v())
        try:
            y.resize(12, refcheck=False)
            r.see("resized", y)
        except ValueError as e:
            r.see("resize raised", str(e))


reg._add("fresh_result_resized_auto", s_fresh_result_resized,
         s_fresh_result_resized.__doc__.strip(), own_backend=True)


def _list_twice(xs):
    xs[0] += 1.0
    return xs[1].sum(), xs[1] is xs[0]


case(_list_twice, lambda: (lambda x: ([x, x],))(_v()), lambda: ([_v(), _v()],),
     lambda: (lambda x: ([x, x[::-1]],))(_v()))


def _dict_of_views(d):
    d["a"][:] = d["b"] * 2.0
    return d["c"].sum()


case(_dict_of_views, lambda: (lambda x: ({"a": x[:4], "b": x[2:6], "c": x},))(_v()),
     lambda: ({"a": _v(4), "b": _v(4, 1.0), "c": _v()},))


def _make_cell_reader(x):
    def read():
        return x.sum()
    return read


def _cell_and_argument(read, y):
    y *= 3.0
    return read()


@scenario
def s_cell_holds_base_of_argument(r):
    """A closure's cell holds ``x``; the argument is a view of it, written first."""
    f = r.compile(_cell_and_argument)
    x = _v()
    read = _make_cell_reader(x)
    r.call(f, read, _v())
    r.call(f, read, x[2:])
    r.call(f, read, x[::-1])
    r.call(f, _make_cell_reader(_v()), _v())
    r.see("x", x)


def _tuple_arg_views(t):
    a, b = t
    a[...] = b[::-1]
    return t[0] is a, a.sum()


case(_tuple_arg_views, lambda: (lambda x: ((x[:5], x[5:]),))(_v()),
     lambda: (lambda x: ((x, x),))(_v()), lambda: ((_v(5), _v(5)),))
