"""The guards' stored values in words (``guards.shown``) run none of the program's code:
no ``__repr__`` of its objects, none of its metaclasses' (issue #17)."""

import numpy as np
from dynamo.guards import ID, TYPE, CheckFunction, Guard, LocalSource, check
from dynamo.guards.shown import shown

import dynamo.guard_words

X = LocalSource("x")
calls = []


class Meta(type):
    def __repr__(cls):
        calls.append("Meta.__repr__")
        raise RuntimeError("the program's code ran")


class Loud(metaclass=Meta):
    def __repr__(self):
        calls.append("Loud.__repr__")
        raise RuntimeError("the program's code ran")


def test_explained_runs_no_repr_of_the_programs_objects_or_classes():
    calls.clear()
    obj = Loud()
    fn = CheckFunction([Guard(X, TYPE, Loud), Guard(LocalSource("y"), ID, obj)],
                       ["x", "y"], "f", {}, has_closure=False)
    assert fn(obj, obj)
    text = fn.explained()
    assert calls == []
    assert f"= {__name__}.Loud" in text and "= <Loud object at 0x" in text


def test_values_whose_repr_is_the_interpreters_or_numpys_are_shown_by_it():
    calls.clear()
    assert shown((1, "a", None)) == "(1, 'a', None)"
    assert shown(np.float32(1.5)) == repr(np.float32(1.5))
    assert shown(np.dtype("int8")) == "dtype('int8')"
    assert shown(np.add) == "<ufunc 'add'>"
    assert shown(np.arange(3)).startswith("<ndarray object at 0x")   # object arrays...
    assert shown((Loud(), 2)).startswith("<tuple object at 0x")
    assert shown(np) == "module numpy" and shown(vars(np)) == "the namespace of numpy"
    assert len(shown("x" * 500)) == 100
    assert calls == []


def test_one_helper_for_the_words_and_the_check():
    assert check._shown is shown and dynamo.guard_words._shown is shown
