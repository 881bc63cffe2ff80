"""Outlined loop bodies (dynamo/bytecode/outline.py): a ``for`` loop whose body breaks
the graph runs as Python, and its body is a function of its own that dynamo compiles,
so the body's array code is still captured into graphs.

Every program runs eagerly and compiled (``check``: results, arguments afterwards,
printed output, exceptions) on both CPU backends; the graph counts say that the body
was compiled (an island would leave it with no graph at all).
"""

from __future__ import annotations

import logging
import sys

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo import pyversion
from dynamo.config import config

BACKENDS = ("eager", "numpy")


@pytest.fixture(autouse=True)
def outline_small_arrays(monkeypatch):
    """These programs use small arrays, which are not outlined by default (a dispatch
    per trip costs more than fusing them wins: ``config.outline_min_elements``); here
    the mechanism itself is under test."""
    monkeypatch.setattr(config, "outline_min_elements", 0)


def graphs_of(fn, *args, backend="eager"):
    """The number of graphs one traced call of ``fn`` compiled."""
    import contextlib
    import copy
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
    return report.graph_count


# ----------------------------------------------------------------------------- programs
def printing(x):
    for i in range(20):
        x = np.tanh(x) * 1.01 + 0.5
        print(i, end=" ")
        x = x - np.sin(x)
    return x


def data_break(x):
    total = 0.0
    for i in range(30):
        x = x * 1.1 + 0.1
        if x.sum() > 40:          # data-dependent: breaks the graph
            break
        total = total + float(x[0])
    return x, total, i


def data_continue(x):
    acc = np.zeros_like(x)
    for i in range(12):
        x = np.cos(x) + 0.3
        if x.max() > 1.2:
            continue
        acc = acc + x
    return acc, x


def returns_inside(x):
    for i in range(50):
        x = x * 1.5
        if x.sum() > 100:
            return x - 1, i
    return x, -1


def for_else(x, limit):
    for i in range(8):
        x = x + 1
        if x.sum() > limit:
            break
    else:
        x = x * 0
    return x


def nested(x):
    for i in range(4):
        x = x + 1
        for j in range(3):
            x = np.sqrt(x) * 2
            print(i, j, end=";")
        x = x - 0.5
    return x


def raises_in_iteration(x, log, k):
    for i in range(10):
        x[i % 4] += 1.0
        log.append(i)
        if i == k and x.sum() > 0:
            raise ValueError(f"stop at {i}")
        print(i)
    return x


class Box:
    pass


def attribute_writes(x, box):
    for i in range(6):
        x = x * 2.0
        box.last = float(x.sum())
        print(box.last)
    return x


def closures(x):
    fs = []
    for i in range(5):
        y = x * i
        fs.append(lambda: y + i)   # noqa: B023 (late binding is what is tested)
        print(i)
    return [f() for f in fs]


def nonlocal_cell(x):
    count = 0

    def bump():
        nonlocal count
        count += 1
    for i in range(7):
        x = x + 1
        bump()
        print(count)
    return x, count


def generator_in_body(x):
    out = []
    for i in range(4):
        g = (v * i for v in range(3))
        out.append(sum(g))
        x = x + out[-1]
        print(out)
    return x, out


def loop_var_after(x, n):
    for i in range(n):
        x = x + i
        print(i)
    return x, i


def first_assigned_in_body(x):
    for i in range(5):
        if x.sum() > 3:
            y = x * 2            # maybe unbound after the loop: stays an island
        x = x + 1
    return y


def over_rows(m):
    total = np.zeros(m.shape[1])
    for row in m:
        total = total + row * 2
        if row.sum() > 1:
            print("big")
    return total


def while_loop(x):
    i = 0
    while i < 6:
        x = x + 1
        print(i)
        i += 1
    return x


def inplace_writes(a):
    for i in range(a.shape[0]):
        a[i] = np.sin(a[i]) + 1
        if a[i].sum() > 2:
            print(i)
    return a


# ----------------------------------------------------------------------------- tests
@pytest.mark.parametrize("backend", BACKENDS)
def test_print_in_body_is_compiled(backend):
    check(printing, np.ones(4), backend=backend)
    # the body's array code is graphs: before and after the print
    assert graphs_of(printing, np.ones(4), backend=backend) >= 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_data_dependent_break(backend):
    check(data_break, np.ones(4), backend=backend)
    assert graphs_of(data_break, np.ones(4), backend=backend) >= 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_data_dependent_continue(backend):
    check(data_continue, np.linspace(0, 1, 5), backend=backend)
    assert graphs_of(data_continue, np.linspace(0, 1, 5), backend=backend) >= 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_return_inside_body(backend):
    check(returns_inside, np.ones(3), backend=backend)
    check(returns_inside, np.full(3, 1e-9), backend=backend)


