"""The corpora with the entry trial on (dynamo/entry_trial.py; the rest of the suite runs
with it off, tests/conftest.py): each compiled call may run compiled or as the plain
function, whichever its first calls timed faster, and every call's results, state,
printed output and warnings must still be eager's.

Issue #16's stateful programs (the first corpus, the twelfth and the thirteenth) run
their scenarios (``CALLS`` calls of one callable: the trial runs and decides inside
them) on the numpy backend; the fourteenth real-world corpus is checked by
``rw_check.check_program`` with 8 calls per argument set, so the trial ends and its
winner runs the last calls.
"""

from __future__ import annotations

import warnings

import pytest
import stateful_corpus12
import stateful_corpus13
from harness import same
from rw_check import NUMPY_BACKEND_TOL, check_program
from script_modules import load_script
from stateful_programs import PROGRAMS as STATEFUL

import dynamo
from dynamo import entry_trial

PROGRAMS = [*STATEFUL, *stateful_corpus12.PROGRAMS, *stateful_corpus13.PROGRAMS]
REALWORLD = load_script("realworld_programs14").programs(small=True)


@pytest.fixture(autouse=True)
def _trial_on(monkeypatch):
    monkeypatch.setattr(dynamo.config, "entry_trial_calls", 2)
    monkeypatch.setattr(entry_trial, "SPEND", 0.0)   # (ended within a scenario)


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_stateful_program_with_the_trial(prog):
    trials = []

    def wrap(fn):
        compiled = dynamo.compile(fn, backend="numpy")
        owner = getattr(compiled, "__func__", compiled)
        trials.append(entry_trial._ALL.get(owner))
        return compiled

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the same warnings on both sides
        expected = prog.scenario(lambda fn: fn)
        got = prog.scenario(wrap)
    same(expected, got, **NUMPY_BACKEND_TOL)
    assert len(trials) == 1
    slots = trials[0]
    if slots is not None:   # (a function that reads its caller's frame: no trial)
        assert slots.trial.way is not None, "the scenario's calls ended the trial"


@pytest.mark.parametrize("name,fn,args,kwargs", REALWORLD, ids=[p[0] for p in REALWORLD])
def test_realworld_program_with_the_trial(name, fn, args, kwargs):
    check_program(fn, [args], kwargs=kwargs, backends=("numpy",), calls=8)
