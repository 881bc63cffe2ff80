"""Values passed across a graph break live exactly as long as in plain Python (#17, #24).

A resume function gets its arguments in one list that it empties once it has its
locals (``hook.run_boxed``, ``bytecode/emit.py unbox``), so no frame of the call into
it holds them; a local dead at a break but bound to an object whose end the program
can see is passed on; dropping the last binding of such an object is a break
(``variables/lifetimes.py``). A frame object of the running code sees the program's own
locals (``sys._getframe()`` runs the rest of the frame in that frame), never the break
code's temporaries.
"""

import inspect
import sys
import weakref

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo.bytecode.resume import Resume
from dynamo.config import config

BACKENDS = ["eager", "numpy"]
X = np.arange(4.0)
EVENTS: list = []


class Noisy:
    def __init__(self, tag):
        self.tag = tag

    def __del__(self):
        EVENTS.append(f"del {self.tag}")


class Plain:
    pass


def rebind_then_del(x):
    EVENTS.clear()
    a = Noisy("a")            # (a break: objects made in the trace are not modelled)
    EVENTS.append("made a")
    a = Noisy("b")            # frees "a" here
    EVENTS.append("made b")
    del a                     # frees "b" here, before "end"
    EVENTS.append("end")
    return list(EVENTS), x * 2


def dead_but_bound_at_a_break(x):
    EVENTS.clear()
    a = Noisy("a")
    print("break")            # `a` is not read again, but still bound: it lives on
    seen = list(EVENTS)
    a = None                  # noqa: F841 (... until here: its end is what is tested)
    return seen, list(EVENTS), x + 1


def freed_between_two_breaks(x):
    EVENTS.clear()
    a = Noisy("a")
    print("one")
    del a
    print(EVENTS)             # the resume function's caller no longer holds it
    return list(EVENTS), x


def rebound_in_a_loop(x, n):
    EVENTS.clear()
    for i in range(n):
        a = Noisy(i)
        EVENTS.append(f"made {i}")
    del a
    EVENTS.append("end")
    return list(EVENTS), x


def weakly_referenced(x):
    o = Plain()
    r = weakref.ref(o)
    print("break")
    del o
    return r() is None, x


def weak_value_dict_entry(x, cache):
    o = Plain()
    cache["k"] = o
    print("break")
    o = None
    return len(cache), x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [
    (rebind_then_del, (X,)),
    (dead_but_bound_at_a_break, (X,)),
    (freed_between_two_breaks, (X,)),
    (rebound_in_a_loop, (X, 3)),   # (small arrays: the loop is not outlined)
    (weakly_referenced, (X,)),
])
def test_objects_die_where_plain_python_frees_them(fn, args, backend):
    check(fn, *args, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_outlined_loop_body_frees_what_it_rebinds_in_time(backend, monkeypatch):
    # the body function gets a local it rebinds moved in, not copied: its store frees
    # the previous trip's object (dynamo/bytecode/outline.py)
    monkeypatch.setattr(config, "outline_min_elements", 0)   # outline this small loop
    check(rebound_in_a_loop, X, 3, backend=backend)
    check(rebound_in_a_loop, X, 0, backend=backend)    # no trip: `del a` raises


@pytest.mark.parametrize("backend", BACKENDS)
def test_weak_value_dictionary_loses_the_entry_when_the_local_is_rebound(backend):
    f = dynamo.compile(weak_value_dict_entry, backend=backend)
    for _ in range(2):
        assert f(X, weakref.WeakValueDictionary())[0] == \
            weak_value_dict_entry(X, weakref.WeakValueDictionary())[0] == 0


# -- a value an input object or dict drops (variables/lifetimes.py break_at_drop) ------

class Logged:
    def __init__(self, log, tag):
        self.log, self.tag = log, tag

    def __del__(self):
        self.log.append(f"del {self.tag}")


def holder(log):
    o = Plain()
    o.h, o.d = Logged(log, "h"), {"k": Logged(log, "k")}
    o.items = [Logged(log, "i0"), Logged(log, "i1")]
    return o


def overwrite_attr(x, o, log):
    log.append("before")
    o.h = None                # the last reference of a Logged: its __del__ runs here
    log.append("after")
    return x * 2


def overwrite_entry(x, o, log):
    log.append("before")
    o.d["k"] = None
    log.append("after")
    return x * 2


def delete_entry(x, o, log):
    log.append("before")
    del o.d["k"]
    log.append("after")
    return x + 1


def clear_entries(x, o, log):
    log.append("before")
    o.d.clear()
    log.append("after")
    return x + 1


def attr_kept_in_a_local(x, o, log):
    h = o.h
    o.h = None                # h still holds it: freed when the frame returns
    log.append("after")
    return x * 2, h.tag


def list_cleared_items_held(x, o, log):
    a, b = o.items
    o.items.clear()           # a and b hold them: freed when the frame returns
    log.append(a.tag + b.tag)
    return x + 1


def list_item_overwritten(x, o, log):
    log.append("before")
    o.items[0] = None
    log.append("after")
    return x + 1


def popped_into_a_new_dict(x, o, log):
    d = {"k": o.items.pop()}
    log.append("in dict")
    d.pop("k")                # a POP_TOP drops the last reference (names.drop_stack_top)
    log.append("popped")
    return x + 1


def tuple_outlives_clear(x, o, log):
    t = tuple(o.items)
    o.items.clear()
    log.append("cleared")
    del t                     # the tuple held the last references (visible_ends_held)
    log.append("tuple gone")
    return x + 1


def tuple_rebound(x, o, log):
    t = (o.h, 1)
    o.h = None
    log.append("moved")
    t = (2, 3)                # noqa: F841 (the rebinding frees o.h's old value)
    log.append("rebound")
    return x + 1


def tuple_aliased_then_deleted(x, o, log):
    t = tuple(o.items)
    u = t
    o.items.clear()           # a break: u, dead there, is a raw tuple the resume
    del t                     # function never reads (may_end_visibly): passed on,
    log.append("t gone")      # so the items live on in u
    u = None                  # noqa: F841 (the items are freed here)
    log.append("u gone")
    return x + 1


def _events_of(fn, backend=None):
    run = fn if backend is None else dynamo.compile(fn, backend=backend)
    seen = []
    for _ in range(2):
        log = []
        o = holder(log)
        run(X, o, log)
        del o
        seen.append(log)
    return seen


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [overwrite_attr, overwrite_entry, delete_entry,
                                clear_entries, attr_kept_in_a_local,
                                list_cleared_items_held, list_item_overwritten,
                                popped_into_a_new_dict, tuple_outlives_clear,
                                tuple_rebound, tuple_aliased_then_deleted])
