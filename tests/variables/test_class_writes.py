"""Assignments to class attributes (``Counter.n += 1``, ``type(self).n += 1``) are
replayed after the graph, not a graph break (``dynamo/variables/class_writes.py``,
issue #16): results and the class's state are eager's over several calls, the trace
reads its own write wherever Python would (the class, another name of it, an
instance without its own attribute, a subclass that inherits it), and what it cannot
model exactly still breaks.
"""

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]


def make_counter():
    """A fresh class per side: eager and compiled each count in their own."""
    class Counter:
        n = 0

        def __init__(self, w):
            self.w = w

        def by_name(self, x):
            Counter.n += 1
            return x * Counter.n

        def by_type(self, x):
            type(self).n += 1
            return x * self.n               # read through the instance: the write

        def both(self, x):
            Counter.n += 1
            type(self).n += 2               # the same class under another name
            return x + Counter.n

        def as_data(self, x):
            Counter.n += 1
            return np.concatenate([x, [Counter.n]])

    return Counter


def _calls(method, backend, make=make_counter, calls=6, **explain):
    """Eager's and the compiled (results, class state), and explain's report."""
    sides = []
    for compiled in (False, True):
        cls = make()
        fn = getattr(cls(np.ones(2)), method)
        if compiled:
            e = dynamo.explain(fn, backend=backend)
            fn = e.__enter__()
        outs = [fn(np.arange(3.0)) for _ in range(calls)]
        if compiled:
            e.__exit__(None, None, None)
        sides.append(((outs, cls.n), fn.report if compiled else None))
    (want, _), (got, report) = sides
    same(want, got)
    return report


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["by_name", "by_type", "both"])
def test_class_counter_is_replayed_not_a_break(method, backend):
    report = _calls(method, backend)
    assert report.graph_break_count == 0, report
    assert len([r for r in report.recompiles if r.call >= 1]) <= 1, report


def make_family():
    class Base:
        n = 1

        def bump_and_read(self, x):
            Base.n += 10
            return x * self.n          # Sub inherits n: the write; Own has its own

    class Sub(Base):
        pass

    class Own(Base):
        n = 5

    return Base, Sub, Own


@pytest.mark.parametrize("which", [1, 2])
def test_a_subclass_reads_the_write_only_where_it_inherits_it(which):
    def run(compiled):
        Base, *subs = make_family()
        obj = subs[which - 1]()
        fn = dynamo.compile(obj.bump_and_read, backend="eager") if compiled else obj.bump_and_read
        return [fn(np.arange(3.0)) for _ in range(4)], Base.n, type(obj).n
    same(run(False), run(True))


def test_an_instance_attribute_shadows_the_class_write():
    def run(compiled):
        Counter = make_counter()
        c = Counter(np.ones(2))
        c.n = 100                           # its own n: self.n is not the class's
        fn = dynamo.compile(c.by_type, backend="eager") if compiled else c.by_type
        return [fn(np.arange(3.0)) for _ in range(4)], Counter.n, c.n
    same(run(False), run(True))


class Meta(type):
    def __setattr__(cls, name, value):
        super().__setattr__(name, value * 2)   # the write is the metaclass's business


def test_a_metaclass_write_still_breaks_and_stays_exact():
    def make():
        class Doubling(metaclass=Meta):
            n = 1

            def __init__(self, w):
                pass

            def by_type(self, x):
                type(self).n += 1
                return x * self.n
        return Doubling
    report = _calls("by_type", "eager", make=make, calls=4)
    assert report.graph_break_count >= 1


def test_the_class_dict_after_a_write_breaks_and_stays_exact():
    def make():
        class Counter:
            n = 0

            def __init__(self, w):
                pass

            def by_type(self, x):
                type(self).n += 1
                return x * type(self).__dict__["n"]
        return Counter
    _calls("by_type", "eager", make=make, calls=4)


def _double(self, x):
    return x * 2


def test_a_function_written_into_the_class_binds_as_python_does():
    """``type(self).helper = fn`` then ``self.helper(x)``: a bound method in Python;
    the trace does not model the binding of a written function (a break), and the
    results and the class are eager's."""
    def make():
        class Counter:
            n = 0

            def __init__(self, w):
                pass

            def by_type(self, x):
                type(self).helper = _double
                type(self).n += 1
                return self.helper(x) + type(self).helper(self, x)
        return Counter
    _calls("by_type", "eager", make=make, calls=3)
