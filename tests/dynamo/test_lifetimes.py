"""When Python objects die and when user code runs, as in plain Python: a generator
dropped half-way closes at once, the traced call's arguments are not kept alive by the
trace, and a class's own ``__class_getitem__`` runs when the program runs, not while
tracing."""

import weakref

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]
EVENTS = []


def closing_gen():
    try:
        yield 1
        yield 2
    finally:
        EVENTS.append("finally")


def drop_generator(x):
    g = closing_gen()
    v = next(g)
    del g
    EVENTS.append("after del")
    return x * v


def leave_loop_early(x):
    for v in closing_gen():
        break
    EVENTS.append("after loop")
    return x * v


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [drop_generator, leave_loop_early])
def test_a_generator_dropped_half_way_runs_its_finally_at_once(backend, fn):
    compiled = dynamo.compile(fn, backend=backend)
    for _ in range(2):
        EVENTS.clear()
        assert compiled(np.ones(2)).tolist() == [1.0, 1.0]
        assert EVENTS == ["finally", "after del" if fn is drop_generator else "after loop"]


class Finalized:
    def __init__(self):
        weakref.finalize(self, EVENTS.append, "finalized")


def read_argument(x, o):
    return x * 2 if isinstance(o, Finalized) else x


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_trace_does_not_keep_the_calls_arguments_alive(backend):
    compiled = dynamo.compile(read_argument, backend=backend)
    for _ in range(2):   # the call that traces, then a cached one
        EVENTS.clear()
        o = Finalized()
        compiled(np.ones(2), o)
        del o
        assert EVENTS == ["finalized"]


class Typed:
    def __class_getitem__(cls, item):
        EVENTS.append(f"getitem {item.__name__}")
        return item


def subscript_class(x):
    return x * 2, Typed[float].__name__, list[int]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_classes_own_class_getitem_runs_once_per_call(backend):
    compiled = dynamo.compile(subscript_class, backend=backend)
    for _ in range(2):
        EVENTS.clear()
        assert compiled(np.ones(2))[1:] == ("float", list[int])
        assert EVENTS == ["getitem float"]
