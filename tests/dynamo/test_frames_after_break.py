"""What a callee reads through its caller's frame after a graph break, and calls after
``fn.__code__`` is replaced (issue #17; docs/python_semantics.md, "Readers after a
break or in an island", "Locals", "A replaced ``__code__``").

The hostile suite (``tests/hostile/prog_round6_runtime.py``, ``prog_round7_dead.py``,
``prog_round8_frames.py``) compares whole programs with plain Python; these check the
mechanisms: what ``caller_frames`` finds, the log line, which callable the compiled
object calls afterwards, and that nothing is kept alive."""

import gc
import logging
import sys
import types
import weakref

import numpy as np
import pytest

import dynamo
from dynamo.bytecode.caller_frames import calls_caller_reader, reader_within

X = np.linspace(-1.0, 1.0, 6)


def _two_up(y):
    f = sys._getframe(2)
    return f.f_code.co_name, sorted(f.f_locals)


def _peek(name):
    return sys._getframe(1).f_locals.get(name, "missing")


class _Reader:
    def read(self, y):
        f = sys._getframe(2)
        return f.f_code.co_name, sorted(f.f_locals)


class _Peeker:
    def peek(self, name):
        return _peek(name)


def _fresh(fn):
    """A copy of ``fn`` with its own code object (what is learnt stays with a code)."""
    return types.FunctionType(fn.__code__.replace(), fn.__globals__, fn.__name__)


# ------------------------------------------------------------ what caller_frames finds

def _calls_method(x, o):
    y = x * 2
    print("between")
    return o.read(y)


def _calls_item(x, readers):
    y = x * 2
    print("between")
    return readers["r"](y)


def _calls_nothing_odd(x, o):
    y = x * 2
    print("between")
    return np.sum(y), o


@pytest.mark.parametrize("fn,value", [(_calls_method, _Reader()),
                                      (_calls_item, {"r": _Reader().read}),
                                      (_calls_item, {"r": _two_up})])
def test_a_two_up_reader_within_reach_is_found(fn, value):
    levels, why = reader_within(fn, [X, value])
    assert levels == 2
    assert "sys._getframe(2)" in why


def test_nothing_found_where_no_reader_is_held():
    assert reader_within(_calls_nothing_odd, [X, object(), [np.sum, len], {"a": 1}]) == \
        (0, "")
    assert calls_caller_reader(_calls_nothing_odd, [X, [np.sum]]) is None


class _Loud:
    """Reading anything but its class's own functions would show in ``touched``."""
    touched: list = []

    def __getattr__(self, name):
        _Loud.touched.append(name)
        raise AttributeError(name)

    @property
    def __class__(self):
        _Loud.touched.append("__class__")
        return _Loud


class _LoudList(list):
    def __iter__(self):
        _Loud.touched.append("__iter__")
        return super().__iter__()

    def __len__(self):
        _Loud.touched.append("__len__")
        return super().__len__()


def test_looking_runs_no_code_of_the_program():
    loud = [_Loud(), [_Loud()], {"k": _Loud()}, _LoudList([_two_up])]
    reader_within(_calls_method, loud)
    calls_caller_reader(_calls_method, loud)
    assert _Loud.touched == []


def _dead_then_peek(x, p):
    d = x - 1.0   # noqa: F841 (read through the frame)
    print("between")
    return p.peek("d")


def test_a_caller_of_a_one_up_reader_is_found():
    assert calls_caller_reader(_dead_then_peek, [X, _Peeker()]) is None   # two levels in
    assert "peek" in calls_caller_reader(_dead_then_peek, [X, types.SimpleNamespace(
        peek=_peek)])


# ------------------------------------------------------------------ compiled behaviour

