"""``names[i]`` of a Python list of texts at a NumPy integer the graph computes
(``np.argmax``, an item of an ``argsort``) is no graph break: the glue picks the text
after the graph (issue #19, heldout_corpus13 ``top_k_report`` and
``argmax_per_row_labels``; ``dynamo/translator/picked_items.py``).

Each program runs on one compiled object per backend over argument sets in turn, and
every call's outcome (result, type, exception and message, printed output, arguments
afterwards, warnings) is eager's. An index out of range fails the graph's check and
the frame reruns, raising eager's ``IndexError``; a later change to the list does not
change the text picked; a use that needs the text while tracing (a dict key) breaks
there.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")
NAMES = ["red", "green", "blue"]


def top_k_lines(scores, names, k=2):
    order = np.argsort(scores)[::-1][:k]
    return [f"{names[i]}: {scores[i]:.2f}" for i in order]


def labels_of_rows(p, names):
    return [names[i] for i in p.argmax(axis=1)], tuple(names)[p.sum(0).argmin()]


def shifted_index(x, names):
    return names[np.argmax(x) - 2] + "!"     # negative indices count from the end


def list_changed_after(x, names):
    best = names[np.argmax(x)]
    names[0] = "changed"
    return best, " / ".join(names)


def used_as_a_key(x, names):
    counts = {n: 0 for n in names}
    counts[names[np.argmax(x)]] += 1        # the key is needed while tracing: a break
    return counts


# name -> (function, argument sets called in turn; one set has an index out of range)
PROGRAMS = {
    "f_strings": (top_k_lines, [(np.array([0.5, 2.0, 1.0]), NAMES),
                                (np.array([3.0, 2.0, 1.0]), NAMES)]),
    "rows_and_tuple": (labels_of_rows, [(np.eye(3)[[2, 0, 0, 1]], NAMES),
                                        (np.ones((2, 3)), NAMES)]),
    "negative_and_out_of_range": (shifted_index, [
        (np.array([1.0, 0.0, 0.0]), NAMES), (np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0]), NAMES),
        (np.array([0.0, 0.0, 0.0, 0.0, 0.0, 1.0]), NAMES)]),
    "list_changed_after": (list_changed_after, [(np.array([0.0, 1.0, 0.0]), list(NAMES)),
                                                (np.array([1.0, 0.0, 0.0]), list(NAMES))]),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_text_picked_by_array_data_is_one_graph(name, backend):
    fn, arg_sets = PROGRAMS[name]
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate([*arg_sets, *arg_sets]):
        same_outcome(outcome(fn, copy.deepcopy(args)), outcome(compiled, copy.deepcopy(args)),
                     f"{name} call {i}")
    report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(arg_sets[0]))
    assert (report.graph_count, report.graph_break_count) == (1, 0), report


def test_a_text_needed_while_tracing_breaks_at_its_use():
    args = (np.array([0.0, 1.0, 0.0]), NAMES)
    compiled = dynamo.compile(used_as_a_key, backend="numpy")
    same_outcome(outcome(used_as_a_key, copy.deepcopy(args)),
                 outcome(compiled, copy.deepcopy(args)), "used_as_a_key")
    (brk,) = dynamo.explain(used_as_a_key, backend="eager")(*copy.deepcopy(args)).break_reasons
    assert brk.source_line.strip().startswith("counts[names[np.argmax(x)]] += 1"), brk
    assert brk.reason == ("a text picked from a list by array data used as a dict key or "
                          "set element"), brk
    assert "np.bincount" in brk.hint, brk
