"""What frame introspection sees (issue #17): a function that reads the frame that
called it sees its real caller when compiled, as in plain Python.

Each *reader* below reads its caller's frame through one API. It is compiled itself
(its caller is the test harness's ``run``), called from a compiled function at a graph
break (its call cannot be inlined: the read is no graph op), called from an island
(the code after ``sys._getframe()``, which runs uncompiled with its calls routed
through the hook), called from a compiled function that is itself called at a break,
and called as a callable object. In every place the caller it sees must be the one
plain Python shows: name, file, line, globals and local names
(``dynamo/bytecode/caller_frames.py``, docs/python_semantics.md).
"""

from __future__ import annotations

import inspect
import io
import logging
import os
import sys
import traceback
import warnings

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo.bytecode.caller_frames import (
    READS_ALL,
    frames_read,
    reads_caller_frame,
    reads_caller_frame_of,
)

X = np.linspace(-1.0, 1.0, 6)


def describe(frame) -> tuple:
    """What a program can tell of a frame: its function, file, line (from the
    function's first line), module and local names."""
    code = frame.f_code
    return (code.co_name, os.path.basename(code.co_filename),
            frame.f_lineno - code.co_firstlineno, frame.f_globals.get("__name__"),
            sorted(frame.f_locals))


def _summary(entry) -> tuple:
    """A ``FrameInfo`` or ``FrameSummary``: function, file, line, source text."""
    name = getattr(entry, "function", None) or entry.name
    return (name, os.path.basename(entry.filename), entry.lineno, entry.line
            if hasattr(entry, "line") else entry.code_context)


# ----------------------------------------------------------------------------- readers

def getframe_1(y):
    return describe(sys._getframe(1))


def getframe_f_back(y):
    return describe(sys._getframe().f_back)


def currentframe_f_back(y):
    return describe(inspect.currentframe().f_back)


def inspect_stack(y):
    # (only the caller: the frames above a compiled caller are dynamo's, see the doc)
    info = inspect.stack()[1]
    return describe(info.frame), _summary(info)


def getouterframes(y):
    info = inspect.getouterframes(inspect.currentframe())[1]
    return describe(info.frame), _summary(info)


def extract_stack(y):
    return [_summary(s) for s in traceback.extract_stack(limit=2)]


def print_stack(y):
    out = io.StringIO()
    traceback.print_stack(limit=2, file=out)
    return out.getvalue()


def format_stack(y):
    return traceback.format_stack(limit=2)


