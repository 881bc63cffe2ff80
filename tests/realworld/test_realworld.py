"""Realistic NumPy programs compiled with dynamo: compiled == eager, and the graph and
break counts a NumPy user should get.

The programs live in ``rw_*.py`` (not in this file, so pytest does not rewrite their
``assert`` statements). ``test_compiled_equals_eager`` runs each program per backend on
two or three argument sets of different shapes (first and cached calls, then the first
set again); ``test_graphs_and_breaks`` compares ``dynamo.explain`` with the expected
counts. Known bugs are strict xfails whose reason names the bug (see rw_check.py and
docs/realworld.md).
"""

import pytest
import rw_idioms
import rw_models
import rw_numerics
import rw_training
from rw_check import check_correct, check_counts, correctness_params, counts_params

PROGRAMS = rw_models.PROGRAMS + rw_training.PROGRAMS + rw_numerics.PROGRAMS + \
    rw_idioms.PROGRAMS


def test_program_names_are_unique():
    names = [p.name for p in PROGRAMS]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


@pytest.mark.parametrize("program,backend", correctness_params(PROGRAMS))
def test_compiled_equals_eager(program, backend):
    check_correct(program, backend)


@pytest.mark.parametrize("program", counts_params(PROGRAMS))
def test_graphs_and_breaks(program):
    check_counts(program)
