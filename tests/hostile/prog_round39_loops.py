"""Round 39, inner loops of a constant step other than 1 or -1 as nested loop nodes
(``dynamo/translator/triangular_loops.py``: ``stepped_count``, the periodic corners of
``_corners``; ``dynamo/variables/iterators.py``: ``_follows_loop_indices``): ``range(i,
n, 2)``, ``range(n - 1, i, -2)``, ``range(i, -1, -3)``, ``range(0, i, 3)``,
``range(2 * i, n, 3)``; bounds that leave the array at some outer trips only (caught and
not, negative indices that wrap), steps of 0 (ValueError) and steps that change between
calls (arguments, globals, defaults), empty inner loops, sizes 0, 1, 2, odd and even,
float32, int8, int64, bool and complex arrays, in-place red-black sweeps (writes that
alias reads), the inner index in arithmetic, as a slice bound and read after the loop,
``break``/``continue`` inside, Python float accumulators, steps past the corners' limit,
three levels. The outer loop runs 9 trips and more (a node) on most calls. The block
plans of the numpy backend are in ``prog_round39_loops_blocks.py`` (same category).

    >>> def _back_by_two(x):
    ...     n = x.shape[0]
    ...     for i in range(n):
    ...         for j in range(n - 1, i, -2):     # count -((n - 1 - i) // -2)
    ...             x[j] = x[j] - 0.25 * x[j - 1]
    ...     return x
"""

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round39_loops")


def _v(n, dtype=np.float64, seed=0):
    return (np.random.default_rng(seed + n).random(n) * 4 - 1).astype(dtype)


def _m(n, dtype=np.float64, seed=1):
    return (np.random.default_rng(seed + n).random((n, n)) * 2 - 0.5).astype(dtype)


SIZES = (11, 10, 2, 0, 13, 1)   # a node at 10, 11 and 13; unrolled or empty below
SHORT = (11, 2, 0)              # (for the slower programs: CI time)


def _sized(fn, make, sizes=SIZES, name=None, calls=1):
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=calls,
             name=name or fn.__name__.removeprefix("_"))


# ------------------------------------------------------------------- the basic shapes
def _fwd_by_two(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            y[i] = y[i] + x[j]
    return y


def _back_by_two(x):
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1, i, -2):
            x[j] = x[j] - 0.25 * x[j - 1]
    return x


def _down_by_three(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, -1, -3):
            y[i] = y[i] + x[j] * (j + 1)
    return y


def _every_third(L, b):
    n = b.shape[0]
    x = np.zeros_like(b)
    for i in range(n):
        s = b[i]
        for j in range(0, i, 3):
            s = s - L[i, j] * x[j]
        x[i] = s / (L[i, i] + 2.0)
    return x


def _twice_i_start(x, y):                 # range(2 * i, n, 3): empty past n / 2
    n = x.shape[0]
    for i in range(n):
        for j in range(2 * i, n, 3):
            y[i] = y[i] + x[j]
    return y


def _start_falls(x, y):                   # range(n - 1 - i, -1, -2): the start moves down
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1 - i, -1, -2):
            y[i] = y[i] * 0.5 + x[j]
    return y


def _stop_zero(x, y):                     # range(i, 0, -2): 0 never reached
    n = x.shape[0]
    for i in range(n):
        for j in range(i, 0, -2):
            y[i] = y[i] + x[j] - x[j - 1]
    return y


def _step_five_back(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1, i - 1, -5):
            y[j] = y[j] + x[i]
    return y


def _step_seven(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i + 1, n, 7):
            A[i, j] = A[i, j] + A[j, i]
    return A


def _two_stepped(x, y):                   # two stepped loops in one outer body
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            y[i] = y[i] + x[j]
        for j in range(i, -1, -3):
            y[i] = y[i] - 0.5 * x[j]
    return y


for _fn in (_fwd_by_two, _down_by_three, _twice_i_start, _start_falls, _stop_zero,
            _step_five_back, _two_stepped):
    _sized(_fn, lambda n: (_v(n), np.zeros(n)))
_sized(_back_by_two, lambda n: (_v(n),))
_sized(_every_third, lambda n: (_m(n), _v(n)), sizes=SHORT)
_sized(_step_seven, lambda n: (_m(n),))