@pytest.mark.parametrize("limit", [3.0, 1000.0])
def test_for_else(limit):
    check(for_else, np.ones(2), limit)


@pytest.mark.parametrize("backend", BACKENDS)
def test_nested_loops(backend):
    check(nested, np.ones(3), backend=backend, rtol=1e-12)
    assert graphs_of(nested, np.ones(3), backend=backend) >= 2


@pytest.mark.parametrize("k", [0, 3, 9])
def test_exception_in_iteration_k(k):
    # what iterations before k wrote (the array, the list) is as plain Python leaves it
    check(raises_in_iteration, np.zeros(4), [], k)


def test_attribute_writes():
    check(attribute_writes, np.ones(2), Box())


def test_closures_capture_each_iteration():
    check(closures, np.ones(2))


def test_nonlocal_cell():
    check(nonlocal_cell, np.ones(2))


def test_generator_in_body():
    check(generator_in_body, np.ones(2))


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loop_variable_after_the_loop(n):
    # n = 0: `i` is unbound after the loop, the same UnboundLocalError
    check(loop_var_after, np.ones(2), n)


def test_maybe_unbound_after_loop_stays_correct():
    check(first_assigned_in_body, np.ones(2))
    check(first_assigned_in_body, np.zeros(2) - 9)   # never assigned: UnboundLocalError


def test_rows_of_an_array():
    check(over_rows, np.arange(12.0).reshape(4, 3) / 10)


@pytest.mark.parametrize("backend", BACKENDS)
def test_while_loop_keeps_its_meaning(backend):
    check(while_loop, np.ones(2), backend=backend)
    assert any(name.startswith("while_loop_loop_body_L")
               for name in _bodies_with_graphs(while_loop, np.ones(2), backend=backend))


@pytest.mark.parametrize("backend", BACKENDS)
def test_inplace_writes(backend):
    check(inplace_writes, np.linspace(0, 3, 8).reshape(4, 2), backend=backend)


def test_log_says_why_not_outlined(caplog):
    def body_reads_unbound(x):
        for i in range(3):
            if i:
                print(prev)      # noqa: F821 (bound by the previous iteration)
            prev = x + i
        return prev
    with caplog.at_level(logging.DEBUG, logger="dynamo.loops"):
        check(body_reads_unbound, np.ones(2))
    assert any("not outlined" in r.getMessage() and "prev" in r.getMessage()
               for r in caplog.records)


def test_outlined_body_is_its_own_frame():
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        out = dynamo.explain(printing, backend="eager")(np.ones(4))
    # the print breaks the body function's graph, not only the frame's
    assert any(b.frame.endswith("_loop_body_L3") or "loop_body" in b.frame
               for b in out.break_reasons), [b.frame for b in out.break_reasons]
    assert out.graph_count >= 2


def after_the_loop(x, n):
    y = x * 2
    for i in range(n):
        y = y + 1
        print(i)
        if y.sum() > 1e6:
            break
    z = np.exp(y) + x              # compiled: a resume function after the loop
    return z


def loop_var_needed_after(x, n):
    for i in range(n):
        x = x + 1
        print(i)
    return np.exp(x) * i           # `i` may be unbound: the rest runs uncompiled


def _frames_with_graphs(fn, *args, backend="eager"):
    import contextlib
    import copy
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
    return {r.code.co_qualname for r in report.records if r.graph is not None and
            r.graph.call_nodes()}


@pytest.mark.parametrize("backend", BACKENDS)
def test_code_after_the_loop_is_compiled(backend):
    check(after_the_loop, np.ones(3), 3, backend=backend)
    frames = _frames_with_graphs(after_the_loop, np.ones(3), 3, backend=backend)
    assert any("_resume_at_" in f and "loop_body" not in f for f in frames), frames


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_entry_with_other_trip_counts(backend):
    compiled = dynamo.compile(after_the_loop, backend=backend)
    import contextlib
    import io
    for n in (3, 0, 1, 7, 3):
        with contextlib.redirect_stdout(io.StringIO()) as got_out:
            got = compiled(np.ones(3), n)
        with contextlib.redirect_stdout(io.StringIO()) as want_out:
            want = after_the_loop(np.ones(3), n)
        np.testing.assert_array_equal(got, want)
        assert got_out.getvalue() == want_out.getvalue()


@pytest.mark.parametrize("n", [0, 3])
def test_maybe_unbound_loop_variable_after_the_loop(n):
    check(loop_var_needed_after, np.ones(3), n)


def reads_locals(x):
    unused = 5
    for i in range(3):
        x = x + 1
        print(sorted(locals()))
    return x, unused


def test_locals_in_the_body_sees_the_whole_frame():
    check(reads_locals, np.ones(2))