def warn_stacklevel_2(y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("careful", UserWarning, stacklevel=2)
        warnings.warn("here", UserWarning, stacklevel=1)   # (this frame)
    return [(os.path.basename(w.filename), w.lineno, str(w.message)) for w in caught]


READERS = [getframe_1, getframe_f_back, currentframe_f_back, inspect_stack,
           getouterframes, extract_stack, print_stack, format_stack, warn_stacklevel_2]


class Reader:
    """A callable object whose ``__call__`` reads its caller's frame."""

    def __call__(self, y):
        return describe(sys._getframe(1))


# ----------------------------------------------------------------------------- places

def at_a_break(reader):
    def f(x):
        y = np.sin(x) * 2
        seen = reader(y)
        return y + 1, seen
    return f


def in_an_island(reader):
    def f(x):
        y = np.cos(x)
        here = sys._getframe()   # the rest of f runs uncompiled in this frame
        seen = reader(y)
        return y - 1, seen, here.f_code.co_name
    return f


def through_a_compiled_caller(reader):
    inner = at_a_break(reader)

    def g(x):
        z = x * 3
        return inner(z), z.sum()
    return g


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_compiled_reader_sees_its_caller(reader, backend):
    check(reader, X, backend=backend)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
@pytest.mark.parametrize("place", [at_a_break, in_an_island, through_a_compiled_caller],
                         ids=lambda p: p.__name__)
def test_reader_called_from_compiled_code_sees_its_caller(reader, place, backend):
    check(place(reader), X, backend=backend)


@pytest.mark.filterwarnings("ignore:old")
def test_reader_is_called_at_the_break():
    """The reader's call is the graph break (it is not inlined into the graph): the
    array ops after it still make a graph of the resume function. A reader that gets
    hold of the caller's frame object (``sys._getframe(1)``) may read its locals
    later, so the rest of the caller runs in that frame, uncompiled (an island)."""
    check(_warns_at_a_break, X, graphs=2, breaks=1)
    check(at_a_break(getframe_1), X, graphs=1, breaks=1)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_callable_object_reader(backend):
    r = Reader()

    def f(x):
        y = np.tanh(x)
        return y, r(y)
    check(f, X, backend=backend)
    check(Reader(), X, backend=backend)   # dynamo.compile of the object itself


def test_method_reader():
    class Model:
        def forward(self, x):
            return x * 2, describe(sys._getframe(1))
    check(Model().forward, X)


def _warn_old(y):
    warnings.warn("old", UserWarning, stacklevel=2)
    return y


def _warns_at_a_break(x):
    y = np.exp(x)
    y = _warn_old(y)
    return y * 2


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_default_filter_warns_once_per_caller_line(backend):
    """Under the "default" filter a warning is shown once per location, kept in the
    ``__warningregistry__`` of the module the location is in: the caller's line, in
    this module, compiled or not."""
    def calls(f):
        globals().pop("__warningregistry__", None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.resetwarnings()
            warnings.simplefilter("default")
            for _ in range(3):
                f(X)
            registry = {k for k in globals().get("__warningregistry__", {})
                        if k != "version"}
        return [(os.path.basename(w.filename), w.lineno) for w in caught], registry
    plain = calls(_warns_at_a_break)
    compiled = calls(dynamo.compile(_warns_at_a_break, backend=backend))
    assert plain == compiled
    assert plain[0] == [("test_frames.py", _warns_at_a_break.__code__.co_firstlineno + 2)]


def test_compiled_reader_runs_uncompiled_and_says_why(caplog):
    with caplog.at_level(logging.DEBUG, logger="dynamo.graph_breaks"):
        f = dynamo.compile(getframe_1, backend="eager")
    assert f(X)[0] == "test_compiled_reader_runs_uncompiled_and_says_why"
    assert any("reads its caller's frame" in r.getMessage() and "line" in r.getMessage()
               for r in caplog.records)


def test_fullgraph_reader_still_fails_to_compile():
    with pytest.raises(dynamo.exc.Unsupported):
        dynamo.compile(getframe_1, fullgraph=True, backend="eager")(X)


# ----------------------------------------------------------------------------- the scan

def _frame_0(y):
    return sys._getframe().f_lineno, sys._getframe(0).f_lineno


def _level_1(y):
    warnings.warn("x", stacklevel=1)
    return np.stack([y, y])


def _level_2_logger(y):
    logging.getLogger("x").info("m", stacklevel=2)


def _level_computed(y, n):
    warnings.warn("x", stacklevel=n)


def _getframe_computed(n):
    return sys._getframe(n)


@pytest.mark.parametrize("fn,reads", [
    (getframe_1, True), (getframe_f_back, True), (currentframe_f_back, True),
    (inspect_stack, True), (getouterframes, True), (extract_stack, True),
    (print_stack, True), (format_stack, True), (warn_stacklevel_2, True),
    (_level_2_logger, True), (_level_computed, True), (_getframe_computed, True),
    (_frame_0, False), (_level_1, False), (describe, False), (_warns_at_a_break, False),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_what_reads_the_caller_frame(fn, reads):
    reason = reads_caller_frame(fn.__code__)
    assert (reason is not None) == reads, reason
    if reads:
        assert "line" in reason


# ----------------------------------------------------------------------------- the registry

def test_compile_time_numpy_keeps_warning_registries():
    """Probes and folds run NumPy under ``warnings_as``: a warning raised inside is
    ignored or raised, and the filters (and their version, which every
    ``__warningregistry__`` is checked against) are as before."""
    from dynamo.ops.quiet import warnings_as

    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("default")
        before = list(warnings.filters)
        for i in range(2):
            _warn_old(X)     # (one location: shown once, the registry has it after)
            if i == 0:
                with warnings_as("ignore"):
                    np.log(np.zeros(1))
                    _warn_old(X)
                with pytest.raises(RuntimeWarning), warnings_as("error"), \
                        np.errstate(all="warn"):
                    np.log(np.zeros(1))
        assert warnings.filters == before
    assert [str(w.message) for w in caught] == ["old"]
    with pytest.raises(ValueError):
        with warnings_as("always"):
            pass


# ------------------------------------------------------------ reads two frames up (#17)

def getframe_2(y):
    return describe(sys._getframe(2))


def f_back_f_back(y):
    return describe(sys._getframe().f_back.f_back)


def inspect_stack_2(y):
    info = inspect.stack()[2]
    return describe(info.frame), _summary(info)


def stacklevel_3(y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("two up", UserWarning, stacklevel=3)
    return [(os.path.basename(w.filename), w.lineno, str(w.message)) for w in caught]


def stacklevel_3_positional(y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("two up", UserWarning, 3)
    return [(os.path.basename(w.filename), w.lineno, str(w.message)) for w in caught]


def stacklevel_2_positional(y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("one up", UserWarning, 2)
    return [(os.path.basename(w.filename), w.lineno, str(w.message)) for w in caught]


TWO_UP = [getframe_2, f_back_f_back, inspect_stack_2, stacklevel_3, stacklevel_3_positional]


def _helper_of(reader):
    """A plain function between the compiled caller and the reader: the reader's two
    levels up are the compiled function's frame."""
    def helper(y):
        return reader(y + 0.5)
    return helper


def via_a_helper(reader):
    helper = _helper_of(reader)

    def f(x):
        y = np.sin(x) * 2
        seen = helper(y)
        return y + 1, seen
    return f


def three_up(y):
    return describe(sys._getframe(3))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("reader", TWO_UP + [stacklevel_2_positional],
                         ids=lambda r: r.__name__)
@pytest.mark.parametrize("place", [at_a_break, in_an_island, through_a_compiled_caller,
                                   via_a_helper], ids=lambda p: p.__name__)
def test_reads_two_frames_up_see_the_program(reader, place, backend):
    """The reader's caller is a compiled function (or a helper it calls): what the
    reader sees two frames up is the program's frame, as in plain Python."""
    check(place(reader), X, backend=backend)


def _one_line(*fns):
    """Each function called from this line, through one more frame: what the callee
    reads two frames up is this one, at one line for all."""
    return [_through(f) for f in fns]


def _through(f):
    return f(X)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("reader", TWO_UP, ids=lambda r: r.__name__)
def test_compiled_two_up_reader(reader, backend):
    compiled = dynamo.compile(reader, backend=backend)
    plain, first, cached = _one_line(reader, compiled, compiled)
    assert plain == first == cached


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_three_frames_up_through_two_callers(backend):
    def middle(y):
        return three_up(y)

    def upper(y):
        return middle(y * 2)

    def f(x):
        y = np.cos(x)
        return y, upper(y)
    check(f, X, backend=backend)
    check(upper, X, backend=backend)


def test_caller_of_a_two_up_reader_runs_uncompiled_and_says_why(caplog):
    helper = _helper_of(getframe_2)
    with caplog.at_level(logging.DEBUG, logger="dynamo.graph_breaks"):
        f = dynamo.compile(helper, backend="eager")
    assert f(X)[0] == "test_caller_of_a_two_up_reader_runs_uncompiled_and_says_why"
    assert any("reads its caller's frame" in r.getMessage() and "getframe_2" in
               r.getMessage() and "sys._getframe(2)" in r.getMessage()
               for r in caplog.records)


def test_explain_of_a_frame_reader_runs_it_uncompiled():
    """``dynamo.explain`` of a reader (or of a caller of a two-up reader) runs it as
    ``dynamo.compile`` does, uncompiled, and says why; no graph, no dynamo frame in
    what it reads below explain's own."""
    helper = _helper_of(getframe_2)
    for fn in (getframe_1, getframe_2, helper):
        out = dynamo.explain(fn, backend="eager")(X)
        assert out.graph_count == 0, out
        assert any("reads its caller's frame" in why for _, why in out.skipped), out
    seen = dynamo.explain(helper, backend="eager")(X).result
    assert seen[0] == "call" and seen[1] == "explain.py", seen   # explain's _Session.call


def _computed_level(y, n):
    warnings.warn("x", UserWarning, n)


def _level_one_positional(y):
    warnings.warn("x", UserWarning, 1)


@pytest.mark.parametrize("fn,depth", [
    (getframe_1, 1), (getframe_2, 2), (f_back_f_back, 2), (currentframe_f_back, 1),
    (stacklevel_3, 2), (stacklevel_3_positional, 2), (stacklevel_2_positional, 1),
    (warn_stacklevel_2, 1), (_computed_level, READS_ALL), (inspect_stack_2, READS_ALL),
    (_level_one_positional, 0), (_frame_0, 0), (describe, 0),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_how_far_up_reads_go(fn, depth):
    assert frames_read(fn.__code__) == depth


def test_a_caller_of_a_two_up_reader_reads_its_caller():
    assert reads_caller_frame_of(_helper_of(getframe_2)) is not None
    assert reads_caller_frame_of(_helper_of(getframe_1)) is None     # one up: its own
    assert reads_caller_frame_of(via_a_helper(getframe_2)) is None   # three levels away


# ---------------------------------------- two-up readers reached otherwise than by name

class _Holder:
    def __init__(self, reader):
        self.reader = reader


def _passed_in(x, reader):
    y = np.sin(x) * 2
    return y + 1, reader(y)


def _in_attribute(x, holder):
    y = np.cos(x)
    return y * 2, holder.reader(y)


def _by_getattr(x, holder):
    y = x * 3
    return y, getattr(holder, "reader")(y)  # noqa: B009 (on purpose)


def _identity(reader):
    return reader


def _fresh(fn):
    """A copy of ``fn`` with its own code object (what is learnt stays with a code)."""
    return type(fn)(fn.__code__.replace(), fn.__globals__, fn.__name__)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("reader", TWO_UP, ids=lambda r: r.__name__)
@pytest.mark.parametrize("fn,wrap", [(_passed_in, _identity),
                                     (_in_attribute, _Holder), (_by_getattr, _Holder)],
                         ids=["argument", "attribute", "getattr"])
def test_two_up_reader_not_named_sees_the_programs_frames_from_the_first_call(
        fn, wrap, reader, backend, caplog):
    """A two-up reader the compiled function gets as an argument (or an attribute, or
    with getattr) is found when the first call is traced. The trace runs in the
    function's own frame (``frame_entries.frame_entry``), which then runs the function's own
    code: already on that first call the reader sees the program's frames, as in
    plain Python. From then on the function is called as it is, and the log says why
    (``inline_checks.check_frame_reader``)."""
    fn = _fresh(fn)
    compiled = dynamo.compile(fn, backend=backend)
    with caplog.at_level(logging.DEBUG, logger="dynamo.graph_breaks"):
        plain, first = _one_line(_caller(fn, wrap, reader), _caller(compiled, wrap, reader))
    assert compiled._call is fn
    assert any(f"a call of {reader.__name__}(), which reads" in r.getMessage()
               for r in caplog.records)
    assert _same(plain, first)
    second, third = _one_line(_caller(compiled, wrap, reader),
                              _caller(compiled, wrap, reader))
    assert _same(plain, second) and _same(plain, third)
    # a function compiled anew from that code is called as it is from the start
    again = dynamo.compile(fn, backend=backend)
    assert again._call is fn


def _caller(f, wrap, reader):
    """A frame that calls ``f`` (the same names and line whatever ``f`` is): what a
    two-up read in ``reader`` sees."""
    def call(x):
        return f(x, wrap(reader))
    return call


def _same(a, b) -> bool:
    return a[1] == b[1] and np.array_equal(a[0], b[0])


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_one_up_reader_as_argument_stays_compiled(backend):
    """A reader of its own caller only (``sys._getframe(1)``) passed in: called at a
    break it sees the compiled function's frame (the original's name, file, lines), as
    before; the function stays compiled."""
    fn = _fresh(_passed_in)
    compiled = dynamo.compile(fn, backend=backend)
    plain, first, second = _one_line(_caller(fn, _identity, getframe_1),
                                     _caller(compiled, _identity, getframe_1),
                                     _caller(compiled, _identity, getframe_1))
    assert _same(plain, first) and _same(plain, second)
    assert compiled._call is not fn


class _MethodReader:
    def read(self, y):
        return describe(sys._getframe(2))


def _method_in_island(x, o):
    y = np.cos(x)
    here = sys._getframe()   # the rest runs uncompiled in an island: o.read is routed
    return y - 1, o.read(y), here.f_code.co_name


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_two_up_method_called_from_an_island_marks_the_function(backend):
    """An island calls a method that reads two frames up: the call goes through
    ``break_calls.island_intercept``, which marks the function a reader
    (``_reads_above_caller``); its next calls are the plain function's."""
    fn = _fresh(_method_in_island)
    compiled = dynamo.compile(fn, backend=backend)
    _one_line(_caller(compiled, _identity, _MethodReader()))
    assert reads_caller_frame(fn.__code__) is not None
    assert compiled._call is fn
    plain, second = _one_line(_caller(fn, _identity, _MethodReader()),
                              _caller(compiled, _identity, _MethodReader()))
    assert _same(plain, second) and plain[2] == second[2]


# ------------------------------------------------- the frame entry: the program's own frame

def _whole_stack(y):
    """Every frame of this file above this one (the test's own frames), and the
    caller's locals: what a frame entry must not change."""
    stack = [(s.name, s.lineno, s.line) for s in traceback.extract_stack()[:-1]
             if s.filename == __file__]
    return stack, describe(sys._getframe(1))


def _skipped_frame(x, walk):
    y = np.cos(x) + 1.0
    return y, walk(y), sorted(locals())


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_frame_that_runs_uncompiled_runs_in_the_programs_own_frame(backend):
    """Whatever makes a frame run uncompiled (here a frame reader found while
    tracing; also a frame the trace cannot handle, a full cache, a graph that raised),
    the frame that runs it is the one the program's call made: every frame above it is
    the program's, on every call, and its locals are the function's own (the entry's
    hidden parameter is unbound before the function's code runs)."""
    fn = _fresh(_skipped_frame)
    compiled = dynamo.compile(fn, backend=backend)
    assert compiled._call.__code__ is not fn.__code__   # a frame entry
    plain, first, second = _one_line(_caller(fn, _identity, _whole_stack),
                                     _caller(compiled, _identity, _whole_stack),
                                     _caller(compiled, _identity, _whole_stack))
    assert _same(plain, first) and _same(plain, second)
    assert plain[1][1][-1] == plain[2] == first[2] == ["walk", "x", "y"]


def _kernel(x, n):
    return np.tanh(x) * n


def test_a_frame_entry_is_called_like_the_function():
    """The entry binds arguments as the function does (its TypeErrors name the
    function), runs the compiled code on a hit, follows a replaced ``__code__``, and
    refuses its hidden parameter as the plain function refuses an unknown keyword."""
    fn = _fresh(_kernel)
    compiled = dynamo.compile(fn, backend="eager")
    assert np.array_equal(compiled(X, 2.0), fn(X, 2.0))
    assert np.array_equal(compiled(X, n=3.0), fn(X, n=3.0))
    for call in (lambda f: f(X), lambda f: f(X, 1.0, 2.0), lambda f: f(X, 1.0, m=2),
                 lambda f: f(X, 1.0, ___entry=None)):
        with pytest.raises(TypeError) as plain:
            call(fn)
        with pytest.raises(TypeError) as compiled_error:
            call(compiled)
        assert str(compiled_error.value) == str(plain.value)
    fn.__code__ = (lambda x, n: x - n).__code__
    assert np.array_equal(compiled(X, 2.0), X - 2.0)



@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("kernel", [_kernel, lambda x, n=1.0: np.tanh(x) * n],
                         ids=["frame_entry", "wrapper"])
def test_code_replaced_by_moved_parameters_is_refused_once(backend, kernel):
    """The first call after ``__code__`` is replaced by code with the same parameters
    in another order was bound by the old order: passed on by position, ``f(x=.., n=..)``
    would land on the wrong parameters, so it raises and says why; the next calls bind
    by the new code, by position and by name, as the plain function does."""
    fn = _fresh(kernel)
    compiled = dynamo.compile(fn, backend=backend)
    assert np.array_equal(compiled(x=X, n=2.0), fn(x=X, n=2.0))
    fn.__code__ = (lambda n, x: x - n).__code__
    with pytest.raises(TypeError, match=r"'x', 'n' are at other positions.*Call it again"):
        compiled(x=X, n=2.0)
    assert np.array_equal(compiled(x=X, n=2.0), fn(x=X, n=2.0))
    assert np.array_equal(compiled(2.0, X), fn(2.0, X))
    fn = _fresh(kernel)
    compiled = dynamo.compile(fn, backend=backend)
    compiled(X, 2.0)
    fn.__code__ = (lambda x, *, n: x * n).__code__     # n only by name now
    with pytest.raises(TypeError, match=r"'n' are at other positions"):
        compiled(X, n=3.0)
    assert np.array_equal(compiled(X, n=3.0), fn(X, n=3.0))
    fn = _fresh(kernel)
    compiled = dynamo.compile(fn, backend=backend)
    compiled(X, 2.0)
    fn.__code__ = (lambda x, m: x + m).__code__        # renamed, not moved: passed on
    assert np.array_equal(compiled(X, 4.0), X + 4.0)
