"""Round 7, loops whose exit the data decides (``while_loop`` nodes, docs/loops.md):
``while <0-d array test>:`` and ``for ...: if <test>: break`` with NaN tests, tests
that raise, bodies that warn or overflow, carried dtypes that change, carried arrays
that alias, the loop variable and the trip count read after the loop, ``else:``
clauses, ``break`` inside ``try/finally``, generators and closures capturing loop
variables, exceptions mid-loop and what the ``except`` sees."""

import numpy as np
from hostile_check import Programs

reg = Programs("round7_loops")
case, scenario = reg.case, reg.scenario

V = np.array([4.0, 9.0, 2.0, 0.25])
VN = np.array([4.0, np.nan, 2.0, 0.25])
A = np.array([[4.0, 1.0], [1.0, 3.0]])
B = np.array([1.0, 2.0])


class Boom(Exception):
    pass


# ============================================================ while <0-d test>: NaN

def _newton_sqrt(a, tol):
    y = np.ones_like(a)
    err = np.max(np.abs(y * y - a))
    while err > tol:
        y = 0.5 * (y + a / y)
        err = np.max(np.abs(y * y - a))
    return y, err


case(_newton_sqrt, (V, 1e-10), (VN, 1e-10), (np.array([4.0, 0.0]), 1e-3))


def _while_not_less_nan_bounded(x):
    # `not (err < tol)` is true for NaN: the bound on trips stops it
    err = np.abs(x).sum()
    for _ in range(30):
        x = x * 0.5
        err = np.abs(x).sum()
        if not (err > 0.01):
            break
    return x, err


case(_while_not_less_nan_bounded, (V,), (VN,))


def _while_truth_of_nan_0d(x):
    # bool(nan) is True: the loop runs while the value is non-zero (NaN included)
    s = np.float64(3.0) * x.sum()
    n = 0.0 * s
    while s > 1:
        s = s / 3.0
        n = n + 1.0
    return s, n


case(_while_truth_of_nan_0d, (V,), (VN,), (np.array([0.0]),))


def _while_nan_appears_mid_loop(x):
    y = x.copy()
    m = np.max(y)
    while m > 0.1:
        y = np.sqrt(y - 1.0)
        m = np.max(y)
    return y, m


case(_while_nan_appears_mid_loop, (V,), (np.array([2.0, 3.0]),))


def _while_fmax_ignores_nan(x):
    y = x.copy()
    m = np.nanmax(y)
    while m > 1.0:
        y = y * 0.5
        m = np.nanmax(y)
    return y


case(_while_fmax_ignores_nan, (V,), (VN,))


def _while_isnan_test(x):
    y = x.copy()
    bad = np.isnan(y).any()
    while bad:
        y = np.where(np.isnan(y), 0.0, y)
        bad = np.isnan(y).any()
    return y, bad


case(_while_isnan_test, (V,), (VN,))


def _while_test_is_3_elements(x):
    y = x[:3].copy()
    while y > 0.5:
        y = y * 0.5
    return y


case(_while_test_is_3_elements, (V,))


def _while_test_numpy_scalar(x):
    s = x.sum()
    k = np.float64(0.0)
    while s > 1.0:
        s = s * 0.5
        k = k + np.float64(1.0)
    return s, k, type(s).__name__


case(_while_test_numpy_scalar, (V,), (np.array([0.5]),))


def _while_test_int_array(x):
    n = np.int64(x.size) * 1000
    c = np.zeros((), dtype=np.int64)
    while n > 1:
        n = n // 2
        c = c + 1
    return n, c


case(_while_test_int_array, (V,), (np.zeros(0),))


def _while_test_bool_and(x, y):
    a = x.sum()
    b = y.sum()
    while (a > 1.0) & (b > 1.0):
        a = a * 0.9
        b = b * 0.5
    return a, b


case(_while_test_bool_and, (V, V), (V, np.array([0.5])))


def _while_python_and(x, y):
    a = x.sum()
    b = y.sum()
    while a > 1.0 and b > 1.0:
        a = a * 0.9
        b = b * 0.5
    return a, b


case(_while_python_and, (V, V), (V, np.array([0.5])))


# ============================================================ tests and bodies that raise

def _while_body_raises_linalg(a):
    m = a.copy()
    d = np.linalg.det(m)
    for _ in range(20):
        m = np.linalg.inv(m) * 2.0 - np.eye(2)
        d = np.abs(np.linalg.det(m))
        if d > 1e10:
            break
    return m, d


