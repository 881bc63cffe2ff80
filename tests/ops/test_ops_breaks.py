"""Functions that are graph breaks on purpose break with their own reason (not "not in
the op registry"), and compiled code stays equal to eager code around them."""

import numpy as np
import pytest
from harness import check, rand

import dynamo
from dynamo import ops

X = rand(4, 4, dtype=np.float64) + 4 * np.eye(4)


@pytest.mark.parametrize("fn,words", [
    (lambda x: (np.einsum_path("ij,jk->ik", x, x)[1], x), "np.einsum_path() returns a "
     "contraction plan"),
    (lambda x: (np.linalg.eig(x), x + 1), "np.linalg.eig() returns real or complex"),
    (lambda x: np.linalg.eigvals(x) + 1, "np.linalg.eigvals() returns real or complex"),
    # (returned, np.allclose is the glue's bool: no break; an `if` needs it while tracing,
    # where its ways leave two dtypes: no branch_select, translator/branch_selects.py)
    (lambda x: (x + 1).astype(np.float32) if np.allclose(x, x.T) else x,
     "np.allclose() returns a Python value"),
], ids=["einsum_path", "eig", "eigvals", "allclose"])
def test_known_breaks_say_why(fn, words):
    report = check(fn, X, breaks=1)
    assert words in report.break_reasons[0].reason, report.break_reasons[0].reason


def test_every_known_break_is_a_real_unregistered_function():
    for path in ops.breaks.KNOWN_BREAKS:
        fn = np
        for part in path.split("."):
            fn = getattr(fn, part)
        assert ops.lookup_function(fn) is None, path
        assert ops.break_reason(fn) is not None


def test_isclose_and_allclose_are_captured():
    def f(x, y):
        close = np.isclose(x, y, atol=1e-3)
        return close, np.allclose(x, y), np.allclose(x, y, atol=1e-3)

    check(f, X, X + 1e-4, breaks=0, graphs=1)
    assert dynamo.explain(lambda x, y: np.isclose(x, y),
                          backend="eager")(X, X).graph_break_count == 0
