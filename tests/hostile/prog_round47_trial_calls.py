"""Round 47, the entry trial on (2 of 2; ``round47_entry.py``): calls between compiled
functions (one calling another, itself, a bound method, a compiled function stored on a
class), globals rebound, a random generator and an iterator advanced, the warning's and
the caller's frame (``stacklevel=2``, ``sys._getframe(1)``), a traceback's frames, wrong
arities, ``*args``/``**kwargs`` and positional-only parameters, ``__code__`` replaced,
``dynamo.reset()`` between calls, and loops (an outlined body, a loop node) inside a
function under the trial.

    >>> def _warns_at_caller(x):
    ...     warnings.warn("look at the caller", UserWarning, stacklevel=2)
    ...     return x + 1.0            # the warning names the caller's line either way
"""

import sys
import warnings

import numpy as np
from hostile_check import Args, Programs
from round47_entry import Entry

import dynamo

reg = Programs("round47_trial")
entry = Entry(reg)


def _x(n=5, k=0.0, dtype=np.float64):
    return (np.arange(n, dtype=dtype) - 2 + k).astype(dtype)


class Counter:
    def __init__(self):
        self.n = 0
        self.log = []


def _counts_calls(o, x):
    o.n += 1
    return x * o.n


# ----------------------------------------------------------------------------- calls

def _inner(x):
    return x * 2.0 + 1.0


@entry.scenario
def s_compiled_calls_compiled(r):
    inner = r.compile(_inner)
    calls = []

    def outer(x):
        calls.append(x.size)
        return inner(x) - inner(x[::-1])

    f = r.compile(outer)
    for k in range(8):
        r.call(f, _x(3 + k % 3))
        r.call(inner, _x(2))
    r.see("calls", calls)


def _fact(x, n):
    if n <= 1:
        return x
    return _fact_compiled[0](x * n, n - 1)


_fact_compiled = [_fact]


@entry.scenario
def s_calls_itself(r):
    f = r.compile(_fact)
    _fact_compiled[0] = f
    try:
        for k in range(8):
            r.call(f, _x(3), 1 + k % 4)
    finally:
        _fact_compiled[0] = _fact


class Model:
    def __init__(self):
        self.w = np.linspace(-1.0, 1.0, 5)
        self.steps = 0

    def step(self, x):
        self.steps += 1
        self.w = self.w - 0.1 * x * self.steps
        return self.w.sum()


@entry.scenario
def s_bound_method(r):
    m = Model()
    f = r.compile(m.step)
    for k in range(9):
        r.call(f, _x(5, k * 0.25))
    r.see("model", m)


def _global_rebound(x):
    return x * SCALE + OFFSET


SCALE = 2.0
OFFSET = np.zeros(4)


@entry.scenario
def s_global_rebound(r):
    r.patch(globals(), "SCALE", 2.0)
    r.patch(globals(), "OFFSET", np.zeros(4))
    f = r.compile(_global_rebound)
    for k in range(9):
        if k == 3:
            globals()["SCALE"] = -1.0
        if k == 5:
            globals()["OFFSET"] = np.ones(4)
        if k == 7:
            OFFSET[1] = 50.0
        r.call(f, _x(4))


def _rng_state(rng, x):
    return x + rng.standard_normal(x.shape)


@entry.scenario
def s_rng_advanced(r):
    rng = np.random.default_rng(7)
    f = r.compile(_rng_state)
    for k in range(8):
        r.call(f, rng, _x(3 + k % 2))
    r.see("next draw", rng.random())


def _sizes_grow(x):
    return (x * x).sum() - x[-1]


entry.case(_sizes_grow, (_x(4),), (_x(4000),), (_x(40),))


def _generator_input(x, gen):
    return x + next(gen)


@entry.scenario
def s_generator_argument(r):
    gen = iter(range(100))
    f = r.compile(_generator_input)
    for k in range(8):
        r.call(f, _x(4), gen)
    r.see("left", next(gen))


def _warns_at_caller(x):
    warnings.warn("look at the caller", UserWarning, stacklevel=2)
    return x + 1.0


@entry.scenario
def s_warning_names_the_caller(r):
    """The warning's file and line are the caller's, whichever way ran the call."""
    f = r.compile(_warns_at_caller)

    def caller(x):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            y = f(x)
        return y, [(w.filename, w.lineno) for w in seen]

    for k in range(8):
        r.call(caller, _x(3 + k % 2))


