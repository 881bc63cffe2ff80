"""Everyday loop code, for graph breaks (issue #19, task t6): 20+ small programs of the
shapes a NumPy user writes in loops, with their arguments.

Running bests and picks (``best = np.inf; if d < best: best = d; idx = k``, over an
unrolled loop, a triangular inner loop ``for j in range(i)`` or a rectangular one, the
pick stored per row ``out[i] = arg``), ``while <array test>:`` loops with returns
inside, histograms by hand into a Python list or a dict, counters, sums, searches,
sorts by hand. Written before the t6 changes were made (the rows at 40 elements test
loop nodes, those at 3 to 12 unrolled loops); ``tests/breaks/test_everyday_loops.py``
compares each with Python on both CPU backends and pins its breaks;
``scripts/break_counts.py`` counts them ("tests/breaks everyday loops").
"""

import numpy as np

# --- triangular picks ---


def nearest_earlier(D):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        best = 0
        bestv = D[i, 0]
        for j in range(i):
            if D[i, j] < bestv:
                bestv = D[i, j]
                best = j
        out[i] = best
    return out


def tri_argmin_slice(D):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        out[i] = np.argmin(D[i, :i])
    return out


def tri_max_inner(x):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        m = -np.inf
        for j in range(i + 1):
            m = max(m, x[j])
        out[i] = m
    return out


def pair_min_dist(P):
    n = P.shape[0]
    best = np.inf
    for i in range(n):
        for j in range(i + 1, n):
            d = np.sqrt(np.sum((P[i] - P[j]) ** 2))
            if d < best:
                best = d
    return best


def tri_max_pair(P):
    n = P.shape[0]
    best = 0.0
    bi, bj = 0, 0
    for i in range(n):
        for j in range(i):
            d = np.abs(P[i] - P[j]).sum()
            if d > best:
                best = d
                bi, bj = i, j
    return best, bi, bj

# --- running best of numpy scalars ---


def closest_center(x, C):
    best = np.inf
    idx = -1
    for k in range(C.shape[0]):
        d = np.sum((x - C[k]) ** 2)
        if d < best:
            best = d
            idx = k
    return idx, best


def running_max_scalar(x):
    best = x[0]
    for i in range(1, x.shape[0]):
        v = x[i] * 2.0
        if v > best:
            best = v
    return best


def best_threshold(x, y):
    best_acc = 0.0
    best_t = 0.0
    for t in np.linspace(0, 1, 11):
        acc = np.mean((x > t) == y)
        if acc > best_acc:
            best_acc = acc
            best_t = t
    return best_t, best_acc


def best_window(x, w):
    best = -np.inf
    start = 0
    for i in range(x.shape[0] - w + 1):
        s = x[i:i + w].sum()
        if s > best:
            best = s
            start = i
    return start, best


def min_max_loop(x):
    lo = x[0]
    hi = x[0]
    for v in x:
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo, hi

# --- while <array test> ---


def jacobi_until(A, b, tol=1e-8):
    x = np.zeros_like(b)
    D = np.diag(A)
    R = A - np.diag(D)
    r = b - A @ x
    it = 0
    while np.linalg.norm(r) > tol:
        x = (b - R @ x) / D
        r = b - A @ x
        it += 1
        if it > 500:
            return x, -1
    return x, it


def decrement_all(x):
    while (x > 0).any():
        x = x - 1
    return x


def halve_until(x, tol):
    while np.max(np.abs(x)) > tol:
        x = x * 0.5
    return x


def grad_descent_while(A, b, lr=0.1, tol=1e-6):
    x = np.zeros(A.shape[1])
    g = A.T @ (A @ x - b)
    while np.linalg.norm(g) > tol:
        x = x - lr * g
        g = A.T @ (A @ x - b)
    return x


def power_iter_while(A, tol=1e-10):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    diff = 1.0
    while diff > tol:
        w = A @ v
        new = np.linalg.norm(w)
        v = w / new
        diff = abs(new - lam)
        lam = new
    return lam, v


def while_any_return(x, limit):
    steps = 0
    while (x > limit).any():
        x = np.where(x > limit, x / 2, x)
        steps += 1
        if steps > 100:
            return x, None
    return x, steps

# --- list histograms ---


def list_hist(v):
    counts = [0] * 10
    for t in v:
        counts[int(t)] += 1
    return counts


def list_hist_array(v):
    counts = [0] * 5
    for i in range(v.shape[0]):
        counts[int(v[i])] += 1
    return np.array(counts)


def bin_hist(x, nbins):
    counts = [0] * nbins
    lo, hi = x.min(), x.max()
    for t in x:
        k = int((t - lo) / (hi - lo) * (nbins - 1))
        counts[k] += 1
    return counts


