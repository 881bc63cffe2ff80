"""A compiled frame drops its values in plain Python's order, break or no break (#17).

The order is visible: ``r = weakref.ref(p, cb)`` runs ``cb`` at the return only if
``p`` dies while ``r`` lives, and two objects with ``__del__`` log their ends in
order. A returning frame drops its locals slot by slot, first to last on 3.11-3.13 and
last to first on 3.14 (``pyversion.FRAME_DROPS_LAST_SLOT_FIRST``). A resume function's
glue orders its slots for that (``variables/lifetimes.py glue_slot_order``); where a
resume function's copy of the code runs for real (uncompiled, or the rest of the frame
as an island), each return drops the program's locals in the program's order first
(``bytecode/drop_order.py``); a weakref with a callback whose referent lives is passed
on at a break even where it is dead (``lifetimes.weak_end_is_visible``).

Each program runs plainly, then compiled twice (the trace, then the cached entry), and
the events it logged must be the same.
"""

import io
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo
from dynamo import pyversion
from dynamo.bytecode.drop_order import clearing_order, drops_at_return
from dynamo.config import config
from dynamo.variables.lifetimes import weak_end_is_visible

BACKENDS = ["eager", "numpy"]
SINK = io.StringIO()   # print(file=SINK) is a graph break that shows nothing


class Noisy:
    def __init__(self, log, tag):
        self.log, self.tag = log, tag

    def __del__(self):
        self.log.append(f"del {self.tag}")


class Plain:
    pass


def cb(log, tag):
    return lambda ref: log.append(f"cb {tag}")


def _brk():
    print(end="", file=SINK)


def made_at_the_break_one_break(x, log):
    p = Plain()
    r = weakref.ref(p, cb(log, "r"))   # noqa: F841 (the break; its end is what counts)
    return x + 1


def made_at_the_break_then_called(x, log):
    p = Plain()
    r = weakref.ref(p, cb(log, "r"))   # a break; r() is a second one
    y = x + 1
    log.append(r() is p)
    return y


def made_after_a_break(x, log):
    p = Plain()
    y = x + 1
    _brk()
    r = weakref.ref(p, cb(log, "r"))
    log.append(r() is p)
    return y


def made_before_a_break(x, log):
    p = Plain()
    r = weakref.ref(p, cb(log, "r"))
    y = x + 1
    _brk()
    log.append(r() is p)
    return y


def weakref_slot_first(x, log):
    r = None                         # r's slot comes before p's: at the return r dies
    p = Plain()                      # first on 3.11-3.13 and cb never runs (3.14: it
    _brk()                           # does); the resume function takes p first
    r = weakref.ref(p, cb(log, "r"))   # noqa: F841
    return x * 2


def three_breaks(x, log):
    a = Noisy(log, "a")              # noqa: F841
    _brk()
    b = Noisy(log, "b")
    r = weakref.ref(b, cb(log, "r"))   # noqa: F841
    _brk()
    c = Noisy(log, "c")              # noqa: F841
    return x + 1


def del_objects_in_slot_order(x, log):
    b = None
    a = Noisy(log, "a")              # noqa: F841
    y = x * 2
    _brk()
    b = Noisy(log, "b")              # noqa: F841 (b's slot is first: it dies first)
    return y


def island_after_the_resume(x, log):
    d = Plain()
    r = weakref.ref(d, cb(log, "r"))   # noqa: F841
    _brk()
    d = Noisy(log, "d")
    for _ in range(2):               # a loop with a break: the rest runs as an island
        a = Noisy(log, "a")          # noqa: F841
        _brk()
    return x


def island_stores_first_what_the_glue_restores(x, log):
    b = None
    a = Noisy(log, "a")              # noqa: F841 (the break: the island's glue restores
    for _ in range(2):               # `a`, so the island's code numbers it before `b`)
        b = Noisy(log, "b")          # noqa: F841 (b's slot is first: it dies first)
        _brk()
    return x


def island_of_the_programs_own_frame(x, log):
    b = Plain()
    del b
    a = Plain()                      # noqa: F841
    for _ in range(2):               # the break: the rest of f runs as an island whose
        a = Noisy(log, "a")          # noqa: F841 (glue restores `a` first)
        _brk()
    b = Noisy(log, "b")              # noqa: F841 (b's slot is first: it dies first)
    return x


def cell_of_a_closure(x, log):
    d = Noisy(log, "d")
    for _ in range(2):
        d = Noisy(log, "e")
        _brk()
    k = lambda: d                    # noqa: E731, F841 (d is a cell variable)
    _brk()
    a = Noisy(log, "a")              # noqa: F841
    return x


def closure_dead_at_a_break(x, log):
    c = Plain()
    _brk()
    k = lambda: c                    # noqa: E731, F841 (dead, but it holds c's cell:
    d = weakref.ref(c, cb(log, "d"))   # noqa: F841 on 3.14 c dies with k, after d)
    return x


def uncompiled_resume_function(x, log):
    r = None
    p = Plain()
    _brk()

    def gen():                       # a generator with try/finally: this frame (the
        try:                         # resume function) runs uncompiled
            yield 1
        finally:
            pass
    r = weakref.ref(p, cb(log, "r"))   # noqa: F841
    return x + next(gen())


def a_generator(x, log):
    p = Plain()
    _brk()
    r = weakref.ref(p, cb(log, "r"))   # noqa: F841
    yield x + 1
    _brk()
    yield x * 2