case(_while_body_raises_linalg, (A,), (np.array([[2.0, 0.0], [0.0, 2.0]]),))


def _while_body_raises_caught(a, log):
    m = a.copy()
    d = np.linalg.det(m)
    try:
        for _ in range(15):
            m = np.linalg.inv(m - np.eye(2) * 2.0)
            d = np.abs(np.linalg.det(m))
            if d < 1e-3:
                break
    except np.linalg.LinAlgError as e:
        log.append(("caught", str(e)))
    return m, d


case(_while_body_raises_caught, (np.array([[2.0, 0.0], [0.0, 3.0]]), []), (A, []))


def _while_index_error_at_trip(x, i):
    s = x.sum()
    k = np.zeros(1, dtype=np.intp)
    try:
        while s > 0.5:
            s = s * 0.5 + x[k + i].sum()
            k = k + 1
            s = s - 1.0
    except IndexError as e:
        return "index", str(e), s, k
    return s, k


case(_while_index_error_at_trip, (V, 0), (V, 2))


def _while_errstate_raise(x):
    y = x.copy()
    m = y.max()
    with np.errstate(over="raise"):
        try:
            while m < 1e300:
                y = y * y
                m = y.max()
        except FloatingPointError as e:
            return "fp", str(e), m
    return y, m


case(_while_errstate_raise, (V,), (np.array([1e299]),))


def _while_user_raise_in_test(x):
    def check(v):
        if v.sum() > 100:
            raise Boom("too big")
        return v.sum() < 1000
    y = x.copy()
    while check(y):
        y = y * 3.0
    return y


case(_while_user_raise_in_test, (V,), (np.array([1.0, 1.0]),))


# ============================================================ bodies that warn

def _while_body_warns_log(x):
    y = x.copy()
    m = y.min()
    while m > -5.0:
        y = np.log(y) - 1.0
        m = np.nanmin(y) if False else y.min()
    return y


case(_while_body_warns_log, (V,))


def _while_body_overflow_per_trip(x):
    y = x.astype(np.float32)
    m = y.max()
    for _ in range(12):
        y = y * np.float32(1e10)
        m = y.max()
        if m > np.float32(1e37):
            break
    return y, m


case(_while_body_overflow_per_trip, (V,))


def _while_body_divide_by_zero_warning(x):
    y = x - 2.0
    s = np.abs(y).sum()
    while s < 1e6:
        y = 1.0 / y
        s = np.abs(y).sum() + s
    return y, s


case(_while_body_divide_by_zero_warning, (V,), (np.array([2.0, 3.0]),))


def _while_body_warns_errstate_ignore(x):
    y = x - 2.0
    s = np.abs(y).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        while s < 1e6:
            y = 1.0 / y
            s = np.abs(y).sum() + s
    return y, s


case(_while_body_warns_errstate_ignore, (V,), (np.array([2.0, 3.0]),))


def _while_body_int_overflow_silent(x):
    y = x.astype(np.int8)
    m = y.max()
    while m > 0:
        y = y * np.int8(16)
        m = y.max()
    return y


case(_while_body_int_overflow_silent, (V,), (np.array([1.0, 2.0]),))


# ============================================================ carried dtypes that change

def _while_carried_int_becomes_float(x):
    y = x.astype(np.int64)
    s = y.sum()
    while s > 3:
        y = y / 2
        s = y.sum()
    return y, s


case(_while_carried_int_becomes_float, (V,))


def _while_carried_float32_times_float64_scalar(x):
    y = x.astype(np.float32)
    s = y.sum()
    while s > 1:
        y = y * np.float64(0.5)
        s = y.sum()
    return y, s


case(_while_carried_float32_times_float64_scalar, (V,))


def _while_carried_float32_python_float(x):
    y = x.astype(np.float32)
    s = y.sum()
    while s > 1:
        y = y * 0.5
        s = y.sum()
    return y, s


case(_while_carried_float32_python_float, (V,))


def _while_carried_scalar_becomes_0d(x):
    lo = np.float64(0.0)
    hi = x.max()
    mid = (lo + hi) / 2
    while hi - lo > 1e-6:
        mid = (lo + hi) / 2
        big = mid * mid > 2.0
        lo = np.where(big, lo, mid)
        hi = np.where(big, mid, hi)
    return lo, hi, mid


