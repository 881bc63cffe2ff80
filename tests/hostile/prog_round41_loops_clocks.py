"""Round 41, Python float clocks that a loop node's body reads (while_clocks.py):
``while np.abs(x).max() > tol and t < t_end:`` with the body reading ``t`` or
``lr``, stepped by ``+=``, ``-=``, ``*=`` and ``/=``: clocks reaching 0, infinity and
NaN, a step of 0 (``ZeroDivisionError``, or a clock that never moves), loops that exit
on the clock after 0 or 1 trips, and the clock's start, step and end changing between
calls (Python ints, floats, ``-0.0``, ``inf``, ``nan``).

    >>> def _decay(x, lr):
    ...     t = 0.0
    ...     while np.abs(x).max() > 1e-3 and t < 50.0:
    ...         x = x - lr * x
    ...         lr *= 0.9
    ...         t += 1.0
    ...     return x, lr, t
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round41_loops")


def _x(n=5, seed=2):
    return np.random.default_rng(seed).random(n) + 0.5


def _decay(x, lr):
    t = 0.0
    while np.abs(x).max() > 1e-3 and t < 50.0:
        x = x - lr * x
        lr *= 0.9
        t += 1.0
    return x, lr, t


def _halving(x, step):
    while np.abs(x).sum() > 1e-6 and step > 1e-3:
        x = x * (1.0 - step)
        step /= 2.0
    return x, step


def _time_read(x, dt):
    t = 0.0
    while x.max() < 100.0 and t < 3.0:
        x = x + np.sin(t) + dt
        t += dt
    return x, t


def _time_read_minus(x, dt):
    t = 2.0
    while x.min() > -50.0 and t > 0.0:
        x = x - t * dt
        t -= dt
    return x, t


def _scaled_by_arg(x, g):
    lr = 1.0
    while x.max() > 0.01 and lr > 1e-4:
        x = x * (1 - lr * 0.5)
        lr = lr * g
    return x, lr


def _div_by_arg(x, g):
    lr = 1.0
    while x.max() > 0.01 and lr > 1e-4:
        x = x - lr * 0.1
        lr = lr / g
    return x, lr


def _to_inf(x, g):
    s = 1.0
    while x.sum() > 0.0 and s < float("inf"):
        x = x - 1e-300 * s
        s *= g
    return x, s


def _clock_in_result(x, dt):
    t = 0.0
    out = x * 0.0
    while np.abs(x).max() > 0.5 and t < 1.0:
        out = out + t
        x = x * 0.8
        t += dt
    return out, x, t


def _float32_data(x, dt):
    x = x.astype(np.float32)
    t = 0.0
    while x.max() > np.float32(0.1) and t < 4.0:
        x = x * np.float32(0.7) + np.float32(t * 0.001)
        t += dt
    return x, t


def _int_start(x, dt):
    t = 0
    while x.max() > 0.2 and t < 3:
        x = x * 0.9 - t * 0.01
        t += dt
    return x, t


for _f, _inputs in (
        (_decay, (0.5, 0.1, 0.0, 1.0, 2.0, -0.0, 0.5, 1e-300, float("nan"), 0.5)),
        (_halving, (0.5, 0.25, 1e-3, 2e-3, 0.0, -0.5, 0.5, 1, 0.5)),
        (_time_read, (0.25, 0.5, 3.0, 4.0, 1e-3, 0.1, 0.25, float("inf"), 0.25)),
        (_time_read_minus, (0.25, 0.5, 2.0, 3.0, 0.3, 0.25, 2, 0.25)),
        (_scaled_by_arg, (0.5, 0.9, 0.0, 1.0, -0.5, 1e-4, 0.5, float("nan"), 0.5)),
        (_div_by_arg, (2.0, 1.5, 0.0, 1.0, 2, float("inf"), 2.0)),
        (_to_inf, (2.0, 1e300, 2.0)),
        (_clock_in_result, (0.25, 0.3, 1.0, 2.0, 0.25, 0.0001, 0.25)),
        (_float32_data, (0.5, 0.25, 4.0, 5.0, 0.5)),
        (_int_start, (1, 2, 0.5, 3, 1))):
    reg.case(_f, *[(lambda a=a: (_x(), a)) for a in _inputs], calls=1,
             name=_f.__name__.removeprefix("_"))
    reg.case(_f, *[(lambda n=n, a=_inputs[0]: (_x(n, n), a)) for n in (5, 0, 1, 9, 5)],
             calls=1, name=_f.__name__.removeprefix("_") + "_sizes")


def _zero_step_div(x, g):
    """``lr / g`` with ``g == 0``: ZeroDivisionError on the first trip, plainly too."""
    lr = 1.0
    while x.max() > 0.0 and lr > 0.5:
        x = x * 0.5
        lr = lr / g
    return x, lr


reg.case(_zero_step_div, (_x(), 2.0), (_x(), 0.0), (_x(), 0), (_x(), -0.0), calls=1)


def _exit_after(x, t0):
    t = t0
    k = 0
    while x.max() > 0.0 and t < 1.0:
        x = x - 0.1 + t
        t += 0.5
        k += 1
    return x, t, k


reg.case(_exit_after, (_x(), 0.0), (_x(), 0.6), (_x(), 1.0), (_x(), 5.0), (_x(), 0.5),
         (_x(), -0.0), (_x(), float("-inf")), calls=1)


def _nan_clock(x, t0):
    """A NaN clock fails ``t < 1.0`` at once."""
    t = t0
    while x.max() > 0.0 and t < 1.0:
        x = x * 0.5 + t
        t += 0.25
    return x, t


reg.case(_nan_clock, (_x(), 0.0), (_x(), float("nan")), (_x(), 0.25), calls=1)
