"""A changing base to a float power (``(1 - epoch / max_epochs) ** power``, issue #16):
Python gives a float for a base >= 0 and a complex for a negative one, so the entry is
guarded on the base's sign (``(1 - ((epoch) / 10)) >= 0``), not on the
epoch's value (``symbolic.scalars._pow_stays_float``). A poly schedule then compiles
twice over its epochs (the first call by value, then one entry for every epoch in
range); an epoch past the end (a negative base) misses and pins, with Python's complex
result.

Each sequence is run plainly and compiled side by side: results (values, types:
``float`` against ``complex``), raised errors (``0.0 ** -0.5``) and warnings agree.
"""

import math

import numpy as np
import pytest
from harness import outcome, same_outcome
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo

BACKENDS = ["eager", "numpy"]
G = np.linspace(-1.0, 1.0, 6)


def lr_poly(g, epoch, max_epochs=10, base_lr=0.1, power=0.9):
    lr = base_lr * (1 - epoch / max_epochs) ** power
    return g * lr, lr


def scaled(g, x, p):
    """A changing float base and a changing float power."""
    return g * (x - 0.5) ** p, (x - 0.5) ** p


def _compiled_outcomes(fn, calls, backend):
    """Compare ``fn`` plainly and compiled over ``calls``; the compile count."""
    dynamo.reset()
    with dynamo.explain(fn, backend=backend) as compiled:
        for args in calls:
            with np.errstate(all="ignore"):
                want = outcome(fn, args)
                got = outcome(compiled, args)
            same_outcome(want, got, f"{fn.__name__}{args[1:]}",
                         rtol=0.0 if backend == "eager" else 1e-12)
    return compiled.report


@pytest.mark.parametrize("backend", BACKENDS)
def test_poly_schedule_compiles_twice_over_its_epochs(backend):
    report = _compiled_outcomes(lr_poly, [(G, e) for e in range(11)], backend)
    recompiles = [str(r) for r in report.recompiles]
    assert report.compile_count == 2, recompiles
    # the second entry guards the sign of the base, not the epoch
    assert "expected 0, got 1" in recompiles[0]


def test_the_guard_is_the_sign_of_the_base():
    dynamo.reset()
    with dynamo.explain(lr_poly, backend="eager") as compiled:
        for e in (0, 3, 5):
            compiled(G, e)
    guards = "\n".join(str(g) for g in compiled.report.guards)
    assert "(1 - ((epoch) / 10)) >= 0" in guards, guards
    assert "L['epoch'] == 3" not in guards, guards


def test_past_the_end_is_complex_as_python():
    """Epoch 12: the base is -0.2 and Python's result complex; the entry of the
    non-negative bases misses, and the epochs past the end pin."""
    calls = [(G, e) for e in (0, 4, 7, 12, 13, 9, 10, 12)]
    report = _compiled_outcomes(lr_poly, calls, "eager")
    assert type(lr_poly(G, 12)[1]) is complex
    # 0 by value; 4, 7, 9, 10 one entry; 12 and 13 each pinned
    assert report.compile_count == 4, [str(r) for r in report.recompiles]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=2, max_size=7),
       st.sampled_from([1, 3, 10, 25]),
       st.sampled_from([0.9, 0.5, 2.0, -0.5, 1.0, -1.5, 0.0]))
def test_epochs_maxima_and_powers_equal_python(epochs, max_epochs, power):
    calls = [(G, e, max_epochs, 0.1, power) for e in epochs]
    _compiled_outcomes(lr_poly, calls, "eager")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.floats(-2.0, 3.0, allow_nan=False) |
                          st.sampled_from([0.5, float("nan"), float("inf"), -0.0]),
                          st.sampled_from([0.25, 0.5, 2.0, -0.5, 3.0, 1.5])),
                min_size=2, max_size=6),
       st.sampled_from(BACKENDS))
def test_changing_float_bases_and_powers_equal_python(pairs, backend):
    """Negative bases (complex), 0.0 to a negative power (ZeroDivisionError), NaN and
    inf bases, integral and fractional powers, all changing between calls."""
    calls = [(G, x, p) for x, p in pairs]
    _compiled_outcomes(scaled, calls, backend)


def test_a_nan_base_pins_and_the_sign_entry_still_serves():
    """NaN >= 0 is false: the sign entry misses and NaN gets an entry of its own; a
    base >= 0 after it is served by the sign entry again."""
    calls = [(G, x, 0.5) for x in (2.0, 3.0, math.nan, 4.0, 7.5)]
    report = _compiled_outcomes(scaled, calls, "eager")
    assert [r.call for r in report.recompiles] == [1, 2], \
        [str(r) for r in report.recompiles]