@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_reader_after_a_break_sees_the_programs_frames_on_the_first_call(backend, caplog,
                                                                          capsys):
    fn = _fresh(_calls_method)
    compiled = dynamo.compile(fn, backend=backend)

    def caller(f):
        return f(X, _Reader())
    with caplog.at_level(logging.DEBUG, logger="dynamo.graph_breaks"):
        assert caller(compiled) == caller(fn) == ("caller", ["f"])
    assert any("after a graph break" in r.getMessage() for r in caplog.records)
    assert compiled._call is fn   # plain from now on
    assert caller(compiled) == ("caller", ["f"])


def _dead_then_global_peek(x):
    d = x - 1.0   # noqa: F841 (read through the frame)
    x = x * 2.0
    print("between")
    return _peek("d"), x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_dead_local_read_after_a_break_stays_compiled(backend, capsys):
    """Passing every bound local on costs no fallback: the frame stays compiled."""
    fn = _fresh(_dead_then_global_peek)
    compiled = dynamo.compile(fn, backend=backend)
    for _ in range(2):
        got, want = compiled(X), fn(X)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert compiled._call is not fn


# ---------------------------------------------------------------------- replaced code

def _one(x):
    return x + 1.0


def _any(x, *rest):
    return x - len(rest)


def test_replaced_code_takes_the_new_parameters_after_the_prologue_sees_it():
    fn = _fresh(_one)
    compiled = dynamo.compile(fn, backend="eager")
    compiled(X)
    first = compiled._call
    fn.__code__ = _any.__code__
    assert np.array_equal(compiled(X), X)          # bound both ways: the prologue sees it
    assert compiled._call is not first             # an entry of the new code now
    assert np.array_equal(compiled(X, 1, 2), X - 2)
    fn.__code__ = _one.__code__
    compiled(X)
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        compiled(X, 1)


def test_replaced_through_the_compiled_object_binds_at_once():
    fn = _fresh(_one)
    compiled = dynamo.compile(fn, backend="eager")
    compiled.__code__ = _any.__code__
    assert fn.__code__ is _any.__code__
    assert np.array_equal(compiled(X, 1, 2, 3), X - 3)


def test_watching_the_code_keeps_nothing_alive():
    fn = _fresh(_one)
    compiled = dynamo.compile(fn, backend="eager")
    compiled(X)
    fn.__code__ = _any.__code__
    compiled(X)
    refs = weakref.ref(compiled), weakref.ref(fn)
    del compiled, fn
    gc.collect()
    assert refs[0]() is None and refs[1]() is None


# ------------------------------------- a reader made after the frame compiled (guards)

READER = None


def _plain_read(y):
    return "plain", []


def _via_global_reader(x):
    y = x + 1
    print("between")
    return READER(y)


def _plain_twin(y):
    return "plain", []


def _eager(fn, *args):
    """``fn(*args)`` from a frame of its own: a two-up reader sees this frame, with
    the same name and locals whether ``fn`` is the compiled object or the plain one."""
    return fn(*args)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_global_rebound_to_a_reader_after_compiling_is_seen_from_the_programs_frame(
        backend, capsys):
    global READER
    fn = _fresh(_via_global_reader)
    f = dynamo.compile(fn, backend=backend)
    try:
        READER = _plain_read
        assert f(X) == _eager(fn, X)
        READER = _two_up
        got, want = _eager(f, X), _eager(fn, X)
        assert got == want == ("_eager", ["args", "fn"])
        READER = _plain_twin            # another plain function: compiled again, right
        assert f(X) == _eager(fn, X) == ("plain", [])
    finally:
        READER = None
    capsys.readouterr()


class _PlainObj:
    def read(self, y):
        return "plain", []


class _Slot:
    """One class, a reader or not depending on the instance's ``read``."""

    def __init__(self, read):
        self.read = read


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_an_argument_of_another_class_that_reads_frames_is_seen_from_the_programs_frame(
        backend, capsys):
    fn = _fresh(_calls_method)
    f = dynamo.compile(fn, backend=backend)
    assert f(X, _PlainObj()) == _eager(fn, X, _PlainObj())
    got, want = _eager(f, X, _Reader()), _eager(fn, X, _Reader())
    assert got == want == ("_eager", ["args", "fn"])
    capsys.readouterr()


