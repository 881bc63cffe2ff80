"""A number read from an array used where the trace needs a Python value (a
``range()`` bound) breaks with a hint about array data, not the hint for objects the
translator does not model ("pass arrays (np.asarray for subclasses) ..."). Corpus 14's
mel filterbank builds its triangular filters with ``for k in range(bins[m - 1],
bins[m])`` over bin edges computed with NumPy (``hints_statements.py``)."""

import numpy as np
from harness import check

import dynamo


def filter_rows(x, edges):
    out = np.zeros_like(x)
    for k in range(edges[0], edges[1]):
        out[k] = 2.0 * x[k]
    return out


def mel_like(x, n):
    bins = np.floor(np.linspace(0, n, 4)).astype(int)
    out = np.zeros_like(x)
    for k in range(bins[1], bins[2]):
        out[k] = (k - bins[1]) / (bins[2] - bins[1]) * x[k]
    return out


def test_a_range_bound_read_from_an_array_gets_an_array_data_hint():
    x = np.arange(10.0)
    for fn, args in ((filter_rows, (x, np.array([2, 6]))), (mel_like, (x, 9))):
        report = dynamo.explain(fn, backend="eager")(*args)
        (brk,) = report.break_reasons
        assert brk.reason.endswith("is not a Python constant")
        assert "array elements" in brk.hint and "np.asarray" not in brk.hint
        assert "range() bound" in brk.explanation or "known when the program runs" in \
            brk.explanation
        check(fn, *args, breaks=1)
