"""Round 28, the native tier after ``backends/native/tier.py`` was split into
``tier2_calls.py`` and ``trial_calls.py``: this round's bodies (poly1d arithmetic, ``not``
and ``-`` of counts, ``round`` of graph floats) compiled with ``backend="native"`` and
``backend="auto"``, tier 2 forced from the second call (``hostile_check.TIER2``), then
called with hostile values (another dtype, length, NaN, inf, an empty selection).

    >>> def _poly_mix(c, x):
    ...     p = np.poly1d(c)
    ...     return (p * p - 1.0)(x), len(p.deriv())
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round28_tier2")

RNG = np.random.default_rng(28)
C = np.array([1.0, -2.0, 0.5])
X = RNG.standard_normal(64)


def _poly_mix(c, x):
    p = np.poly1d(c)
    return (p * p - 1.0)(x), len(p.deriv())


def _poly_integ(c, x):
    p = np.poly1d(c)
    return p.integ(2, 1.0)(x).sum(), p[0]


def _poly_then_ufunc(c, x):
    q = np.poly1d(c) ** 2
    return np.tanh(q(x)) * 2.0, q.order


def _poly_sub_self(c, x):
    p = np.poly1d(c)
    z = p - p
    return z.coeffs, z(x) + x


def _counts_not(c, x):
    n = len(x[x > 0])
    return not (n > 0), -(n > 3), x * (not (n > 1)) + c[0]


def _counts_invert(c, x):
    n = len(x[x > c[0]])
    return ~(n > 0) + 0, x[x > c[0]] * 2


def _counts_shape_not(c, x):
    return not (x.shape[0] > 10), -(x.shape[0] == 64), np.cumsum(x) * (not (x.size < 3))


def _rounded_mean(c, x):
    return round(float(x.mean()), 3), x - round(float(x.std()), 1)


def _rounded_each(c, x):
    return [round(float(v), 2) for v in c], np.exp(x) * round(float(c.sum()), 0)


def _rounded_negative_digits(c, x):
    try:
        return round(float(x.max()) * 1e300, -307)
    except OverflowError as e:
        return "overflow", str(e)


def _rounded_to_int(c, x):
    try:
        return round(float(x.sum()))
    except (ValueError, OverflowError) as e:
        return type(e).__name__, str(e)


def _loop_of_rounds(c, x):
    acc = 0.0
    for k in range(4):
        acc += round(float(x[k::4].mean()), 2)
    return acc, x[::4] * acc


BODIES = (_poly_mix, _poly_integ, _poly_then_ufunc, _poly_sub_self, _counts_not,
          _counts_invert, _counts_shape_not, _rounded_mean, _rounded_each,
          _rounded_negative_digits, _rounded_to_int, _loop_of_rounds)


def _make():
    return C.copy(), X.copy()


HOSTILE = (
    lambda: (np.array([0.0, 0.0, 2.0]), X.copy()),                     # trimmed to one
    lambda: (C.astype(np.float32), X.astype(np.float32)),              # float32
    lambda: (np.array([3, -1, 2]), np.arange(-5, 5)),                  # ints
    lambda: (C.copy(), np.full(8, np.nan)),                            # NaN
    lambda: (C.copy(), np.array([np.inf, -1.0, 2.0, 3.0, 1e308])),     # inf, huge
    lambda: (C.copy(), -np.abs(X)),                                    # nothing selected
    lambda: (np.array([1e200, 0.5, 1.0]), X[:5].copy()),               # overflow
)

for _fn in BODIES:
    reg.tiers(_fn.__name__[1:], _fn, _make, *HOSTILE)

# two more bodies on hostile inputs first, then the good ones
for _fn in (_poly_mix, _counts_not, _rounded_mean, _rounded_to_int, _poly_integ,
            _counts_invert, _rounded_each, _poly_sub_self):
    reg.tiers(f"{_fn.__name__[1:]}_hostile_first", _fn, HOSTILE[3], *HOSTILE[::-1])


# the trial (prefer "measure": tier 1 and tier 2 both run, the faster kept), compiled
# before the call returns; every call must give tier 1's answer
TRIAL = {"after_calls": 1, "background": False, "prefer": "measure"}


def _trial_scenario(fn):
    def s(r):
        f = r.compile_on(fn, "native", options=TRIAL)
        for make in (_make, _make, *HOSTILE, _make, _make):
            r.call(f, *make())
    s.__name__ = f"trial_{fn.__name__[1:]}"
    s.__doc__ = f"{fn.__name__} under the native tier's trial (tier 1 against tier 2)."
    return s


for _fn in (_poly_mix, _counts_not, _rounded_mean, _loop_of_rounds):
    reg.scenario(_trial_scenario(_fn))
