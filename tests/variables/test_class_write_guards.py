"""A class attribute write the trace replays (``type(self).n += 1``,
``Counter.n += 1``; ``dynamo/variables/class_writes.py``) is read back only while the
lookup that found it still finds it (hostile round 30): an instance attribute set
between calls, or a subclass gaining (or losing) its own entry, answers instead in
Python, so the compiled function must not reuse a trace that read the write.

    o = Counter(); f = dynamo.compile(o.by_type)      # type(self).n += 1; x * self.n
    f(x); f(x)
    o.n = -3                                          # now self.n is -3, not Counter.n
    f(x)                                              # -> x * -3, as eager
"""

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]
X = np.arange(3.0)


def _bump_and_read(o, x):
    type(o).n += 1
    return x * o.n


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_instance_attribute_set_between_calls_shadows_the_write(backend):
    def run(compiled):
        class Counter:
            n = 0

        o = Counter()
        f = dynamo.compile(_bump_and_read, backend=backend) if compiled else _bump_and_read
        outs = [f(o, X), f(o, X)]
        o.n = -3                       # the instance's own n wins over the class's
        outs.append(f(o, X))
        del o.n
        outs.append(f(o, X))
        return outs, Counter.n
    same(run(False), run(True))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_subclass_entry_set_or_deleted_between_calls(backend):
    """``Sub.n`` after ``Base.n += 1``: the write while Sub inherits n, Sub's own
    entry once it has one, the write again once that entry is deleted."""
    def run(compiled):
        class Base:
            n = 0

        class Sub(Base):
            pass

        def bump_both(x):
            Base.n += 1
            Sub.n += 1                 # Sub's own entry from the first call on
            return x + Base.n + Sub.n

        f = dynamo.compile(bump_both, backend=backend) if compiled else bump_both
        outs = [f(X) for _ in range(3)]
        Sub.n = 50
        outs.append(f(X))
        del Sub.n                      # inherits Base's again
        outs += [f(X), f(X)]
        return outs, Base.n, Sub.n

    same(run(False), run(True))


def test_a_subclass_that_never_had_its_own_entry():
    """``Sub.n`` only read: the write is seen through Sub while Sub lacks an entry."""
    def run(compiled):
        class Base:
            n = 0

        class Sub(Base):
            pass

        def bump_read(x):
            Base.n += 1
            return x * Sub.n

        f = dynamo.compile(bump_read, backend="eager") if compiled else bump_read
        outs = [f(X), f(X)]
        Sub.n = 7
        outs.append(f(X))
        del Sub.n
        outs.append(f(X))
        return outs, Base.n
    same(run(False), run(True))
