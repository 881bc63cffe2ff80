"""A 2-D stencil step written straight into the caller's array (``flat_direct.py``)
under the caller's raising settings (``np.errstate(over="raise")``, ``divide``/
``invalid``): eager computes the whole value, meets the condition and raises
FloatingPointError before its ``setitem``, so ``B`` keeps its old values. The backend
may write straight into ``B`` only where eager would go on (``runtime.eager_goes_on``;
``ufunc_guard._guarded`` says yes under the glue's own guard only,
``errstate.entered_by_glue``), issue #17 round 36.

With direct writes always allowed, ``B`` came back holding the new window (inf at the
overflow) where eager left it zero. (Plant such a fault with
``errstate.entered_by_glue``: the backend's modules are loaded as
``dynamo.backends.numpy_backend.*``, and patching ``backends.numpy_backend.ufunc_guard``
reaches a second copy that the compiled code never calls.)

    >>> with np.errstate(over="raise"):
    ...     jacobi_into(A_with_two_huge_values, np.zeros((200, 300)))   # raises; B zero
"""

import numpy as np
import pytest
from harness import check


def jacobi_into(A, B):
    B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return B.sum()


def two_steps(A, B):
    # the second step's raise must leave A as it was, and the first step's B written
    B[1:-1, 1:-1] = 0.5 * (A[:-2, 1:-1] + A[2:, 1:-1])
    A[1:-1, 1:-1] = 0.5 * (B[1:-1, :-2] + B[1:-1, 2:]) * 1e300
    return A, B


def divided(A, B):
    B[1:-1, 1:-1] = (A[:-2, 1:-1] - A[2:, 1:-1]) / (A[1:-1, :-2] - A[1:-1, 2:])


def grid(kind):
    # 200x300: windows of 59,004 elements, past flat_direct.MIN_DIRECT_ELEMENTS
    A = np.random.default_rng(1).uniform(1.0, 2.0, (200, 300))
    if kind == "overflow":            # A[49, 60] + A[51, 60] overflows (and 1e300 * B)
        A[49, 60] = A[51, 60] = 1.6e308
    elif kind == "zero over zero":    # A[50, 59] - A[50, 61] == 0 and A[49] - A[51] too
        A[50, 59] = A[50, 61] = 1.0
        A[49, 60] = A[51, 60] = 1.5
    elif kind == "divide by zero":
        A[50, 59] = A[50, 61] = 1.0
    return A


@pytest.mark.parametrize("settings", [{"over": "raise"}, {"all": "raise"},
                                      {"divide": "raise", "invalid": "raise"},
                                      {"all": "warn"}])
@pytest.mark.parametrize("program", [jacobi_into, two_steps, divided])
def test_a_raise_leaves_the_callers_array_as_eagers(program, settings):
    for kind in ("none", "overflow", "zero over zero", "divide by zero"):
        with np.errstate(**settings):
            check(program, grid(kind), np.zeros((200, 300)), backend="numpy")
