"""``guards/type_slots.py``: a class's names read from its slots, never through a
metaclass (issue #17, round 12 ``metaclass-module-property`` and round 14), and the
tracing of classes whose metaclass would run code if dynamo asked it."""

import logging

import numpy as np
import pytest
from dynamo.guards.type_slots import (
    defines,
    dict_of,
    is_builtin_class,
    module_of,
    module_of_value,
    mro_of,
    name_of,
    qualname_of,
    type_module,
)

import dynamo

READS: list[str] = []


class Hostile(type):
    """Every name dynamo might read of a class raises, and is counted."""

    def __getattribute__(cls, name):
        if name in ("__module__", "__name__", "__qualname__", "__mro__", "__dict__",
                    "__del__", "__weakrefoffset__"):
            READS.append(name)
            raise RuntimeError(f"{name} read through the metaclass")
        return type.__getattribute__(cls, name)

    def __getattr__(cls, name):
        READS.append(name)
        raise AttributeError(name)


class Base:
    pass


class C(Base, metaclass=Hostile):
    k = 2.0

    def __init__(self):
        self.v = 3.0

    def act(self, y):
        return y * self.k + self.v


def test_slots_answer_without_the_metaclass():
    READS.clear()
    assert module_of(C) == __name__
    assert type_module(C()) == __name__
    assert module_of_value(C) == __name__
    assert name_of(C) == "C" and qualname_of(C) == "C"
    assert mro_of(C) == (C, Base, object)
    assert "act" in dict_of(C) and "k" in dict_of(C)
    assert defines(C, "act") and not defines(C, "__del__")
    assert not is_builtin_class(C) and is_builtin_class(int)
    assert READS == []
    with pytest.raises(RuntimeError):
        C.__module__   # what the helpers avoid: the metaclass runs


def test_module_that_is_not_a_string():
    class Odd:
        __module__ = 5
    assert module_of(Odd) == "" and type_module(Odd()) == ""

    assert module_of(np.ndarray) == "numpy" and module_of_value(np.add) == "numpy"


def _uses(x, o):
    return o.act(x * 2)


def _uses_with_break(x, o):
    y = x * 2
    print("break")
    return o.act(y)


@pytest.mark.parametrize("fn", [_uses, _uses_with_break])
def test_a_hostile_metaclass_is_traced_without_running(fn, capsys):
    """Before round 12/14: an internal error (RuntimeError from the metaclass) and the
    frame fell back to eager; now compiled, and the metaclass is never asked."""
    x = np.array([1.0, -2.0])
    want = fn(x, C())
    f = dynamo.compile(fn, backend="eager")
    READS.clear()
    errors: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: errors.append(record.getMessage())
    logger = logging.getLogger("dynamo.internal")
    logger.addHandler(handler)
    try:
        for _ in range(3):
            np.testing.assert_array_equal(f(x, C()), want)
    finally:
        logger.removeHandler(handler)
    assert READS == []
    assert errors == []
    assert dynamo.explain(fn,
                          backend="eager")(x, C()).graph_count >= 1   # compiled, not fallen back
