"""Two breaks of the held-out-style corpora (heldout_programs4.py) say why, with a hint
that fits (issue #19): a loop the trace cannot iterate, and a check that raises.

A loop the trace cannot iterate says why, in the user's terms.

``for c in np.unique(y)`` breaks where the loop needs the data-dependent length. The
code after that break starts at that very instruction (``GET_ITER``, or the CALL of
``enumerate``), with the array as its input, so it traces the loop over an array of
known length: no break says "iteration over a Python iterator" (before, the glue ran
the instruction and the code after the break iterated the real iterator as Python).
An iterator the trace cannot iterate (one passed in) names the iterator, with a hint
to pass a list. Any other object keeps its description, with its article.

A data-dependent ``if`` whose one way only raises (``if rank < d: raise
ValueError(...)``, ``assert (y >= 0).all()``) is a check on the input: its break says
so and hints to check the inputs before the call, where np.where (the hint of any
other data-dependent ``if``) cannot express a raise."""

import numpy as np
from harness import check

import dynamo


def per_class_means(y, X):
    out = []
    for i, c in enumerate(np.unique(y)):
        out.append((i, X[y == c].mean()))
    return out


def per_class_comprehension(y, X):
    return [X[y == c].mean() for c in np.unique(y)]


def passed_in(it):
    total = 0.0
    for v in it:
        total += v
    return total


def test_a_loop_over_a_data_dependent_length():
    y, X = np.array([0, 2, 2, 1]), np.arange(8.0).reshape(4, 2)
    check(per_class_means, y, X)            # eager's results, whatever breaks
    report = dynamo_explain(per_class_means, y, X)
    first, *rest = report.break_reasons
    assert first.reason.startswith("a data-dependent size (the length of np.unique's")
    assert "for c in np.unique(y)" in first.hint
    for brk in rest:   # (the loop is traced after the break, not run as Python)
        assert not brk.reason.startswith("iteration over"), brk.reason


def test_a_comprehension_over_a_data_dependent_length_is_a_loop_node():
    # (one item per trip, no break: per_trip_lists.comprehension_list)
    y, X = np.array([0, 2, 2, 1]), np.arange(8.0).reshape(4, 2)
    check(per_class_comprehension, y, X)
    report = dynamo_explain(per_class_comprehension, y, X)
    assert (report.graph_count, report.break_reasons) == (1, [])


def test_an_iterator_passed_in():
    report = dynamo_explain(passed_in, iter([1.0, 2.0]))
    assert report.break_reasons
    for brk in report.break_reasons:
        assert brk.reason == "iteration over a Python list_iterator (not traced)"
        assert "pass list(it)" in brk.hint


def dynamo_explain(fn, *args):
    dynamo.reset()
    return dynamo.explain(fn, backend="eager")(*args)


def over_a_module(x):
    for name in np:
        x = x + 1
    return x


def test_other_objects_keep_their_description():
    check(over_a_module, np.ones(2))
    report = dynamo_explain(over_a_module, np.ones(2))
    reasons = [b.reason for b in report.break_reasons]
    assert "iteration over a module numpy (not traced)" in reasons, reasons


# Each check below follows a write into an input: the frame could not run again when the
# check fails, so the check is a graph break (no data_check op: test_data_checks.py).
def rank_checked(X, y):
    y *= 2.0
    if np.linalg.matrix_rank(X) < X.shape[1]:
        raise ValueError("rank deficient")
    return X @ y


# (pytest rewrites the `assert`s of a test module into other bytecode: this one is
# compiled as a user's module compiles it)
_ASSERTED = """
def asserted(x):
    x *= 1.0
    assert (x >= 0).all(), "negative"
    return np.sqrt(x)
"""
_scope = {"np": np}
exec(compile(_ASSERTED, "user_checks.py", "exec"), _scope)
asserted = _scope["asserted"]


def negated_check(x):
    x += 0.0
    if not np.isfinite(x).all():
        raise ValueError(f"{x.shape[0]} values, some not finite")
    return x.sum()


def chooses(x):
    if x.sum() > 0:
        return x * 2
    return x.astype(np.float32)   # (ways of two dtypes: no branch_select, a break)


