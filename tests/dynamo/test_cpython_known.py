"""What CPython's own tests saw differ under compile (scripts/cpython_tests.py's
``KNOWN_FRAME_TESTS``), each reduced to a small differential program: cells read after
a graph break, reference counts of values a compiled frame has seen, sizes of instance
dicts."""

from __future__ import annotations

import contextlib
import gc
import io
import operator
import sys

import numpy as np
from harness import check, same

import dynamo
from dynamo.bytecode.cells import passed_cells

# ------------------------------------------------------------------ cells after a break
# (test_funcattrs.FunctionPropertiesTest.test_set_cell) A resume function takes the
# original's cells as cell variables (dynamo/bytecode/cells.py): an empty one raises
# UnboundLocalError with the original's message, not a free variable's NameError.

def _cell_emptied_from_outside(x):
    a = 12
    def f():   # noqa: E306
        return a
    c = f.__closure__
    y = x + 1
    print("break")
    c[0].cell_contents = 9
    seen = (a, f(), sorted(locals().items(), key=str)[0])   # ('a', 9): the contents
    del c[0].cell_contents
    try:
        f()
    except NameError as e:       # the closure's own free variable: NameError
        seen += (type(e).__name__, str(e))
    try:
        print(a)
    except UnboundLocalError as e:   # the frame's own cell: UnboundLocalError
        seen += (type(e).__name__, str(e))
    return seen, y


def _cell_read_before_assignment(x, first):
    def f():   # noqa: E306
        return a
    y = x * 2
    print("break")
    if first:
        return a, y   # noqa: F821 (not yet assigned: UnboundLocalError)
    a = 3
    return f(), y


def _cell_deleted_then_rebound(x):
    c = 1
    g = lambda: c   # noqa: E731
    y = x + 1
    print("break")
    del c
    try:
        c   # noqa: B018, F821
    except UnboundLocalError as e:
        y = y + len(str(e))
    c = 5
    print("again")
    return g(), c, y


def test_an_empty_cell_read_after_a_break_raises_unbound_local_error():
    check(_cell_emptied_from_outside, np.ones(2))
    check(_cell_read_before_assignment, np.ones(2), True)
    check(_cell_read_before_assignment, np.ones(2), False)
    check(_cell_deleted_then_rebound, np.ones(2))


def _reads_a_deleted_cell_many_times(x):
    c = x.sum()
    g = lambda: c   # noqa: E731, F841, F821 (deleted below)
    y = x + 1
    print("break")
    y = y + c
    y = y * c
    y = y - c
    del c
    return y


def test_reads_of_a_cell_cost_no_break_of_their_own():
    """A cell the function deletes is read as the original reads it: no check before
    each read, so no graph break per read (one break: the print)."""
    check(_reads_a_deleted_cell_many_times, np.ones(2))
    report = dynamo.explain(_reads_a_deleted_cell_many_times, backend="eager")(np.ones(2))
    reasons = [b.reason for r in report.records for b in r.breaks]
    assert len(reasons) == 2 and all("print" in r or "del" in r for r in reasons), reasons


def test_a_resume_function_takes_its_cells_as_cells():
    def f(x):
        c = x
        g = lambda: c   # noqa: E731
        print("break")
        return g()
    report = dynamo.explain(f, backend="eager")(np.ones(2))
    resumed = [r.code for r in report.records if r.code is not f.__code__]
    assert resumed and all(code.co_cellvars == ("c",) and not code.co_freevars and
                           code.co_varnames[code.co_argcount - 1] == "c" and
                           passed_cells(code) == {"c"} for code in resumed)
    assert passed_cells(f.__code__) == frozenset()


# ------------------------------------------------------------------ reference counts
# (test_enumerate.TestReversed.test_bug1229429) A break point's reason (an Unsupported)
# used to keep its traceback: the translator's frames and, through f_back, the frames of
# the call being compiled with its arguments, a cycle alive until the cyclic GC ran, so
# sys.getrefcount of a value saw two more references while the compiled code ran (the
# argument tuple and dict of the call being compiled: gc.get_referrers shows them).

def _referrers_around_an_island(x):
    def f():
        pass
    r = f.__reversed__ = object()
    print("break")               # r is passed to the resume function
    for i in range(3):
        try:
            reversed(f)          # a break inside a loop and a `try`: an island
        except TypeError:
            x = x + i
    return sorted(type(o).__name__ for o in gc.get_referrers(r)), x


