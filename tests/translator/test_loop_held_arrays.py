"""Loop nodes whose body changes what only the body made (a list, an iterator, an
object: ``BodyState._made_in_body``) and writes in place arrays the frame holds inside
its lists and objects (``reached_carries``), and steps an int attribute of an object
by a constant (``attr_counters``): the shape of a training loop that calls a model and
an optimizer object each step. Each program runs eagerly and compiled (``check``:
results and arguments afterwards) and is one loop node where it can be.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check
from test_loop_nodes import compiled_call

BACKENDS = ("eager", "numpy")


class Model:
    def __init__(self, params):
        self.params = params

    def forward(self, x):
        w, b = self.params
        return np.tanh(x @ w + b)


class SGD:
    def __init__(self, params, lr):
        self.params, self.lr = params, lr

    def step(self, grads):
        for p, g in zip(self.params, grads):   # zip's list iterators: the body's own
            p -= self.lr * g


def train(x, y, steps):
    """Parameters made in the trace, reached through two objects and a list."""
    model = Model([np.full((3, 2), 0.1), np.zeros(2)])
    opt = SGD(model.params, 0.05)
    for _ in range(steps):
        h = model.forward(x)
        err = h - y
        dz = err * (1 - h * h)
        opt.step([x.T @ dz, dz.sum(0)])       # a list made on each trip
    return model.forward(x)


def fit(model, x, steps):
    """Parameters from outside (a model object's list), written each trip."""
    for _ in range(steps):
        for p in model.params:
            p *= 0.9
            p += 0.01 * x.mean()
    return model.params[0].sum()


def view_in_list(x, steps):
    """Two arrays of one memory in a list, both written: no two slots share memory."""
    w = np.ones((2, 3))
    held = [w, w[0]]
    for _ in range(steps):
        for p in held:
            p += x
    return w


def escapes(x, steps):
    """A list made in the body kept by an object from before the loop: Python state
    the loop changes, so no loop node (and the right values all the same)."""
    state = Model([])
    w = np.zeros(2)
    for _ in range(steps):
        w += x
        state.params = [w.sum()]
    return w, state.params


@pytest.mark.parametrize("backend", BACKENDS)
def test_training_loop_over_objects_is_one_node(backend):
    r = np.random.default_rng(0)
    x, y = r.standard_normal((6, 3)), r.standard_normal((6, 2))
    check(train, x, y, 20, backend=backend, rtol=1e-12, atol=1e-12, graphs=1, breaks=0)
    assert compiled_call(train, x, y, 20, backend=backend)[1] == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_arrays_of_an_argument_object_are_carried(backend):
    model = Model([np.arange(6.0).reshape(2, 3), np.ones(3)])
    check(fit, model, np.arange(3.0), 12, backend=backend, rtol=1e-12, graphs=1, breaks=0)
    assert compiled_call(fit, Model([np.ones((2, 3)), np.ones(3)]), np.arange(3.0), 12,
                         backend=backend)[1] == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_shared_memory_in_a_list(backend):
    check(view_in_list, np.arange(3.0), 12, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_list_kept_past_the_trip_is_no_node(backend):
    check(escapes, np.arange(2.0), 12, backend=backend)
    assert compiled_call(escapes, np.arange(2.0), 12, backend=backend)[1] == 0


class Stepper:
    """An optimizer whose step counter is Python state on the object (Adam's ``t``)."""

    def __init__(self, w, t=0):
        self.w, self.t = w, t

    def step(self, g):
        self.t += 1
        self.w -= 0.5 ** self.t * g


def stepped(x, steps):
    opt = Stepper(np.ones(3))
    for _ in range(steps):
        opt.step(x * opt.w)
    return opt.w, opt.t


def stepped_argument(opt, x, steps):
    for _ in range(steps):
        opt.step(x)
        opt.t += 2           # two steps of one counter in a trip
    return opt.w.sum()


def uneven(opt, x, steps):
    """The attribute moves by the index: no counter, the loop runs as Python."""
    for i in range(steps):
        opt.t += i
        opt.w += x
    return opt.t


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_attribute_counter_is_counted(backend):
    check(stepped, np.arange(3.0), 12, backend=backend, rtol=1e-12, graphs=1, breaks=0)
    assert compiled_call(stepped, np.arange(3.0), 12, backend=backend)[1] == 1
    check(stepped_argument, Stepper(np.zeros(3), 5), np.arange(3.0), 12, backend=backend,
          rtol=1e-12)
    assert compiled_call(stepped_argument, Stepper(np.zeros(3), 5), np.arange(3.0), 12,
                         backend=backend)[1] == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_attribute_that_is_no_counter(backend):
    check(uneven, Stepper(np.zeros(3)), np.arange(3.0), 12, backend=backend)
    assert compiled_call(uneven, Stepper(np.zeros(3)), np.arange(3.0), 12,
                         backend=backend)[1] == 0


def scale_held(model, s, steps):
    """No array local at the loop: the one reached array is the body's only carried
    input, and its placeholder goes after the trip's (``fori_loop_body(trips, trip,
    p)``), not before it."""
    for _ in range(steps):
        for p in model.params:
            p *= s
    return steps


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_reached_array_as_the_only_carried_one(backend):
    check(scale_held, Model([np.arange(3.0)]), 0.5, 12, backend=backend, graphs=1)
    assert compiled_call(scale_held, Model([np.ones(3)]), 0.5, 12, backend=backend)[1] == 1


def _keeper():
    store = None

    def keep(v):
        nonlocal store
        store = v
    return keep, lambda: store


def kept_in_a_cell(x, steps):
    """The body's list kept in a closure cell made before the loop (a callee's
    ``nonlocal``): Python state the loop changes, so no loop node."""
    keep, get = _keeper()
    for _ in range(steps):
        x = x * 0.5 + 1.0
        keep([x.sum()])
    return x, get()


def kept_on_a_function(x, steps):
    """The body's list kept as an attribute of a function made before the loop."""
    def f():
        return 0
    for _ in range(steps):
        x = x + 1.0
        f.cache = [x.sum()]
    return x, f.cache


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [kept_in_a_cell, kept_on_a_function])
def test_a_list_kept_in_a_cell_or_a_function_is_no_node(fn, backend):
    check(fn, np.arange(3.0), 12, backend=backend)
    assert compiled_call(fn, np.arange(3.0), 12, backend=backend)[1] == 0


def runs_bounded_by_a_list(x, offs):
    out = np.zeros_like(x)
    for m in range(len(offs) - 1):
        print("segment", m)
        for k in range(offs[m], offs[m + 1]):
            out[k] = x[k] - x[offs[m]]
    return out


def test_a_list_of_numbers_is_not_read_for_arrays(monkeypatch):
    """An unread list of Python ints holds no array: the loop node does not read it
    to look for one (``reach_arrays``). Read, each item was guarded, and ``offs[m]``
    in the inner node's body pinned the outer index ``m``: the resume function after
    the print compiled once per ``m``, 7 of 7 (HEAD fcc36d1), now 2 (issue #19)."""
    import collections
    import contextlib
    import io

    import dynamo
    from dynamo.config import config

    monkeypatch.setattr(config, "outline_min_elements", 0)
    monkeypatch.setattr(config, "outline_trial_calls", 0)
    # (runs of more than config.loop_unroll_limit items: shorter ones are unrolled, an
    # entry per count, as for any changing count)
    x, offs = np.random.default_rng(2).random(120), [0, 10, 21, 40, 52, 70, 99, 120]
    for backend in BACKENDS:
        check(runs_bounded_by_a_list, x, offs, backend=backend)
    dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()), \
            dynamo.explain(runs_bounded_by_a_list, backend="eager") as compiled:
        for _ in range(2):
            compiled(x, offs)
    counts = collections.Counter(r.code.co_qualname for r in compiled.report.records)
    assert max(counts.values()) <= 2, dict(counts)
