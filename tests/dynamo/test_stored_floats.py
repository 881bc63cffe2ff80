"""A float attribute the method's own code stores is a changing number from the first
trace (``dynamo/stored_floats.py``, issue #16): reduce-on-plateau halves ``self.lr``
only in the branch a later call takes; the entries traced before that call pinned
``self.lr == 0.1`` and each missed once it changed (stateful corpus 12's
``reduce_lr_on_plateau``: 5 recompiles, now 3, one per branch side and the loss's
first change). A float the code never stores keeps its constant until it changes
from outside, and a float that selects a branch still recompiles when the side changes.
Checked against eager: results and the object's state after each call, both CPU
backends.

Example::

    if self.bad > 2:
        self.lr, self.bad = self.lr * 0.5, 0    # STORE_ATTR lr: lr changing from call 1
    return w - self.lr * g
"""

import numpy as np
import pytest
from dynamo.guards import AttrSource, LocalSource
from harness import same

import dynamo
from dynamo.stored_floats import stored_floats

BACKENDS = ["eager", "numpy"]
LOSSES = [1.0, 0.8, 0.85, 0.7, 0.71, 0.72, 0.73, 0.6, 0.61, 0.62,
          0.63, 0.64, 0.5, 0.55, 0.56, 0.57, 0.58, 0.59, 0.45, 0.46]
W = np.linspace(-1.0, 1.0, 6)


def _run(make, method, args_of, calls, backend):
    """``calls`` calls plainly and compiled, compared after each; the report."""
    eager, compiled = make(), make()
    dynamo.reset()
    with dynamo.explain(getattr(compiled, method), backend=backend) as f:
        for i in range(calls):
            same(getattr(eager, method)(*args_of(i)), f(*args_of(i)), path=f"call {i}")
            same(vars(eager), vars(compiled), path=f"state after call {i}")
    return [r for r in f.report.recompiles if r.call >= 1]


class ReduceOnPlateau:
    def __init__(self):
        self.lr, self.best, self.bad = 0.1, float("inf"), 0

    def step(self, w, g, loss):
        if loss < self.best:
            self.best, self.bad = loss, 0
        else:
            self.bad += 1
            if self.bad > 2:
                self.lr, self.bad = self.lr * 0.5, 0
        return w - self.lr * g


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_learning_rate_halved_in_a_branch_is_no_constant_of_the_other_entries(backend):
    """Before: 5 recompiles, the fifth ``self.lr: expected 0.1, got 0.05`` at an entry
    traced before the first halving."""
    recompiles = _run(ReduceOnPlateau, "step", lambda i: (W, 0.1 * W, LOSSES[i]),
                      len(LOSSES), backend)
    assert len(recompiles) <= 3, recompiles
    assert not any("self.lr: expected" in str(r) for r in recompiles), recompiles


class Scaled:
    def __init__(self):
        self.scale = 2.0

    def run(self, x):
        return x * self.scale


def test_a_float_the_code_never_stores_keeps_its_constant():
    """Nothing stores ``scale`` in ``run``: one entry while it stays, a recompile
    naming it when the caller changes it (as before)."""
    obj, plain = Scaled(), Scaled()
    dynamo.reset()
    with dynamo.explain(obj.run, backend="eager") as f:
        for i in range(4):
            if i == 2:
                obj.scale = plain.scale = 3.0
            same(plain.run(W), f(W), path=f"call {i}")
    recompiles = [r for r in f.report.recompiles if r.call >= 1]
    assert len(recompiles) == 1 and "self.scale" in str(recompiles[0]), recompiles


class Annealed:
    def __init__(self):
        self.eps = 1.0

    def act(self, x):
        self.eps = self.eps * 0.5
        if self.eps > 0.2:
            return x + 1.0
        return x - 1.0


def test_a_stored_float_that_selects_a_branch_still_recompiles_per_side():
    """``self.eps`` is symbolic from the first trace, but ``eps > 0.2`` decides the
    code: the side it took is guarded, and the other side is a second entry."""
    recompiles = _run(Annealed, "act", lambda i: (W,), 6, "eager")
    assert len(recompiles) == 1 and "self.eps" in str(recompiles[0]), recompiles


class WithProperty:
    calls = 0

    @property
    def rate(self):
        WithProperty.calls += 1
        return 0.5

    def step(self, x):
        self.other = 1.0
        return x


def test_stored_floats_reads_instance_attributes_only():
    """Only floats in the instance's ``__dict__`` that the code stores; no property
    is run to look."""
    obj = WithProperty()
    obj.other, obj.unstored = 0.25, 0.5
    found = stored_floats(WithProperty.step.__code__, {"self": obj, "x": W})
    assert found == {AttrSource(LocalSource("self"), "other")}
    assert WithProperty.calls == 0


class Knob:
    scale = 1.0

    def grow(self, x):
        type(self).scale = type(self).scale + 1.0   # the class, not the instance
        self.lr *= 0.5
        self.inner.b = 2.0
        return x * self.scale


def test_only_stores_onto_an_argument_itself_count():
    """``self.lr *= 0.5`` stores onto ``self``; ``type(self).scale = ...`` stores onto
    the class and ``self.inner.b`` onto another object: their floats stay constants."""
    obj = Knob()
    obj.scale, obj.lr, obj.b = 10.0, 0.1, 3.0
    found = stored_floats(Knob.grow.__code__, {"self": obj, "x": W})
    assert found == {AttrSource(LocalSource("self"), "lr")}


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_class_attribute_written_then_read_through_the_instance(backend):
    """Hostile round 37 ``class_attr_written``: the instance's float shadows the class
    attribute on one call and not on the next; a read through the instance after the
    code wrote the class must see the class's new value (it read the value from before
    the write when the instance attribute was a changing number)."""
    def f(x, ob):
        type(ob).scale = type(ob).scale + 1.0
        return x * ob.scale

    def scenario(fn):
        class C:
            scale = 1.0
        o, out = C(), []
        out.append(fn(W, o))
        o.scale = 10.0
        out.append(fn(W, o))
        del o.scale
        out.append(fn(W, o))
        return out, C.scale
    expected = scenario(f)
    got = scenario(dynamo.compile(f, backend=backend))
    for e, g in zip(expected[0], got[0]):
        same(g, e)
    assert got[1] == expected[1]