def test_an_input_object_drops_a_value_where_plain_python_does(fn, backend):
    # (the glue wrote the log first, then the object: "del" came after "after")
    assert _events_of(fn, backend) == _events_of(fn)


# -- the list is handed back where the code must run again --------------------------------

def graph_raises_in_a_resume_function(x, i):
    print("break")
    return x[i] * 2           # IndexError in the graph: the original runs again


def graph_raises_before_a_break(x, i):
    print("one")
    y = x[i] * 2
    print("two")
    return y


def resume_function_that_runs_uncompiled(x):
    k = 3
    print("break")

    def gen():                # a generator with try/finally: the frame runs eagerly
        try:
            yield k
        finally:
            pass
    return next(gen()) + x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [
    (graph_raises_in_a_resume_function, (X, 1)),
    (graph_raises_in_a_resume_function, (X, 10)),
    (graph_raises_before_a_break, (X, 2)),
    (graph_raises_before_a_break, (X, 10)),
    (resume_function_that_runs_uncompiled, (X,)),
])
def test_resume_functions_that_rerun_or_run_eagerly(fn, args, backend):
    check(fn, *args, backend=backend)


def test_every_break_runs_at_the_same_depth():
    """The runner loops over ``Resume`` objects: each resume function is called at the
    same stack depth, however many breaks came before."""
    depths = []

    def depth():
        depths.append(len(inspect.stack(0)))

    def many(x):
        for _ in range(1):
            pass
        depth()
        x = x + 1
        depth()
        x = x + 1
        depth()
        return x

    dynamo.compile(many, backend="eager")(X)
    assert len(set(depths[1:])) == 1, depths
    assert Resume.__slots__ == ("caller", "closure", "args")


# -- frames --------------------------------------------------------------------------------

def own_frame_locals(x):
    y = x + 1
    f = sys._getframe()
    z = 2
    return f.f_code.co_name, sorted(f.f_locals), f.f_lineno - f.f_code.co_firstlineno, y, z


def current_frame_locals(x):
    y = x * 2
    f = inspect.currentframe()
    w = 1
    return sorted(f.f_locals), y, w


def locals_after_breaks(x):
    y = x + 1
    print("a break")
    t = len("ab")
    print("another")
    return sorted(locals()), y, t


def eval_after_a_break(x):
    k = 2                     # noqa: F841 (read by eval)
    print("a break")
    return eval("k * 3"), sorted(vars()), x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [own_frame_locals, current_frame_locals, locals_after_breaks,
                                eval_after_a_break])
def test_frame_locals_are_the_programs(fn, backend):
    check(fn, X, backend=backend)


def test_no_break_temporary_in_a_returned_frame():
    """The frame that broke has returned; a frame object of it shows no ``___`` name."""
    frames = []

    def keep(x):
        frames.append(sys._getframe(1))
        return x

    def g(x):
        y = x + 1
        keep(y)
        return y * 2

    dynamo.compile(g, backend="eager")(X)
    assert frames and not [n for n in frames[0].f_locals if n.startswith("___")]


@pytest.mark.parametrize("name", ["test_refcycle", "test_frame_resurrect"])
def test_cpython_generator_finalization(name):
    """CPython's own tests, compiled: a generator made by library code (a real object)
    is passed across breaks, its bound ``send`` too; ``del g`` and a collection finalize
    it (the glue reads ``g.send`` from the frame rather than keeping it as a constant)."""
    from test import test_generators  # (CPython's test package)
    case = test_generators.FinalizationTest(name)
    compiled = dynamo.compile(getattr(test_generators.FinalizationTest, name), backend="eager")
    compiled(case)
    compiled(case)
