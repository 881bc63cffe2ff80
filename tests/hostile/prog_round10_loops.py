"""Round 10, loops the last rounds changed: comprehensions carried over a graph break
(guarded by their code, globals and cells: a cell or global rebound between calls, the
comprehension's ``__code__`` replaced, a print inside, nested and generator
comprehensions), loops that resume *before* their ``GET_ITER`` (``for c in
np.unique(y)``, ``enumerate``/``zip``/``sorted``/``sum`` of an unbacked-size array:
``translator/break_before.py``) with the number of classes changing, empty, NaN and
2-D, and solver ``while`` loops with Python counters (``translator/while_counters.py``:
trips to the bound and past it, counters after the loop, steps of 2 and -1, a counter
that is a bool, a float or beyond int64, ``while ... else``, ``break`` and ``return``
inside, an exception or a warning on one trip, a NaN residual, the counter read by
the body)."""

import numpy as np
from hostile_check import Programs

reg = Programs("round10_loops")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, 2.0, -3.0, 0.5])
Y = np.array([2, 0, 2, 1, 0, 3])
Y2 = np.array([5, 5, 5])
YE = np.zeros(0, np.int64)
YN = np.array([1.0, np.nan, 1.0, np.nan, -0.0, 0.0])
SCALE = 2.0


# ============================================================ comprehensions over a break

def _comp_print_inside(x, n):
    return [print(i) or float(x[i % x.size]) * SCALE for i in range(n)]


case(_comp_print_inside, (X, 3), (X, 0))


@scenario
def s_comp_global_rebound(r):
    f = r.compile(_comp_print_inside)
    r.call(f, X.copy(), 2)
    r.patch(globals(), "SCALE", -1.5)
    r.call(f, X.copy(), 2)
    r.patch(globals(), "SCALE", np.float32(3.0))
    r.call(f, X.copy(), 2)


def _make_closure(k):
    def f(x, n):
        y = x * k
        print("before")
        return [float(v) + k for v in y[:n]]
    return f


@scenario
def s_comp_closure_cells_differ(r):
    """Two closures of one code with different cells, compiled in turn."""
    for k in (1.0, 2.0, 1.0):
        f = r.compile(_make_closure(k))
        r.call(f, X.copy(), 3)


def _comp_cell_rebound_between(x, n):
    k = 1.0

    def bump():
        nonlocal k
        k += 1.0
    out = []
    for i in range(n):
        out.append([print(end="") or float(v) * k for v in x])
        bump()
    return out, k


case(_comp_cell_rebound_between, (X, 3))


def _comp_nested_with_break(x):
    print("start")
    return [[float(a * b) for b in x[:2]] for a in x if a > 0]


case(_comp_nested_with_break, (X,), (np.array([-1.0]),))


def _genexp_with_break(x):
    print("g")
    total = sum(float(v) ** 2 for v in x if v != 2.0)
    return total, max((abs(v) for v in x), default=-1.0)


case(_genexp_with_break, (X,), (np.zeros(0),))


def _dict_set_comp(x):
    print("d")
    d = {i: float(v) for i, v in enumerate(x)}
    s = {round(float(v)) for v in x}
    return d, sorted(s)


case(_dict_set_comp, (X,))


def _comp_calls_helper(x):
    print("h")
    return [HELPER(v) for v in x]


def _h1(v):
    return float(v) + 1


def _h2(v):
    return float(v) * 100


HELPER = _h1


@scenario
def s_comp_helper_replaced(r):
    f = r.compile(_comp_calls_helper)
    r.patch(globals(), "HELPER", _h1)
    r.call(f, X.copy())
    r.patch(globals(), "HELPER", _h2)
    r.call(f, X.copy())
    r.patch(_h2, "__code__", _h1.__code__)
    r.call(f, X.copy())


def _comp_shadows(x, v):
    print("s")
    out = [v * 2 for v in x]
    return out, v


case(_comp_shadows, (X, "outer v"))


def _comp_raises_midway(x):
    print("r")
    try:
        return [1.0 / float(v) for v in x]
    except ZeroDivisionError as e:
        return "zero", str(e)


case(_comp_raises_midway, (X,), (np.array([1.0, 0.0, 2.0]),))


def _comp_lambda_late_binding(x):
    print("l")
    fs = [lambda: float(v) for v in x]  # noqa: B023 (late binding on purpose)
    return [f() for f in fs]