def _refcount_across_a_break(x):
    o = [1]
    rc = sys.getrefcount(o)
    y = x + 1
    print("break", len(o))
    return sys.getrefcount(o) - rc, y


def test_a_compiled_frame_adds_no_references_to_its_values():
    check(_referrers_around_an_island, np.ones(2))    # (the first call traces)
    check(_refcount_across_a_break, np.ones(2))


# Where sys.getrefcount(r) is itself the breaking call, the break code pushed r from a
# ``___brk`` temporary: one reference more than 3.14's LOAD_FAST_BORROW holds (and, for
# a local dead after the break, which the frame did not bind again, one less than
# LOAD_FAST on 3.11-3.13). A value the original loaded from a local is pushed from that
# local now, with the original's kind of load (dynamo/bytecode/stack_sources.py).

def _refcount_at_the_break_then_in_an_island(x):
    def f():
        pass
    r = f.__reversed__ = object()
    rc = sys.getrefcount(r)      # the breaking call: r as the original pushed it
    for i in range(3):
        try:
            reversed(f)          # an island: the original code counts again
        except TypeError:
            x = x + i
    return sys.getrefcount(r) - rc, x


def _refcount_of_a_local_dead_after_the_break(x):
    o = [1]
    y = x + 1
    return sys.getrefcount(o), y     # never read again: plainly still bound here


def _refcount_through_a_two_local_load(x):
    count = sys.getrefcount
    o = [1]
    y = x + 1
    # (3.13+: LOAD_FAST_LOAD_FAST count, o; the called local itself goes through the
    # glue, which compiles a Python callable)
    return operator.call(count, o), count(o), y


def _local_rebound_between_the_load_and_the_break(x):
    o = [1]
    y = x + 1
    print(o, (o := [2]))         # the breaking call: its first o is no longer the local's
    print(o, (o := [3]), sys.getrefcount(o))
    return o, y


def test_a_value_loaded_from_a_local_is_pushed_as_the_original_pushed_it():
    check(_refcount_at_the_break_then_in_an_island, np.ones(2))
    check(_refcount_of_a_local_dead_after_the_break, np.ones(2))
    check(_refcount_through_a_two_local_load, np.ones(2))
    check(_local_rebound_between_the_load_and_the_break, np.ones(2))


# ------------------------------------------------------------------ dict layouts
# (test_dict.DictTest.test_splittable_popitem) The glue wrote a dict from outside the
# trace back as clear() then update(): a dict of its own, of another size. It replays
# the changes to the dict's table in order (DictVariable.write_back).

class _Shared:
    pass


def _instance_dicts():
    dicts = []
    for _ in range(2):
        a = _Shared()
        a.x, a.y, a.z = 1, 2, 3
        dicts.append(a.__dict__)
    return dicts


def _popitem_of_a_shared_key_dict(x):
    a, b = _instance_dicts()
    before = sys.getsizeof(a)
    y = x + 1
    item = a.popitem()          # traced: combines the split table
    print("break")
    return sys.getsizeof(a) > before, item, list(a), list(b), y


def _many_dict_changes(x, d):
    d["a"] = x.sum()            # a new key
    del d["k0"]
    d["k1"] = 5                 # a value only
    d.pop("k2")
    d.setdefault("b", 7)
    d.update(c=1, k1=6)
    d |= {"e": 2}
    d["k2"] = 3                 # removed, then inserted again: at the end
    d.popitem()
    y = x * 2
    print("break")
    return sys.getsizeof(d), list(d.items()), y


def _cleared_dict(x, d):
    d["a"] = 1
    del d["a"]
    print("break")
    d.clear()                   # shrinks the table, even of an empty dict
    d["z"] = x.sum()
    y = x + 1
    print("break")
    return sys.getsizeof(d), list(d), y


def _with_history() -> dict:
    """A dict whose table is larger than its keys need (keys removed): rebuilding it
    (``clear()`` then ``update()``) would shrink it, replaying its changes does not.
    Made afresh for each call: a copy would be compact."""
    d = {f"k{i}": i for i in range(100)}
    for i in range(20, 100):
        del d[f"k{i}"]
    return d


def test_dict_changes_are_replayed_in_order():
    check(_popitem_of_a_shared_key_dict, np.ones(2))
    for fn in (_many_dict_changes, _cleared_dict):
        with contextlib.redirect_stdout(io.StringIO()):
            expected = fn(np.ones(2), _with_history())
            compiled = dynamo.compile(fn, backend="eager")
            got = [compiled(np.ones(2), _with_history()) for _ in range(2)]
        for result in got:
            same(expected, result)
