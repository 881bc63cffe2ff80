"""The adversarial loop corpus (corpus_loops.py): every program, on both CPU backends,
gives exactly what plain Python gives (``check``: results, arguments afterwards, printed
output, exceptions), and the same warnings, counted with every warning shown and with
Python's default "once per location" filter."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_loops import PROGRAMS, N
from harness import check, run, same

import dynamo

BACKENDS = ("eager", "numpy")
# programs where float summation order may legitimately differ
INEXACT = {"accum_python_float_to_array", "promote_float32_index", "loop_in_helper",
           "random_array_in_body", "rows_loop"}


# with Python's default filter a warning shows once per location: compiled code warns
# at the program's lines and in its module's registry (dynamo.source.compile_source
# with user_lines), so every unrolled copy of a statement is the one location it is in
# eager (zero_division_warning, zero_division_short_loop, int_floor_div_zero check it)
WARN_XFAIL: dict[str, str] = {}


def _name(p):
    return p.values[0] if hasattr(p, "values") else p[0]


def _warning_cases():
    """(name, fn, make, action) for every program, marked where the default filter's
    count differs (the corpus's own marks are about results, not warnings)."""
    cases = []
    for p in PROGRAMS:
        entry = p.values if hasattr(p, "values") else p
        for action in ("always", "default"):
            if action == "default" and entry[0] in WARN_XFAIL:
                cases.append(pytest.param(*entry, action, id=f"{entry[0]}-{action}",
                                          marks=pytest.mark.xfail(
                                              strict=True, reason=WARN_XFAIL[entry[0]])))
            else:
                cases.append(pytest.param(*entry, action, id=f"{entry[0]}-{action}"))
    return cases


def _warnings_of(fn, args, action):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter(action)
        run(fn, copy.deepcopy(args), {})
    return [(w.category, str(w.message)) for w in seen]


def _rng_states(args):
    """The arguments with each Generator replaced by its state (``same`` compares
    Generators by identity)."""
    return [a.bit_generator.state if isinstance(a, np.random.Generator) else a
            for a in args]


def _check(fn, args, backend, rtol):
    if not any(isinstance(a, np.random.Generator) for a in args):
        check(fn, *args, backend=backend, rtol=rtol)
        return
    eager_args = copy.deepcopy(args)
    expected, out = run(fn, eager_args, {})
    compiled = dynamo.compile(fn, backend=backend)
    for call in range(2):
        comp_args = copy.deepcopy(args)
        got, got_out = run(compiled, comp_args, {})
        same(expected, got, rtol, 0.0, f"call {call + 1}")
        assert got_out == out
        same(_rng_states(eager_args), _rng_states(comp_args), rtol, 0.0,
             f"call {call + 1}: arguments after the call")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", PROGRAMS, ids=[_name(p) for p in PROGRAMS])
def test_loop_corpus_matches_python(name, fn, make, backend):
    with np.errstate(all="warn"):
        _check(fn, make(), backend, 1e-12 if name in INEXACT else 0.0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make,action", _warning_cases())
def test_loop_corpus_warns_like_python(name, fn, make, action, backend):
    args = make()
    with np.errstate(all="warn"):
        expected = _warnings_of(fn, args, action)
        got = _warnings_of(dynamo.compile(fn, backend=backend), args, action)
    assert got == expected


def _take_from(x, it):
    for i in it:
        x[i] += 1
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_over_an_argument_iterator_consumes_it(backend):
    """The iterator is the caller's: after the loop it is exhausted, as in Python
    (``check`` cannot compare iterators, so this looks at what is left)."""
    compiled = dynamo.compile(_take_from, backend=backend)
    for _ in range(2):
        it = iter(range(2, N))
        x = compiled(np.zeros(N), it)
        same(_take_from(np.zeros(N), iter(range(2, N))), x)
        assert list(it) == []


def _index_error_from(x, it):
    for i in it:
        x[i] = i
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_index_error_leaves_the_argument_iterator_where_python_does(backend):
    compiled = dynamo.compile(_index_error_from, backend=backend)
    for fn in (_index_error_from, compiled, compiled):
        it, x = iter(range(20)), np.zeros(N)
        with pytest.raises(IndexError, match="index 12 is out of bounds"):
            fn(x, it)
        same(x, np.arange(N, dtype=float))
        assert list(it) == list(range(13, 20))