# ------------------------------------------------------------------- dtypes
_sized(_fwd_by_two, lambda n: (_v(n, np.float32), np.zeros(n, np.float32)),
       name="fwd_by_two_f32")
_sized(_fwd_by_two, lambda n: ((_v(n) * 40).astype(np.int8), np.zeros(n, np.int8)),
       name="fwd_by_two_int8_wraps")
_sized(_down_by_three, lambda n: ((_v(n) * 9).astype(np.int64), np.zeros(n, np.int64)),
       name="down_by_three_int64")
_sized(_fwd_by_two, lambda n: (_v(n) + 1j * _v(n, seed=5), np.zeros(n, complex)),
       name="fwd_by_two_complex")
_sized(_back_by_two, lambda n: (_v(n, np.float32),), name="back_by_two_f32")
_sized(_back_by_two, lambda n: (_v(n) - 1j * _v(n, seed=3),), name="back_by_two_complex")
_sized(_fwd_by_two, lambda n: (_v(n) > 0.5, np.zeros(n, np.int64)), name="bool_counts")
_sized(_fwd_by_two, lambda n: (_v(n), np.zeros(n, np.float32)), name="f64_into_f32")
_sized(_fwd_by_two, lambda n: (_v(n, np.float16), np.zeros(n, np.float16)),
       name="fwd_by_two_f16")


# ------------------------------------------------------------------- out of the array
def _reads_past_end(x, y):                # j + 2 leaves x where (n - 1 - i) % 3 < 2
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 3):
            y[i] = y[i] + x[j + 2]
    return y


def _reads_past_end_caught(x, y):
    try:
        return _reads_past_end(x, y), "ok"
    except IndexError as e:
        return y, str(e)


def _wraps_negative(x, y):                # x[j - 2] at j = 0, 1: x[-2], x[-1] (valid)
    n = x.shape[0]
    for i in range(n):
        for j in range(i, -1, -3):
            y[i] = y[i] + x[j - 2]
    return y


def _below_minus_n(x, y):                 # x[j - n - 1] at j = 0: out (IndexError)
    n = x.shape[0]
    for i in range(n):
        for j in range(i, -1, -2):
            y[i] = y[i] + x[j - n]
        if i > 5:
            y[i] = y[i] + x[i - n - 1]
    return y


def _past_end_odd_only(x, y):             # range(i, n + 1, 2) reaches j = n where n - i even
    n = x.shape[0]
    for i in range(1, n, 2):
        for j in range(i, n + 1, 2):
            y[i] = y[i] + x[j]
    return y


def _late_trips_past(A, y):               # 2-D: row j + i // 1 leaves A for late i only
    n = y.shape[0]
    for i in range(n):
        for j in range(0, i, 2):
            y[i] = y[i] + A[i + j - 4, j]
    return y


for _fn in (_reads_past_end, _reads_past_end_caught, _wraps_negative, _below_minus_n,
            _past_end_odd_only):
    _sized(_fn, lambda n: (_v(n), np.zeros(n)), sizes=SHORT if _fn is _below_minus_n else SIZES)
_sized(_late_trips_past, lambda n: (_m(n), np.zeros(n)))
_sized(_late_trips_past, lambda n: (_m(n + 8), np.zeros(n)), sizes=SHORT,
       name="late_trips_inside")


# ------------------------------------------------------------------- steps
def _step_arg(x, y, s):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, s):
            y[i] = y[i] + x[j]
    return y


def _step_arg_caught(x, y, s):
    try:
        return _step_arg(x, y, s)
    except ValueError as e:
        return str(e)


STEP = 2


def _step_global(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1, i, -STEP):
            y[j] = y[j] + x[i]
    return y


def _step_default(x, y, s=3):
    n = x.shape[0]
    for i in range(n):
        for j in range(0, i, s):
            y[i] = y[i] + x[j]
    return y


def _step_of_len(x, y, t):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, len(t)):
            y[i] = y[i] + x[j]
    return y


def _neg_step_arg(x, y, s):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, -1, s):
            y[i] = y[i] + x[j]
    return y