def _calls_arg(x, reader):
    y = x * 2
    print("between")
    return reader(y)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_function_argument_with_other_code_is_checked_again(backend, capsys):
    fn = _fresh(_calls_arg)
    f = dynamo.compile(fn, backend=backend)
    for _ in range(3):   # a lambda made per call has one code: one entry serves them
        assert f(X, lambda y: ("plain", [])) == ("plain", [])
    got, want = _eager(f, X, _two_up), _eager(fn, X, _two_up)
    assert got == want == ("_eager", ["args", "fn"])
    capsys.readouterr()


def test_whole_frame_entries_get_no_reach_guards():
    """Only an entry with a break carries the guards (its hit path pays for them)."""
    global READER

    def whole(x):
        return READER(x) * 2

    READER = np.negative
    try:
        f = dynamo.compile(whole, backend="eager")
        assert np.array_equal(f(X), -X * 2)
        READER = np.abs
        # (the trace itself guards READER: a recompile, a right result)
        assert np.array_equal(f(X), np.abs(X) * 2)
    finally:
        READER = None


def _three_up():
    f = sys._getframe(3)
    return f.f_code.co_name, sorted(f.f_locals)


def _closing_over(reader):
    return lambda y: reader()


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_closure_argument_over_another_reader_is_checked_again(backend, capsys):
    """One code, two closures: only the second's cell holds a reader (three up from
    itself, two up from the closure): the entry of the first does not serve it."""
    fn = _fresh(_calls_arg)
    f = dynamo.compile(fn, backend=backend)
    plain = _closing_over(lambda: ("plain", []))
    assert _eager(f, X, plain) == _eager(fn, X, plain) == ("plain", [])
    reading = _closing_over(_three_up)
    got, want = _eager(f, X, reading), _eager(fn, X, reading)
    assert got == want == ("_eager", ["args", "fn"])
    capsys.readouterr()


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_an_instance_attribute_reader_of_the_same_class_is_checked_again(backend, capsys):
    """``self.read`` set per instance: same class, only the second reads frames; made
    per call with one code, the plain ones share an entry."""
    fn = _fresh(_calls_method)
    f = dynamo.compile(fn, backend=backend)
    for _ in range(2):
        assert f(X, _Slot(lambda y: ("plain", []))) == ("plain", [])
    got, want = _eager(f, X, _Slot(_two_up)), _eager(fn, X, _Slot(_two_up))
    assert got == want == ("_eager", ["args", "fn"])
    capsys.readouterr()



class _OwnLookup:
    """Reads of its attributes run a ``__getattribute__`` of its own: a graph break."""

    def __getattribute__(self, name):
        return object.__getattribute__(self, name)


class _Returns:
    def __init__(self):
        self.gamma, self.box = 0.5, _OwnLookup()
        self.box.rewards, self.box.bias = [1.0, 2.0, 4.0], 0.25

    def discounted(self, x):
        # the generator function (closing over self) is made, then the break at
        # self.box.rewards: it is carried into the resume function, which breaks
        # again at self.box.bias (an entry with a break: the reader check's guards)
        return x * sum(self.gamma ** i * r for i, r in enumerate(self.box.rewards)) \
            + self.box.bias


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_generator_carried_over_a_break_keeps_one_entry(backend):
    """The frame-reader check looks through the cells a closure *calls* by name only:
    a generator expression over ``self`` carried over a break mid-``sum`` (issue #16,
    ``n_step_return_deques``) is guarded by its code, not by identity (a new one each
    call missed every entry, until the cache limit)."""
    want, got = _Returns(), _Returns()
    with dynamo.explain(got.discounted, backend=backend) as f:
        for k in range(5):
            assert np.array_equal(f(X * k), want.discounted(X * k))
    assert [r for r in f.report.recompiles if r.call >= 1] == [], \
        [str(r) for r in f.report.recompiles]
