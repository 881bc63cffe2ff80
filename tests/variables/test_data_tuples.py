"""A tuple of Python ints (or floats) that changes between calls and is only handed
whole to an op that reads it as array data (``np.array(t)``, ``np.asarray(t)``,
``np.mean(t)``) is one input of symbolic length, as a list is (issue #16,
``dynamo/variables/data_tuples.py``): a growing tuple of token ids compiles twice, not
once per length. A tuple read item by item (``t + (tok,)``, unpacking, ``x[t]``) keeps
an entry per length, and the recompile log says why, at the line that read it.

Example::

    >>> calls = [(tuple(range(n)),) for n in range(2, 9)]
    >>> dynamo.explain(embed).calls(calls).compile_count      # 7 before
    2
"""

import logging

import numpy as np
import pytest

import dynamo

W = np.arange(200.0).reshape(50, 4) / 7.0
BACKENDS = ["eager", "numpy"]


def embed(ids):
    return W[np.array(ids)].sum(axis=0)


def doubled(ids):
    return np.asarray(ids) * 2


def mean_of_floats(xs):
    return np.mean(xs) + 1.0


def returned_as_is(x, ids):
    return x * len(ids), ids      # (len of an unread tuple reads it: an entry per length)


def _check(fn, calls, backend):
    dynamo.reset()
    report = dynamo.explain(fn, backend=backend).calls(calls)
    assert not any(report.exceptions), report.exceptions
    for args, got in zip(calls, report.results):
        want = fn(*args)
        if isinstance(want, tuple):
            assert got[1] is args[-1]          # the same tuple object back
            want, got = want[0], got[0]
        assert type(got) is type(want)
        np.testing.assert_array_equal(got, want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
    return report


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_growing_tuple_of_ids_as_data_compiles_twice(backend):
    report = _check(embed, [(tuple(range(3, n + 3)),) for n in range(2, 10)], backend)
    assert report.compile_count == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fresh_tuple_of_ints_each_call(backend):
    report = _check(doubled, [((i, i + 5, 2 * i),) for i in range(8)], backend)
    assert report.compile_count <= 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_tuple_of_floats_as_data(backend):
    report = _check(mean_of_floats, [(tuple(0.5 * k for k in range(n)),)
                                     for n in range(2, 8)], backend)
    assert report.compile_count <= 2


def test_a_tuple_read_item_by_item_says_why(caplog):
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    report = _check(returned_as_is, [(np.ones(3), tuple(range(n))) for n in range(2, 7)],
                    "eager")
    assert report.compile_count >= 3      # its length is read: an entry per length
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "a tuple of numbers that changes, read item by item" in text
    assert "return x * len(ids), ids" in text


def index_by_tuple(x, t):
    return x[t] * 2                       # one index per dimension: not data


def test_a_tuple_index_is_one_index_per_dimension():
    x = np.arange(24.0).reshape(2, 3, 4)
    calls = [(x, (0, 1)), (x, (1, 2)), (x, (1, 2, 3)), (x, (0, 0, 1))]
    _check(index_by_tuple, calls, "eager")


def grows(x, toks):
    new = toks + (int(toks[-1]) + 1,)     # read item by item: its own entry per length
    return x * np.array(new).sum(), new


def test_a_tuple_that_grows_by_concatenation_gives_eager_results():
    toks, want_toks = (1, 2), (1, 2)
    dynamo.reset()
    f = dynamo.compile(grows, backend="eager")
    for _ in range(6):
        got, toks = f(np.ones(2), toks)
        want, want_toks = grows(np.ones(2), want_toks)
        np.testing.assert_array_equal(got, want)
        assert toks == want_toks and type(toks) is tuple