class _FrameStarts:
    def __init__(self):
        self.names = []

    def on_frame_start(self, fn, ctx):
        self.names.append(fn.__code__.co_qualname)


def test_the_body_compiles_once_not_per_iteration():
    from dynamo import listeners
    seen = _FrameStarts()
    compiled = dynamo.compile(printing, backend="numpy")
    import contextlib
    import io
    with listeners.listening(seen), contextlib.redirect_stdout(io.StringIO()):
        compiled(np.ones(4))
        first = len(seen.names)
        compiled(np.ones(4))
    bodies = [n for n in seen.names if "loop_body" in n and "resume" not in n]
    # index 0 and 1 (sizes and ints 0 and 1 are specialized), then any other one (a
    # symbol, automatic dynamic): 20 iterations, three compiles
    assert 1 <= len(bodies) <= 3, seen.names
    assert len(seen.names) == first, "a second call compiles nothing"


def small_arrays_loop(x):
    for i in range(20):
        x = np.tanh(x) * 1.01 + 0.5
        print(i, end=" ")
    return x


def test_loops_over_small_arrays_run_as_plain_python(monkeypatch, caplog):
    """By default a loop over small arrays is not outlined: it stays at Python speed
    (an outlined trip would cost about 6 us more), and the log says why."""
    monkeypatch.setattr(config, "outline_min_elements", 32768)
    with caplog.at_level(logging.DEBUG, logger="dynamo.loops"):
        report = check(small_arrays_loop, np.ones(4), graphs=0)
    assert report.graph_count == 0
    assert any("its arrays are small (at most 4 elements" in r.getMessage()
               for r in caplog.records)
    big = np.linspace(0, 1, 40000)
    check(small_arrays_loop, big, graphs=None)
    assert dynamo.explain(small_arrays_loop, backend="eager")(big).graph_count >= 1


# ----------------------------------------------------------------------------- while loops
# The test stays in the frame, as plain Python; the body is the outlined function.

def w_convergence(x):
    err = 1.0
    k = 0
    while err > 1e-6:
        y = 0.5 * (x + 2.0 / x)
        err = float(np.abs(y - x).max())
        print(k, round(err, 8))
        x = y
        k += 1
    return x, k


def w_counter(x, n):
    i = 0
    while i < n:
        x = np.tanh(x) * 1.01 + 0.5
        print(i, end=" ")
        i += 1
    return x, i


def w_tolerance_break(x, tol):
    k = 0
    while True:
        x = np.cos(x)
        err = np.abs(np.cos(x) - x).max()
        if float(err) < tol:
            break
        k += 1
    return x, k


def w_else(x, limit):
    i = 0
    while i < 6:
        x = x + 1
        if x.sum() > limit:
            break
        i += 1
    else:
        x = x * 0
    return x, i


def w_continue(x):
    i = 0
    acc = np.zeros_like(x)
    while i < 10:
        i += 1
        x = np.cos(x) + 0.3
        if x.max() > 1.2:
            continue
        acc = acc + x
    return acc, x, i


def w_return_inside(x):
    k = 0
    while k < 50:
        x = x * 1.5
        if x.sum() > 100:
            return x - 1, k
        k += 1
    return x, -1


def w_nested_for(x):
    it = 0
    while it < 3:
        for j in range(4):
            x = np.sqrt(x) * 2
            print(it, j, end=";")
        it += 1
    return x


def w_in_for(x):
    for t in range(3):
        k = 0
        while k < t + 2:
            x = np.sqrt(x) + 1
            print(t, k, end=";")
            k += 1
    return x


def w_and_condition(x, n, tol):
    i, err = 0, 1.0
    while i < n and err > tol:
        x = 0.5 * (x + 3.0 / x)
        err = float(np.abs(x * x - 3.0).max())
        print(i)
        i += 1
    return x, i, err


def w_raises_at_k(x, log, k):
    i = 0
    while i < 10:
        x[i % 4] += 1.0
        log.append(i)
        if i == k and x.sum() > 0:
            raise ValueError(f"stop at {i}")
        print(i)
        i += 1
    return x


def w_closures(x):
    fs = []
    i = 0
    while i < 5:
        y = x * i
        fs.append(lambda: y + i)   # noqa: B023 (late binding is what is tested)
        print(i)
        i += 1
    return [f() for f in fs]


def w_nonlocal_cell(x):
    count = 0

    def bump():
        nonlocal count
        count += 1
    while count < 7:
        x = x + 1
        bump()
        print(count)
    return x, count


def w_data_condition(x):
    while x.sum() < 100:          # the test itself depends on the data
        x = x * 1.3 + 0.1
        print(float(x.sum()))
    return x