case(_while_carried_scalar_becomes_0d, (V,))


def _while_carried_shape_changes(x):
    y = x.copy()
    s = y.sum()
    while s > 1:
        y = np.concatenate([y, y]) * 0.25
        s = y.sum()
    return y


case(_while_carried_shape_changes, (V,))


def _while_carried_complex(x):
    z = x.astype(np.complex128)
    s = np.abs(z).sum()
    while s > 1:
        z = z * (0.5 + 0.5j)
        s = np.abs(z).sum()
    return z


case(_while_carried_complex, (V,))


# ============================================================ aliasing between carried arrays

def _while_two_names_one_array_inplace(x):
    a = x.copy()
    b = a
    s = a.sum()
    while s > 1:
        a *= 0.5
        s = b.sum()
    return a, b, a is b


case(_while_two_names_one_array_inplace, (V,))


def _while_view_of_carried_written(x):
    a = x.copy()
    v = a[1:]
    s = a.sum()
    while s > 1:
        v *= 0.5
        a[0] = a[0] * 0.5
        s = a.sum()
    return a, v


case(_while_view_of_carried_written, (V,))


def _while_diag_view_carried(m):
    a = m.copy()
    d = np.diag(a)
    s = d.sum()
    while s > 1:
        a = a * 0.5
        s = a.sum()
    return a, d


case(_while_diag_view_carried, (A,))


def _while_alias_made_each_trip(x):
    a = x.copy()
    b = x.copy()
    s = a.sum()
    while s > 1:
        a = b * 0.5
        b = a
        s = a.sum()
    return a, b, a is b


case(_while_alias_made_each_trip, (V,))


def _while_input_written_in_place(x):
    s = x.sum()
    while s > 1:
        x *= 0.5
        s = x.sum()
    return s


case(_while_input_written_in_place, (V,))


def _while_swap_arrays(x):
    a = x.copy()
    b = x * 2
    s = a.sum()
    while s > 1:
        a, b = b * 0.5, a * 0.25
        s = a.sum()
    return a, b


case(_while_swap_arrays, (V,))


def _while_returns_input_unchanged_by_zero_trips(x):
    y = x
    s = x.sum()
    while s > 1e9:
        y = y * 0.5
        s = y.sum()
    return y is x, y


case(_while_returns_input_unchanged_by_zero_trips, (V,))


def _while_out_argument_alias(x):
    y = x.copy()
    s = y.sum()
    while s > 1:
        np.multiply(y, 0.5, out=y)
        s = y.sum()
    return y


case(_while_out_argument_alias, (V,))


# ============================================================ loop variable and trip count

def _for_break_returns_index(x, tol):
    y = x.copy()
    err = np.abs(y).max()
    it = -1
    for it in range(100):
        y = y * 0.5
        err = np.abs(y).max()
        if err < tol:
            break
    return y, it


case(_for_break_returns_index, (V, 1e-3), (V, 100.0), (VN, 1e-3))


def _for_break_zero_range_index_unbound(x, n):
    y = x.copy()
    for it in range(n):
        y = y * 0.5
        if y.max() < 1.0:
            break
    return y, it  # unbound when n == 0, on purpose


case(_for_break_zero_range_index_unbound, (V, 5), (V, 0))


def _for_break_index_in_arith(x):
    y = x.copy()
    it = 0
    for it in range(2, 50, 3):
        y = y * 0.5
        if y.max() < 0.5:
            break
    return it * 2 + 1, np.zeros(it).shape


case(_for_break_index_in_arith, (V,), (np.array([100.0, 1.0]),))


def _for_break_index_compared(x):
    y = x.copy()
    it = 0
    for it in range(40):
        y = y * 0.5
        if y.max() < 0.5:
            break
    if it == 39:
        return "exhausted", y
    return "converged", it, y


case(_for_break_index_compared, (V,), (np.array([1e30]),))


def _for_break_index_printed(x):
    y = x.copy()
    it = 0
    for it in range(40):
        y = y - 1.0
        if y.max() < 0:
            break
    print("trips", it)
    return y


case(_for_break_index_printed, (V,))


def _for_break_negative_step(x):
    y = x.copy()
    it = 100
    for it in range(20, -20, -2):
        y = y * 0.7
        if y.sum() < 1:
            break
    return y, it, range(it, 0, -5)


case(_for_break_negative_step, (V,))


