"""The eighth corpus, segments, machine limits and objects that are not hashed
(``segments_corpus8.py``, issue #19): every program gives eager's results on the eager
and numpy backends (values, dtypes, printed output, the arguments afterwards,
warnings) and breaks exactly as often as recorded here (docs/realworld.md, "An eighth
corpus").

Measured before the fixes of this corpus: 2 of 20 without a break, 24 breaks (every
array-bounded slice, every attribute of an np.finfo/np.iinfo from outside, and
"TypeError: unhashable type: 'poly1d'" reported as the program's error); 5 frames ran
wholly uncompiled ("cannot rebuild slice after the graph"). The breaks left are uses of
a branch on a data-dependent length and max() of a 0-d array (poly1d_evaluate is one
graph since a poly1d made in the trace is its coefficients; csr_matvec is one graph since two
slices of the same bounds share one length; segment_means since max(seg.size, 1) is
an int the graph computes).
"""

from __future__ import annotations

import pytest
from rw_check import check_program
from segments_corpus8 import PROGRAMS

BACKENDS = ("eager", "numpy")

EXPECTED_BREAKS: dict[str, int] = {
    # (csr_matvec, np.dot(data[lo:hi], v[indices[lo:hi]]), broke here until slices of
    # the same bounds on axes of one length shared one size: test_shared_slice_sizes.py)
    # (segment_means, seg.sum() / max(seg.size, 1), broke here until an int computed
    # from a data-dependent length became a graph value: test_size_values.py)
    "keep_valid_prefix": 1,      # `if kept.size`: a branch on the length
    "normalize_with_config": 1,  # max() of a 0-d array and a float compares data
    # (poly1d_evaluate, np.poly1d(c) and p(t), broke twice here until a poly1d made in
    # the trace became its coefficients in the graph: test_poly1d_objects.py)
}


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 20
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)
    assert set(EXPECTED_BREAKS) <= {name for name, _, _ in PROGRAMS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_segments_program(name, fn, args, backend):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check_program(fn, [args], backends=(backend,), breaks=breaks,
                  **({"graphs": 1} if not breaks else {}))
