"""Round 21, checks on array data that stay in the graph (``dynamo/ops/checks.py``,
``translator/raising_checks.py``) and the frame's rerun when one fails
(``dynamo/raising.py``): failing checks after prints, appends, global counters,
attribute and dict writes, in-place writes of an input, random draws (legacy and
``Generator``), a generator advanced, ``warnings.warn`` and a floating-point warning;
checks inside helpers, methods, loops, ``with`` blocks and generators, caught by an
``except`` in the same frame or the caller's; checks whose message formats the data.
Then the quiet ops (``dynamo/ops/quiet_ops.py``) beside such checks on NaN, infinities,
subnormals, zeros, empty and one-element inputs, and the ops next to them that do warn
(``nanmean`` of all NaN, ``std`` with ``ddof`` too large, ``polyfit``...).

    >>> def _print_then_check(x):
    ...     print("checking", x.shape)
    ...     if np.any(x < 0):           # a data_check: when it fails, the frame reruns
    ...         raise ValueError("negative")
    ...     return x * 2
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round21_checks")
case = reg.case
scenario = reg.scenario

POS = np.linspace(0.5, 4.0, 50)
NEG = POS - 2.0
NANS = np.where(np.arange(50) % 7 == 3, np.nan, POS)
LOG: list = []
COUNT = [0]


def _reset():
    LOG.clear()
    COUNT[0] = 0


def _watch():
    return list(LOG), COUNT[0]


def both(fn, *inputs, name=None, **kw):
    """``fn`` on passing, then failing inputs (and passing again)."""
    case(fn, *(inputs or ((POS,), (NEG,))), setup=_reset, watch=_watch, name=name, **kw)


# ----------------------------------------------------------- effects before the check

def _print_then_check(x):
    print("checking", x.shape)
    if np.any(x < 0):
        raise ValueError("negative")
    return x * 2


def _append_then_check(x, out):
    out.append(float(x.sum()))
    y = x * 3
    if np.any(y < 0):
        raise ValueError(f"negative, first {y.min()}")
    return y


def _global_count_then_assert(x):
    COUNT[0] += 1
    LOG.append("in")
    assert np.all(x >= 0), "needs non-negative data"
    return np.sqrt(x)


def _inplace_then_check(x):
    x += 1.0
    if (x < 0).any():
        raise ValueError("still negative")
    return x.sum()


def _inplace_after_check(x):
    if np.isnan(x).any():
        raise ValueError("nan")
    x *= 2
    return x


def _attr_then_check(x, o):
    o.calls = getattr(o, "calls", 0) + 1
    o.last = x.max()
    if x.min() < 0:
        raise ValueError("bad")
    return x - 1


class Obj:
    pass


def _dict_then_check(x, d):
    d[len(d)] = x.mean()
    assert not np.isnan(x).any(), d
    return x + d[0]


both(_print_then_check)
both(_append_then_check, (POS, []), (NEG, []))
both(_global_count_then_assert)
both(_inplace_then_check, (POS,), (NEG - 2,), (NEG + 1.6,))
both(_inplace_after_check, (POS,), (NANS,))
both(_attr_then_check, (POS, Obj()), (NEG, Obj()))
both(_dict_then_check, (POS, {}), (NANS, {}))


def _draw_then_check(x):
    noise = np.random.random(x.shape)
    if np.any(x + noise < 0):
        raise ValueError("negative after noise")
    return x + noise


def _gen_draw_then_check(x, rng):
    noise = rng.normal(size=x.shape)
    if np.any(x < 0):
        raise ValueError("negative")
    return x + noise, rng.integers(100)


def _seed():
    _reset()
    np.random.seed(7)


case(_draw_then_check, (POS,), (NEG,), setup=_seed, watch=lambda: np.random.random(),
     name="draw_then_check")
case(_gen_draw_then_check, lambda: (POS, np.random.default_rng(1)),
     lambda: (NEG, np.random.default_rng(1)), name="generator_draw_then_check")


@scenario
def s_shared_generator_then_check(r):
    """One Generator across calls: a rerun would draw again."""
    rng = np.random.default_rng(3)
    f = r.compile(_gen_draw_then_check)
    for x in (POS, NEG, POS, NEG):
        r.call(f, x, rng)
    r.see("next draw", rng.random())


def _python_gen_then_check(x, it):
    k = next(it)
    if np.any(x < k):
        raise ValueError(f"below {k}")
    return x * k


@scenario
def s_python_generator_then_check(r):
    it = iter(range(100))
    f = r.compile(_python_gen_then_check)
    for x in (POS, NEG, POS + 10, NEG):
        r.call(f, x, it)
    r.see("next", next(it))


def _warn_then_check(x):
    warnings.warn("about to check", UserWarning, stacklevel=1)
    if np.any(x < 0):
        raise ValueError("negative")
    return x


def _fp_warning_then_check(x):
    y = np.log(x)
    if np.isnan(y).any():
        raise ValueError("log of a negative")
    return y


def _fp_warning_errstate_then_check(x):
    with np.errstate(invalid="warn", divide="warn"):
        y = np.sqrt(x) / (x - x[0])
    if not np.isfinite(y).all():
        raise FloatingPointError("not finite")
    return y


both(_warn_then_check)
both(_fp_warning_then_check)
both(_fp_warning_errstate_then_check)


# --------------------------------------------------------- where the check lives

def _check_positive(x):
    if np.any(x < 0):
        raise ValueError("negative")
    return x


def _helper_check(x):
    LOG.append("before")
    y = _check_positive(x * 2) + 1
    LOG.append("after")
    return y


class Model:
    def __init__(self):
        self.seen = 0

    def validate(self, x):
        self.seen += 1
        assert np.all(np.isfinite(x)), f"call {self.seen}: not finite"
        return x

    def run(self, x):
        return self.validate(x * 2).sum()


def _method_check(m, x):
    return m.run(x)


def _caller_catches(x):
    try:
        y = _check_positive(x - 1)
    except ValueError as e:
        LOG.append(str(e))
        y = -x
    return y * 2


def _same_frame_catches(x):
    LOG.append("start")
    try:
        if np.any(x < 0):
            raise ValueError("negative")
        y = x * 2
    except ValueError:
        y = x * -2
    return y


def _check_in_loop(x, out):
    for k in range(4):
        out.append(k)
        x = x - 1
        if np.any(x < 0):
            raise ValueError(f"negative at step {k}")
    return x


def _check_in_with(x):
    with np.errstate(all="ignore"):
        y = x / 0.0
        if np.any(np.isinf(y) & (x < 0)):
            raise ValueError("negative divided")
    return y


def _check_in_generator(x):
    def gen():
        for row in (x, x - 3):
            if np.any(row < 0):
                raise ValueError("negative row")
            yield row.sum()
    return list(gen())


def _chained_assert(x):
    assert 0 <= x.min() <= 1 <= x.max(), "range"
    return x.mean()


def _check_returns_none(x):
    if (x < 0).any():
        return None
    return x * 2


def _nested_checks(x, y):
    COUNT[0] += 1
    if np.any(x < 0):
        raise ValueError("x")
    if np.any(y > 3):
        raise KeyError("y")
    return x + y


def _check_raise_from(x):
    try:
        q = 1 / x.size
    except ZeroDivisionError as e:
        raise ValueError("empty") from e
    if np.any(x * q < 0):
        raise ValueError("negative") from None
    return x * q


def _check_on_reduction_scalar(x):
    s = x.sum()
    if s > 100:
        raise OverflowError(f"sum {s}")
    return s


both(_helper_check)
case(_method_check, lambda: (Model(), POS), lambda: (Model(), NANS), setup=_reset,
     name="method_check")
both(_caller_catches)
both(_same_frame_catches)
both(_check_in_loop, (POS + 5, []), (POS, []))
both(_check_in_with, (POS,), (NEG,))
both(_check_in_generator, (POS + 3,), (POS,))
both(_chained_assert, (POS / 4,), (POS,))
both(_check_returns_none)
both(_nested_checks, (POS, POS / 2), (NEG, POS), (POS, POS))
both(_check_raise_from, (POS,), (NEG,), (np.zeros(0),))
both(_check_on_reduction_scalar, (POS,), (POS * 10,))


@scenario
def s_mutated_between_calls(r):
    """The same array passes, is written by the caller, fails, is written back."""
    _reset()
    x = POS.copy()
    f = r.compile(_print_then_check)
    r.call(f, x)
    x[3] = -1.0
    r.call(f, x)
    x[3] = 1.0
    r.call(f, x)


# ------------------------------------------------------------------------- quiet ops

def _hist_check(x):
    h, edges = np.histogram(x, bins=8)
    if np.any(h == 0):
        raise ValueError("an empty bin")
    return h, edges


def _fft_check(x):
    f = np.fft.fft(x)
    if np.isnan(f).any():
        raise ValueError("nan in spectrum")
    return np.abs(f)


def _cross_check(a, b):
    c = np.cross(a, b)
    if not np.isfinite(c).all():
        raise ValueError("cross not finite")
    return c


def _norm_check(x):
    n = np.linalg.norm(x)
    if not np.isfinite(n):
        raise ValueError("norm")
    return x / n


def _median_check(x):
    m = np.median(x)
    if np.isnan(m):
        raise ValueError("median nan")
    return x - m


def _percentile_check(x):
    p = np.percentile(x, [10, 90])
    if np.any(p[1] - p[0] == 0):
        raise ValueError("flat")
    return p


def _cov_check(x, y):
    c = np.cov(x, y)
    if np.any(np.isnan(c)):
        raise ValueError("cov nan")
    return c


def _corr_check(x, y):
    c = np.corrcoef(x, y)
    if np.any(np.isnan(c)):
        raise ValueError("corr nan")
    return c


def _average_check(x, w):
    a = np.average(x, weights=w)
    if a < 0:
        raise ValueError("negative average")
    return a


def _unique_check(x):
    u = np.unique(x)
    if np.any(np.isnan(u)):
        raise ValueError("nan in unique")
    return u


def _interp_check(x, xp, fp):
    y = np.interp(x, xp, fp)
    if np.isnan(y).any():
        raise ValueError("interp nan")
    return y


def _nanmean_check(x):
    m = np.nanmean(x)
    if np.isnan(m):
        raise ValueError("all nan")
    return m


def _nanmax_check(x):
    m = np.nanmax(x)
    if np.isnan(m):
        raise ValueError("all nan")
    return m


def _std_check(x):
    s = np.std(x, ddof=1)
    if not np.isfinite(s):
        raise ValueError("std")
    return s


def _polyfit_check(x, y):
    p = np.polyfit(x, y, 3)
    if np.any(np.isnan(p)):
        raise ValueError("fit")
    return p


def _gradient_check(x):
    g = np.gradient(x)
    if np.any(g < 0):
        raise ValueError("decreasing")
    return g


SUB = np.full(50, 5e-324)
INF = np.where(np.arange(50) == 10, np.inf, POS)
NINF = np.where(np.arange(50) == 10, -np.inf, POS)
ZEROS = np.zeros(50)
EMPTY = np.zeros(0)
ONE = np.ones(1)
ALLNAN = np.full(50, np.nan)

case(_hist_check, (POS,), (NANS,), (INF,), (SUB,), (ZEROS,), (EMPTY,), name="quiet_histogram")
case(_fft_check, (POS,), (NANS,), (INF,), (SUB,), (EMPTY,), (ONE,), name="quiet_fft")
case(_cross_check, (np.ones(3), np.arange(3.0)), (np.array([np.inf, 0, 1.0]), np.ones(3)),
     (np.array([np.nan, 0, 0.0]), np.ones(3)), name="quiet_cross")
case(_norm_check, (POS,), (INF,), (ZEROS,), (SUB,), (EMPTY,), name="quiet_norm")
case(_median_check, (POS,), (NANS,), (INF,), (EMPTY,), (ONE,), name="quiet_median")
case(_percentile_check, (POS,), (ZEROS,), (NANS,), (INF,), (EMPTY,), name="quiet_percentile")
case(_cov_check, (POS, POS[::-1]), (ONE, ONE), (INF, POS), (NANS, POS), (EMPTY, EMPTY),
     name="quiet_cov")
case(_corr_check, (POS, POS[::-1]), (ZEROS, POS), (INF, POS), (SUB, SUB), name="quiet_corrcoef")
case(_average_check, (POS, POS), (POS, ZEROS), (NEG, POS), (POS, INF), name="quiet_average")
case(_unique_check, (POS,), (NANS,), (EMPTY,), name="quiet_unique")
case(_interp_check, (POS, POS, POS[::-1]), (NANS, POS, POS), (POS, INF, POS),
     name="quiet_interp")
case(_nanmean_check, (NANS,), (ALLNAN,), (EMPTY,), name="nanmean_all_nan")
case(_nanmax_check, (NANS,), (ALLNAN,), (INF,), name="nanmax_all_nan")
case(_std_check, (POS,), (ONE,), (EMPTY,), (INF,), name="std_ddof")
case(_polyfit_check, (POS, POS ** 2), (ONE.repeat(50), POS), (POS, NANS), name="polyfit_rank")
case(_gradient_check, (POS,), (NEG[::-1],), (ONE,), (EMPTY,), name="gradient_small")


# ------------------------------------------------------------------ harder places

def _after_break(x, out):
    y = x * 2
    lst = y.tolist()                 # a break: the check is in the resumed code
    out.append(len(lst))
    print("resumed", lst[0])
    if np.any(x < 0):
        raise ValueError("negative")
    return y + 1


def _in_while(x, out):
    k = 0
    while k < 5:
        x = x - 0.5
        out.append(k)
        if np.any(x < -1):
            raise ValueError(f"below at {k}")
        k += 1
    return x


def _checker(v):
    LOG.append("checker")
    if np.any(v < 0):
        raise ValueError("neg")
    return v * 0.5


def _island_check(x):
    n = 0
    try:
        while float(np.abs(x).max()) > 0.3:
            x = _checker(x - 0.2)
            n += 1
    except ValueError as e:
        return str(e), n
    return x, n


def _raise_before_check(x):
    LOG.append(1)
    with np.errstate(divide="raise"):
        y = 1 / x
    if np.any(x < 0):
        raise ValueError("neg")
    return y


def _repr_message(x):
    if np.any(x < 0):
        raise ValueError(repr(x))
    return x


def _cell_count(x):
    n = 0

    def bump(v):
        nonlocal n
        n += 1
        return v * 2
    y = bump(x)
    z = bump(y)
    if np.any(z < 0):
        raise ValueError(f"neg after {n}")
    return z, n


def _attr_deleted_then_check(x, o):
    o.v = x * 2
    w = o.v
    del o.v
    if np.any(w < 0):
        raise ValueError("neg")
    return w


def _list_items(xs):
    total = 0
    for x in xs:
        total = total + x.sum()
        if np.any(x < 0):
            raise ValueError(f"item with sum {x.sum()}")
    return total


G = None


def _global_then_check(x):
    global G
    G = x.max()
    if np.any(x < 0):
        raise ValueError("neg")
    return x


def _checking_gen(x):
    yield x * 2
    if np.any(x < 0):
        raise ValueError("neg in gen")
    yield x * 3


def _consume_gen(x):
    return list(_checking_gen(x))


def _nested_try(x):
    try:
        try:
            if np.any(x < 0):
                raise ValueError("inner")
        finally:
            LOG.append("finally")
    except ValueError as e:
        return "caught " + str(e)
    return x.sum()


def _reset_g():
    global G
    _reset()
    G = None


both(_after_break, (POS, []), (NEG, []))
both(_in_while, (POS + 3, []), (POS, []))
both(_island_check, (POS,), (POS + 10,))
both(_raise_before_check, (POS,), (np.r_[NEG, 0.0],), (NEG,))
both(_repr_message)
both(_cell_count)
both(_attr_deleted_then_check, (POS, Obj()), (NEG, Obj()))
both(_list_items, ([POS, POS],), ([POS, NEG, POS],))
case(_global_then_check, (POS,), (NEG,), setup=_reset_g, watch=lambda: G,
     name="global_then_check")
both(_consume_gen)
both(_nested_try)
