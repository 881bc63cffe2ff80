"""``x.flags`` of an input (issue #19, kernels_corpus5.py ``flags_contiguous_copy``): the
contiguity flags are constants of the trace, guarded, so library-style layout checks
compile to one graph; flags the trace cannot know still break."""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

import dynamo


def layout_check(x):
    if not x.flags["C_CONTIGUOUS"]:
        x = np.ascontiguousarray(x)
    return x * 2.0, x.flags.c_contiguous, x.flags.f_contiguous


def all_spellings(x):
    f = x.flags
    return (f["C"], f["CONTIGUOUS"], f["F"], f["FORTRAN"], f["FORC"], f["FNC"],
            f.contiguous, f.fortran, f.forc, f.fnc, f["F_CONTIGUOUS"])


A = np.arange(12.0).reshape(3, 4)
LAYOUTS = {"C": A, "F": A.T, "neither": A[:, ::2], "one element": A[:1, :1],
           "row": A[:1], "column": np.asfortranarray(A[:, :1])}


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_flags_of_an_input_are_one_graph(layout, backend):
    x = LAYOUTS[layout]
    for fn in (layout_check, all_spellings):
        want = fn(x)
        got = dynamo.compile(fn, backend=backend)(x)   # no deepcopy: keep the layout
        assert [type(g) for g in got] == [type(w) for w in want]
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        report = dynamo.explain(fn, backend="eager")(x)
        # all_spellings has no array op: no graph at all, and no break
        assert (report.graph_count, report.graph_break_count) == (fn is layout_check, 0)


def test_another_layout_traces_again():
    compiled = dynamo.compile(all_spellings, backend="eager")
    for x in (A, A.T, A, A[:, ::2], A.T):
        assert compiled(x) == all_spellings(x)


def test_c_order_input_through_harness():
    check(layout_check, A, graphs=1, breaks=0)


@pytest.mark.parametrize("fn", [
    lambda x: x.flags.writeable,              # a program may change it
    lambda x: x.flags["OWNDATA"],
    lambda x: (x + 1).flags.c_contiguous,     # an op's result: the backend's layout
])
def test_flags_the_trace_cannot_know_break(fn):
    check(fn, A)     # results equal eager's
    report = dynamo.explain(fn, backend="eager")(A)
    assert report.graph_break_count >= 1
    assert any(b.cause == "array_layout" for b in report.break_reasons)
