"""Graphs whose ops come from functions in several files (issue #19): a warning or a
traceback of an op names the file and line the op was written at, as in eager."""

import traceback
import warnings

import numpy as np
import pytest
from other_file_helpers import cholesky, invert, log_of

import dynamo
from dynamo import source


def logs_through_a_helper(x):
    y = x + 1
    z = log_of(y)
    return z * 2


def inverts_through_a_helper(m):
    y = m + 1
    z = invert(y)
    return z * 2


def _warnings(fn, *args) -> list[tuple]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args)
    return [(w.category, str(w.message), w.filename, w.lineno) for w in caught]


def test_a_warning_names_the_helpers_file_and_line():
    x = np.array([-3.0, 1.0])
    eager = _warnings(logs_through_a_helper, x)
    assert eager[0][2].endswith("other_file_helpers.py")
    compiled = dynamo.compile(logs_through_a_helper, backend="eager")
    assert _warnings(compiled, x) == eager
    assert _warnings(compiled, x) == eager   # the cached code too


def test_the_numpy_backend_names_at_least_the_call_site():
    """The numpy backend's statements sit inside its own blocks: an op of another
    file that is not a plain statement of the function is shown at its call site."""
    x = np.array([-3.0, 1.0])
    got = _warnings(dynamo.compile(logs_through_a_helper, backend="numpy"), x)
    eager = _warnings(logs_through_a_helper, x)
    assert [w[:2] for w in got] == [w[:2] for w in eager]
    call_site = logs_through_a_helper.__code__.co_firstlineno + 2
    assert (got[0][2], got[0][3]) in ((eager[0][2], eager[0][3]), (__file__, call_site))


def test_printout_says_where_the_helper_is_called():
    report = dynamo.explain(logs_through_a_helper, backend="eager")(np.ones(2))
    text = str(report)
    call_site = logs_through_a_helper.__code__.co_firstlineno + 2
    assert f"other_file_helpers.py:9 (called at {__file__}:{call_site})" in text


def test_code_of_two_files_splits_off_the_other_files_lines():
    """The lines of another file become a function compiled with that file's name and
    lines, called from the main code at the call site's line."""
    src = ("def f(x):\n    # /p/app.py:10\n    y = x + 1\n"
           "    # /p/lib.py:3 (called at /p/app.py:11)\n    z = y * 2\n"
           "    # /p/lib.py:4 (called at /p/app.py:11)\n    w = bad(z, y)\n"
           "    # /p/app.py:12\n    return w\n")

    def bad(a, b):
        raise ValueError("inside")
    scope = {"bad": bad}
    source.compile_source(src, "<dynamo test split>", scope, user_lines=True)
    f = scope.pop("f")
    assert f.__code__.co_filename == "/p/app.py"
    with pytest.raises(ValueError) as info:
        f(1)
    frames = [(fr.filename, fr.lineno) for fr in traceback.extract_tb(info.tb)][1:3]
    assert frames == [("/p/app.py", 11), ("/p/lib.py", 4)]


def test_a_graph_error_in_a_helper_has_the_same_traceback():
    m = np.zeros((2, 2)) - 1
    want = _error_frames(inverts_through_a_helper, m)
    assert want[-1][0].endswith("other_file_helpers.py")
    assert _error_frames(dynamo.compile(inverts_through_a_helper, backend="eager"), m) == want


def _error_frames(fn, *args):
    try:
        fn(*args)
    except np.linalg.LinAlgError as e:
        frames = traceback.extract_tb(e.__traceback__)
        mine = [(fr.filename, fr.lineno) for fr in frames
                if fr.filename in (__file__, invert.__code__.co_filename)]
        return mine[-2:]
    raise AssertionError("no error")


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_helpers_loop_whose_statements_read_a_name_twice(backend):
    # the split-off function took `setitem` once per read: "duplicate argument"
    rng = np.random.default_rng(0)
    m = rng.random((30, 30))
    a = m @ m.T + 30 * np.eye(30)
    got = dynamo.compile(lambda a: cholesky(a), backend=backend)(a)
    np.testing.assert_array_equal(got, cholesky(a))