def _reads_caller():
    frame = sys._getframe(1)
    return frame.f_code.co_name, sorted(k for k in frame.f_locals if k.startswith("v_"))


@entry.scenario
def s_reads_its_caller(r):
    """``sys._getframe(1)`` is the caller's frame, never a wrapper's."""
    f = r.compile(_reads_caller)

    def caller(v_k):
        v_x = np.ones(2) * v_k
        return f(), v_x

    for k in range(8):
        r.call(caller, k)


def _raises_deep(x, k):
    if k % 3 == 0:
        raise ValueError(f"bad {k}")
    return x * k


@entry.scenario
def s_traceback_names(r):
    """The frames of a caught exception's traceback: the caller's and the function's."""
    import traceback
    f = r.compile(_raises_deep)

    def caller(x, k):
        try:
            return f(x, k)
        except ValueError as e:
            return [(t.name, t.line) for t in traceback.extract_tb(e.__traceback__)]

    for k in range(9):
        r.call(caller, _x(3), k)


def _arity(x, y, *, z=1.0):
    return x * y + z


@entry.scenario
def s_wrong_arity_caught(r):
    """Calls with too few or unknown arguments among good ones: the same TypeError."""
    f = r.compile(_arity)

    def caller(k):
        try:
            if k % 4 == 1:
                return f(_x(2))
            if k % 4 == 3:
                return f(_x(2), 2.0, w=3)
            return f(_x(2), float(k), z=-1.0)
        except TypeError as e:
            return str(e)

    for k in range(9):
        r.call(caller, k)


def _star(*args, **kwargs):
    return sum(a.sum() for a in args) + len(kwargs), sorted(kwargs)


entry.case(_star, Args(_x(), _x(2), a=1), Args(_x(3)), Args(b=2, c=3))


def _positional_only(x, scale=2.0, /, shift=0.0):
    return x * scale + shift


entry.case(_positional_only, (_x(), 3.0), Args(_x(), shift=1.0), (_x(4), 1.0, 2.0))


def _code_a(x):
    return x * 2.0


def _code_b(x):
    return x - 100.0


@entry.scenario
def s_code_replaced(r):
    """The function's ``__code__`` replaced after 4 calls, put back after 7."""
    r.patch(_code_a, "__code__", _code_a.__code__)
    original = _code_a.__code__
    f = r.compile(_code_a)
    for k in range(9):
        if k == 4:
            _code_a.__code__ = _code_b.__code__
        if k == 7:
            _code_a.__code__ = original
        r.call(f, _x(3, k))


@entry.scenario
def s_reset_between_calls(r):
    """``dynamo.reset()`` after 3 and 6 calls: every trial starts again."""
    o = Counter()
    f = r.compile(_counts_calls)
    for k in range(9):
        if k in (3, 6) and r.compiled:
            dynamo.reset()
        r.call(f, o, _x(2 + k % 2))
    r.see("count", o.n)


def _method(self, x):
    self.n += 1
    self.log.append(x.size)
    return x * self.n


@entry.scenario
def s_compiled_function_as_method(r):
    """A compiled function stored on a class: two instances, calls alternating."""
    class Holder(Counter):
        pass
    Holder.step = r.compile(_method)
    a, b = Holder(), Holder()
    for k in range(9):
        r.call((a if k % 3 else b).step, _x(2 + k % 2))
    r.see("a", a)
    r.see("b", b)


def _loop_prints(x, log):
    for i in range(10):
        x[i % x.size] += 1.0
        if x[0] > 3.0:
            log.append(i)
        print(i, end=" ")
    return x


@entry.scenario
def s_outlined_loop_in_trial(r):
    """An outlined loop (its own trial between the ways) under the entry trial."""
    r.patch(dynamo.config, "outline_min_elements", 0)
    f = r.compile(_loop_prints)
    log = []
    for k in range(8):
        r.call(f, _x(3 + k % 3, k * 0.25), log)
    r.see("log", log)


def _loop_node_inside(X, Y):
    for i in range(1, 12):
        w = X[i - 1:i + 1]
        a = X[i]
        w[1] = a * 0.5
        Y[i] = a + X[i]
    return Y


entry.case(_loop_node_inside, (_x(14), np.zeros(14)), (_x(16, 1.0), np.zeros(16)),
           (_x(14, -1.0), np.ones(14)))
