"""``+`` of texts formatted after the graph (issue #19, heldout_corpus10.py
``summarize``): ``"name: " + ", ".join(parts)`` and ``line += f" {v:.3f}"`` are one
formatted text the glue makes, as ``str + str`` is the two texts one after the other;
no break, eager's text. A text plus a number is Python's TypeError, as eagerly.

Example (one graph, no break)::

    def summarize(x, name="x"):
        parts = [f"mean={x.mean():.3f}", f"max={x.max()}"]
        return f"{name}: " + ", ".join(parts)
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

import dynamo

X = np.array([1.25, -2.5, 3.125, 0.1])


def prefixed_join(x, name="x"):
    parts = [f"mean={x.mean():.3f}", f"max={x.max()}"]
    return f"{name}: " + ", ".join(parts), x * 2


def appended_in_a_loop(x):
    line = "values:"
    for v in x:
        line += f" {v:.2f}"
    return line + "\n"


def formatted_plus_formatted(x):
    head = f"{x.min():+.1e}" + f"|{x.argmax()}"
    return "<" + head + ">", x.sum()


def snapshot_then_write(x):
    s = "first=" + f"{x[0]}"
    x[0] = 99.0
    return s + "!", x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [prefixed_join, appended_in_a_loop, formatted_plus_formatted,
                                snapshot_then_write], ids=lambda f: f.__name__)
def test_concatenated_texts_after_the_graph(fn, backend):
    check(fn, X, graphs=1, breaks=0, backend=backend)


def plus_a_number(x):
    return f"{x.mean():.2f}" + 3        # Python's own TypeError


def test_a_text_plus_a_number_raises_as_eagerly():
    check(plus_a_number, X)             # the TypeError equals eager's
    assert dynamo.explain(plus_a_number, backend="eager")(X).graph_break_count == 1
