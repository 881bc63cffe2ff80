"""Two object inputs that share one ``__dict__`` (``p.__dict__ = o.__dict__``,
``dynamo/instance_dicts.py``): a write through one is read through the other, as in
plain Python, whether the pair shares its dict on the first call (a graph break) or on
a later one (the entry is guarded ``not (o.__dict__ is p.__dict__)`` and missed).
Found by hostile round 37 (``round37_selves/shared_dict``): the compiled function
read ``p.a`` from before ``o.a = v``.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")


class Box:
    def __init__(self, a):
        self.a = a


def write_one_read_other(x, o, p):
    o.a = float(x.sum())
    return x + p.a


def _pair(shared: bool):
    o, p = Box(1.0), Box(5.0)
    if shared:
        p.__dict__ = o.__dict__
    return o, p


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("order", [(False, True, False), (True, False, True)],
                         ids=["distinct_first", "shared_first"])
def test_objects_sharing_one_dict(order, backend):
    dynamo.reset()
    compiled = dynamo.compile(write_one_read_other, backend=backend)
    x = np.arange(3.0)
    for k, shared in enumerate(order):
        want_o, want_p = _pair(shared)
        got_o, got_p = _pair(shared)
        want = write_one_read_other(x, want_o, want_p)
        got = compiled(x, got_o, got_p)
        np.testing.assert_array_equal(got, want, err_msg=f"call {k}, shared={shared}")
        assert (vars(got_o), vars(got_p)) == (vars(want_o), vars(want_p)), k


SCALE = 1.0


class Bare:
    pass


def write_dict_read_global(x, d):
    d["SCALE"] = 3.0
    return x * SCALE


def write_object_read_global(x, o):
    o.SCALE = 5.0
    return x * SCALE


def _as_namespace(kind: str, is_globals: bool):
    if kind == "dict":
        return globals() if is_globals else {}
    o = Bare()
    if is_globals:
        o.__dict__ = globals()
    return o


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind, fn", [("dict", write_dict_read_global),
                                      ("object", write_object_read_global)],
                         ids=["dict", "object"])
@pytest.mark.parametrize("order", [(False, True, False), (True, False)],
                         ids=["plain_first", "globals_first"])
def test_a_module_namespace_as_an_input(order, kind, fn, backend):
    """The function's own globals passed as a dict (``f(x, globals())``) or as an
    object's ``__dict__``: a write through it is the global the function reads
    (round 37: the compiled function read ``SCALE`` from before the write)."""
    global SCALE
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    x = np.arange(3.0)
    for k, is_globals in enumerate(order):
        SCALE = 1.0
        want = fn(x, _as_namespace(kind, is_globals))
        want_scale = SCALE
        SCALE = 1.0
        got = compiled(x, _as_namespace(kind, is_globals))
        np.testing.assert_array_equal(got, want, err_msg=f"call {k}")
        assert SCALE == want_scale, k
    SCALE = 1.0
