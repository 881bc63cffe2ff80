"""Everyday loop code (``everyday_loop_programs.py``, issue #19, task t6): each program
compiled is eager (result with its types, printed output, warnings, arguments after
the call) on both CPU backends, and breaks as often as pinned here.

The pins are the breaks after task t6 (3.11, 3.13 and 3.14 alike); before it, 23 of the
60 programs had no break and 39 breaks in all, now 30 and 32 (docs/realworld.md,
"Everyday loops"): running ``lo``/``hi`` of NumPy scalars, picks and counts over
triangular inner loops stored per row. Running bests from a Python number (``best =
np.inf; if d < best: best = d``) are no unrolled graph by choice (it ran slower than
the break's Python loop, ``test_running_choices.py``); where the trip works on arrays
and the loop is no other's body, the loop is a node that carries the best (task p63/t2:
``closest_center``, ``best_threshold``, ``best_window``, 33 and 29 now); the others
keep their break. A pin that goes down is progress (lower it, if the program is no
slower); one that goes up is a regression.
"""

from __future__ import annotations

import contextlib
import copy
import io
import warnings

import pytest
from everyday_loop_programs import PROGRAMS
from harness import nested_types, outcome, same_outcome

import dynamo

# name -> breaks under dynamo.explain (eager backend), first call
BREAKS = {
    "tri_max_inner": 1, "while_any_return": 2, "list_hist": 1,
    "list_hist_array": 1, "bin_hist": 1, "dict_hist": 1, "first_above": 1,
    "insertion_sort": 1, "selection_sort": 1, "tri_max_builtin_8": 1,
    "selection_sort_swap_8": 1, "tri_pick_inf_40": 1, "tri_max_builtin_40": 1,
    "selection_sort_swap_40": 1, "tri_pair_min_40": 1, "pick_branch_after_3": 1,
    "rect_count_40": 1, "pick_used_more_40": 1, "pick_live_after_40": 1,
    "pick_branch_after_40": 1,
    # running bests from a Python number (test_running_choices.py; closest_center,
    # best_threshold, best_window: loop nodes, test_running_choice_nodes.py)
    "pair_min_dist": 1, "tri_max_pair": 1, "kmeans_assign": 1, "max_drawdown": 1,
    "tri_pick_inf_8": 1, "tri_pair_min_8": 1,
}
BY_NAME = {name: (fn, args) for name, fn, args in PROGRAMS}


def test_the_corpus_is_there():
    assert len(PROGRAMS) == 60 and len(BY_NAME) == 60
    assert set(BREAKS) <= set(BY_NAME)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_compiled_is_eager(name, backend):
    fn, args = BY_NAME[name]
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for call in range(2):
        want = outcome(fn, copy.deepcopy(args))
        got = outcome(compiled, copy.deepcopy(args))
        same_outcome(want, got, f"{name} call {call}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} call {call}"


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_breaks_as_pinned(name):
    fn, args = BY_NAME[name]
    dynamo.reset()
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    assert report.graph_break_count == BREAKS.get(name, 0), \
        [b.reason for b in report.break_reasons]
