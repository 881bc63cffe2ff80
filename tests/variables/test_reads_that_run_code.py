"""Reads that run the program's code run exactly as often compiled as plainly (issue
#17, hostile round 45): neither the trace nor the guards may make them for the program.

- ``type(o).w`` where ``w`` is a descriptor of the program's: reading it through the
  class runs its ``__get__(None, cls)`` (``class_facts.program_descriptor``; the
  guards read it again on every call before);
- ``cfg.scale`` of a module whose own ``__getattr__`` answers names it lacks (PEP 562:
  ``class_facts.module_code_answers``; a guard read it once a call where the program
  read it twice);
- an object whose class defines ``__dict__`` as a property: the trace read the
  instance's namespace through it (``type_slots.instance_dict`` reads CPython's slot),
  and ``value_kinds.own_getattribute`` wraps it by its type alone.

Each: the calls' results and the reads counted, compiled on both CPU backends, equal
plain Python's call by call.
"""

from __future__ import annotations

import types

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]
SEEN: list = []


class LoudDescriptor:
    def __get__(self, obj, owner=None):
        SEEN.append("class get" if obj is None else "get")
        return 2.0 if obj is None else obj.base


class WithLoud:
    w = LoudDescriptor()

    def __init__(self):
        self.base = np.ones(3)


def through_class(o, x):
    return x * o.w + type(o).w


def _lazy_module():
    m = types.ModuleType("t4_lazy_config")

    def __getattr__(name):
        SEEN.append(name)
        if name == "scale":
            return 2.0
        raise AttributeError(name)
    m.__getattr__ = __getattr__
    m.w = np.ones(3)
    return m


CFG = _lazy_module()


def module_reads(o, x):
    return x * CFG.scale + CFG.w * CFG.scale


class DictProperty:
    def __init__(self):
        object.__setattr__(self, "w", np.ones(3))

    @property
    def __dict__(self):  # noqa: PLW3201
        SEEN.append("__dict__")
        return {"w": np.zeros(3)}


def dict_property_reads(o, x):
    return x * 2 + o.w, vars(o)["w"]


def _calls(fn, o, n=4):
    out = []
    for _ in range(n):
        SEEN.clear()
        got = fn(o, np.arange(3.0))
        out.append(([np.asarray(g).tolist() for g in got]
                    if isinstance(got, tuple) else got.tolist(), list(SEEN)))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,make", [(through_class, WithLoud),
                                     (module_reads, lambda: None),
                                     (dict_property_reads, DictProperty)],
                         ids=["class-descriptor", "module-getattr", "dict-property"])
def test_reads_run_as_often_as_plainly(fn, make, backend):
    dynamo.reset()
    want = _calls(fn, make())
    got = _calls(dynamo.compile(fn, backend=backend), make())
    assert got == want


def test_the_facts_read_no_code():
    from dynamo.guards.type_slots import instance_dict

    from dynamo.variables.class_facts import module_code_answers, program_descriptor
    SEEN.clear()
    assert program_descriptor(WithLoud, "w") == "LoudDescriptor"
    assert program_descriptor(WithLoud, "__init__") is None     # a function: no code runs
    assert module_code_answers(CFG, "scale") == "t4_lazy_config's __getattr__"
    assert module_code_answers(CFG, "w") is None and module_code_answers(np, "exp") is None
    o = WithLoud()
    assert set(instance_dict(o)) == {"base"} and instance_dict(3) is None
    # (its namespace is unknown: the class's __dict__ entry would run the program's code)
    assert instance_dict(DictProperty()) is None
    assert SEEN == []