def test_a_check_that_raises_says_so():
    X = np.eye(3)
    for fn, args in ((rank_checked, (X, np.ones(3))), (rank_checked, (X[:, :2] @ X[:2], np.ones(3))),
                     (asserted, (np.ones(3),)), (asserted, (-np.ones(3),)),
                     (negated_check, (np.ones(3),)), (negated_check, (np.array([np.nan]),))):
        check(fn, *args)                    # eager's result or eager's error
        report = dynamo_explain(fn, *args)
        brk, *after = report.break_reasons    # (where the check fails: the raise, too)
        assert [b.cause for b in after] in ([], ["raise"]), after
        assert brk.reason == ("truth value of an array (data-dependent control flow: a check "
                              "that raises on some data)"), (fn.__name__, brk.reason)
        assert brk.hint.startswith("check the inputs before calling the compiled function")
    report = dynamo_explain(chooses, np.ones(3))
    (brk,) = report.break_reasons
    assert brk.reason == "truth value of an array (data-dependent control flow)"
    assert "np.where" in brk.hint



_ASSERTED_VALUES = """
def allclose_checked(p):
    p *= 1.0
    assert np.allclose(p.sum(axis=1), 1.0), "rows must sum to 1"
    return np.log(p)

def equal_checked(y):
    y *= 1.0
    assert np.array_equal(y, y.astype(bool)), "labels must be binary"
    return y * 2

def count_checked(x):
    x *= 1.0
    if len(x[x < 0]) > 0:
        raise ValueError("negative values")
    return np.sqrt(x)
"""
exec(compile(_ASSERTED_VALUES, "user_value_checks.py", "exec"), _scope)


def test_a_check_on_a_bool_or_a_size_of_the_data_says_so():
    """``assert np.allclose(...)``, ``assert np.array_equal(...)`` and ``if len(x[m]):
    raise``: the value's own break (a bool made from array data, a data-dependent size)
    keeps its reason and cause, named a check, with the check's hint (np.where, the hint
    of the value's other uses, cannot express a raise)."""
    p = np.full((2, 3), 1 / 3)
    for name, args, cause in (("allclose_checked", (p,), "array_to_python"),
                              ("allclose_checked", (p * 2,), "array_to_python"),
                              ("equal_checked", (np.array([0.0, 1.0]),), "array_to_python"),
                              ("count_checked", (np.ones(3),), "data_dependent_shape"),
                              ("count_checked", (-np.ones(3),), "data_dependent_shape")):
        fn = _scope[name]
        check(fn, *args)                    # eager's result or eager's error
        brk, *after = dynamo_explain(fn, *args).break_reasons
        assert [b.cause for b in after] in ([], ["raise"]), after
        assert brk.cause == cause, (name, brk)
        assert brk.reason.endswith("(a check that raises on some data)"), (name, brk.reason)
        assert brk.hint.startswith("check the inputs before calling the compiled function")


def kept_positive(x):
    return [v * 2.0 for v in x if v > 0]           # a filter: a jump back to the loop


def skipped_negative(x):
    total = np.zeros(())
    for v in x:
        if v < 0:
            continue                                # a `continue`: no exit either
        total = total + v
    return total


def first_negative(x):
    for i in range(len(x)):
        if x[i] < 0:
            break                                   # the loop's exit
    return i


def found_index(x):
    found = -1
    for i in range(len(x)):
        if x[i] < 0:
            found = i                               # assignments, then the exit
            hit = True
            break
    else:
        hit = False
    return found, hit


def test_a_filter_or_continue_is_no_loop_exit():
    """Only a jump that leaves the loop is "a loop's exit test"; a comprehension's
    filter and a ``continue`` jump back to the loop's head (on 3.11 and 3.13 that jump
    is a loop of its own in the bytecode's regions, which made them exits)."""
    x = np.array([1.0, -2.0, 3.0])
    for fn in (kept_positive, skipped_negative):
        check(fn, x)
        reasons = [b.reason for b in dynamo_explain(fn, x).break_reasons]
        assert "truth value of an array (data-dependent control flow)" in reasons, reasons
        assert not any("loop's exit test" in r for r in reasons), reasons
    for fn in (first_negative, found_index):
        check(fn, x)
        reasons = [b.reason for b in dynamo_explain(fn, x).break_reasons]
        assert any("loop's exit test" in r for r in reasons), (fn, reasons)
