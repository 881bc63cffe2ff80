"""``str(v)``, ``repr(v)``, ``ascii(v)`` and ``format(v, spec)`` of a traced array are
texts the glue makes after the graph, as the f-strings ``f"{v!s}"``, ``f"{v!r}"``,
``f"{v!a}"`` and ``f"{v:spec}"`` are (issue #19, heldout_corpus13 ``round_and_format``;
``builtins._formatted_call``, ``formatted.format_value``): returned, stored or joined
they need no break and give eager's text (a float32, a 0-d array, a whole array); a
use of the text while tracing breaks there."""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

import dynamo

X = np.array([1.25, -2.5, 3.125, 0.1])


def joined_rounded(x):
    return ", ".join(str(v) for v in np.round(x, 2))


def each_builtin(x):
    m = x.mean()
    f = x.astype(np.float32).max()
    return str(m), repr(f), ascii(x.sum()), format(m, ".3f"), format(x.argmax(), "+05d")


def whole_and_zero_d(x):
    return {"all": str(x), "total": repr(np.asarray(x.sum()))}


def text_used_while_tracing(x):
    return len(str(x.max()))              # the length needs the text


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [joined_rounded, each_builtin, whole_and_zero_d],
                         ids=lambda f: f.__name__)
def test_text_made_after_the_graph(fn, backend):
    check(fn, X, graphs=1, breaks=0, backend=backend)
    check(fn, -X[::-1].copy(), backend=backend)


def test_a_text_used_while_tracing_breaks_at_the_use():
    """The break is the text's (cause ``format``), where ``len`` needs it; it was
    ``str()``'s own (``array_to_python``)."""
    check(text_used_while_tracing, X, backend="numpy")
    (brk,) = dynamo.explain(text_used_while_tracing, backend="eager")(X).break_reasons
    assert brk.cause == "format", brk
