"""Round 37, loop bodies against the three newer loop-node rules (docs/loops.md): a
change to a list, dict or object the body made itself does not stop a node
(``BodyState._made_in_body``); arrays held inside lists, tuples, dicts and objects and
written in place by the body are carried (``reached_carries.py``); ``obj.t += 1`` is a
counter (``attr_counters.py``). Lists from before the loop changed in the body (append,
extend, setitem, pop; through an alias, a callee, a list of lists), lists made in the
body kept past the trip (an outer list, an attribute, a dict, a closure, returned,
yielded), ``break``/``return``/``raise`` mid-body, one array twice in a list, an array
in a list that is also a local, views of held arrays, held arrays replaced, dtype
changes, counters that step by no constant, that are floats, bools or ``np.int64``,
properties, ``__slots__``, ``__setattr__``, zero-trip loops, exceptions after some trips.

    >>> def _append_outer(x, n):
    ...     log = []
    ...     for _ in range(n):
    ...         x = x * 0.5
    ...         log.append(1)            # a list from before the loop: no node
    ...     return x, log
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round37_bodies")
N = 12          # trips: past the unroll limit, so each loop is tried as a node


def _x(k=3, s=1.0):
    return np.arange(float(k)) * s - 0.5


def _inputs(fn_args, rich=False):
    """12 trips, then 0 trips, then 12 again (``rich``: also another size with 1 trip
    and 15 trips)."""
    more = [fn_args(_x(4, 2.0), 1), fn_args(_x(3, 0.5), N + 3)] if rich else []
    return [fn_args(_x(3), N), fn_args(_x(3, -0.25), 0), *more]


def _plain(x, n):
    return (x, n)


class Box:
    def __init__(self, w=None, t=0):
        self.w, self.t, self.items = w, t, []


class Slotted:
    __slots__ = ("w", "t")

    def __init__(self, w, t=0):
        self.w, self.t = w, t


class Prop:
    def __init__(self, w):
        self.w, self._t = w, 0

    @property
    def t(self):
        return self._t

    @t.setter
    def t(self, v):
        self._t = v * 2 if v > 3 else v


def _kept_outer(x, n):
    kept = []
    for _ in range(n):
        x = x + 1.0
        row = [x.sum()]
        row.append(2.0)
        kept.append(row)
    return x, kept


def _kept_closure(x, n):
    f = None
    for _ in range(n):
        x = x * 0.75
        row = [x.sum()]
        row.append(1.0)
        f = lambda: row  # noqa: E731, B023 (a lambda on purpose, late binding too)
    return x, f() if f is not None else None


def _twice_in_list(x, n):
    a = np.zeros_like(x)
    held = [a, a]
    del a
    for _ in range(n):
        for p in held:
            p += x
    return held


def _held_in_tuple_in_obj(x, n):
    b = Box((np.ones_like(x), np.zeros_like(x)))
    for _ in range(n):
        w, v = b.w
        v += w * x
        w *= 0.5
    return b.w


def _held_arg(x, held, n):
    for _ in range(n):
        for p in held:
            p *= 0.5
            p += x
    return held[0].sum()


def _held_arg_inputs():
    return [(_x(3), [np.ones(3), np.zeros(3)], N),
            lambda: (_x(3), [np.ones(3)] * 2, N),
            (_x(3), [np.ones(3), np.ones(3)], 0),
            lambda: _shared_rows()]


def _shared_rows():
    w = np.ones((2, 3))
    return (_x(3), [w[0], w[1], w], N)


class Opt:
    def __init__(self, w, t=0):
        self.w, self.t = w, t

    def step(self, g):
        self.t += 1
        self.w -= 0.5 ** self.t * g


def _counter_basic(x, n):
    o = Opt(np.ones_like(x))
    for _ in range(n):
        o.step(x)
    return o.w, o.t


def _counter_arg(o, x, n):
    for _ in range(n):
        o.step(x)
    return o.t


def _counter_arg_inputs():
    return [(Opt(np.ones(3), 0), _x(3), N), (Opt(np.ones(3), 7), _x(3), N),
            (Opt(np.ones(3), 2**62), _x(3), N), (Opt(np.ones(3), -5), _x(3), 0)]


def _counter_data_step(x, n):
    o = Opt(np.ones_like(x))
    for _ in range(n):
        o.t += len(o.w)
        x = x * 0.5
    return x, o.t


def _counter_float(x, n):
    o = Opt(np.ones_like(x), 0.0)
    for _ in range(n):
        o.t += 1
        x = x + o.t
    return x, o.t


def _counter_np_int(x, n):
    o = Opt(np.ones_like(x), np.int64(3))
    for _ in range(n):
        o.t += 1
        x = x * 0.5 + o.t
    return x, o.t, type(o.t).__name__


def _counter_read_in_body(x, n):
    o = Opt(np.zeros_like(x))
    total = np.zeros_like(x)
    for _ in range(n):
        o.t += 2
        total += x * o.t
    return total, o.t


def _counter_index_use(x, n):
    o = Opt(np.zeros(20))
    for _ in range(n):
        o.t += 1
        o.w[o.t] += x[0]
    return o.w, o.t


def _counter_property(x, n):
    o = Prop(np.ones_like(x))
    for _ in range(n):
        o.t += 1
        x = x + 1.0
    return x, o.t, o._t


def _counter_slots(x, n):
    o = Slotted(np.ones_like(x))
    for _ in range(n):
        o.t += 1
        o.w *= 0.5
    return o.w, o.t


def _counter_two_names(x, n):
    o = Opt(np.ones_like(x))
    p = o
    for _ in range(n):
        o.t += 1
        p.t += 2
        x = x + 1.0
    return x, o.t, p.t


def _counter_two_objects(x, n):
    o, p = Opt(np.ones_like(x)), Opt(np.ones_like(x), 5)
    for _ in range(n):
        o.t += 1
        p.t -= 3
        o.w += x
    return o.t, p.t, o.w


class Keeper:
    """An optimizer whose ``step`` takes a list the body made, and may keep it."""

    def __init__(self, params, keep=None, t=0):
        self.params, self.keep, self.t, self.history = params, keep, t, []

    def step(self, grads):
        for p, g in zip(self.params, grads):
            p -= 0.1 * g
        if self.keep == "attr":
            self.last = grads
        elif self.keep == "history":
            self.history.append(grads)
        elif self.keep == "count":
            self.t += 1
        return grads


def _step_keeps(x, keep, n):
    opt = Keeper([np.ones_like(x), np.zeros_like(x)], keep)
    for _ in range(n):
        opt.step([x, x * 2.0])
    return opt.params, opt.t, opt.history, getattr(opt, "last", None)


def _step_keeps_inputs():
    return [(_x(3), None, N), (_x(3), "attr", N), (_x(3), "count", N)]


def _step_returned(x, n):
    opt = Keeper([np.ones_like(x)])
    got = None
    for _ in range(n):
        got = opt.step([x])
    return opt.params, got


def _view_local_of_held(x, n):
    held = [np.ones(x.size + 2)]
    v = held[0][1:-1]
    for _ in range(n):
        for p in held:
            p *= 0.5
        v += x
    return held[0], v


def _view_written_held_read(x, n):
    held = [np.ones(x.size)]
    v = held[0][:]
    total = np.zeros_like(x)
    for _ in range(n):
        v += x
        total += held[0]
    return total, held


def _readonly_held(x, held, n):
    for _ in range(n):
        for p in held:
            p += x
    return held


def _readonly_inputs():
    def ro():
        a = np.ones(3)
        a.flags.writeable = False
        return (_x(3), [np.zeros(3), a], N)
    return [(_x(3), [np.zeros(3), np.ones(3)], N), ro,
            lambda: (_x(3), [np.broadcast_to(np.ones(1), (3,))], N),
            (_x(3), [np.zeros(3, dtype=np.float32)], N),
            (_x(3), [np.zeros(3, dtype=np.int64)], N)]


def _held_int_float(x, n):
    held = [np.zeros(x.size, dtype=np.int64)]
    for _ in range(n):
        for p in held:
            p += 1
    for p in held:
        p += x
    return held


def _saturating(x, n):
    o = Opt(np.zeros(40))
    for _ in range(n):
        o.t = min(o.t + 1, 10)
        o.w[o.t] += x.sum()
    return o.t, o.w


def _negating(x, n):
    o = Opt(np.zeros_like(x), 1)
    for _ in range(n):
        o.t = -o.t
        x = x + o.t
    return x, o.t


def _step_zero(x, n):
    o = Opt(np.zeros_like(x), 4)
    for _ in range(n):
        o.t += 0
        o.w += x * o.t
    return o.w, o.t


def _assign_const(x, n):
    o = Opt(np.zeros_like(x), 4)
    for _ in range(n):
        o.t = 4
        o.w += x
    return o.w, o.t


def _two_counters(x, n):
    o = Opt(np.zeros_like(x), 1)
    o.k = 100
    for _ in range(n):
        o.t += 1
        o.k -= 7
        o.w += x * o.t - o.k
    return o.w, o.t, o.k


def _huge_counter(o, x, n):
    for _ in range(n):
        o.step(x)
        o.w += o.t % 7
    return o.w, o.t


def _huge_inputs():
    return [(Opt(np.ones(3), 0), _x(3), N), (Opt(np.ones(3), 2**63 - 5), _x(3), N),
            (Opt(np.ones(3), -(2**63) + 3), _x(3), N)]


def _counter_slice(x, n):
    o = Opt(np.zeros(30))
    for _ in range(n):
        o.t += 1
        o.w[:o.t] += x[0]
    return o.w, o.t


def _counter_shape(x, n):
    o = Opt(np.zeros(3))
    tot = 0.0
    for _ in range(n):
        o.t += 1
        tot = tot + np.ones(o.t).sum()
    return tot, o.t


def _callee_counter(x, n):
    o = Opt(np.ones_like(x))

    def bump(obj, by=2):
        obj.t += by
    for _ in range(n):
        bump(o)
        bump(o, -1)
        o.w *= 0.5
    return o.w, o.t


def _counter_read_after(x, n):
    o = Opt(np.ones_like(x), 3)
    for _ in range(n):
        o.step(x)
    return o.w * o.t, 0.5 ** o.t, o.t + 1


def _counter_and_params(x, n):
    model = Keeper([np.ones((x.size, 2)), np.zeros(2)], "count")
    for _ in range(n):
        h = x @ model.params[0] + model.params[1]
        model.step([np.outer(x, h), h * 0.5 ** model.t])
    return model.params, model.t


def _make_keeper():
    store = None

    def keep(v):
        nonlocal store
        store = v

    def get():
        return store
    return keep, get


def _cell_of_callee(x, n):
    keep, get = _make_keeper()
    for _ in range(n):
        x = x * 0.5 + 1.0
        keep([x.sum()])
    return x, get()


def _function_attr(x, n):
    def f():
        return 0
    for _ in range(n):
        x = x + 1.0
        f.cache = [x.sum()]
    return x, getattr(f, "cache", None)


def _body_list_sum(x, n):
    total = 0.0 * x
    for _ in range(n):
        row = []
        for k in range(3):
            row.append(x * k)
        total = total + sum(row)
        del row
    return total


def _body_dict(x, n):
    for _ in range(n):
        d = {"a": x}
        d["b"] = d["a"] * 0.5
        x = d["b"] + 1.0
        del d
    return x


def _body_object(x, n):
    for _ in range(n):
        b = Box(x)
        b.w = b.w * 0.5
        b.items.append(1.0)
        x = b.w + len(b.items)
        del b
    return x


def _view_held_base_after(x, n):
    w = np.ones((2, x.size))
    held = [w[0]]
    other = [w]
    del w
    for _ in range(n):
        for p in held:
            p += x
    total = other[0].sum()
    return total, other[0].copy(), held


def _base_read_in_body(x, n):
    w = np.ones((2, x.size))
    held = [w[1]]
    other = (w,)
    del w
    acc = np.zeros(x.size)
    for _ in range(n):
        for p in held:
            p *= 0.5
        acc += other[0][1] + other[0][0]
    return acc, other


def _step_from_attr(o, x, n):
    for _ in range(n):
        o.t += o.k
        o.w += x * 0.5 ** abs(o.t % 5)
    return o.t, o.w


def _step_from_attr_inputs():
    def make(k, t=0):
        o = Opt(np.zeros(3), t)
        o.k = k
        return o
    return [(make(1), _x(3), N), (make(3), _x(3), N), (make(-2, 50), _x(3), N)]


def _step_from_arg(o, x, k, n):
    for _ in range(n):
        o.t += k
        o.w += x * o.t
    return o.t, o.w


def _step_from_arg_inputs():
    return [(Opt(np.zeros(3)), _x(3), 1, N), (Opt(np.zeros(3)), _x(3), 2, N),
            (Opt(np.zeros(3)), _x(3), -3, N), (Opt(np.zeros(3)), _x(3), 0, N)]


def _counter_then_raise(o, x, n):
    for _ in range(n):
        o.t += 1
        o.w += x
    raise ValueError(o.t)


def _counter_in_two_loops(x, n):
    o = Opt(np.zeros_like(x))
    for _ in range(n):
        o.t += 1
        o.w += x
    for _ in range(n):
        o.t += 2
        o.w -= x * o.t
    return o.w, o.t


def _nested_counter(x, n):
    o = Opt(np.zeros_like(x))
    for _ in range(n):
        for _ in range(10):
            o.t += 1
            o.w += x
    return o.w, o.t


def _held_two_lists(x, n):
    a, b = np.ones_like(x), np.zeros_like(x)
    first, second = [a, b], [b]
    del a, b
    for _ in range(n):
        for p in first:
            p += x
        for q in second:
            q *= 0.5
    return first, second


# ---------------------------------------------------------------- registration
RICH = (_counter_basic, _twice_in_list)
for _fn in (_kept_outer, _kept_closure, _held_in_tuple_in_obj, _counter_data_step,
            _counter_float, _counter_np_int, _counter_read_in_body, _counter_property,
            _counter_two_names, _counter_two_objects, _step_returned, _view_local_of_held,
            _view_written_held_read, _held_int_float, _saturating, _negating, _step_zero,
            _assign_const, _two_counters, _callee_counter, _counter_read_after,
            _counter_and_params, _cell_of_callee, _function_attr, _body_list_sum,
            _body_dict, _body_object, _view_held_base_after, _base_read_in_body,
            _counter_in_two_loops, _nested_counter, _counter_slots, _counter_index_use,
            _held_two_lists, _counter_shape, _counter_slice, *RICH):
    reg.case(_fn, *_inputs(_plain, rich=_fn in RICH), calls=1)

reg.case(_held_arg, *_held_arg_inputs(), calls=1)
reg.case(_counter_arg, *_counter_arg_inputs(), calls=1)
reg.case(_step_keeps, *_step_keeps_inputs(), calls=1)
reg.case(_huge_counter, *_huge_inputs(), calls=1)
reg.case(_readonly_held, *_readonly_inputs(), calls=1)
reg.case(_step_from_attr, *_step_from_attr_inputs(), calls=1)
reg.case(_step_from_arg, *_step_from_arg_inputs(), calls=1)
reg.case(_counter_then_raise, *_counter_arg_inputs(), calls=1)
