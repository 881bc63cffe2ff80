"""Output buffers passed positionally where a ufunc takes them so without a warning
(``backends/numpy_backend/positional_out.py``), against eager NumPy.

A buffer passed as ``out=`` costs NumPy's keyword parser on every call; the positional
form does the same work without it. ``np.maximum`` and ``np.minimum`` warn on a third
positional argument since NumPy 2.4, so they, and ufuncs the probe cannot try, keep
the keyword.
"""

import re
import warnings

import numpy as np
from dynamo.backends.numpy_backend.positional_out import takes_positional_out
from test_numpy_backend import compiled_graph

import dynamo


def adam_step(g, m, t):
    m = 0.9 * m + 0.1 * g
    return m / (1 - 0.9 ** t)


def relu_chain(x):
    return np.maximum(np.exp(x) * 2.0, 1.0) + 1.0


def test_the_rule_keeps_the_keyword_where_numpy_warns_or_for_other_callables():
    assert takes_positional_out(np.add) and takes_positional_out(np.exp)
    assert takes_positional_out(np.divide) and takes_positional_out(np.logical_and)
    assert not takes_positional_out(np.maximum) and not takes_positional_out(np.minimum)
    assert not takes_positional_out(np.divmod)        # two outputs
    assert not takes_positional_out(np.matmul)        # a generalized ufunc
    assert not takes_positional_out(np.sum)           # not a ufunc


def _arrays(codes: str) -> list:
    """One-element arrays of a loop's type codes (datetimes in seconds)."""
    return [np.ones(1, dtype="M8[s]" if c == "M" else "m8[s]" if c == "m" else c)
            for c in codes]


def test_every_ufunc_the_rule_allows_takes_its_output_positionally_without_a_warning():
    # What keeps the rule true on a newer NumPy: a ufunc of NumPy's namespace that
    # warned on a positional output would fail here (npversion.CHECKED stops the rule
    # on a NumPy this test has not run on)
    allowed = [u for u in vars(np).values()
               if isinstance(u, np.ufunc) and takes_positional_out(u)]
    assert len(allowed) > 50
    for ufunc in allowed:
        for loop in ufunc.types:
            ins, outs = loop.split("->")
            try:
                args, out = _arrays(ins), _arrays(outs)[0]
            except TypeError:
                continue
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("error", DeprecationWarning)
                warnings.simplefilter("error", FutureWarning)
                try:
                    result = ufunc(*args, out)
                except (DeprecationWarning, FutureWarning) as w:
                    raise AssertionError(f"{ufunc.__name__}: {w}") from w
                except (TypeError, ValueError):
                    continue
            assert result is out, ufunc
            break


def test_the_adam_step_writes_into_its_buffers_positionally_as_eager():
    g = np.random.default_rng(0).standard_normal(4096).astype(np.float32)
    m = np.zeros(4096, np.float32)
    src = compiled_graph(adam_step, g, m, 3).__dynamo_source__
    assert "out=" not in src, src
    assert re.search(r"add = _add\(multiply, .*, multiply\)", src), src
    f = dynamo.compile(adam_step, backend="numpy")
    for t in range(1, 6):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = f(g, m, t)
        want = adam_step(g, m, t)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_maximum_keeps_out_by_keyword_and_warns_nothing():
    x = np.random.default_rng(1).standard_normal(300)
    src = compiled_graph(relu_chain, x).__dynamo_source__
    assert re.search(r"_maximum\([^\n]*out=", src), src
    assert re.search(r"_add\([^\n]*, maximum\)", src), src
    f = dynamo.compile(relu_chain, backend="numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = f(x)
        got = f(x)
    assert np.array_equal(got, relu_chain(x))