def _events(fn, backend=None, calls=1) -> list:
    f = fn if backend is None else dynamo.compile(fn, backend=backend)
    out = []
    for _ in range(calls):
        log: list = []
        result = f(np.arange(3.0), log)
        if hasattr(result, "__next__"):
            result = list(result)
        del result
        out.append(log)
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [
    made_at_the_break_one_break, made_at_the_break_then_called, made_after_a_break,
    made_before_a_break, weakref_slot_first, three_breaks, del_objects_in_slot_order,
    island_after_the_resume, island_stores_first_what_the_glue_restores,
    island_of_the_programs_own_frame, cell_of_a_closure,
    closure_dead_at_a_break,
    uncompiled_resume_function, a_generator,
], ids=lambda f: f.__name__)
def test_values_die_in_plain_pythons_order(fn, backend):
    plain = _events(fn)[0]
    assert _events(fn, backend, calls=2) == [plain, plain]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [island_after_the_resume, cell_of_a_closure],
                         ids=lambda f: f.__name__)
def test_loops_outlined_drop_in_plain_pythons_order(fn, backend, monkeypatch):
    # the loop with a break becomes a body function of its own (docs/loops.md)
    monkeypatch.setattr(config, "outline_min_elements", 0)
    plain = _events(fn)[0]
    assert _events(fn, backend, calls=2) == [plain, plain]


def test_the_callback_cases_do_see_the_order():
    """The programs above tell the orders apart: on 3.11-3.13 the weakref made at a
    break sees its callback run, and a weakref in an earlier slot does not (3.14: the
    other way round)."""
    first = ["cb r"] if pyversion.FRAME_DROPS_LAST_SLOT_FIRST else []
    assert _events(weakref_slot_first) == [first]
    assert ("cb r" in _events(made_at_the_break_then_called)[0]) != \
        pyversion.FRAME_DROPS_LAST_SLOT_FIRST


def test_the_version_fact_is_the_interpreters():
    log: list = []

    def two(log):
        a = Noisy(log, "a")   # noqa: F841
        b = Noisy(log, "b")   # noqa: F841

    two(log)
    assert log == (["del b", "del a"] if pyversion.FRAME_DROPS_LAST_SLOT_FIRST
                   else ["del a", "del b"])


def test_a_weakref_ends_visibly_while_it_has_a_callback_and_a_referent():
    p = Plain()
    assert not weak_end_is_visible(weakref.ref(p))
    assert weak_end_is_visible(weakref.ref(p, print))
    assert weak_end_is_visible(weakref.proxy(p))   # (its referent cannot be read safely)
    q = Plain()
    dead = weakref.ref(q, print)
    del q
    assert not weak_end_is_visible(dead)


def test_clearing_order_follows_the_programs_slots():
    def f(x):
        r = None
        p = 1
        return x, r, p
    expected = ["x", "r", "p"]
    if pyversion.FRAME_DROPS_LAST_SLOT_FIRST:
        expected.reverse()
    assert clearing_order(["p", "x", "r", "___stack0"], f.__code__) == expected


def test_code_in_the_programs_order_gets_no_drops():
    def f(x, y):
        return x + y
    body = [object()]
    assert drops_at_return(body, f.__code__, f.__code__) is body


# -- random programs -------------------------------------------------------------------

NAMES = "abc"
KINDS = ("noisy", "plain", "ref", "break", "array", "none", "del", "call", "loop")


def _program(steps) -> str:
    """Source of ``f(x, log)`` from ``steps`` ((kind, name, other) triples), keeping only
    the steps valid where they come (a weakref of a bound object, ``del`` of a bound
    name)."""
    lines, kinds = [], {}
    for k, (kind, v, w) in enumerate(steps):
        if kind == "noisy":
            lines.append(f"{v} = Noisy(log, '{v}{k}')")
            kinds[v] = "obj"
        elif kind == "plain":
            lines.append(f"{v} = Plain()")
            kinds[v] = "obj"
        elif kind == "ref" and kinds.get(w) == "obj" and w != v:
            lines.append(f"{v} = weakref.ref({w}, cb(log, '{v}{k}'))")
            kinds[v] = "ref"
        elif kind == "break":
            lines.append("_brk()")
        elif kind == "array":
            lines.append("x = x + 1")
        elif kind == "none":
            lines.append(f"{v} = None")
            kinds[v] = None
        elif kind == "del" and v in kinds:
            lines.append(f"del {v}")
            del kinds[v]
        elif kind == "call" and kinds.get(v) == "ref":
            lines.append(f"log.append({v}() is None)")
        elif kind == "loop":
            lines.append(f"for _i in range(2):\n        {v} = Noisy(log, '{v}{k}')"
                         "\n        _brk()")
            kinds[v] = "obj"
    lines.append("return x")
    return "def f(x, log):\n" + "".join(f"    {line}\n" for line in lines)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=30, deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(KINDS), st.sampled_from(NAMES),
                                st.sampled_from(NAMES)), min_size=2, max_size=9))
def test_random_programs_drop_in_plain_pythons_order(backend, steps):
    scope = {"Noisy": Noisy, "Plain": Plain, "cb": cb, "weakref": weakref, "_brk": _brk}
    exec(_program(steps), scope)
    fn = scope["f"]
    plain = _events(fn)[0]
    assert _events(fn, backend, calls=2) == [plain, plain], _program(steps)
