"""A list, dict or object the trace made that holds itself, rebuilt by the glue (#17).

Random state program seed 20392: ``p.hist = p.hist + [round(s, 4)]; o.hist.append(
o.hist)`` with ``o is p`` made a new list that holds itself, which the glue wrote out as
one expression of its items: the items reached the list again and rebuilding it recursed
without end (RecursionError, an internal error the frame fell back from, results right).
Now such a list (or dict, defaultdict, or a list reached through an object's attribute,
a tuple, another list) is made empty and filled once it exists, and every reference is
the one object, as in Python; each frame compiles (no internal error, nothing skipped).
"""

import collections

import numpy as np
import pytest

import dynamo


class Obj:
    def __init__(self):
        self.hist = []


class Box:
    pass


def _seed_20392(x, o, p):
    s = float(x.sum())
    p.hist = p.hist + [round(s, 4)]
    o.hist.append(o.hist)
    return x + 1


def _dict_holds_itself(x, o, p):
    o.d = {"n": 1}
    o.d["me"] = o.d
    return x * 2


def _defaultdict_holds_itself(x, o, p):
    d = collections.defaultdict(list)
    d["a"].append(1)
    d["me"] = d
    o.d = d
    return x - 1


def _through_an_object(x, o, p):
    b = Box()
    lst = [b, 3]
    b.back = lst
    o.hist = lst
    return x + 3


def _object_holds_itself(x, o, p):
    b = Box()
    b.me = b
    o.box = b
    return x + 4


def _two_lists(x, o, p):
    a = [1]
    b = [a, 2]
    a.append(b)
    o.hist = b
    return x * 3


def _through_a_tuple(x, o, p):
    lst = [7]
    lst.append((lst, 2))
    o.hist = lst
    return x + 5


def _returned(x, o, p):
    lst = [1.5]
    lst.append(lst)
    return x + 6, lst


def _at_a_break(x, o, p):
    lst = [len(o.hist)]
    lst.append(lst)
    o.hist = lst
    print("break", len(lst))
    return x + lst[0]


PROGRAMS = (_seed_20392, _dict_holds_itself, _defaultdict_holds_itself,
            _through_an_object, _object_holds_itself, _two_lists, _through_a_tuple,
            _returned, _at_a_break)


def _frozen(v, path=()):
    """``v`` as nested tuples to compare: a container met again inside itself as
    ("cycle", levels up), objects as their class name and attributes."""
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.tolist())
    if not isinstance(v, (list, tuple, dict)) and not hasattr(v, "__dict__"):
        return v
    if id(v) in path:
        return ("cycle", len(path) - path.index(id(v)))
    inner = path + (id(v),)
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [_frozen(e, inner) for e in v])
    if isinstance(v, dict):
        return (type(v).__name__, [(k, _frozen(e, inner)) for k, e in v.items()])
    return ("obj", type(v).__name__, _frozen(vars(v), inner))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_a_made_container_that_holds_itself(fn, backend, caplog, capsys):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    plain_o, o = Obj(), Obj()
    with caplog.at_level("WARNING", logger="dynamo.internal"):
        for n in (2, 3):
            want = fn(np.arange(n, dtype=float), plain_o, plain_o)
            got = compiled(np.arange(n, dtype=float), o, o)
            assert _frozen(got) == _frozen(want)
            assert _frozen(o) == _frozen(plain_o)
    internal = [r.getMessage() for r in caplog.records if r.name == "dynamo.internal"]
    assert not internal, internal[0]
    report = dynamo.explain(fn, backend=backend)(np.ones(2), Obj(), Obj())
    assert not report.skipped and report.graph_count >= 1
    capsys.readouterr()


def test_every_reference_is_the_one_object():
    """Identity, not only equal shapes: the rebuilt list is its own item, the object's
    back reference is the list the program stored."""
    dynamo.reset()
    o = Obj()
    dynamo.compile(_seed_20392, backend="eager")(np.ones(2), o, o)
    assert o.hist == [2.0, o.hist] and o.hist[1] is o.hist
    dynamo.compile(_through_an_object, backend="eager")(np.ones(2), o, o)
    assert o.hist[0].back is o.hist
    dynamo.compile(_two_lists, backend="numpy")(np.ones(2), o, o)
    assert o.hist[0][1] is o.hist
    dynamo.compile(_defaultdict_holds_itself, backend="eager")(np.ones(2), o, o)
    assert type(o.d) is collections.defaultdict and o.d["me"] is o.d
    assert o.d.default_factory is list and list(o.d) == ["a", "me"]
    _, lst = dynamo.compile(_returned, backend="numpy")(np.ones(2), o, o)
    assert lst[1] is lst and lst[0] == 1.5


def _function_default(x, o, p):
    lst = [1]

    def g(v=lst):
        return v
    lst.append(g)
    o.hist = lst
    return x + 1


def _map_of_itself(x, o, p):
    lst = [1]
    lst.append(map(abs, lst))
    o.hist = lst
    return x + 2


def _iterator_of_itself(x, o, p):
    lst = [1]
    lst.append(iter(lst))
    o.hist = lst
    return x + 3


@pytest.mark.parametrize("fn", (_function_default, _map_of_itself, _iterator_of_itself),
                         ids=lambda f: f.__name__)
def test_other_kinds_that_hold_a_list_fall_back_cleanly(fn, caplog):
    """A list held by its own function default, map or iterator is rebuilt through a
    kind that cannot be made empty first: the frame runs as it is, with the reason
    said (it recursed without end: an internal error)."""
    dynamo.reset()
    o = Obj()
    with caplog.at_level("WARNING", logger="dynamo.internal"):
        report = dynamo.explain(fn, backend="eager")(np.ones(2), o, o)
    assert not [r for r in caplog.records if r.name == "dynamo.internal"]
    assert np.array_equal(report.result, fn(np.ones(2), Obj(), Obj()))
    assert [why for _, why in report.skipped] == [
        "cannot rebuild the frame's values: rebuilding a ListVariable that holds itself"]
    assert o.hist[0] == 1 and len(o.hist) == 2