def dict_hist(labels):
    counts = {}
    for label in labels:
        label = int(label)
        counts[label] = counts.get(label, 0) + 1
    return counts

# --- others ---


def count_positive(x):
    c = 0
    for v in x:
        if v > 0:
            c += 1
    return c


def python_sum(x):
    s = 0.0
    for v in x:
        s += v
    return s


def first_above(x, thr):
    for i in range(x.shape[0]):
        if x[i] > thr:
            return i
    return -1


def cumsum_list(x):
    out = []
    s = 0.0
    for v in x:
        s += v
        out.append(s)
    return np.array(out)


def argmax_rows(X):
    idx = []
    for row in X:
        idx.append(int(np.argmax(row)))
    return idx


def kmeans_assign(X, C):
    labels = np.zeros(X.shape[0], dtype=np.int64)
    for i in range(X.shape[0]):
        best = np.inf
        for k in range(C.shape[0]):
            d = np.sum((X[i] - C[k]) ** 2)
            if d < best:
                best = d
                labels[i] = k
    return labels


def insertion_sort(a):
    a = a.copy()
    for i in range(1, a.shape[0]):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


def selection_sort(a):
    a = a.copy()
    n = a.shape[0]
    for i in range(n):
        m = i
        for j in range(i + 1, n):
            if a[j] < a[m]:
                m = j
        a[i], a[m] = a[m], a[i]
    return a


def max_drawdown(p):
    peak = p[0]
    mdd = 0.0
    for v in p:
        if v > peak:
            peak = v
        dd = (peak - v) / peak
        if dd > mdd:
            mdd = dd
    return mdd


def greedy_nn_tour(D):
    n = D.shape[0]
    visited = np.zeros(n, dtype=bool)
    tour = [0]
    visited[0] = True
    for _ in range(n - 1):
        d = np.where(visited, np.inf, D[tour[-1]])
        nxt = int(np.argmin(d))
        tour.append(nxt)
        visited[nxt] = True
    return tour


# ---- triangular and nested picks

def tri_pick(D):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        best = D[i, 0]
        arg = 0
        for j in range(i):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
    return out


def tri_pick_inf(D):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        best = np.inf
        arg = -1
        for j in range(i):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
    return out


def tri_count(D, t):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        c = 0
        for j in range(i):
            if D[i, j] < t:
                c += 1
        out[i] = c
    return out


def tri_max_val(D):
    n = D.shape[0]
    out = np.zeros(n)
    for i in range(1, n):
        m = D[i, 0]
        for j in range(1, i):
            if D[i, j] > m:
                m = D[i, j]
        out[i] = m
    return out


def tri_max_builtin(x):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        m = -np.inf
        for j in range(i + 1):
            m = max(m, x[j])
        out[i] = m
    return out


def tri_upper_pick(D):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(n - 1):
        best = D[i, i + 1]
        arg = i + 1
        for j in range(i + 1, n):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
    return out


def tri_argmin_call(D):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        out[i] = np.argmin(D[i, :i])
    return out


def selection_sort_swap(a):
    a = a.copy()
    n = a.shape[0]
    for i in range(n):
        m = i
        for j in range(i + 1, n):
            if a[j] < a[m]:
                m = j
        t = a[i]
        a[i] = a[m]
        a[m] = t
    return a


def tri_pair_min(P):
    n = P.shape[0]
    best = np.inf
    for i in range(n):
        for j in range(i + 1, n):
            d = np.sqrt(np.sum((P[i] - P[j]) ** 2))
            if d < best:
                best = d
    return best


# ---- nested picks used after the inner loop

def rect_count(D, t):
    out = np.zeros(D.shape[0], dtype=np.int64)
    for i in range(D.shape[0]):
        c = 0
        for j in range(D.shape[1]):
            if D[i, j] < t:
                c += 1
        out[i] = c
    return out


def pick_used_more(D):
    out = np.zeros(D.shape[0], dtype=np.int64)
    total = 0
    for i in range(D.shape[0]):
        best = D[i, 0]
        arg = 0
        for j in range(D.shape[1]):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg * 2
        total += arg
    return out, total


def pick_live_after(D):
    out = np.zeros(D.shape[0], dtype=np.int64)
    arg = -5
    for i in range(D.shape[0]):
        best = D[i, 0]
        arg = 0
        for j in range(D.shape[1]):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        out[i] = arg
    return out, arg


def pick_branch_after(D):
    out = np.zeros(D.shape[0], dtype=np.int64)
    for i in range(D.shape[0]):
        best = D[i, 0]
        arg = 0
        for j in range(D.shape[1]):
            if D[i, j] < best:
                best = D[i, j]
                arg = j
        if arg > 3:
            out[i] = arg
    return out