def _for_break_iterates_array_rows(m):
    y = np.zeros(m.shape[1])
    row = None
    for row in m:
        y = y + row
        if y.sum() > 3:
            break
    return y, row


case(_for_break_iterates_array_rows, (np.arange(12.0).reshape(4, 3) * 0.3,))


def _for_break_enumerate(x):
    y = x.copy()
    k = -1
    for k, _ in enumerate(range(30)):
        y = y * 0.5
        if y.max() < 1:
            break
    return k, y


case(_for_break_enumerate, (V,))


def _for_break_trip_count_len(x):
    y = x.copy()
    hist = []
    for _ in range(30):
        y = y * 0.5
        hist.append(1)
        if y.max() < 1:
            break
    return len(hist), y


case(_for_break_trip_count_len, (V,))


# ============================================================ else clauses

def _while_else(x, log):
    s = x.sum()
    while s > 1:
        s = s * 0.5
    else:
        log.append("else ran")
    return s


case(_while_else, (V, []))


def _for_break_else(x):
    y = x.copy()
    status = "none"
    for _ in range(5):
        y = y * 0.5
        if y.max() < 1:
            status = "broke"
            break
    else:
        status = "exhausted"
    return status, y


case(_for_break_else, (V,), (np.array([1e9]),))


def _for_break_else_plain(x):
    y = x.copy()
    for _ in range(6):
        y = y * 0.5
        if y.max() < 1:
            break
    else:
        y = -y
    return y


case(_for_break_else_plain, (V,), (np.array([1e9]),))


def _while_else_with_break(x):
    s = x.sum()
    n = 0
    while s > 1:
        s = s * 0.5
        n += 1
        if n > 3:
            break
    else:
        return "else", s
    return "break", s, n


case(_while_else_with_break, (V,), (np.array([3.0]),))


# ============================================================ try/finally, with, break

def _break_inside_try_finally(x, log):
    y = x.copy()
    for i in range(20):
        try:
            y = y * 0.5
            if y.max() < 1:
                break
        finally:
            log.append(i)
    return y


case(_break_inside_try_finally, (V, []))


def _while_inside_try_finally(x, log):
    y = x.copy()
    s = y.sum()
    try:
        while s > 1:
            y = y * 0.5
            s = y.sum()
    finally:
        log.append(float(s))
    return y


case(_while_inside_try_finally, (V, []))


def _while_inside_with(x, log):
    class CM:
        def __enter__(self):
            log.append("in")
            return self

        def __exit__(self, *exc):
            log.append(("out", exc[0] is None))
            return False
    y = x.copy()
    s = y.sum()
    with CM():
        while s > 1:
            y = y * 0.5
            s = y.sum()
    return y


case(_while_inside_with, (V, []))


def _while_return_from_inside(x):
    s = x.sum()
    while s > 1:
        s = s * 0.5
        if s < 2:
            return "early", s
    return "late", s


case(_while_return_from_inside, (V,), (np.array([1.5]),))


def _while_continue(x):
    y = x.copy()
    s = y.sum()
    n = 0
    while s > 1:
        y = y * 0.5
        s = y.sum()
        n += 1
        if n % 2:
            continue
        y = y + 0.01
    return y, n


case(_while_continue, (V,))


# ============================================================ generators and closures

def _closures_capture_while_value(x):
    fs = []
    s = x.sum()
    while s > 1:
        s = s * 0.5
        fs.append(lambda: s)  # noqa: B023 (late binding on purpose)
    return [f() for f in fs]


case(_closures_capture_while_value, (V,))


def _closure_reads_carried_after(x):
    y = x.copy()
    s = y.sum()
    while s > 1:
        y = y * 0.5
        s = y.sum()

    def get():
        return y + s
    return get()


case(_closure_reads_carried_after, (V,))


def _closure_cell_carried(x):
    y = x.copy()

    def peek():
        return y.sum()
    s = y.sum()
    while s > 1:
        y = y * 0.5
        s = peek()
    return y, peek()


case(_closure_cell_carried, (V,))


def _generator_of_loop(x):
    def gen(v):
        s = v.sum()
        while s > 1:
            v = v * 0.5
            s = v.sum()
            yield float(s)
    return list(gen(x))


case(_generator_of_loop, (V,))


