"""An exception out of a compiled function shows plain Python's traceback: the function
once, at the raising line, none of dynamo's frames (``dynamo/tracebacks.py``), through a
frame entry and through ``intercept``'s wrapper, after breaks, in resume functions,
outlined loop bodies, recursion and chains; dynamo's own errors keep their frames."""

import io
import logging
import sys
import traceback
import types

import numpy as np
import pytest

import dynamo
from dynamo import tracebacks
from dynamo.exc import Unsupported

X = np.arange(4.0)


def _quiet():
    return io.StringIO()


def raise_after_break(x):
    y = x * 2.0
    print("break", file=_quiet())
    if y.shape[0] > 3:
        raise ValueError("too long")
    return y


def with_default(x, k=2.0):   # (a default: compiled through intercept's wrapper)
    y = x * k
    print("break", file=_quiet())
    return y[100]


def helper(x):
    raise KeyError(x.shape)


def calls_helper(x):
    y = x + 1.0
    return helper(y)


def chained(x):
    y = x * 2.0
    print("break", file=_quiet())
    try:
        return y[10]
    except IndexError as e:
        raise RuntimeError("wrapped") from e


def in_second_resume(x):
    y = x * 2.0
    print("one", file=_quiet())
    y = y + 1.0
    print("two", file=_quiet())
    raise ValueError(float(y[0]))


def in_loop_body(x):
    t = x * 0.0
    for i in range(3):
        t = t + x[i]
        print(i, file=_quiet())
        if i == 1:
            raise KeyError(i)
    return t


def recursive(x, n):
    if n == 0:
        print("bottom", file=_quiet())
        raise ValueError("bottom")
    return RECURSE[0](x * 2.0, n - 1)


RECURSE = [recursive]


def catches_its_own(x):
    y = x * 2.0
    print("break", file=_quiet())
    try:
        raise ValueError("inside")
    except ValueError:
        kind, value, tb = sys.exc_info()
        return [(f.name, f.line) for f in traceback.extract_tb(tb)], y


def _seen(fn, args):
    """What the program sees of ``fn(*args)``: every traceback of the exception and of
    its causes and contexts (file, line, function, source line), the text
    ``traceback.print_exc`` prints and ``logging.exception`` logs; or the result's head."""
    try:
        result = fn(*args)
    except Exception as e:
        chain, ex = [], e
        while ex is not None:
            chain.append([(f.filename, f.lineno, f.name, f.line)
                          for f in traceback.extract_tb(ex.__traceback__)])
            ex = ex.__cause__ or ex.__context__
        printed = io.StringIO()
        traceback.print_exc(file=printed)
        logged = io.StringIO()
        log = logging.getLogger("tests.dynamo.tracebacks")
        handler = logging.StreamHandler(logged)
        log.addHandler(handler)
        log.propagate = False
        try:
            log.exception("failed")
        finally:
            log.removeHandler(handler)
        return chain, printed.getvalue(), logged.getvalue()
    return result[0]


CASES = [(raise_after_break, (X,)), (with_default, (X,)), (calls_helper, (X,)),
         (chained, (X,)), (in_second_resume, (X,)), (in_loop_body, (X,)),
         (recursive, (X, 2)), (catches_its_own, (X,))]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,args", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_traceback_is_plain_pythons(fn, args, backend):
    plain = _seen(fn, args)
    compiled = dynamo.compile(fn, backend=backend)
    if fn is recursive:
        RECURSE[0] = compiled
    try:
        for _ in range(3):   # the first call traces, the next ones run the cache
            assert _seen(compiled, args) == plain
    finally:
        RECURSE[0] = recursive


def _code_a(x):
    y = x * 2.0
    print("break", file=_quiet())
    raise ValueError(float(y[0]))


def _code_b(x):
    y = x * 3.0
    print("break", file=_quiet())
    raise ValueError(float(y[1]))


def test_traceback_after_the_code_was_replaced():
    # the frame entry calls the function again as it is now (hook._recall)
    fn = types.FunctionType(_code_a.__code__, globals(), "_code_a")
    compiled = dynamo.compile(fn, backend="eager")
    with pytest.raises(ValueError):
        compiled(X)
    fn.__code__ = _code_b.__code__
    assert _seen(compiled, (X,)) == _seen(fn, (X,))


def _as_dynamos(fn):
    """``fn`` as if it were a function of dynamo's (its code in dynamo's package)."""
    fn.__code__ = fn.__code__.replace(co_filename=tracebacks.__file__)
    return fn


def test_dynamos_frames_are_dropped_and_handed_out_tracebacks_kept():
    def user():
        raise KeyError("user")

    @_as_dynamos
    def transit():
        user()

    def program():
        transit()
    try:
        program()
    except KeyError as e:
        held = e.__traceback__   # (a log record may hold it)
        names = [t.tb_frame.f_code.co_name for t in tracebacks.walk(held)]
        tracebacks.for_program(e)
        assert [t.tb_frame.f_code.co_name for t in tracebacks.walk(e.__traceback__)] == \
            ["test_dynamos_frames_are_dropped_and_handed_out_tracebacks_kept", "program",
             "user"]
        assert [t.tb_frame.f_code.co_name for t in tracebacks.walk(held)] == names
        assert "transit" in names


def test_dynamos_own_errors_show_the_programs_frames(monkeypatch):
    # fullgraph=True: the break is an error of dynamo's, raised in its frames; the
    # program sees its own (issue #19), dynamo.config.verbose keeps them all
    compiled = dynamo.compile(raise_after_break, fullgraph=True, backend="eager")
    with pytest.raises(Unsupported) as info:
        compiled(X)
    files = {f.filename for f in traceback.extract_tb(info.value.__traceback__)}
    assert files == {__file__}, files
    monkeypatch.setattr(dynamo.config, "verbose", True)
    with pytest.raises(Unsupported) as info:
        compiled(X)
    files = {f.filename for f in traceback.extract_tb(info.value.__traceback__)}
    assert any(name.endswith("convert.py") for name in files)


def test_an_error_raised_in_dynamos_frame_keeps_them():
    @_as_dynamos
    def internal():
        raise AssertionError("inside dynamo")

    def program():
        internal()
    try:
        program()
    except AssertionError as e:
        names = [t.tb_frame.f_code.co_name for t in tracebacks.walk(e.__traceback__)]
        tracebacks.for_program(e)
        assert [t.tb_frame.f_code.co_name for t in tracebacks.walk(e.__traceback__)] == names
        assert "internal" in names
