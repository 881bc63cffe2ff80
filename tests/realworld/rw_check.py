"""Differential checks for whole user programs: one compiled object, several input sets.

``check_program(fn, [args_a, args_b], graphs=1, breaks=0)`` compiles ``fn`` once per
backend and, for each set of arguments, calls it ``calls`` times (the first call of a
set traces or recompiles, later ones hit the cache), then calls it once more with the
first set (its entry must still be in the cache and still be right). Each call gets its own deep copy of
the arguments and is compared with an eager call on another copy: result (values,
dtypes, shapes, types), printed output, the arguments afterwards (mutations) and raised
exceptions, through ``tests/harness``, and the warnings raised (category and text).
Random Generators among the arguments compare by their bit generator's state. Graph and break counts are what
``dynamo.explain`` reports for the first argument set.

Example::

    def f(x):
        return x - x.mean()
    check_program(f, [(rand(4, 8),), (rand(16, 3),)], graphs=1, breaks=0)
"""

from __future__ import annotations

import contextlib
import copy
import io
import warnings

import numpy as np
import split_runs
from harness import _same_outcome, assert_counts, same
from script_modules import load_script

import dynamo

# The numpy backend sums full reductions block by block and strength-reduces x**n; its
# documented tolerance (docs/numpy_backend.md) is rtol 1e-5 for float32.
NUMPY_BACKEND_TOL = {"rtol": 1e-5, "atol": 1e-6}
# Known bugs shared by several programs (reasons of strict xfails).
# Short names of the wrong-result bugs, for docs/realworld.md (W1-W4 are
# fixed: none is known today).
BUG_TAGS: dict[str, str] = {}
BACKENDS = tuple(b for b in ("eager", "numpy") if b in dynamo.list_backends())
# CI shares the compiled backends' runs of these programs among its Pythons (eager runs
# on each): ``--split-runs``, tests/split_runs.py. tests/realworld/conftest.py names the
# running test and the share before each test; check_program runs the backends it takes.
SHARE = {"nodeid": "", "split": (1, 1, 1)}


def backends_here(backends):
    """The ``backends`` this process runs for the current test: eager, and each other
    backend whose run of this test is in this Python's share (all of them outside CI)."""
    return tuple(b for b in backends
                 if split_runs.takes_backend_run(SHARE["split"], SHARE["nodeid"], b))


def check_program(fn, arg_sets, *, graphs=None, breaks=None, backends=BACKENDS, calls=2,
                  kwargs=None, tol=None):
    """Compile ``fn`` once per backend; compare with eager on every argument set.

    Returns the ``dynamo.explain`` report of the first argument set (eager backend).
    ``tol`` (a dict of rtol/atol) overrides the per-backend tolerance.
    """
    kwargs = kwargs or {}
    backends = backends_here(backends)
    expected = []
    for args in arg_sets:
        eager_args = copy.deepcopy(args)
        result, out, warns = run(fn, eager_args, copy.deepcopy(kwargs))
        expected.append((comparable(result), out, warns, comparable(eager_args)))
    for backend in backends:
        btol = tol if tol is not None else ({} if backend == "eager" else NUMPY_BACKEND_TOL)
        compiled = dynamo.compile(fn, backend=backend)
        schedule = [(i, calls) for i in range(len(arg_sets))]
        if len(arg_sets) > 1:
            schedule.append((0, 1))
        for step, (i, n_calls) in enumerate(schedule):
            again = " (again, after the other sets)" if step >= len(arg_sets) else ""
            args = arg_sets[i]
            want, want_out, want_warn, want_args = expected[i]
            for call in range(n_calls):
                label = f"[{backend}] input set {i}, call {call + 1}{again}"
                comp_args = copy.deepcopy(args)
                got, got_out, got_warn = run(compiled, comp_args, copy.deepcopy(kwargs))
                _same_outcome(want, comparable(got), btol.get("rtol", 0.0),
                              btol.get("atol", 0.0), label)
                assert got_out == want_out, f"{label}: stdout {got_out!r} != {want_out!r}"
                assert got_warn == want_warn, \
                    f"{label}: warnings {got_warn!r} != {want_warn!r}"
                same(want_args, comparable(comp_args), btol.get("rtol", 0.0),
                     btol.get("atol", 0.0), f"{label}: arguments after the call")
    if graphs is None and breaks is None:
        return None
    report = explain(fn, arg_sets[0], kwargs)
    assert_counts(report, graphs, breaks)
    return report