def w_local_after(x, n):
    i = 0
    while i < n:
        y = x * i                 # unbound after the loop when it runs no trip
        print(i)
        i += 1
    return y


def w_jacobi(A, b, tol):
    x = np.zeros_like(b)
    D = np.diag(A)
    R = A - np.diagflat(D)
    it = 0
    while True:
        x_new = (b - R @ x) / D
        res = float(np.linalg.norm(x_new - x))
        x = x_new
        it += 1
        if it % 5 == 0:
            print(it)
        if res < tol or it >= 200:
            break
    return x, it


def w_inplace(a):
    i = 0
    while i < a.shape[0]:
        a[i] = np.sin(a[i]) + 1
        if a[i].sum() > 2:
            print(i)
        i += 1
    return a


def w_walrus(x, items):
    out = []
    while (v := items.pop()) > 0:   # the test binds a local the body reads
        x = x * v
        out.append(float(x.sum()))
        print(v)
    return x, out, items


def w_then_while_true(x, n):
    i = 0
    while i < n:
        y = x + i
        print(i)
        i += 1
    while True:                   # jumps back to the first instruction after the loop
        x = x + 1
        if x.sum() > 20:
            break
    return x, y


A3 = np.array([[4.0, 1, 0], [1, 5, 2], [0, 2, 6]])
WHILE_PROGRAMS = [
    (w_convergence, (np.full(3, 5.0),)),
    (w_counter, (np.ones(3), 7)),
    (w_counter, (np.ones(3), 0)),
    (w_tolerance_break, (np.ones(3), 1e-4)),
    (w_else, (np.ones(2), 3.0)),
    (w_else, (np.ones(2), 1000.0)),
    (w_continue, (np.linspace(0, 1, 5),)),
    (w_return_inside, (np.ones(3),)),
    (w_return_inside, (np.full(3, 1e-9),)),
    (w_nested_for, (np.ones(3),)),
    (w_in_for, (np.ones(3),)),
    (w_and_condition, (np.full(3, 2.0), 20, 1e-9)),
    (w_and_condition, (np.full(3, 2.0), 2, 1e-9)),
    (w_raises_at_k, (np.zeros(4), [], 0)),
    (w_raises_at_k, (np.zeros(4), [], 5)),
    (w_closures, (np.ones(2),)),
    (w_nonlocal_cell, (np.ones(2),)),
    (w_data_condition, (np.ones(3),)),
    (w_local_after, (np.ones(2), 3)),
    (w_local_after, (np.ones(2), 0)),
    (w_jacobi, (A3, np.ones(3), 1e-10)),
    (w_inplace, (np.linspace(0, 3, 8).reshape(4, 2),)),
    (w_walrus, (np.ones(2), [0, 3, 2, 4])),
    (w_then_while_true, (np.ones(2), 3)),
    (w_then_while_true, (np.ones(2), 0)),
]


def _bodies_with_graphs(fn, *args, backend="eager"):
    """The outlined bodies (and their resume functions) that compiled a graph."""
    return {f.split(" ")[0] for f in _frames_with_graphs(fn, *args, backend=backend)
            if "loop_body" in f}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", WHILE_PROGRAMS,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(WHILE_PROGRAMS)])
def test_while_loop_programs(fn, args, backend):
    check(fn, *args, backend=backend, rtol=1e-12)


# the loop runs at least one trip and its body has array code: the body is outlined
OUTLINED_WHILE = [(f, a) for f, a in WHILE_PROGRAMS
                  if f not in (w_counter, w_local_after, w_then_while_true) or a[1]]


@pytest.mark.parametrize("fn,args", OUTLINED_WHILE,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(OUTLINED_WHILE)])
def test_while_loop_bodies_are_compiled(fn, args):
    if fn is w_continue and pyversion.WHILE_TEST_IN_LOOP:
        # (3.14: the `continue` and the way past it both jump back to the loop's test,
        # joined at the trip's end, branch_selects._trip_ends: no break, nothing outlined)
        assert not dynamo.explain(fn, backend="eager")(*args).break_reasons
        return
    if fn is w_else and sys.version_info >= (3, 13):
        # (3.13+: the `while ... else` whose exit `break`s on data is one loop node,
        # translator/while_scope: no break, nothing outlined; 3.11's bytecode still breaks)
        assert not dynamo.explain(fn, backend="eager")(*args).break_reasons
        return
    # (a body outlined from a resume function is named after it: f_resume_at_L5_loop_body_L5)
    bodies = _bodies_with_graphs(fn, *args)
    assert any(name.startswith(fn.__name__) and "_loop_body_L" in name for name in bodies), \
        bodies


