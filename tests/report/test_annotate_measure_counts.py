"""``measure=`` times extra calls but must not change what the report counts (issue #19).

The measuring calls run the compiled function again with the first call's arguments;
they are not recorded calls, so the graphs, breaks, recompiles and calls the report
shows are those of the recorded calls alone. Example: three recorded calls of
``scaled(x, t)`` with ``t`` = 1, 2, 3 show the same counts with ``measure=10`` as
without it.
"""

from __future__ import annotations

import numpy as np

from dynamo import annotate


def scaled(x, t):
    y = x * t
    print("step", t)          # a graph break, so resume functions are compiled too
    return y + 1


def _counts(tmp_path, **kw):
    name = "m.html" if kw else "plain.html"
    ann = annotate(scaled, output=tmp_path / name, backend="numpy", calls=3, **kw)
    x = np.ones(4)
    results = [ann(x, t) for t in (1, 2, 3)]
    r = ann.report
    return results, (len(r.graphs), len(r.breaks), len(r.recompiles), len(r.calls))


def test_measure_leaves_the_counts_of_the_recorded_calls(tmp_path, capsys):
    plain_results, plain = _counts(tmp_path)
    measured_results, measured = _counts(tmp_path, measure=10)
    capsys.readouterr()                      # the prints of the measuring calls
    assert measured == plain
    assert measured[3] == 3                  # the measuring calls are not calls
    for a, b in zip(plain_results, measured_results):
        np.testing.assert_array_equal(a, b)
