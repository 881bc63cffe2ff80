"""The hostile harness runs each program from the same NumPy print options, plainly and
compiled, and puts them back after it (``hostile_check.differences``).

A program may leave print options changed on purpose (``round27_globals/
set_inside_kept``: ``np.set_printoptions(precision=3)`` inside the function). Before,
the next program's plain run printed with them and its compiled run, after the plain
run's own restore, without: ``round27_globals/options_inside_then_outside-numpy``
failed in a full CI share (``--hostile-runs=eager:1/2,numpy:1-2/6``) and passed alone.
"""

import hostile_check as hc
import numpy as np

X = np.array([1.0, -2.0, 3.14159265]) / 3


def _leak(x):
    np.set_printoptions(precision=3)
    return str(x)


def _show(x):
    return str(x), repr(x[0])


def leaking(r):
    r.call(r.compile(_leak), X)


def printing(r):
    """Prints, then restores the defaults (as round27's scenarios do)."""
    f = r.compile(_show)
    r.call(f, X)
    np.set_printoptions(precision=8)


def test_a_leaked_print_option_reaches_neither_run_of_the_next_program():
    before = np.get_printoptions()
    try:
        assert hc.compare(leaking, "eager") is None
        assert np.get_printoptions() == before
        assert hc.compare(printing, "eager") is None
    finally:
        np.set_printoptions(**before)


def test_each_run_starts_from_the_options_on_entry():
    before = np.get_printoptions()
    try:
        np.set_printoptions(precision=2)
        assert hc.compare(printing, "numpy") is None
        assert np.get_printoptions()["precision"] == 2
    finally:
        np.set_printoptions(**before)