def test_while_loop_log_says_outlined(caplog):
    with caplog.at_level(logging.DEBUG, logger="dynamo.loops"):
        check(w_counter, np.ones(3), 5)
    assert any("loop body outlined as w_counter_loop_body_L" in r.getMessage()
               for r in caplog.records)


def test_while_body_reading_a_local_unbound_before_stays_correct(caplog):
    def reads_prev(x):
        i = 0
        while i < 4:
            if i:
                print(prev)      # noqa: F821 (bound by the previous trip)
            prev = x + i
            i += 1
        return prev
    with caplog.at_level(logging.DEBUG, logger="dynamo.loops"):
        check(reads_prev, np.ones(2))
    assert any("not outlined" in r.getMessage() and "prev" in r.getMessage()
               for r in caplog.records)


# ----------------------------------------------------------------------------- lifetimes
# A local the body stores is moved into the body function (the frame unbinds it, the
# body hands it back): its store frees the previous trip's object at the store.
EVENTS: list = []


class Noisy:
    def __init__(self, tag):
        self.tag = tag
        EVENTS.append(f"new {tag}")

    def __del__(self):
        EVENTS.append(f"del {self.tag}")


def rebinds_each_trip(x, n):
    EVENTS.clear()
    for i in range(n):
        a = Noisy(i)              # noqa: F841 (frees Noisy(i - 1) here, after Noisy(i) is made)
        print(i)
        EVENTS.append(f"trip {i}")
    EVENTS.append("after")
    return list(EVENTS), x      # `a` (dead) still holds the last one here


def rebinds_sometimes(x, n):
    EVENTS.clear()
    for i in range(n):
        if i % 2:
            a = Noisy(i)          # noqa: F841 (its lifetime is what is tested)
        print(i)
        EVENTS.append(f"trip {i}")
    EVENTS.append("after")
    return list(EVENTS), x


def rebinds_in_while(x, n):
    EVENTS.clear()
    a = Noisy("before")
    i = 0
    while i < n:
        a = Noisy(i)
        print(i)
        EVENTS.append(f"trip {i}")
        i += 1
    EVENTS.append("after")
    return list(EVENTS), x, a.tag


def make_noisy(n):
    for i in range(n):
        yield Noisy(i)


def items_die_in_order(x, n):
    EVENTS.clear()
    for item in make_noisy(n):    # the loop variable holds the only reference
        print(item.tag)
        EVENTS.append(f"trip {item.tag}")
    EVENTS.append("after")
    return list(EVENTS), x


def returns_from_the_body(x):
    EVENTS.clear()
    for i in range(5):
        a = Noisy(i)              # noqa: F841
        if i == 2:
            return list(EVENTS), x
        print(i)
    return None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args,outlined", [
    (rebinds_each_trip, (np.ones(2), 3), True),
    (rebinds_each_trip, (np.ones(2), 0), False),     # no trip: no break, nothing outlined
    (rebinds_sometimes, (np.ones(2), 4), True),
    (rebinds_in_while, (np.ones(2), 3), True),
    (rebinds_in_while, (np.ones(2), 0), False),
    # (the generator's step breaks the trace before the body: the loop stays an island)
    (items_die_in_order, (np.ones(2), 3), False),
    (returns_from_the_body, (np.ones(2),), True),
])
def test_objects_the_body_binds_die_where_plain_python_frees_them(fn, args, outlined,
                                                                   backend):
    check(fn, *args, backend=backend)
    assert bool(_outlined(fn, *args)) == outlined


def _outlined(fn, *args):
    """The names of the body functions the loops of ``fn`` were outlined as."""
    import contextlib
    import copy
    import io

    from dynamo import listeners
    seen = _FrameStarts()
    with listeners.listening(seen), contextlib.redirect_stdout(io.StringIO()):
        dynamo.compile(fn, backend="eager")(*copy.deepcopy(args))
    return {n for n in seen.names if "loop_body" in n}


# ----------------------------------------------------------------------------- inner loops
# An outlined body whose inner loop breaks the graph: the inner loop is outlined in turn,
# and the rest of the outer body after it (array code, a try or with block, a break) is
# compiled by a resume function of the outer body function, which takes the outer
# loop's iterator placeholder as its stack. Each program's array code after the inner
# loop has an op of its own (the MARKERS) that must be in a graph of an outlined body.

def after_inner(x):
    out = np.zeros(3)
    for i in range(2):
        for j in range(3):
            print(j)
            out[i] += x[j] * i
        out[i] = out[i] * 2.0 + np.cbrt(x[:5]).sum()
        print(i)
    return out


def the_issue_example(x):
    out = np.zeros(3)
    for i in range(3):
        for j in range(4):
            out[i] += x[j] * i
        print(i)
        out[i] = out[i] * 2.0 + np.cbrt(x[:5]).sum()
    return out