for _name, _steps in (("step_arg_changes", (2, 3, -2, 1, 33)),
                      ("step_arg_zero", (2, 0, 3))):
    reg.case(_step_arg, *[(lambda s=s: (_v(11), np.zeros(11), s)) for s in _steps],
             name=_name)
reg.case(_step_arg_caught, *[(lambda s=s: (_v(10), np.zeros(10), s)) for s in (3, 0, 2)])
reg.case(_neg_step_arg, *[(lambda s=s: (_v(12), np.zeros(12), s)) for s in (-2, -3, 2, -1)])


def _set_step(k):
    global STEP
    STEP = (2, 3, 5, 2, 4)[k % 5]


reg.case(_step_global, (_v(11), np.zeros(11)), calls=5, between=_set_step,
         setup=lambda: _set_step(0))
reg.case(_step_default, (_v(11), np.zeros(11)), Args(_v(11), np.zeros(11), s=4),
         Args(_v(12), np.zeros(12), s=-1))
reg.case(_step_of_len, (_v(11), np.zeros(11), (0, 0)), (_v(11), np.zeros(11), (0, 0, 0)),
         (_v(11), np.zeros(11), ()))


# ------------------------------------------------------------------- empty inner loops
def _never_runs(x, y):
    n = x.shape[0]
    for i in range(n):
        y[i] = 1.0
        for j in range(n, i, 2):           # start >= stop, step > 0: no trip ever
            y[i] = y[i] + x[j]
        for j in range(i, i, -3):
            y[i] = y[i] - 1.0
    return y


def _runs_at_last_rows(x, y):              # range(n - 2, i, -3): trips only for i < n - 2
    n = x.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n - 2, i, -3):
            s = s + x[j]
        y[i] = s
    return y


_sized(_never_runs, lambda n: (_v(n), np.zeros(n)))
_sized(_runs_at_last_rows, lambda n: (_v(n), np.zeros(n)))


# ------------------------------------------------------------------- red-black in place
def _red_black(u, f, sweeps):
    n = u.shape[0]
    for _ in range(sweeps):
        for c in range(2):
            for i in range(1 + c, n - 1, 2):
                u[i] = 0.5 * (u[i - 1] + u[i + 1] + f[i])
    return u


def _red_black_2d(u, f):
    n = u.shape[0]
    for i in range(1, n - 1):
        for j in range(1 + i % 2, n - 1, 2):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] + f[i, j])
    return u


def _red_black_self(u):                    # the right-hand side is u itself
    n = u.shape[0]
    for c in range(12):
        for i in range(1 + c % 2, n - 1, 2):
            u[i] = 0.5 * (u[i - 1] + u[i + 1]) - 0.1 * u[i]
    return u


def _sweep_into_view(u):                   # a view of u written while u is read
    v = u[1:]
    n = v.shape[0]
    for i in range(n):
        for j in range(i, n - 1, 2):
            v[j] = u[j] + 0.5 * v[j + 1]
    return u


reg.case(_red_black, *[(lambda n=n, k=k: (np.zeros(n), _v(n), k))
                       for n, k in ((12, 10), (13, 9), (2, 10), (12, 0))])
_sized(_red_black_2d, lambda n: (_m(n), _m(n, seed=4)), sizes=(11, 3))
_sized(_red_black_self, lambda n: (_v(n),), sizes=SHORT)
_sized(_red_black_self, lambda n: (_v(n, np.float32),), sizes=SHORT,
       name="red_black_self_f32")
_sized(_sweep_into_view, lambda n: (_v(n),))


