"""Round 38, loop nodes over Python state (split from ``prog_round38_state.py``, the
same category): attribute counters (``dynamo/translator/attr_counters.py``: ``self.t
+= 1`` in a loop of 12 trips) and arrays the body reaches through lists and objects
(``dynamo/translator/reached_carries.py``, ``Variable.born``/``_made_in_body``). A
counter that is a descriptor, a ``__slots__`` slot, one object under two locals, one
counter object shared by two holders, an object replaced in the list mid-loop, lists
from before the loop appended to and read after, a parameter list holding one array
twice or an array and its view, ``0.9 ** self.t`` and ``2.0 ** self.t`` (overflow at
trip k), ``0.0 ** self.t`` with a negative start, counters past int64, a class
attribute counter (``type(self).n += 1``), counters stepped on some trips only.

    >>> def _adam_like(x, o, n):
    ...     for _ in range(n):
    ...         o.t += 1                        # a counter: t0 + trip + 1
    ...         o.w -= 0.9 ** o.t * x
    ...     return o.w, o.t
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round38_state")   # the category of prog_round38_state.py
N = 12          # trips: past the unroll limit, so each loop is tried as a node


def _x(k=3, s=1.0):
    return np.arange(float(k)) * s - 0.5


class Opt:
    def __init__(self, w, t=0):
        self.w, self.t = w, t
        self.hist = []

    def step(self, g):
        self.t += 1
        self.w -= 0.9 ** self.t * g


class Slots:
    __slots__ = ("w", "t")

    def __init__(self, w, t=0):
        self.w, self.t = w, t


class Logged:
    """A data descriptor: every set is logged, the value doubled past 5."""

    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj, self.name)

    def __set__(self, obj, v):
        obj.sets = getattr(obj, "sets", 0) + 1
        setattr(obj, self.name, v)


class WithDescr:
    t = Logged()

    def __init__(self, w, t=0):
        self.w, self.t = w, t


class Counted:
    n = 0

    def __init__(self, w):
        self.w = w

    def bump(self):
        type(self).n += 1


class Shared:
    def __init__(self, w, clock):
        self.w, self.clock = w, clock


class Clock:
    def __init__(self, t=0):
        self.t = t


# ---------------------------------------------------------------- counters
def _float_exponent(x, o, n):
    for _ in range(n):
        o.step(x)
    return o.w, o.t


def _pow_two(x, o, n):
    for _ in range(n):
        o.t += 1
        x = x + 2.0 ** o.t
    return x, o.t


def _zero_base(x, o, n, base):
    for _ in range(n):
        o.t += 1
        x = x * 0.5 + base ** o.t
    return x, o.t


def _past_int64(x, o, n):
    for _ in range(n):
        o.t += 2 ** 60
        x = x * 0.5 + o.t
    return x, o.t, o.t % 7


def _as_index(x, o, n):
    for _ in range(n):
        o.t -= 1
        x = x + o.w[o.t]
    return x, o.t


def _slots_counter(x, n):
    o = Slots(np.ones_like(x))
    for _ in range(n):
        o.t += 1
        o.w = o.w * 0.5 + x
    return o.w, o.t


def _descr_counter(x, n):
    o = WithDescr(np.ones_like(x))
    for _ in range(n):
        o.t += 1
        x = x + 1.0
    return x, o.t, o.sets


def _two_locals(x, n):
    a = Opt(np.ones_like(x))
    b = a
    for _ in range(n):
        a.t += 1
        b.t += 1
        x = x * 0.5
    return x, a.t, b.t


def _two_params(x, a, b, n):
    for _ in range(n):
        a.t += 1
        b.t += 2
        x = x + a.t
    return x, a.t, b.t


def _shared_clock(x, n):
    c = Clock()
    p, q = Shared(np.ones_like(x), c), Shared(np.zeros_like(x), c)
    for _ in range(n):
        p.clock.t += 1
        q.clock.t += 1
        p.w = p.w + x
    return p.w, c.t


def _clock_local(x, n):
    c = Clock(3)
    p = Shared(np.ones_like(x), c)
    for _ in range(n):
        c.t += 1
        p.w = p.w * 0.5 + p.clock.t
    return p.w, c.t


def _class_counter(x, n):
    o = Counted(np.ones_like(x))
    for _ in range(n):
        o.bump()
        x = x + 1.0
    return x, Counted.n


def _class_attr_direct(x, n):
    o = Counted(np.ones_like(x))
    for _ in range(n):
        type(o).n += 1
        x = x * 0.5 + Counted.n
    return x


def _some_trips(x, n):
    o = Opt(np.ones_like(x))
    for i in range(n):
        if i % 3 == 0:
            o.t += 1
        x = x + o.t
    return x, o.t


def _counter_in_fstring(x, n):
    o = Opt(np.ones_like(x))
    for _ in range(n):
        o.t += 1
        x = x * 0.5
    return x, f"{o.t:03d}", str(o.t)


def _counter_rebound_obj(x, n):
    o = Opt(np.ones_like(x))
    for i in range(n):
        o.t += 1
        if i == 5:
            o = Opt(np.zeros_like(x), 100)
        x = x + o.t
    return x, o.t


def _assign_plus(x, n):
    o = Opt(np.ones_like(x), 7)
    for _ in range(n):
        o.t = o.t + 3
        x = x + o.t
    return x, o.t


def _counter_after_break(x, o, n):
    for i in range(n):
        o.t += 1
        x = x * 0.5
        if o.t > 20:
            break
    return x, o.t


def _counter_in_hist(x, o, n):
    for _ in range(n):
        o.t += 1
        o.hist.append(o.t)
        x = x + 1.0
    return x, o.hist


def _counter_raise_at(x, o, n):
    for _ in range(n):
        o.t += 1
        x = x + 10.0 / (o.t - 8)
    return x, o.t


# ---------------------------------------------------------------- reached arrays
def _sgd(params, grads, n, lr=0.1):
    for _ in range(n):
        for p, g in zip(params, grads):
            p -= lr * g
    return params


def _sgd_obj(x, o, n):
    for _ in range(n):
        o.w -= 0.1 * x
        o.t += 1
    return o.t


def _replace_in_list(x, n):
    params = [np.ones_like(x), np.zeros_like(x)]
    for i in range(n):
        for p in params:
            p += x
        if i == 4:
            params[0] = np.full_like(x, 7.0)
    return params


def _append_outer_read(x, n):
    hist = []
    w = np.ones_like(x)
    for _ in range(n):
        w *= 0.5
        hist.append(w.sum())
    return w, len(hist), hist[-1] if hist else None


def _body_list_read_after(x, n):
    last = None
    w = np.ones_like(x)
    for _ in range(n):
        w += x
        last = [w.sum(), w.max()]
    return w, last


def _dict_params(x, n):
    state = {"w": np.ones_like(x), "b": np.zeros(1)}
    for _ in range(n):
        state["w"] -= 0.1 * x
        state["b"] += 1.0
    return state


def _written_and_local(x, n):
    w = np.ones_like(x)
    params = [w]
    for _ in range(n):
        params[0] += x
        w *= 0.5
    return w, params[0] is w


def _int_param_float_grad(x, params, n):
    for _ in range(n):
        for p in params:
            p -= 0.5 * x
    return params


def _f32_param(x, params, n):
    for _ in range(n):
        for p in params:
            p -= 0.1 * x
    return params[0].dtype, params


def _view_param(x, n):
    w = np.ones((2, 3))
    params = [w, w[0]]
    for _ in range(n):
        for p in params:
            p += x
    return w


def _out_param(x, o, n):
    for _ in range(n):
        np.multiply(o.w, 0.5, out=o.w)
        o.t += 1
    return o.w.copy(), o.t


def _slice_assign(x, o, n):
    for _ in range(n):
        o.w[:] = o.w * 0.5 + x
    return o.w


# ---------------------------------------------------------------- registration
def _opt(t=0, k=3):
    return lambda: (_x(k), Opt(np.ones(k), t), N)


reg.case(_float_exponent, _opt(0), _opt(5), _opt(-3), _opt(2**62), calls=1)
reg.case(_pow_two, _opt(0), _opt(1015), _opt(1000), _opt(-1100), calls=1)
reg.case(_zero_base, *[(lambda t=t, b=b: (_x(), Opt(None, t), N, b))
                       for t, b in ((0, 0.0), (-3, 0.5), (-3, 0.0), (2, 0.0), (-13, 0.0))],
         calls=1)
reg.case(_past_int64, _opt(0), _opt(2**62), _opt(2**63 - 2**61), calls=1)
reg.case(_as_index, *[(lambda t=t: (_x(), Opt(np.arange(20.0), t), N)) for t in (0, 12, 30)],
         calls=1)
for _fn in (_slots_counter, _descr_counter, _two_locals, _shared_clock, _clock_local,
            _some_trips, _counter_in_fstring, _counter_rebound_obj, _assign_plus,
            _replace_in_list, _append_outer_read, _body_list_read_after, _dict_params,
            _written_and_local, _view_param):
    reg.case(_fn, (_x(), N), (_x(3, -2.0), 0), (_x(3, 0.5), N + 1), calls=1)


def _reset_counted():
    Counted.n = 0


reg.case(_class_counter, (_x(), N), (_x(), 0), calls=1, setup=_reset_counted,
         watch=lambda: Counted.n)
reg.case(_class_attr_direct, (_x(), N), (_x(), 3), calls=1, setup=_reset_counted,
         watch=lambda: Counted.n)


def _two_params_inputs():
    def same():
        o = Opt(None, 1)
        return (_x(), o, o, N)
    return [lambda: (_x(), Opt(None, 1), Opt(None, 5), N), same,
            lambda: (_x(), Opt(None, 1), Opt(None, 5), N)]


reg.case(_two_params, *_two_params_inputs(), calls=1)
reg.case(_counter_after_break, _opt(0), _opt(15), _opt(30), calls=1)
reg.case(_counter_in_hist, _opt(0), _opt(4), calls=1)
reg.case(_counter_raise_at, _opt(0), _opt(-5), _opt(2), _opt(9), calls=1)


def _params(*make):
    return lambda: ([m() for m in make], [np.full(3, 0.5), np.full(3, -1.0)], N)


def _same_twice():
    w = np.ones(3)
    return ([w, w], [np.full(3, 0.5), np.full(3, -1.0)], N)


reg.case(_sgd, _params(lambda: np.ones(3), lambda: np.zeros(3)), _same_twice,
         _params(lambda: np.ones(3), lambda: np.zeros(3)), calls=1)
reg.case(_sgd, _params(lambda: np.ones(3, np.float32), lambda: np.zeros(3)),
         _params(lambda: np.ones(3, np.int64), lambda: np.zeros(3)), calls=1,
         name="sgd_dtypes")


def _readonly():
    w = np.ones(3)
    w.flags.writeable = False
    return ([np.zeros(3), w], [np.full(3, 0.5), np.full(3, -1.0)], N)


reg.case(_sgd, _params(lambda: np.ones(3), lambda: np.zeros(3)), _readonly, calls=1,
         name="sgd_readonly")
reg.case(_sgd_obj, _opt(0), _opt(3), calls=1)
reg.case(_int_param_float_grad, (_x(), [np.zeros(3)], N),
         (_x(), [np.zeros(3, np.int64)], N), calls=1)
reg.case(_f32_param, (_x(), [np.zeros(3, np.float32)], N), (_x(), [np.zeros(3)], N),
         calls=1)
reg.case(_out_param, _opt(0), _opt(2), calls=1)
reg.case(_slice_assign, _opt(0), lambda: (_x(), Opt(np.ones((2, 3))), N), calls=1)


@reg.scenario
def s_counter_kept_over_calls(r):
    """One optimizer over calls (its ``t`` grows 12 a call), then reset by other code,
    then made a float, then a bool."""
    o = Opt(np.ones(3))
    f = r.compile(_float_exponent)
    for _ in range(3):
        r.call(f, _x(), o, N)
    o.t = 0
    r.call(f, _x(), o, N)
    o.t = 2.5
    r.call(f, _x(), o, N)
    o.t = True
    r.call(f, _x(), o, 2)
    r.see("o", (o.t, o.w))


@reg.scenario
def s_pow_overflow_kept(r):
    """``2.0 ** o.t`` over calls with ``o.t`` kept: it overflows on the fourth call's
    trip 8 (OverflowError after the body ran 7 times, ``o.t`` at 1024)."""
    o = Opt(None, 980)
    f = r.compile(_pow_two)
    for _ in range(5):
        r.call(f, _x(), o, N)
        r.see("t", o.t)