def while_in_for(x):
    for i in range(3):
        k = 0
        while k < 2:
            x = x + k
            print(k)
            k += 1
        x = np.cbrt(x) * 2.0
    return x


def for_in_while(x):
    i = 0
    while i < 3:
        for j in range(2):
            x = x * 1.5
            print(j)
        x = np.cbrt(x) + 1.0
        i += 1
    return x


def while_in_while(x):
    i = 0
    while i < 2:
        k = 0
        while k < 3:
            x = x + 0.5
            print(i, k)
            k += 1
        x = np.cbrt(x)
        i += 1
    return x, i, k


def two_inner(x):
    for i in range(2):
        for j in range(2):
            x = x + 1
            print("a", j)
        x = np.expm1(-x)
        for j in range(2):
            x = x * 2
            print("b", j)
        x = np.cbrt(x)
    return x


def inner_breaks(x):
    for i in range(3):
        for j in range(10):
            x = x + 1.0
            if x.sum() > 10 * (i + 1):       # data-dependent: the inner body breaks
                break
        x = np.cbrt(x)
        print(i)                  # (`print(i, j)`: j may be unbound, not outlined)
    return x, j


def inner_else(x):
    for i in range(3):
        for j in range(4):
            x = x * 1.1
            if x.max() > 3.0:
                break
        else:
            x = np.expm1(x * 0.1)
        x = np.cbrt(x)
        print(i)
    return x


def try_after_inner(x):
    for i in range(3):
        for j in range(2):
            x = x + 1.0
            print(j)
        try:
            x = np.cbrt(x) + 1.0
            if i == 1:
                x = x.reshape(7)            # ValueError: caught in the body function
        except ValueError:
            x = x * 0.5
        print(i)
    return x


class Scope:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *exc):
        self.log.append(f"exit {exc[0].__name__ if exc[0] else None}")
        return exc[0] is KeyError


def errstate_after_inner(x):
    for i in range(3):
        for j in range(2):
            x = x - 0.5
            print(j)
        with np.errstate(invalid="ignore", divide="ignore"):
            x = np.log(x) + np.cbrt(x)      # nan and -inf, no warning
        x = np.nan_to_num(x) + 2.0
        print(i)
    return x


def with_after_inner(x, log):
    for i in range(3):
        for j in range(2):
            x = x - 0.5
            print(j)
        with Scope(log):
            x = np.cbrt(x) * 1.5
            if i == 2:
                raise KeyError(i)           # swallowed by __exit__
        print(i)
    return x


def outer_break_after_inner(x):
    for i in range(5):
        for j in range(2):
            x = x * 1.2
            print(j)
        x = np.cbrt(x)
        if i == 2:
            break
        x = x + 1.0
    return x, i


def outer_continue_after_inner(x):
    acc = np.zeros_like(x)
    for i in range(4):
        for j in range(2):
            x = x + 0.25
            print(j)
        y = np.cbrt(x)
        if i % 2:
            continue
        acc = acc + y
    return acc, y


def returns_after_inner(x):
    for i in range(5):
        for j in range(2):
            x = x * 1.5
            print(j)
        x = np.cbrt(x) + 1.0
        if i == 3:
            return x, "early"
    return x, "late"


def inner_returns(x):
    for i in range(4):
        for j in range(3):
            x = x + 1.0
            print(j)
            if i == 2 and j == 1:
                return x, i, j
        x = np.cbrt(x)
    return x, -1, -1


def raises_after_inner(x, log, k):
    for i in range(4):
        for j in range(2):
            x = x + 1.0
            print(j)
        x = np.cbrt(x)
        log.append(float(x[0]))
        if i == k:
            raise RuntimeError(f"trip {i}")
        x = x * 2.0
    return x


def closures_after_inner(x):
    fns = []
    for i in range(3):
        for j in range(2):
            x = x + j
            print(j)
        y = np.cbrt(x)
        fns.append(lambda: y * i)   # noqa: B023 (late binding: every one sees the last y, i)
    return [f() for f in fns], x


def three_levels(x):
    for i in range(2):
        for j in range(2):
            for k in range(2):
                x = x + 1.0
                print(i, j, k)
            x = np.expm1(x * 0.01)
        x = np.cbrt(x)
    return x


def inner_in_try_stays_correct(x):
    for i in range(2):
        try:
            for j in range(2):
                x = x + 1.0
                print(j)
        finally:
            x = x * 2.0
        x = np.cbrt(x)
    return x


def except_as_after_inner(x):
    for i in range(3):
        for j in range(2):
            x = x + 1.0
            print(j)
        try:
            x = np.cbrt(x).reshape(7 if i == 1 else x.shape[0])
        except ValueError as e:
            print(type(e).__name__)
    return x


