"""How a guard holds a class: strongly where its module holds it by its qualified name
(``guards.guards.held_by_its_module``: the check is ``type(x) is ___c1``, no weak
reference to call), weakly for a class made in a function (``type(x) is ___c1()``),
which an entry must not keep alive."""

import gc
import sys
import types
import weakref

import numpy as np
from dynamo.guards import TYPE, CheckFunction, Guard, LocalSource
from dynamo.guards.guards import held_by_its_module, keeps_alive_safely

X = LocalSource("x")


class TopLevel:
    class Nested:
        pass


def make(guards):
    return CheckFunction(list(guards), ["x"], "f", {}, has_closure=False)


def test_a_module_level_class_is_held_strongly_and_checked_without_a_call():
    check = make([Guard(X, TYPE, TopLevel)])
    assert "return (type(x) is ___c1)\n" in check.source
    assert check.names["___c1"] is TopLevel
    assert check(TopLevel()) and not check(TopLevel.Nested()) and not check(object())
    assert check.failures((object(),)) == \
        [f"L['x']: expected type {__name__}.TopLevel, got object"]


def test_a_class_made_in_a_function_is_held_weakly_and_dies():
    def make_class():
        class Local:
            pass
        return Local
    Local = make_class()
    check = make([Guard(X, TYPE, Local)])
    assert "return (type(x) is ___c1())\n" in check.source
    assert isinstance(check.names["___c1"], weakref.ref)
    assert check(Local())
    alive = weakref.ref(Local)
    del Local
    gc.collect()
    assert alive() is None, "a guard kept a class made in a function alive"
    assert not check(object())


def test_held_by_its_module_reads_the_module_by_the_qualified_name():
    assert held_by_its_module(TopLevel) and held_by_its_module(TopLevel.Nested)
    assert held_by_its_module(types.SimpleNamespace) and held_by_its_module(np.ndarray)
    made = type("Made", (), {"__module__": __name__})   # no module attribute holds it
    assert not held_by_its_module(made) and not keeps_alive_safely(made)
    impostor = type("TopLevel", (), {"__module__": __name__})   # same name, other class
    assert not held_by_its_module(impostor)
    gone = type("Gone", (), {"__module__": "no_such_module_here"})
    assert "no_such_module_here" not in sys.modules and not held_by_its_module(gone)


def test_a_module_whose_getattr_would_run_is_only_read_through_its_dict():
    module = types.ModuleType("_held_by_module_probe")

    def __getattr__(name):
        raise AssertionError(f"module __getattr__ ran for {name!r}")
    module.__getattr__ = __getattr__
    cls = type("Probe", (), {"__module__": module.__name__})
    sys.modules[module.__name__] = module
    try:
        assert not held_by_its_module(cls)
        module.Probe = cls
        assert held_by_its_module(cls)
    finally:
        del sys.modules[module.__name__]