def _genexpr_after_loop(x):
    y = x.copy()
    s = y.sum()
    while s > 1:
        y = y * 0.5
        s = y.sum()
    return sum(v for v in y), tuple(float(v) for v in y)


case(_genexpr_after_loop, (V,))


def _lambda_default_binds_loop_var(x):
    fs = []
    y = x.copy()
    for i in range(12):
        y = y * 0.5
        fs.append(lambda i=i: i)
        if y.max() < 1:
            break
    return [f() for f in fs], y


case(_lambda_default_binds_loop_var, (V,))


# ============================================================ exceptions mid-loop

def _exception_mid_loop_except_sees_state(x):
    y = x.copy()
    k = 0
    try:
        for k in range(20):
            y = y * 2.0
            if y.max() > 100:
                raise Boom(k)
    except Boom as e:
        return "boom", e.args, k, y
    return y


case(_exception_mid_loop_except_sees_state, (V,))


def _exception_in_test_except_sees_carried(x):
    y = x.copy()
    try:
        while float(np.log(y.min())) > -3.0:
            y = y * 0.5 - 0.1
    except ValueError as e:
        return "ve", str(e), y
    return y


case(_exception_in_test_except_sees_carried, (V,))


def _exception_context_in_loop(x):
    y = x.copy()
    s = y.sum()
    try:
        while s > 1:
            y = y * 0.5
            s = y.sum()
            try:
                if s < 3:
                    raise KeyError("k")
            except KeyError as e:
                raise Boom("wrapped") from e
    except Boom as e:
        return repr(e), repr(e.__cause__), y
    return y


case(_exception_context_in_loop, (V,))


def _stop_iteration_in_loop(x):
    it = iter([1.0, 2.0])
    y = x.copy()
    s = y.sum()
    try:
        while s > 1:
            y = y * next(it)
            s = s * 0.1
    except StopIteration:
        return "stop", y
    return y


case(_stop_iteration_in_loop, (V,))


def _keyboard_like_error_reraised(x):
    y = x.copy()
    s = y.sum()
    while s > 1:
        y = y * 0.5
        s = y.sum()
        if s < 2:
            raise Boom(float(s))
    return y


case(_keyboard_like_error_reraised, (V,), (np.array([1.5]),))


# ============================================================ nested, changing inputs

def _nested_while_loops(x):
    y = x.copy()
    s = y.sum()
    n = y * 0
    while s > 1:
        t = y.max()
        while t > 1:
            t = t * 0.5
            n = n + 1
        y = y * 0.5
        s = y.sum()
    return y, n


case(_nested_while_loops, (V,))


def _while_tolerance_changes_between_calls(x, tol):
    y = x.copy()
    s = y.sum()
    while s > tol:
        y = y * 0.5
        s = y.sum()
    return y


case(_while_tolerance_changes_between_calls, (V, 1.0), (V, 0.001), (V, np.float32(0.5)),
     (V, np.array(2.0)))


def _while_shapes_change_between_calls(x):
    y = x * 1.0
    s = y.sum()
    while s > 1:
        y = y * 0.5
        s = y.sum()
    return y


case(_while_shapes_change_between_calls, (V,), (np.ones((3, 3)),), (np.zeros(0),),
     (np.ones(7, dtype=np.float32),))


def _cg_solver(a, b, tol):
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rs_old = r @ r
    rs_new = rs_old
    while rs_new > tol ** 2:
        ap = a @ p
        alpha = rs_old / (p @ ap)
        x = x + alpha * p
        r = r - alpha * ap
        rs_new = r @ r
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
    return x, r


case(_cg_solver, (A, B, 1e-10), (A, np.zeros(2), 1e-10), (A, B, np.nan))


def _power_iteration_break(a):
    v = np.ones(a.shape[0])
    lam = np.float64(0.0)
    for _ in range(200):
        w = a @ v
        lam_new = np.linalg.norm(w)
        v = w / lam_new
        if np.abs(lam_new - lam) < 1e-12:
            break
        lam = lam_new
    return v, lam


case(_power_iteration_break, (A,), (np.zeros((2, 2)),))


# ============================================================ the trip count as a size



def _it_slices_clamp(x, tol):
    y = x.copy()
    it = 0
    for it in range(100):
        y = y * 0.5
        if y.max() < tol:
            break
    return y[:it], y[it:], y[:it - 1], y[-it:], len(y[: it - 3])


case(_it_slices_clamp, (V, 1.0), (V, 100.0), (V, 1e-9), (np.array([0.5]), 1.0))