case(_comp_lambda_late_binding, (X,))


def _comp_walrus(x):
    total = 0.0
    print("w")
    parts = [(total := total + float(v)) for v in x]
    return parts, total


case(_comp_walrus, (X,))


# ============================================================ resuming before GET_ITER

def _classes_loop(x, y):
    out = []
    for c in np.unique(y):
        out.append(float(x[: c + 1].sum()) + c)
    return out


case(_classes_loop, (X, Y), (X, Y2), (X, YE), (X, np.array([3, 1])))


def _enumerate_unique(x, y):
    acc = x * 0
    for i, c in enumerate(np.unique(y)):
        acc = acc + i * c
    return acc, i if len(y) else None


case(_enumerate_unique, (X, Y), (X, Y2), (X, np.array([0, 1, 2, 3, 4, 5, 6])))


def _zip_unique(x, y):
    out = []
    for c, v in zip(np.unique(y), x):
        out.append(v * c)
    return out


case(_zip_unique, (X, Y), (X, np.array([9, 8, 7, 6, 5, 4, 3])))


def _sorted_sum_unique(x, y):
    u = np.unique(y)
    return sorted(u, reverse=True), sum(u), len(u), list(u), tuple(u * 2)


case(_sorted_sum_unique, (X, Y), (X, YE), (X, Y2))


def _nonzero_loop(x):
    idx = np.flatnonzero(x > 0)
    for i in idx:
        x[i] = -x[i]
    return x, idx


case(_nonzero_loop, (X,), (np.array([-1.0, -2.0]),), (np.ones(7),))


def _unique_nan(x):
    out = []
    for v in np.unique(x):
        out.append(v)
    return out


case(_unique_nan, (YN,), (np.array([np.nan, np.nan]),))


def _unique_rows(m):
    out = []
    for row in np.unique(m, axis=0):
        out.append(row.sum())
    return out


case(_unique_rows, (np.array([[1, 2], [1, 2], [3, 4]]),), (np.array([[0, 0]]),))


def _unique_break(x, y):
    last = None
    for c in np.unique(y):
        if c >= 2:
            break
        last = c
        x = x + c
    return x, last, c


case(_unique_break, (X, Y), (X, np.array([7])))


def _unique_loop_mutates(x, y):
    classes = np.unique(y)
    for c in classes:
        y[y == c] = c * 10
        classes[0] = 99
    return y, classes


case(_unique_loop_mutates, (X, Y), (X, Y2))


def _dict_of_unique(x, y):
    return dict(zip(np.unique(y), range(100))), set(np.unique(y)), list(map(int, np.unique(y)))


case(_dict_of_unique, (X, Y), (X, YE))


def _range_of_count(x, y):
    n = np.count_nonzero(y)
    acc = 0.0
    for i in range(n):
        acc += float(x[i % 4])
    return acc, n


case(_range_of_count, (X, Y), (X, np.zeros(5, np.int64)))


def _unique_then_print(x, y):
    u = np.unique(y)
    print("classes", u)
    for c in u:
        print(c)
    return u.size


case(_unique_then_print, (X, Y), (X, Y2))


# ============================================================ while loops with counters

def _solver(a, b, tol, maxit):
    x = np.zeros_like(b)
    r = b - a @ x
    it = 0
    while np.linalg.norm(r) > tol and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    return x, it, r


SPD = np.array([[3.0, 0.5, 0.0], [0.5, 2.0, 0.25], [0.0, 0.25, 1.5]])
BV = np.array([1.0, -2.0, 0.5])

case(_solver, (SPD, BV, 1e-8, 500), (SPD, BV, 1e-8, 3), (SPD, BV, 1e-8, 0),
     (SPD, BV, 1e-8, -5), (SPD, BV, 100.0, 10), (SPD, BV, np.nan, 10))