def tri_float_pick(D):
    n = D.shape[0]
    out = np.zeros(n)
    for i in range(1, n):
        level = 0.5
        for j in range(i):
            if D[i, j] > 0.9:
                level = -0.0
        out[i] = level
    return out


def tri_count_big(D, t):
    n = D.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        c = 2 ** 40
        for j in range(i):
            if D[i, j] < t:
                c += 2 ** 20
        out[i] = c - 2 ** 40
    return out


def _square(n, seed):
    d = np.random.default_rng(seed).random((n, n))
    d[::7, ::3] = np.nan
    return d


def _programs():
    rng = np.random.default_rng(0)
    P = rng.random((12, 3))
    D = np.linalg.norm(P[:, None] - P[None], axis=-1)
    A = rng.random((6, 6)) + 6 * np.eye(6)
    b = rng.random(6)
    M = rng.random((8, 4))
    PROGRAMS = [
        ("nearest_earlier", nearest_earlier, (D,)),
        ("tri_argmin_slice", tri_argmin_slice, (D,)),
        ("tri_max_inner", tri_max_inner, (rng.random(10),)),
        ("pair_min_dist", pair_min_dist, (P,)),
        ("tri_max_pair", tri_max_pair, (P,)),
        ("closest_center", closest_center, (rng.random(3), P)),
        ("running_max_scalar", running_max_scalar, (rng.random(20),)),
        ("best_threshold", best_threshold, (rng.random(50), rng.random(50) > 0.5)),
        ("best_window", best_window, (rng.random(30), 5)),
        ("min_max_loop", min_max_loop, (rng.random(20),)),
        ("jacobi_until", jacobi_until, (A, b)),
        ("decrement_all", decrement_all, (rng.integers(0, 5, 10),)),
        ("halve_until", halve_until, (rng.random(10), 1e-3)),
        ("grad_descent_while", grad_descent_while, (M, rng.random(8))),
        ("power_iter_while", power_iter_while, (A + A.T,)),
        ("while_any_return", while_any_return, (rng.random(10) * 100, 1.0)),
        ("list_hist", list_hist, (rng.integers(0, 10, 40).astype(float),)),
        ("list_hist_array", list_hist_array, (rng.integers(0, 5, 40),)),
        ("bin_hist", bin_hist, (rng.random(40), 6)),
        ("dict_hist", dict_hist, (rng.integers(0, 4, 30),)),
        ("count_positive", count_positive, (rng.standard_normal(20),)),
        ("python_sum", python_sum, (rng.random(20),)),
        ("first_above", first_above, (rng.random(20), 0.9)),
        ("cumsum_list", cumsum_list, (rng.random(20),)),
        ("argmax_rows", argmax_rows, (M,)),
        ("kmeans_assign", kmeans_assign, (M[:, :3], P[:4])),
        ("insertion_sort", insertion_sort, (rng.random(10),)),
        ("selection_sort", selection_sort, (rng.random(10),)),
        ("max_drawdown", max_drawdown, (1 + rng.random(30),)),
        ("greedy_nn_tour", greedy_nn_tour, (D,)),
    ]
    for n in (8, 40):
        Pn = rng.random((n, 3))
        Dn = np.linalg.norm(Pn[:, None] - Pn[None], axis=-1)
        PROGRAMS += [
            (f"tri_pick_{n}", tri_pick, (Dn,)),
            (f"tri_pick_inf_{n}", tri_pick_inf, (Dn,)),
            (f"tri_count_{n}", tri_count, (Dn, 0.5)),
            (f"tri_max_val_{n}", tri_max_val, (Dn,)),
            (f"tri_max_builtin_{n}", tri_max_builtin, (rng.random(n),)),
            (f"tri_upper_pick_{n}", tri_upper_pick, (Dn,)),
            (f"tri_argmin_call_{n}", tri_argmin_call, (Dn,)),
            (f"selection_sort_swap_{n}", selection_sort_swap, (rng.random(n),)),
            (f"tri_pair_min_{n}", tri_pair_min, (Pn,)),
        ]
    for n in (3, 40):
        Dn = _square(n, n)
        PROGRAMS += [
            (f"rect_count_{n}", rect_count, (Dn, 0.5)),
            (f"pick_used_more_{n}", pick_used_more, (Dn,)),
            (f"pick_live_after_{n}", pick_live_after, (Dn,)),
            (f"pick_branch_after_{n}", pick_branch_after, (Dn,)),
            (f"tri_float_pick_{n}", tri_float_pick, (Dn,)),
            (f"tri_count_big_{n}", tri_count_big, (Dn, 0.5)),
        ]
    return PROGRAMS


# (name, function, arguments)
PROGRAMS = _programs()