def _it_as_creation_size(x, tol):
    y = x.copy()
    it = 0
    for it in range(50):
        y = y * 0.5
        if y.max() < tol:
            break
    return np.full(it, 7.0), np.ones((it, 2)), np.arange(it), np.linspace(0.0, 1.0, it)


case(_it_as_creation_size, (V, 1.0), (V, 100.0), (np.array([1e20]), 1.0))


def _it_arithmetic(x, tol):
    y = x.copy()
    it = 0
    for it in range(3, 90, 4):
        y = y * 0.5
        if y.max() < tol:
            break
    return it * 0.5, it // 2, -it, it % 3, divmod(it, 4), float(it), str(it)


case(_it_arithmetic, (V, 1.0), (V, 100.0), (np.array([1e30]), 1.0))


def _it_bool_and_range(x, tol):
    y = x.copy()
    it = 0
    for it in range(20):
        y = y * 0.5
        if y.max() < tol:
            break
    return bool(it), list(range(it)), [0.0] * it, y.reshape(-1)[: max(it, 1)]


case(_it_bool_and_range, (V, 1.0), (V, 100.0))


def _it_initial_value_kept_on_empty_range(x, n):
    y = x.copy()
    it = -5
    for it in range(n):
        y = y * 0.5
        if y.max() < 1.0:
            break
    return it, y


case(_it_initial_value_kept_on_empty_range, (V, 0), (V, 3), (V, 40))


def _it_range_of_len(x):
    y = x.copy()
    it = -1
    for it in range(len(x)):
        y = y * 0.25
        if y.max() < 0.1:
            break
    return it, y[it:]


case(_it_range_of_len, (V,), (np.arange(20.0),), (np.zeros(0),), (np.array([1e9] * 3),))


def _it_reshape(x):
    y = x.copy()
    it = 0
    for it in range(1, 40):
        y = y * 0.5
        if y.max() < 1:
            break
    return np.zeros(it * 2).reshape(it, 2), np.zeros((2, it)).T.shape


case(_it_reshape, (V,), (np.array([0.1]),))


def _two_for_break_loops_sum_trips(x):
    y = x.copy()
    i = j = 0
    for i in range(30):
        y = y * 0.5
        if y.max() < 1:
            break
    for j in range(30):
        y = y * 3.0
        if y.max() > 10:
            break
    return i + j, np.zeros(i + j).shape, y


case(_two_for_break_loops_sum_trips, (V,), (np.array([100.0]),))


def _it_indexes_array(x):
    y = x.copy()
    it = 0
    for it in range(30):
        y = y * 0.5
        if y.max() < 1:
            break
    return x[it] if it < len(x) else "out", x[min(it, len(x) - 1)]


case(_it_indexes_array, (V,), (np.array([1e6, 2.0]),))


def _while_test_at_bottom_nan(x):
    # a first test on constants: the trace decides it; the loop's node starts at the
    # test at the bottom (3.11-3.13)
    y = x.copy()
    s = np.float64(10.0) * np.ones(())
    while s > 0.5:
        y = y * 0.5
        s = np.abs(y).max()
    return y, s


case(_while_test_at_bottom_nan, (V,), (VN,), (np.array([np.nan]),))


def _while_float32_test(x):
    y = x.astype(np.float32)
    s = y.sum()
    while s > 0.1:
        y = y * np.float32(0.3)
        s = y.sum()
    return y, s, type(s).__name__


case(_while_float32_test, (V,))


def _while_carried_bool_array(x):
    m = x > 1
    c = m.sum()
    y = x.copy()
    while c > 0:
        y = np.where(m, y * 0.5, y)
        m = y > 1
        c = m.sum()
    return y, m


case(_while_carried_bool_array, (V,), (VN,))


def _while_reads_global_changed(x):
    y = x.copy()
    s = y.sum()
    while s > LIMIT[0]:
        y = y * 0.5
        s = y.sum()
    return y


LIMIT = [1.0]


def _global_limit_changes(r):
    f = r.compile(_while_reads_global_changed)
    r.call(f, V.copy())
    LIMIT[0] = 5.0
    r.call(f, V.copy())
    LIMIT[0] = np.nan
    r.call(f, V.copy())
    LIMIT[0] = 1.0


scenario(_global_limit_changes)