def run(fn, args, kwargs):
    """(result or exception, stdout, warnings as (category, text) pairs) of one call."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            result = e
    return result, out.getvalue(), [(w.category.__name__, str(w.message)) for w in caught]


def comparable(value, _depth=0):
    """``value`` with every random Generator replaced by its bit generator's state (two
    Generators compare by identity), looking into containers and plain objects."""
    if _depth > 6:
        return value
    if isinstance(value, np.random.Generator):
        return ("Generator", value.bit_generator.state)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(comparable(v, _depth + 1) for v in value)
    if isinstance(value, dict):
        return {k: comparable(v, _depth + 1) for k, v in value.items()}
    if hasattr(value, "__dict__") and not isinstance(value, (type, BaseException)) and \
            type(value).__module__ not in ("builtins", "numpy", "types", "functools"):
        if any(isinstance(v, np.random.Generator) for v in vars(value).values()):
            return {"__type__": type(value).__name__,
                    **{k: comparable(v, _depth + 1) for k, v in vars(value).items()}}
    return value


def explain(fn, args, kwargs=None):
    """``dynamo.explain`` on a copy of ``args``, its printed output swallowed."""
    with contextlib.redirect_stdout(io.StringIO()):
        return dynamo.explain(fn, backend="eager")(*copy.deepcopy(args),
                                                   **copy.deepcopy(kwargs or {}))


def rng_arrays(seed, *shapes, dtype=np.float32, scale=1.0):
    """Standard-normal arrays of the given shapes, from one seeded Generator."""
    rng = np.random.default_rng(seed)
    out = [(rng.standard_normal(s) * scale).astype(dtype) for s in shapes]
    return out[0] if len(out) == 1 else out


class Program:
    """One user program: its input sets, the graph/break counts a user should get, and
    known bugs (``wrong``: compiled differs from eager or crashes; ``counts_bug``: more
    graphs or breaks than a NumPy user would expect). ``why`` says why it breaks."""

    def __init__(self, name, fn, arg_sets, graphs=1, breaks=0, why="", wrong=None,
                 counts_bug=None, tol=None, kwargs=None, backends=BACKENDS):
        self.name, self.fn, self.arg_sets = name, fn, arg_sets
        self.graphs, self.breaks, self.why = graphs, breaks, why
        self.wrong, self.counts_bug = wrong, counts_bug
        self.tol, self.kwargs, self.backends = tol, kwargs, backends

    def __repr__(self) -> str:
        return self.name


def correctness_params(programs):
    """pytest params: one per program and backend, xfail(strict) where compiled != eager
    today (``wrong`` is one reason for every backend, or a dict backend -> reason)."""
    import pytest
    params = []
    for p in programs:
        for backend in p.backends:
            reason = p.wrong.get(backend) if isinstance(p.wrong, dict) else p.wrong
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(p, backend, id=f"{p.name}-{backend}", marks=marks))
    return params


def counts_params(programs):
    """pytest params: one per program, xfail(strict) where the counts are a known bug."""
    import pytest
    return [pytest.param(p, id=p.name,
                         marks=[pytest.mark.xfail(strict=True, reason=p.counts_bug)]
                         if p.counts_bug else []) for p in programs]


def check_correct(p: Program, backend: str) -> None:
    check_program(p.fn, p.arg_sets, backends=(backend,), kwargs=p.kwargs, tol=p.tol)


def check_counts(p: Program) -> None:
    report = explain(p.fn, p.arg_sets[0], p.kwargs)
    assert report.exception is None, f"explain raised {report.exception!r}"
    assert (report.graph_count, report.graph_break_count) == (p.graphs, p.breaks), \
        f"expected {p.graphs} graphs and {p.breaks} breaks, got {report.graph_count} " \
        f"and {report.graph_break_count}\n{report}"


def heldout_corpus_tests(programs, expected_breaks, edge_args, at_least,
                         backends=("eager", "numpy")):
    """The tests of a held-out corpus of ``(name, fn, args)`` programs with edge argument
    sets (corpora 11 and 12), for its test module to bind by name (pytest collects them
    there, ids as if written there)::

        test_corpus_is_broad, test_heldout_program = heldout_corpus_tests(
            PROGRAMS, EXPECTED_BREAKS, EDGE_ARGS, at_least=40)

    ``test_corpus_is_broad``: ``at_least`` programs or more, no name twice, and every
    name of ``expected_breaks`` and ``edge_args`` a program's. ``test_heldout_program``:
    each program on each backend gives eager's results on its arguments and then on its
    edge sets (``check_program``), and breaks exactly ``expected_breaks`` times (0 where
    not named, and then in one graph).
    """
    import pytest
    names = [name for name, _, _ in programs]

    def test_corpus_is_broad():
        assert len(programs) >= at_least, f"{len(programs)} programs, fewer than {at_least}"
        assert len(set(names)) == len(names), "a program name twice"
        assert set(expected_breaks) <= set(names) and set(edge_args) <= set(names), \
            f"not programs: {(set(expected_breaks) | set(edge_args)) - set(names)}"

    @pytest.mark.parametrize("backend", backends)
    @pytest.mark.parametrize("name,fn,args", programs, ids=names)
    def test_heldout_program(name, fn, args, backend):
        breaks = expected_breaks.get(name, 0)
        check_program(fn, [args, *edge_args.get(name, [])], backends=(backend,),
                      breaks=breaks, **({} if breaks else {"graphs": 1}))

    return test_corpus_is_broad, test_heldout_program


def check_corpus_is_new(corpus, earlier: tuple[str, ...], count: range) -> None:
    """A benchmark corpus (``scripts/realworld_programs*.py``, loaded) is broad and new:
    its program count in ``count``, no name twice, no function (by identity or name) of
    the ``earlier`` corpora, and its benchmark sizes the same programs in the same order
    as its small ones (the differential tests' sizes)."""
    programs = corpus.programs(small=True)
    names = [p[0] for p in programs]
    assert len(names) in count, len(names)
    assert len(set(names)) == len(names)
    old = set()
    for name in earlier:
        module = load_script(name)
        old |= {getattr(module, n) for n in dir(module) if callable(getattr(module, n))}
    new = {fn for _, fn, _, _ in programs}
    assert not old & new
    assert not {fn.__name__ for fn in old} & {fn.__name__ for fn in new}
    assert [p[0] for p in corpus.programs(small=False)] == names
