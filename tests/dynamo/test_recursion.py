"""Recursion through a compiled function (dynamo/reentry.py, issue #17
``compiled-recursion-depth``): a program that finishes uncompiled finishes compiled,
with the same results, output and exceptions, on every CPU backend.

Each program calls itself through a name that holds the compiled object (a global, a
method, a closure cell), as ``@dynamo.compile`` leaves it. Plain runs have the name
hold the plain function. The outermost call runs compiled (its code after a break
marks the code running); the calls nested in it run their original code, one frame a
level (two recursion units on 3.11, where a call of a compiled object counts its
``tp_call`` too)."""

import contextlib
import io
import sys
import threading

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ("eager", "numpy", "native")
# recursion units one level of a call through a compiled object costs CPython
UNITS = 2 if sys.version_info < (3, 12) else 1


def stack_depth() -> int:
    f, n = sys._getframe(1), 0
    while f is not None:
        f, n = f.f_back, n + 1
    return n


def deep() -> int:
    """A depth plain Python reaches from here with room to spare (40 frames), that
    the compiled recursion must reach too: about 950 levels (470 on 3.11)."""
    return (sys.getrecursionlimit() - stack_depth() - 40) // UNITS


def run(fn, *args):
    """(result or (exception type, message), stdout) of one call."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001 (compared with plain Python's)
            result = (type(e).__name__, str(e))
    return result, out.getvalue()


def differential(name, backend, calls, holder=None):
    """Run ``calls`` (argument tuples) through the global ``name`` plain, then with the
    global holding the compiled function; both give the same results and output."""
    g = globals() if holder is None else holder
    plain = g[name]
    expected = [run(plain, *copy_args(a)) for a in calls]
    compiled = dynamo.compile(plain, backend=backend)
    g[name] = compiled
    try:
        got = [run(compiled, *copy_args(a)) for a in calls]
    finally:
        g[name] = plain
    for (r1, o1), (r2, o2) in zip(expected, got):
        same(r2, r1)
        assert o2 == o1
    return compiled, plain


def copy_args(args):
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


X = np.arange(3.0)


# ---------------------------------------------------------------- self recursion

def rec_break(x, d):
    if d == 0:
        return x
    if d % 100 == 0:
        print(d)          # a graph break on some levels
    return rec_break(x * 1.0 + 1, d - 1)


def rec_plain(x, d):
    if d == 0:
        return x
    return rec_plain(x + 1, d - 1)   # the trace breaks at the call of itself


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["rec_break", "rec_plain"])
def test_self_recursion_reaches_plain_depth(name, backend):
    compiled, plain = differential(name, backend, [(X, 3), (X, 250), (X, deep()), (X, 4)])
    # the nested calls ran uncompiled: they made no entry of their own each
    assert len(compiled._ctx.caches[plain.__code__].entries) <= 4


def rec_raises(x, d):
    if d == 0:
        raise ValueError(f"bottom {x.sum()}")
    print(end="")
    return rec_raises(x + 1, d - 1)


def catches_at(x, d, at):
    try:
        return rec_raises(x, d)
    except ValueError as e:
        return ("caught", str(e), at)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_exception_unwinds_through_every_level(backend):
    differential("rec_raises", backend, [(X, 2), (X, 300)])

    # caught by the program's own except, above all the levels, with plain Python's
    # traceback: one entry of rec_raises a level, nothing of dynamo's
    def levels(fn):
        try:
            fn(X.copy(), 200)
        except ValueError as e:
            tb, names = e.__traceback__, []
            while tb is not None:
                names.append(tb.tb_frame.f_code.co_name)
                tb = tb.tb_next
            return names
    plain = levels(rec_raises)
    compiled = dynamo.compile(rec_raises, backend=backend)
    globals()["rec_raises"] = compiled
    try:
        levels(compiled)   # (compiles)
        got = levels(compiled)
    finally:
        globals()["rec_raises"] = rec_raises_plain
    assert got == plain and plain.count("rec_raises") == 201


rec_raises_plain = rec_raises


def infinite(x):
    print(end="")
    return infinite(x + 1)


def catches_recursion(x):
    try:
        return infinite(x)
    except RecursionError as e:
        return "caught", type(e).__name__


def recursion_error_message(result):
    """The (type, message) ``run`` gives of a RecursionError, the message without the
    name of the check that tripped (below)."""
    name, message = result
    return name, message.split(" while ")[0].split(" in ")[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_recursion_plain_python_cannot_finish_still_raises_recursion_error(backend):
    # The same output and RecursionError. On 3.11 its message names the check that
    # tripped: a level of a recursion through a compiled object spends two units (the
    # object's tp_call, then the frame: see the module doc) and its dispatcher more
    # for a moment, so which check is the one past the limit, a call's ("... while
    # calling a Python object"), a guard's compare ("... in comparison") or a frame's
    # (no suffix), goes with the depth the recursion started at: at HEAD 8b2aa6d the
    # compiled call ended with one or another, one frame more or less deep in the
    # caller (docs/python_semantics.md, "Recursion and the recursion limit")
    plain = run(infinite_plain, X.copy())
    compiled = dynamo.compile(infinite_plain, backend=backend)
    globals()["infinite"] = compiled
    try:
        got = run(compiled, X.copy())
    finally:
        globals()["infinite"] = infinite_plain
    assert recursion_error_message(got[0]) == recursion_error_message(plain[0]) == \
        ("RecursionError", "maximum recursion depth exceeded")
    assert got[1] == plain[1]
    compiled = dynamo.compile(infinite, backend=backend)
    globals()["infinite"] = compiled
    try:
        assert run(catches_recursion, X.copy())[0] == ("caught", "RecursionError")
        # and the function still runs compiled afterwards (no entry was given up)
        with pytest.raises(RecursionError):
            compiled(X.copy())
    finally:
        globals()["infinite"] = infinite_plain
    assert compiled._ctx.caches[infinite_plain.__code__].skip_reason is None


infinite_plain = infinite


# ---------------------------------------------------------------- mutual recursion

def mutual_a(v, d):
    return v if d <= 0 else mutual_b(v * 2, d - 1)


def mutual_b(v, d):
    for _ in range(1):
        if d % 50 == 0:
            print(d)
    return mutual_a(v - 1, d - 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_mutual_recursion(backend):
    differential("mutual_a", backend, [(X, 4), (X, 2 * (deep() // 2) - 10), (X, 7)])


# ---------------------------------------------------------------- methods, closures

class Tree:
    def __init__(self):
        self.seen = []

    def walk(self, x, d):
        if d == 0:
            return x
        self.seen.append(d) if d % 97 == 0 else None
        print(end="")
        return self.walk(x + d, d - 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_recursion_through_a_method(backend):
    def run_on(cls, d):
        t = cls()
        return run(t.walk, X.copy(), d), t.seen
    plain = [run_on(Tree, d) for d in (3, 300, deep())]

    class Compiled(Tree):
        walk = dynamo.compile(Tree.walk, backend=backend)
    got = [run_on(Compiled, d) for d in (3, 300, deep())]
    for ((r1, o1), s1), ((r2, o2), s2) in zip(plain, got):
        same(r2, r1)
        assert (o2, s2) == (o1, s1)


def make_closure(compile_it, backend):
    scale = 2.0

    def rec(x, d):
        if d == 0:
            return x * scale
        print(end="")
        return rec(x + 1, d - 1)
    if compile_it:
        rec = dynamo.compile(rec, backend=backend)   # the cell holds the compiled one
    return rec


@pytest.mark.parametrize("backend", BACKENDS)
def test_recursion_through_a_closure_cell(backend):
    plain, compiled = make_closure(False, None), make_closure(True, backend)
    for d in (3, 300, deep(), 5):
        r1, r2 = run(plain, X.copy(), d), run(compiled, X.copy(), d)
        same(r2[0], r1[0])
        assert r2[1] == r1[1]


# ---------------------------------------------------------------- generators

def gen_walk(x, d):
    if d > 0:
        yield from gen_walk(x, d - 1)
    yield x * d


def total(x, d):
    return sum(v.sum() for v in gen_walk(x, d))


@pytest.mark.parametrize("backend", BACKENDS)
def test_recursive_generator(backend):
    # (each level of ``yield from`` holds a frame, plain or compiled)
    differential("total", backend, [(X, 3), (X, 200), (X, 2)])
    compiled = dynamo.compile(gen_walk, backend=backend)
    globals()["gen_walk"] = compiled
    try:
        for d in (3, 200):
            for a, b in zip(compiled(X, d), gen_walk_plain(X, d), strict=True):
                same(a, b)
    finally:
        globals()["gen_walk"] = gen_walk_plain


gen_walk_plain = gen_walk


# ---------------------------------------------------------------- threads

def in_threads(fn, d, n=4):
    out = [None] * n

    def work(i):
        out[i] = fn(X + i, d)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_recursion_in_several_threads_at_once():
    compiled = dynamo.compile(rec_break_plain, backend="eager")
    globals()["rec_break"] = compiled
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            compiled(X.copy(), 3)
            got = in_threads(compiled, 150)
    finally:
        globals()["rec_break"] = rec_break_plain
    with contextlib.redirect_stdout(io.StringIO()):
        expected = in_threads(rec_break_plain, 150)
    for a, b in zip(got, expected):
        same(a, b)


rec_break_plain = rec_break
