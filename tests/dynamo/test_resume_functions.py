"""Resume functions: built from the original code at each break (never from another
resume function), named as the program sees the original, exact about their cells."""

import contextlib
import io
import sys
import traceback

import numpy as np
from harness import check

import dynamo
from dynamo.bytecode import resume


def many_breaks(n: int):
    """``def f(x)`` with ``n`` graph breaks (a print between array ops)."""
    lines = ["def many(x):"]
    for i in range(n):
        lines += ["    x = x * 2 + 1", f"    print({i}, x[0])"]
    lines.append("    return x")
    scope: dict = {}
    exec(compile("\n".join(lines), "<many_breaks>", "exec"), scope)
    return scope["many"]


def test_100_breaks_make_100_resume_functions_of_the_original():
    f = many_breaks(100)
    report = check(f, np.ones(3), breaks=100)
    codes = [r.code for r in report.records]
    assert len(codes) == 101 and codes[0] is f.__code__
    for code in codes[1:]:
        # one level: each continues the original, none continues a resume function
        assert resume.original_code(code) is f.__code__
        assert code.co_qualname.count("_resume_at_L") == 1, code.co_qualname
    assert len({c.co_qualname for c in codes[1:]}) == 100


def test_a_loop_that_breaks_resumes_from_the_original():
    def loop(x, n):
        for i in range(n):
            x = x + i
            print(i)
        return x * 2
    report = check(loop, np.ones(2), 4)
    report = dynamo.explain(loop)(np.ones(2), 4)
    for r in report.records:
        assert resume.original_code(r.code) is loop.__code__
        assert r.code.co_qualname.count("_resume_at_L") <= 1


def _frame_names(x):
    y = x + 1
    print("break")
    here = sys._getframe().f_code
    try:
        raise ValueError("inside")
    except ValueError as e:
        names = [fs.name for fs in traceback.extract_tb(e.__traceback__)]
    return here.co_name, names, y


def test_a_resume_function_has_the_original_name():
    check(_frame_names, np.ones(2))
    with contextlib.redirect_stdout(io.StringIO()):
        name, names, _ = dynamo.compile(_frame_names)(np.ones(2))
    assert (name, names) == ("_frame_names", ["_frame_names"])


def _deleted_local(x):
    c = x.sum()
    y = x + 1
    print("break")
    del c   # the try block runs eagerly in the resume function, which got c
    try:
        return c  # noqa: F821 (deleted on purpose)
    except UnboundLocalError as e:
        return str(e), y


def test_a_local_deleted_before_an_eager_block_is_unbound_there():
    check(_deleted_local, np.ones(2))


def _deleted_cell(x):
    c = x.sum()
    g = lambda: c   # noqa: E731, F841, F821 (c is a cell; deleted below)
    y = x + 1
    print("break")
    del c
    try:
        return c  # noqa: F821 (deleted on purpose)
    except UnboundLocalError as e:   # NameError would escape: a wrong class
        return str(e), y


def _deleted_cell_deleted_again(x):
    c = 1
    g = lambda: c   # noqa: E731, F841, F821 (c is a cell; deleted below)
    y = x + 1
    print("break")
    del c
    del c   # noqa: F821 (UnboundLocalError, as for a local)
    return y


def _deleted_cell_read_by_a_closure(x):
    c = 1
    g = lambda: c   # noqa: E731, F821 (deleted below)
    y = x * 2
    print("break")
    del c
    try:
        g()
    except NameError as e:   # the closure sees a free variable: NameError there
        return type(e).__name__, y


def test_a_deleted_cell_in_a_resume_function_raises_unbound_local_error():
    check(_deleted_cell, np.ones(2))
    check(_deleted_cell_deleted_again, np.ones(2))
    check(_deleted_cell_read_by_a_closure, np.ones(2))


def _locals_at_a_break(x):
    y = x + 1
    junk = 12
    names = dir()   # the break: the call runs in the rewritten frame
    print("break")
    return names, sorted(locals()), y + x, junk   # (every local read after: live)


def test_locals_and_dir_show_no_generated_names():
    check(_locals_at_a_break, np.ones(2))


def _cell_deleted_on_a_branch(x, drop):
    c = x * 2
    g = lambda: c   # noqa: E731, F841 (c is a cell)
    y = x + 1
    print("break")
    z = c + y       # a checked read: the trace breaks at the check, with the cell on
    if drop:        # the stack (the glue passes the cell itself, not its contents)
        del c
    try:
        return z + c
    except UnboundLocalError as e:
        return str(e), z


def test_reads_of_a_cell_the_function_deletes_are_checked_and_compiled():
    check(_cell_deleted_on_a_branch, np.ones(2), False)
    check(_cell_deleted_on_a_branch, np.ones(2), True)