def _while_body_calls_helper(x):
    def step(v):
        return v * 0.5 - 0.01
    y = x.copy()
    s = y.sum()
    while s > 1:
        y = step(y)
        s = y.sum()
    return y


case(_while_body_calls_helper, (V,))


def _while_sum_of_empty(x):
    y = x[x > 100]
    s = y.sum() + 5.0
    while s > 1:
        s = s * 0.5
        y = y * 2
    return y, s


case(_while_sum_of_empty, (V,), (np.array([200.0, 1.0]),))


def _while_max_of_empty_raises(x):
    y = x[x > 100]
    try:
        s = y.max()
    except ValueError as e:
        return "empty", str(e)
    while s > 1:
        s = s * 0.5
    return s


case(_while_max_of_empty_raises, (V,), (np.array([200.0, 1.0]),))


# ============================================================ views carried, partial effects

def _while_carried_reversed_view(x):
    y = x
    s = x.sum()
    while s > 1:
        y = y[::-1]
        s = s * 0.5
    return y, np.shares_memory(y, x)


case(_while_carried_reversed_view, (V,), (np.array([0.5, 0.25]),), (np.arange(5.0),))


def _while_carried_transpose_view(m):
    y = m
    s = m.sum()
    while s > 1:
        y = y.T
        s = s * 0.5
    return y, y.flags.c_contiguous


case(_while_carried_transpose_view, (A,), (np.arange(9.0).reshape(3, 3),))


def _while_inplace_then_raise_keeps_mutation(x, a):
    s = x.sum()
    while s > 1:
        x *= 0.5
        m = np.linalg.inv(a * (x[0] - 1.0))
        s = x.sum() + m[0, 0] * 0.0
    return s


case(_while_inplace_then_raise_keeps_mutation, (V, A), (np.array([3.0, 1.0]), A))


def _while_inplace_then_index_error(x, idx):
    s = x.sum()
    k = x[:1] * 0
    while s > 1:
        x -= 1.0
        s = x.sum() + x[k.astype(np.intp) + idx].sum() * 0.0
        k = k + 1
    return s


case(_while_inplace_then_index_error, (V, 0), (V, 3), (V, -4))


def _while_test_array_returned(x):
    r = x.copy()
    rs = r @ r
    while rs > 1.0:
        r = r * 0.5
        rs = r @ r
    return rs, r, type(rs).__name__


case(_while_test_array_returned, (V,), (np.array([0.1]),))


def _while_helper_with_while(x):
    def shrink(v):
        s = v.sum()
        while s > 1:
            v = v * 0.5
            s = v.sum()
        return v
    y = shrink(x)
    return shrink(y * 10.0), y


case(_while_helper_with_while, (V,))


def _while_reshape_view_carried(x):
    y = x.reshape(2, 2)
    s = y.sum()
    while s > 1:
        y = y.reshape(2, 2) * 0.5
        s = y.sum()
    return y


case(_while_reshape_view_carried, (V,))


def _for_break_writes_input_rows(m):
    for _ in range(20):
        m[0] = m[0] * 0.5
        m[1] += 1.0
        if m[0].max() < 0.5:
            break
    return m


case(_for_break_writes_input_rows, (A.copy(),))


def _while_carried_and_free_same_array(x):
    y = x
    s = y.sum()
    while s > 1:
        y = y * 0.5 + x * 0.0
        s = y.sum()
    return y, x


case(_while_carried_and_free_same_array, (V,))


def _while_free_array_mutated_in_body(x, w):
    s = x.sum()
    while s > 1:
        w += 1.0
        x = x * 0.5
        s = x.sum()
    return x, w


case(_while_free_array_mutated_in_body, (V, np.zeros(2)))


def _fori_inplace_then_raise_at_trip(x, a):
    for _ in range(12):
        x *= 0.5
        m = np.linalg.inv(a * (x[0] - 0.5))
        x += m[0, 0] * 0.0
    return x


case(_fori_inplace_then_raise_at_trip, (V, A), (np.array([3.0, 1.0]), A))


def _fori_raise_at_trip_caught_outside(x, a, log):
    d = x
    try:
        for _ in range(12):
            d = x * 0.5
            x *= 0.5
            np.linalg.inv(a * (x[0] - 0.5))
    except np.linalg.LinAlgError as e:
        log.append(str(e))
        return d, x
    return x


case(_fori_raise_at_trip_caught_outside, (V, A, []))