def _counter_first(a, b, tol, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while it < maxit and np.abs(r).max() > tol:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    return x, it


case(_counter_first, (SPD, BV, 1e-6, 50), (SPD, BV, 1e-6, 2), (SPD, BV, 1e-6, 0))


def _step_two(a, b, maxit):
    x = b * 0
    r = b.copy()
    k = 1
    while np.abs(r).max() > 1e-6 and k <= maxit:
        x = x + 0.3 * r
        r = b - a @ x
        k += 2
    return x, k


case(_step_two, (SPD, BV, 9), (SPD, BV, 1000), (SPD, BV, 0))


def _count_down(a, b, budget):
    x = b * 0
    r = b.copy()
    while np.abs(r).sum() > 1e-7 and budget > 0:
        x = x + 0.25 * r
        r = b - a @ x
        budget -= 1
    return x, budget


case(_count_down, (SPD, BV, 7), (SPD, BV, 10 ** 4), (SPD, BV, -1))


def _big_counter(a, b, start, stop):
    x = b * 0
    r = b.copy()
    it = start
    while np.abs(r).max() > 1e-9 and it < stop:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    return x, it, type(it).__name__


case(_big_counter, (SPD, BV, 2 ** 63 - 3, 2 ** 63 + 40), (SPD, BV, -2 ** 63 - 1, -2 ** 63 + 2),
     (SPD, BV, 2 ** 70, 2 ** 70 + 5))


def _odd_counters(a, b, start, stop):
    x = b * 0
    r = b.copy()
    it = start
    while np.abs(r).max() > 1e-9 and it < stop:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    return x, it, type(it).__name__


case(_odd_counters, (SPD, BV, True, 5), (SPD, BV, 0.5, 4), (SPD, BV, np.int64(2), 6),
     (SPD, BV, np.int8(120), np.int8(127)), (SPD, BV, 0, 4.5))


def _counter_read_in_body(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-6 and it < maxit:
        x = x + r / (it + 2)
        r = b - a @ x
        it += 1
    return x, it


case(_counter_read_in_body, (SPD, BV, 40), (SPD, BV, 2))


def _while_else(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-6 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    else:
        it = -it
    return x, it


case(_while_else, (SPD, BV, 40), (SPD, BV, 2))


def _while_break(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
        if np.abs(x).max() > 1.0:
            break
    return x, it


case(_while_break, (SPD, BV, 100), (SPD, BV * 0.01, 100), (SPD, BV, 1))


def _while_return(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
        if it == 5:
            return "early", x
    return "late", x, it


case(_while_return, (SPD, BV, 100), (SPD, BV, 3))


def _while_raises(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    log = []
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - np.linalg.solve(a * (it - 3), x)
        log.append(it)
        it += 1
    return x, it, log


case(_while_raises, (SPD, BV, 10), (SPD, BV, 2))


def _while_caught(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    try:
        while np.abs(r).max() > 1e-8 and it < maxit:
            with np.errstate(divide="raise"):
                x = x + 1.0 / (r * (it != 3))
            r = b - a @ x
            it += 1
    except FloatingPointError as e:
        return "caught", str(e), it, x
    return "done", it


case(_while_caught, (SPD, BV, 10), (SPD, BV, 3))


def _while_warns(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + np.log(r * 0 + (it - 2)) * 0 + 0.3 * r
        r = b - a @ x
        it += 1
    return x, it


case(_while_warns, (SPD, BV, 6), (SPD, BV, 1))


def _while_nan_residual(b, maxit):
    x = b.copy()
    it = 0
    while np.abs(x).max() > 1e-3 and it < maxit:
        x = x * 0.5 if it != 2 else x * np.nan
        it += 1
    return x, it


case(_while_nan_residual, (BV, 10), (BV, 2))


def _nested_whiles(a, b, outer):
    x = b * 0
    k = 0
    total = 0
    while np.abs(x).sum() < 3.0 and k < outer:
        r = b - a @ x
        it = 0
        while np.abs(r).max() > 1e-4 and it < 20:
            x = x + 0.2 * r
            r = b - a @ x
            it += 1
        total += it
        b = b * 2
        k += 1
    return x, k, total


case(_nested_whiles, (SPD, BV, 4), (SPD, BV, 0))


def _while_counter_equal(b, stop):
    x = b.copy()
    it = 0
    while np.abs(x).max() > 1e-12 and it != stop:
        x = x * 0.5
        it += 1
    return x, it


case(_while_counter_equal, (BV, 7), (BV, 0), (BV, -3))


def _two_counters(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    calls = 10
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
        calls += 2
    return x, it, calls


case(_two_counters, (SPD, BV, 50), (SPD, BV, 4))


# ============================================================ counters stepped otherwise

def _conditional_step(a, b, maxit, every):
    x = b * 0
    r = b.copy()
    it = 0
    k = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        k += 1
        if k % every == 0:
            it += 1
    return x, it, k


case(_conditional_step, (SPD, BV, 4, 2), (SPD, BV, 3, 1), (SPD, BV, 100, 3))


def _double_step(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        it += 1
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    return x, it


case(_double_step, (SPD, BV, 7), (SPD, BV, 1000))


def _variable_step(a, b, maxit, step):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += step
    return x, it


case(_variable_step, (SPD, BV, 10, 3), (SPD, BV, 10, 0), (SPD, BV, -10, -3))


def _step_changes(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    step = 1
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += step
        step += 1
    return x, it, step


case(_step_changes, (SPD, BV, 20), (SPD, BV, 3))


def _bound_changes(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
        maxit -= 1
    return x, it, maxit


case(_bound_changes, (SPD, BV, 10), (SPD, BV, 100))


def _counter_rebound(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it = it + 1
        if it == 3:
            it = 10
    return x, it


case(_counter_rebound, (SPD, BV, 12), (SPD, BV, 100))


def _counter_in_try(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        try:
            x = x + 0.3 * r
            r = b - a @ x
        finally:
            it += 1
    return x, it


case(_counter_in_try, (SPD, BV, 9), (SPD, BV, 1000))


def _counter_deleted(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    del it
    return x, "it" in locals()


case(_counter_deleted, (SPD, BV, 9))


def _counter_cell(a, b, maxit):
    x = b * 0
    r = b.copy()
    it = 0

    def seen():
        return it
    while np.abs(r).max() > 1e-8 and it < maxit:
        x = x + 0.3 * r
        r = b - a @ x
        it += 1
    return x, seen()


case(_counter_cell, (SPD, BV, 9), (SPD, BV, 1000))


def _counter_both_sides(b, lo, hi):
    x = b.copy()
    it = lo
    while np.abs(x).max() > 1e-9 and lo <= it <= hi:
        x = x * 0.5
        it += 1
    return x, it


case(_counter_both_sides, (BV, 0, 5), (BV, 7, 3), (BV, -2, 100))


def _counter_le_negative_step(b, stop):
    x = b.copy()
    it = 10
    while np.abs(x).max() > 1e-9 and it >= stop:
        x = x * 0.5
        it -= 3
    return x, it


case(_counter_le_negative_step, (BV, 0), (BV, 11), (BV, -100))


def _counter_printed(b, maxit):
    x = b.copy()
    it = 0
    while np.abs(x).max() > 1e-3 and it < maxit:
        x = x * 0.5
        it += 1
    print("trips", it)
    return x


case(_counter_printed, (BV, 4), (BV, 100))


def _solver_in_loop(a, b, rounds):
    out = []
    for k in range(rounds):
        x = b * 0
        r = b.copy()
        it = 0
        while np.abs(r).max() > 10.0 ** -k and it < 50:
            x = x + 0.3 * r
            r = b - a @ x
            it += 1
        out.append(it)
    return out


case(_solver_in_loop, (SPD, BV, 4))


# ============================================================ resumed loops with breaks inside

def _unique_loop_prints(x, y):
    out = []
    for c in np.unique(y):
        print("class", c)
        out.append(float(x[y[: x.size] == c].sum()) if c < 4 else -1.0)
    return out


case(_unique_loop_prints, (X, np.array([1, 0, 1, 3])), (X, np.array([2, 2, 2, 2])))


def _unique_comprehension(x, y):
    return [float((y == c).sum()) * x[0] for c in np.unique(y)]


case(_unique_comprehension, (X, Y), (X, YE), (X, Y2))


def _unique_nested(x, y):
    pairs = []
    for a in np.unique(y):
        for b in np.unique(y[y > a]):
            pairs.append((int(a), int(b)))
    return pairs


case(_unique_nested, (X, Y), (X, Y2))


def _unique_raises_midway(x, y):
    seen = []
    try:
        for c in np.unique(y):
            seen.append(int(c))
            x[c] = 1.0 / c
    except (ZeroDivisionError, IndexError) as e:
        return "raised", type(e).__name__, seen, x
    return seen, x


case(_unique_raises_midway, (X, Y), (X, np.array([1, 9])), (X, np.array([3, 1])))


def _unique_else(x, y):
    for c in np.unique(y):
        if c > 10:
            break
    else:
        return "no break", c if len(y) else None
    return "break", c


case(_unique_else, (X, Y), (X, np.array([11, 1])), (X, YE))