# ------------------------------------------------------------------- the inner index
def _index_arith(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            y[i] = y[i] + x[j] * (j - i) / 2 + j // 3
    return y


def _index_float_pow(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1, i, -3):
            y[i] = y[i] + float(j) ** 2 * x[j] - (j % 4)
    return y


def _index_slice(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n - 1, 2):
            y[i] = y[i] + x[j:j + 2].sum()
    return y


def _index_after(x, y):                    # j read after the loop (stale where empty)
    n = x.shape[0]
    j = -1
    last = []
    for i in range(n):
        for j in range(i, n, 3):
            y[i] = y[i] + x[j]
        last.append(j)
    return y, last, j


def _index_stored(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(0, i, 2):
            y[i] = y[i] + j * x[j]
        y[i] = y[i] + i
    return y


def _float_acc(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    kinds = []
    for i in range(n):
        s = 0.0
        for j in range(1, i, 2):
            s += L[i, j] * x[j]
        x[i] = (b[i] - s) / (L[i, i] + 3.0)
        kinds.append(type(s).__name__)
    return x, kinds


def _int_acc(x, y):                        # a Python int accumulator over the index
    n = x.shape[0]
    for i in range(n):
        k = 0
        for j in range(i, n, 2):
            k = k + j
        y[i] = k * x[i]
    return y


for _fn in (_index_arith, _index_float_pow, _index_slice, _index_after, _index_stored,
            _int_acc):
    _sized(_fn, lambda n: (_v(n), np.zeros(n)), sizes=SHORT if _fn is _index_arith else SIZES)
_sized(_float_acc, lambda n: (_m(n), _v(n)), sizes=SHORT)


# ------------------------------------------------------------------- break / continue
def _break_on_data(x, y, t):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            if x[j] > t:
                break
            y[i] = y[i] + x[j]
    return y


def _continue_on_index(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1, i, -2):
            if j % 3 == 0:
                continue
            y[i] = y[i] + x[j]
    return y


def _break_at_count(x, y):
    n = x.shape[0]
    for i in range(n):
        c = 0
        for j in range(i, -1, -3):
            c += 1
            if c > 2:
                break
            y[i] = y[i] + x[j]
    return y


reg.case(_break_on_data, (_v(11), np.zeros(11), 2.5), (_v(12), np.zeros(12), 9.0))
_sized(_continue_on_index, lambda n: (_v(n), np.zeros(n)))
_sized(_break_at_count, lambda n: (_v(n), np.zeros(n)))


# ------------------------------------------------------------------- three levels, outer steps
def _three_levels(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            for k in range(j, n, 3):
                y[i] = y[i] + x[k] * 0.5
    return y


def _three_mixed(A, y):
    n = y.shape[0]
    for i in range(n):
        for j in range(i):
            for k in range(n - 1, j, -2):
                y[i] = y[i] + A[j, k]
    return y


def _outer_step_too(A):
    n = A.shape[0]
    for i in range(0, n, 2):
        for j in range(i + 1, n, 3):
            A[i, j] = A[i, j] + A[j, i]
    return A


def _outer_back_inner_fwd(x, y):
    n = x.shape[0]
    for i in range(n - 1, -1, -1):
        for j in range(i, n, 4):
            y[i] = y[i] + x[j]
    return y


_sized(_three_levels, lambda n: (_v(n), np.zeros(n)), sizes=(10, 2))
_sized(_three_mixed, lambda n: (_m(n), np.zeros(n)), sizes=(10, 0))
_sized(_outer_step_too, lambda n: (_m(n),))
_sized(_outer_back_inner_fwd, lambda n: (_v(n), np.zeros(n)))


# ------------------------------------------------------------------- step past the corners
def _step_33(x, y):                         # |step| > 32: too many corners at n >= 64
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 33):
            y[i] = y[i] + x[j + 1]
    return y


reg.case(_step_33, (_v(70), np.zeros(70)), (_v(66), np.zeros(66)))
reg.case(_step_33, (_v(64), np.zeros(64)), name="step_33_out_at_last")


# ------------------------------------------------------------------- Python state around
def _logs_trips(x, y, log):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            y[i] = y[i] + x[j]
        log.append(i)
    return y, len(log)


def _stepped_on_list(x, y, rows):           # bounds from a list of ints
    n = len(rows)
    for i in range(n):
        for j in range(rows[i], n, 2):
            y[i] = y[i] + x[j]
    return y


def _raises_after_writes(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1, i, -2):
            y[j] = y[j] + x[i]
    return y, 1 / (n - 10)


_sized(_logs_trips, lambda n: (_v(n), np.zeros(n), []))
reg.case(_stepped_on_list, (_v(11), np.zeros(11), list(range(11))),
         (_v(11), np.zeros(11), [0, 3] * 5 + [1]))
_sized(_raises_after_writes, lambda n: (_v(n), np.zeros(n)))
