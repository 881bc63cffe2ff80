"""An int the graph computes (``1 if fast > slow else -1``, ``int(np.argmax(x))``: an
unbacked int, made up as 4099 while tracing) written into an ``int8``/``uint8`` array
or added to one (``dynamo/unbacked_results.py`` ``one_value_answer``). NumPy refuses
4099 there (``OverflowError``) but takes the real values, and the result's dtype and
shape do not depend on the value: one graph, no break (before: "np.setitem of a
data-dependent value ..., too large to trace"), and where the real value does not fit,
NumPy's own OverflowError when the graph runs, as eagerly (the node may raise)."""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo


def crossover_signal(fast, slow):
    signal = np.zeros(len(fast), dtype=np.int8)
    signal[1] = 1 if fast[1] > slow[1] else -1
    signal[2] = 1 if fast[2] > slow[2] else -1
    return signal


def wide_choice(p):
    out = np.zeros(3, dtype=np.int8)
    out[1] = 200 if p[1] > p[0] else -1      # 200 does not fit int8: eager raises
    return out


def shifted_labels(x, img):
    return img + int(np.argmax(x))           # uint8 + a Python int: uint8 (NEP 50)


_f, _s = np.array([1.0, 2.0, 0.5]), np.array([0.0, 1.0, 0.9])


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn, arg_sets", [
    (crossover_signal, [(_f, _s), (_s, _f)]),
    (wide_choice, [(np.array([0.0, 1.0]),), (np.array([1.0, 0.0]),)]),
    (shifted_labels, [(np.arange(3.0), np.zeros(4, np.uint8)),
                      (np.arange(300.0), np.zeros(4, np.uint8))]),
], ids=["crossover_signal", "wide_choice", "shifted_labels"])
def test_a_graph_int_in_a_narrow_array_stays_in_the_graph(fn, arg_sets, backend):
    compiled = dynamo.compile(fn, backend=backend)
    for args in arg_sets:      # (the second set of the last two raises OverflowError)
        for _ in range(2):
            same_outcome(outcome(fn, args), outcome(compiled, args), f"{fn.__name__}{args}")
    report = dynamo.explain(fn, backend=backend)(*arg_sets[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