INNER_PROGRAMS = [
    (after_inner, (np.linspace(1, 2, 8),)),
    (the_issue_example, (np.linspace(0, 1, 40),)),
    (while_in_for, (np.linspace(1, 2, 8),)),
    (for_in_while, (np.linspace(1, 2, 8),)),
    (while_in_while, (np.linspace(1, 2, 8),)),
    (two_inner, (np.linspace(1, 2, 8),)),
    (inner_breaks, (np.linspace(0, 1, 8),)),
    (inner_else, (np.linspace(1, 2, 8),)),
    (inner_else, (np.linspace(0, 0.1, 8),)),
    (try_after_inner, (np.linspace(1, 2, 8),)),
    (errstate_after_inner, (np.linspace(0, 2, 8),)),
    (with_after_inner, (np.linspace(1, 2, 8), [])),
    (outer_break_after_inner, (np.linspace(1, 2, 8),)),
    (outer_continue_after_inner, (np.linspace(1, 2, 8),)),
    (returns_after_inner, (np.linspace(1, 2, 8),)),
    (inner_returns, (np.linspace(1, 2, 8),)),
    (raises_after_inner, (np.linspace(1, 2, 8), [], 2)),
    (closures_after_inner, (np.linspace(1, 2, 8),)),
    (three_levels, (np.linspace(1, 2, 8),)),
    (inner_in_try_stays_correct, (np.linspace(1, 2, 8),)),
    (except_as_after_inner, (np.linspace(1, 2, 8),)),
]
_INNER_IDS = [f"{f.__name__}-{i}" for i, (f, _) in enumerate(INNER_PROGRAMS)]


def _ops_in_bodies(fn, *args, backend="eager"):
    """The names of the ops in the graphs of outlined bodies (and of their resume
    functions) that one traced call of ``fn`` compiled."""
    import contextlib
    import copy
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
    return {getattr(n.target, "__name__", str(n.target))
            for r in report.records if r.graph is not None and "_loop_body_L" in
            r.code.co_qualname for n in r.graph.call_nodes()}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", INNER_PROGRAMS, ids=_INNER_IDS)
def test_inner_loop_programs(fn, args, backend):
    check(fn, *args, backend=backend, rtol=1e-12)


# where the array code after the inner loop stays uncompiled, and why
NOT_COMPILED_AFTER_INNER = {
    inner_in_try_stays_correct: "the inner loop is inside a try block: an island",
    with_after_inner: "a context manager the translator cannot trace makes its with "
                      "block an island, which runs the rest of the frame",
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", INNER_PROGRAMS, ids=_INNER_IDS)
def test_array_code_after_the_inner_loop_is_compiled(fn, args, backend):
    ops = _ops_in_bodies(fn, *args, backend=backend)
    assert ("cbrt" in ops) == (fn not in NOT_COMPILED_AFTER_INNER), ops


# ----------------------------------------------------------------------------- blocks
# try/with blocks wholly inside an outlined body stay in the body function (on 3.12+
# their handlers after the function's end too): what they catch is caught there.

def exits_through_finally(x, log):
    for i in range(6):
        x = x * 1.1
        print(i)
        try:
            if i == 1:
                continue
            if i == 4:
                break
            x = np.cbrt(x) + 1.0
        finally:
            log.append(i)
    return x, i


def returns_through_finally(x, log):
    for i in range(6):
        x = x + 1.0
        print(i)
        try:
            if x.sum() > 20:
                return np.cbrt(x), i
        finally:
            log.append(i)
    return x, -1


def catches_at_trip_k(x, k):
    caught = []
    for i in range(5):
        x = np.cbrt(x) + 1.0
        print(i)
        try:
            if i == k:
                raise ValueError(i)
            x = x * 1.5
        except ValueError:
            caught.append(i)
            x = x - 1.0
    return x, caught


def raises_from_the_handler(x, log, k):
    for i in range(5):
        x = x + 1.0
        print(i)
        try:
            if i == k:
                raise KeyError(i)
        except KeyError:
            log.append(("handler", i))
            raise RuntimeError("from the handler") from None
        log.append(float(np.cbrt(x)[0]))
    return x


def nested_blocks(x):
    for i in range(3):
        print(i)
        try:
            try:
                x = np.cbrt(x) * 2.0
                if i == 1:
                    raise IndexError
            except IndexError:
                x = x + 100.0
            with np.errstate(all="ignore"):
                x = x / (x - x[0])
        finally:
            x = np.nan_to_num(x, posinf=7.0, neginf=-7.0)
    return x


def break_in_errstate(x):
    for i in range(5):
        print(i)
        with np.errstate(divide="ignore"):
            x = np.cbrt(x) - 1.0
            if i == 2:
                break
    return x, i


def except_as_in_the_body(x):
    for i in range(3):
        print(i)
        try:
            x = np.cbrt(x).reshape(7 if i == 1 else 8)
        except ValueError as e:
            msg = str(e)                 # (e is the body function's own local)
        x = x + 1.0
    return x, msg


def except_as_unbinds_a_local(x):
    e = "before"
    for i in range(2):
        print(i)
        try:
            x = np.cbrt(x)
            raise ValueError(i)
        except ValueError as e:          # noqa: F841 (unbinds e: read after the loop)
            pass
    return x, e                          # UnboundLocalError, as in plain Python


BLOCK_PROGRAMS = [
    (except_as_in_the_body, (np.linspace(1, 2, 8),)),
    (except_as_unbinds_a_local, (np.linspace(1, 2, 8),)),
    (exits_through_finally, (np.linspace(1, 2, 8), [])),
    (returns_through_finally, (np.linspace(1, 2, 8), [])),
    (catches_at_trip_k, (np.linspace(1, 2, 8), 2)),
    (catches_at_trip_k, (np.linspace(1, 2, 8), 9)),
    (raises_from_the_handler, (np.linspace(1, 2, 8), [], 3)),
    (nested_blocks, (np.linspace(1, 2, 8),)),
    (break_in_errstate, (np.linspace(1, 2, 8),)),
]
_BLOCK_IDS = [f"{f.__name__}-{i}" for i, (f, _) in enumerate(BLOCK_PROGRAMS)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", BLOCK_PROGRAMS, ids=_BLOCK_IDS)
def test_bodies_with_try_and_with_blocks(fn, args, backend):
    check(fn, *args, backend=backend, rtol=1e-12)
    # (a break inside a try block makes the block an island, which runs the rest of
    # the body: the data-dependent `if` of returns_through_finally; a loop whose
    # `except ... as e` unbinds a local of the frame is not outlined)
    compiled = fn not in (returns_through_finally, except_as_unbinds_a_local)
    assert ("cbrt" in _ops_in_bodies(fn, *args, backend=backend)) == compiled


def noisy_after_inner(x, n):
    EVENTS.clear()
    for i in range(n):
        for j in range(2):
            print(j)
        a = Noisy(i)              # noqa: F841 (frees Noisy(i - 1) here, in the resume function)
        x = np.cbrt(x)
        EVENTS.append(f"trip {i}")
    EVENTS.append("after")
    return list(EVENTS), x


class Stepper:
    def step(self, x):
        return x * 2.0


class SuperStepper(Stepper):
    def run(self, x):
        for i in range(2):
            for j in range(2):
                x = x + 1.0
                print(j)
            x = super().step(np.cbrt(x))     # zero-argument super() after the inner loop
        return x


def super_after_inner(x):
    return SuperStepper().run(x)


def nonlocal_after_inner(x):
    total = 0.0

    def add(v):
        nonlocal total
        total += v

    for i in range(3):
        for j in range(2):
            print(j)
            add(j)
        x = np.cbrt(x) + total
    return x, total


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [
    (noisy_after_inner, (np.linspace(1, 2, 8), 3)),
    (noisy_after_inner, (np.linspace(1, 2, 8), 0)),
    (super_after_inner, (np.linspace(1, 2, 8),)),
    (nonlocal_after_inner, (np.linspace(1, 2, 8),)),
])
def test_after_the_inner_loop_lifetimes_super_and_cells(fn, args, backend):
    check(fn, *args, backend=backend, rtol=1e-12)
    if fn is not noisy_after_inner or args[1]:
        assert "cbrt" in _ops_in_bodies(fn, *args, backend=backend)


@pytest.mark.parametrize("fn", [the_issue_example, after_inner])
def test_inner_loops_over_large_arrays_by_default(fn, monkeypatch):
    """At the default threshold (40,000 elements, over ``config.outline_min_elements``)
    the outer body and the inner loop are outlined, and the array code after the
    inner loop is compiled."""
    monkeypatch.setattr(config, "outline_min_elements", 32768)
    x = np.linspace(0, 1, 40000)
    for backend in BACKENDS:
        check(fn, x, backend=backend, rtol=1e-12)
        assert "cbrt" in _ops_in_bodies(fn, x, backend=backend)


def handler_prints_a_comprehension(x):
    for i in range(3):
        print(i)
        try:
            x = np.cbrt(x)
            if i == 1:
                raise ValueError(i)
        except ValueError:
            print([k * 2 for k in range(i)])   # a break, in the handler (3.12+: inlined)
            x = x + 1.0
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_break_in_the_handler_of_an_outlined_body(backend):
    check(handler_prints_a_comprehension, np.linspace(1, 2, 8), backend=backend,
          rtol=1e-12)
