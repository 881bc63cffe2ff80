"""A seventh program corpus of scripts/bench_realworld.py (issue #15): thirty-one
programs of shapes the first six corpora do not have, written the way public NumPy code
is, before any of them ran under dynamo.

The kinds: sorting-based code (a rank-Gauss transform by a double ``argsort``, quantile
binning by ``np.quantile`` + ``searchsorted`` + ``bincount``, k-th-neighbour outlier
scores by ``np.partition``, Spearman correlations from ranks, a top-k softmax scattered
back by ``put_along_axis``, neighbour counts on a line by two ``searchsorted``),
group-by aggregations (``np.add.at`` sums and variances, a weighted 2-D histogram by a
flat ``bincount``, group maxima by ``np.maximum.at``, segment sums reset by ``cumsum``),
cumulative scans (record highs by ``np.maximum.accumulate``, an EWMA over time rows,
rolling mean and standard deviation by cumulative sums), boolean-mask pipelines (a
sensor cleaning pipeline with sentinels, ``nanmean``/``nanstd`` and fills, an event
selection by cuts, gap filling by ``np.interp`` over ``isnan``), small-matrix loops (a
Rauch-Tung-Striebel smoother, Rodrigues rotations applied per step, red-black SOR by
strided slices, quaternion attitude integration), image operations (a separable
Gaussian by shifted slices, per-tile histogram equalisation, a morphological gradient
by shifted maxima, a Harris corner response), data cleaning (robust scaling by
``nanmedian`` and ``nanpercentile``), Monte Carlo with a ``Generator`` (pi by batches,
first passage of random walks, a knock-out barrier option) and training loops over
minibatches (L2 logistic regression, a tanh MLP with momentum, a hinge-loss linear SVM).

``programs(small=False)`` lists them as (name, fn, args, kwargs) at sizes where plain
NumPy takes about a millisecond or more per call; ``small=True`` gives the same programs
on small inputs, for the differential test (tests/realworld/test_realworld_programs7.py).

Example::

    >>> name, fn, args, kwargs = programs(small=True)[0]
    >>> name
    'rank-Gauss transform by double argsort'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- sorting and ranks


def rank_gauss_columns(X):
    """Each column to its ranks (argsort of argsort), then to a logistic 'normal' score."""
    n = X.shape[0]
    ranks = np.argsort(np.argsort(X, axis=0), axis=0)
    u = (ranks + 0.5) / n
    z = np.log(u / (1.0 - u)) * (np.sqrt(3.0) / np.pi)
    return z - z.mean(axis=0)


def quantile_bin_target_means(x, y, n_bins=10):
    """Equal-frequency bins of x (np.quantile edges), the mean of y in each bin."""
    edges = np.quantile(x, np.linspace(0.0, 1.0, n_bins + 1))
    idx = np.searchsorted(edges[1:-1], x, side="right")
    sums = np.bincount(idx, weights=y, minlength=n_bins)
    counts = np.bincount(idx, minlength=n_bins)
    return edges, sums / np.maximum(counts, 1)


def kth_neighbour_outlier_scores(X, k=5):
    """Distance to the k-th nearest neighbour (np.partition of each distance row)."""
    sq = np.sum(X * X, axis=1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * (X @ X.T)
    np.fill_diagonal(d2, np.inf)
    kth = np.partition(d2, k - 1, axis=1)[:, k - 1]
    return np.sqrt(np.maximum(kth, 0.0))


def spearman_columns(A, B):
    """Spearman correlation of matching columns: Pearson correlation of their ranks."""
    ra = np.argsort(np.argsort(A, axis=0), axis=0).astype(np.float64)
    rb = np.argsort(np.argsort(B, axis=0), axis=0).astype(np.float64)
    ra -= ra.mean(axis=0)
    rb -= rb.mean(axis=0)
    return (ra * rb).sum(axis=0) / np.sqrt((ra * ra).sum(axis=0) * (rb * rb).sum(axis=0))


def topk_softmax_scatter(logits, k=8):
    """Sparse attention weights: a softmax over each row's k largest, zero elsewhere."""
    idx = np.argpartition(logits, -k, axis=1)[:, -k:]
    top = np.take_along_axis(logits, idx, axis=1)
    e = np.exp(top - top.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    out = np.zeros_like(logits)
    np.put_along_axis(out, idx, w, axis=1)
    return out


def neighbours_within_radius_1d(pos, radius):
    """How many points lie within radius of each point on a line (sorted searches)."""
    order = np.argsort(pos)
    s = pos[order]
    counts = np.searchsorted(s, s + radius, side="right") - np.searchsorted(s, s - radius)
    out = np.empty_like(counts)
    out[order] = counts - 1
    return out


# ---------------------------------------------------------------- group-by aggregations


def groupby_mean_var_add_at(keys, vals, n_groups):
    """Per-group count, mean and variance by unbuffered np.add.at accumulations."""
    cnt = np.zeros(n_groups)
    s1 = np.zeros(n_groups)
    s2 = np.zeros(n_groups)
    np.add.at(cnt, keys, 1.0)
    np.add.at(s1, keys, vals)
    np.add.at(s2, keys, vals * vals)
    mean = s1 / np.maximum(cnt, 1.0)
    var = s2 / np.maximum(cnt, 1.0) - mean * mean
    return cnt, mean, np.maximum(var, 0.0)


def weighted_hist2d_bincount(x, y, w, bins=32):
    """A weighted 2-D histogram on [0, 1)^2 by one flat bincount, then normalised."""
    ix = np.clip((x * bins).astype(np.int64), 0, bins - 1)
    iy = np.clip((y * bins).astype(np.int64), 0, bins - 1)
    h = np.bincount(ix * bins + iy, weights=w, minlength=bins * bins).reshape(bins, bins)
    return h / h.sum()


def group_range_maximum_at(keys, vals, n_groups):
    """Per-group max - min by np.maximum.at and np.minimum.at, empty groups 0."""
    hi = np.full(n_groups, -np.inf)
    lo = np.full(n_groups, np.inf)
    np.maximum.at(hi, keys, vals)
    np.minimum.at(lo, keys, vals)
    return np.where(np.isfinite(hi), hi - lo, 0.0)


def segment_cumsum_reset(x, flags):
    """A running sum that restarts wherever flags is True (cumsum minus the carried
    offset of the last segment start)."""
    c = np.cumsum(x)
    starts = np.flatnonzero(flags)
    offset = np.zeros_like(x)
    offset[starts] = c[starts] - x[starts]
    offset = np.maximum.accumulate(np.where(flags, offset, -np.inf))
    return c - np.where(np.isfinite(offset), offset, 0.0)


# ---------------------------------------------------------------- cumulative scans


def record_highs_count(X):
    """How many new record highs each series (a row) sets, by running maxima."""
    run = np.maximum.accumulate(X, axis=1)
    new = X[:, 1:] > run[:, :-1]
    return new.sum(axis=1), run[:, -1]


def ewma_time_rows(X, alpha=0.05):
    """An exponentially weighted moving average of many series, one time row per step."""
    out = np.empty_like(X)
    m = X[0].copy()
    out[0] = m
    for t in range(1, X.shape[0]):
        m = alpha * X[t] + (1.0 - alpha) * m
        out[t] = m
    return out


def rolling_mean_std_cumsum(X, w=20):
    """Rolling mean and standard deviation along each row from cumulative sums."""
    c1 = np.cumsum(X, axis=1)
    c2 = np.cumsum(X * X, axis=1)
    z = np.zeros((X.shape[0], 1))
    c1 = np.concatenate([z, c1], axis=1)
    c2 = np.concatenate([z, c2], axis=1)
    s1 = c1[:, w:] - c1[:, :-w]
    s2 = c2[:, w:] - c2[:, :-w]
    mean = s1 / w
    var = np.maximum(s2 / w - mean * mean, 0.0)
    return mean, np.sqrt(var)


# ---------------------------------------------------------------- boolean-mask pipelines


def sensor_cleaning(data, sentinel=-999.0, lo=-50.0, hi=50.0):
    """Sentinels to NaN, clip to the sensor range, 3-sigma outliers to NaN, NaN to the
    column mean; returns the cleaned table and the fraction replaced per column."""
    d = np.where(data == sentinel, np.nan, data)
    d = np.clip(d, lo, hi)
    mu = np.nanmean(d, axis=0)
    sd = np.nanstd(d, axis=0)
    d[np.abs(d - mu) > 3 * sd] = np.nan
    bad = np.isnan(d)
    mu2 = np.nanmean(d, axis=0)
    cleaned = np.where(bad, mu2, d)
    return cleaned, bad.mean(axis=0)


def event_selection_mass(px, py, pz, e, pt_min=0.5, eta_max=2.0):
    """Pairs of particles (rows): cuts on each particle's pt and |eta|, then the pair's
    invariant mass for the events that pass, binned."""
    pt = np.hypot(px, py)
    p = np.sqrt(px * px + py * py + pz * pz)
    eta = 0.5 * np.log((p + pz) / (p - pz))
    ok = ((pt > pt_min) & (np.abs(eta) < eta_max)).all(axis=1)
    E, X, Y, Z = e[ok].sum(1), px[ok].sum(1), py[ok].sum(1), pz[ok].sum(1)
    m = np.sqrt(np.maximum(E * E - X * X - Y * Y - Z * Z, 0.0))
    return np.histogram(m, bins=40, range=(0.0, 20.0))[0], ok.mean()


def fill_gaps_interp(y):
    """Linear interpolation over the NaN gaps of a long series; edges take the nearest."""
    bad = np.isnan(y)
    t = np.arange(y.shape[0])
    out = y.copy()
    out[bad] = np.interp(t[bad], t[~bad], y[~bad])
    return out


# ---------------------------------------------------------------- small matrices in loops


def rts_smoother(zs, dt=0.1, q=0.01, r=0.3):
    """Constant-velocity Kalman filter forward, Rauch-Tung-Striebel smoother backward."""
    F = np.array([[1.0, dt], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    Q = q * np.array([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    n = zs.shape[0]
    xs = np.zeros((n, 2))
    Ps = np.zeros((n, 2, 2))
    xp = np.zeros((n, 2))
    Pp = np.zeros((n, 2, 2))
    x = np.array([zs[0], 0.0])
    P = np.eye(2)
    for k in range(n):
        x = F @ x
        P = F @ P @ F.T + Q
        xp[k], Pp[k] = x, P
        S = H @ P @ H.T + r
        K = P @ H.T / S
        x = x + (K * (zs[k] - H @ x)).ravel()
        P = (np.eye(2) - K @ H) @ P
        xs[k], Ps[k] = x, P
    for k in range(n - 2, -1, -1):
        C = Ps[k] @ F.T @ np.linalg.inv(Pp[k + 1])
        xs[k] = xs[k] + C @ (xs[k + 1] - xp[k + 1])
        Ps[k] = Ps[k] + C @ (Ps[k + 1] - Pp[k + 1]) @ C.T
    return xs, Ps


def rodrigues_spin(P, axis, omega=0.05, steps=20):
    """Points turned about an axis by a Rodrigues 3x3 matrix rebuilt every step (the
    angle grows), with a small drift."""
    a = axis / np.linalg.norm(axis)
    K = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
    for s in range(steps):
        th = omega * (1 + 0.01 * s)
        R = np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * (K @ K)
        P = P @ R.T + 1e-3 * a
    return P


def sor_red_black(u, f, h, omega=1.5, sweeps=10):
    """Poisson by successive over-relaxation, red and black points by strided slices."""
    u = u.copy()
    for _ in range(sweeps):
        for si, sj in ((1, 1), (2, 2), (1, 2), (2, 1)):
            c = u[si:-1:2, sj:-1:2]
            nb = (u[si - 1:-2:2, sj:-1:2] + u[si + 1::2, sj:-1:2][:c.shape[0], :c.shape[1]]
                  + u[si:-1:2, sj - 1:-2:2] + u[si:-1:2, sj + 1::2][:c.shape[0], :c.shape[1]])
            gs = 0.25 * (nb - h * h * f[si:-1:2, sj:-1:2])
            u[si:-1:2, sj:-1:2] = c + omega * (gs - c)
    return u


def quaternion_attitude(q, w, dt=0.01, steps=50):
    """Many bodies' attitude quaternions integrated under body rates, renormalised."""
    for _ in range(steps):
        q0, q1, q2, q3 = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
        wx, wy, wz = w[:, 0], w[:, 1], w[:, 2]
        dq = 0.5 * np.stack([-q1 * wx - q2 * wy - q3 * wz,
                             q0 * wx + q2 * wz - q3 * wy,
                             q0 * wy - q1 * wz + q3 * wx,
                             q0 * wz + q1 * wy - q2 * wx], axis=1)
        q = q + dt * dq
        q = q / np.linalg.norm(q, axis=1, keepdims=True)
    return q


# ---------------------------------------------------------------- image operations


def separable_gaussian(img, sigma=2.0, radius=6):
    """A Gaussian blur as a row pass then a column pass, each a sum of shifted slices
    of an edge-padded image."""
    t = np.arange(-radius, radius + 1)
    k = np.exp(-0.5 * (t / sigma) ** 2)
    k /= k.sum()
    n, m = img.shape
    p = np.pad(img, ((0, 0), (radius, radius)), mode="edge")
    tmp = np.zeros_like(img)
    for i in range(2 * radius + 1):
        tmp += k[i] * p[:, i:i + m]
    p = np.pad(tmp, ((radius, radius), (0, 0)), mode="edge")
    out = np.zeros_like(img)
    for i in range(2 * radius + 1):
        out += k[i] * p[i:i + n, :]
    return out


def tiled_histogram_equalize(img, tiles=4):
    """Histogram equalisation per tile of an 8-bit image: one bincount with the tile
    number as an offset, a CDF per tile, a lookup per pixel."""
    n, m = img.shape
    th, tw = n // tiles, m // tiles
    t = img.reshape(tiles, th, tiles, tw).transpose(0, 2, 1, 3).reshape(tiles * tiles, -1)
    off = (np.arange(tiles * tiles) * 256)[:, None]
    hist = np.bincount((t.astype(np.int64) + off).ravel(),
                       minlength=256 * tiles * tiles).reshape(tiles * tiles, 256)
    cdf = np.cumsum(hist, axis=1)
    lut = np.round(255.0 * (cdf - cdf[:, :1]) / np.maximum(cdf[:, -1:] - cdf[:, :1], 1))
    eq = np.take_along_axis(lut, t.astype(np.int64), axis=1).astype(np.uint8)
    return eq.reshape(tiles, tiles, th, tw).transpose(0, 2, 1, 3).reshape(n, m)


def morph_gradient_cross(img, r=2):
    """Dilation minus erosion with a cross of arm r, by shifted maxima and minima of an
    edge-padded image."""
    p = np.pad(img, r, mode="edge")
    n, m = img.shape
    hi = img.copy()
    lo = img.copy()
    for d in range(1, r + 1):
        for sl in ((slice(r - d, r - d + n), slice(r, r + m)),
                   (slice(r + d, r + d + n), slice(r, r + m)),
                   (slice(r, r + n), slice(r - d, r - d + m)),
                   (slice(r, r + n), slice(r + d, r + d + m))):
            np.maximum(hi, p[sl], out=hi)
            np.minimum(lo, p[sl], out=lo)
    return hi - lo


def harris_response(img, k=0.05):
    """Harris corners: central-difference gradients, 3x3 box sums of their products,
    det - k trace^2."""
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, 1:-1] = 0.5 * (img[:, 2:] - img[:, :-2])
    gy[1:-1, :] = 0.5 * (img[2:, :] - img[:-2, :])

    def box3(a):
        b = np.zeros_like(a)
        b[1:-1, 1:-1] = (a[:-2, :-2] + a[:-2, 1:-1] + a[:-2, 2:] + a[1:-1, :-2] + a[1:-1, 1:-1]
                         + a[1:-1, 2:] + a[2:, :-2] + a[2:, 1:-1] + a[2:, 2:])
        return b
    sxx, syy, sxy = box3(gx * gx), box3(gy * gy), box3(gx * gy)
    return sxx * syy - sxy * sxy - k * (sxx + syy) ** 2


# ---------------------------------------------------------------- data cleaning


def robust_scale_nan(X):
    """Columns centred on their nanmedian and scaled by their interquartile range."""
    med = np.nanmedian(X, axis=0)
    q75, q25 = np.nanpercentile(X, [75, 25], axis=0)
    iqr = np.where(q75 - q25 > 0, q75 - q25, 1.0)
    return (X - med) / iqr


# ---------------------------------------------------------------- Monte Carlo with a Generator


def mc_pi_batches(rng, batches=10, n=100000):
    """Pi from points in the unit square, batch by batch, with a running standard error."""
    hits = 0
    total = 0
    for _ in range(batches):
        xy = rng.random((n, 2))
        hits += int(np.count_nonzero((xy * xy).sum(axis=1) <= 1.0))
        total += n
    p = hits / total
    return 4.0 * p, 4.0 * np.sqrt(p * (1 - p) / total)


def random_walk_first_passage(rng, walkers=2000, steps=200, barrier=10):
    """First time each +-1 random walk reaches the barrier (steps + 1 when never)."""
    s = rng.choice(np.array([-1, 1]), size=(walkers, steps))
    pos = np.cumsum(s, axis=1)
    hit = pos >= barrier
    first = np.argmax(hit, axis=1)
    return np.where(hit.any(axis=1), first + 1, steps + 1)


def barrier_option_mc(rng, S0=100.0, K=100.0, B=130.0, r=0.02, sigma=0.3, T=1.0,
                      steps=100, paths=5000):
    """An up-and-out call: geometric Brownian paths, knocked out by their running max."""
    dt = T / steps
    z = rng.standard_normal((paths, steps))
    logS = np.log(S0) + np.cumsum((r - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * z,
                                  axis=1)
    S = np.exp(logS)
    alive = S.max(axis=1) < B
    payoff = np.where(alive, np.maximum(S[:, -1] - K, 0.0), 0.0)
    return np.exp(-r * T) * payoff.mean(), alive.mean()


# ---------------------------------------------------------------- training over minibatches


def logreg_l2_minibatch(X, y, w, b=0.0, lr=0.1, lam=1e-3, epochs=3, batch=256):
    """L2-regularised logistic regression by minibatch gradient steps, in order."""
    n = X.shape[0]
    for _ in range(epochs):
        for i in range(0, n, batch):
            xb, yb = X[i:i + batch], y[i:i + batch]
            p = 1.0 / (1.0 + np.exp(-(xb @ w + b)))
            g = p - yb
            w = w - lr * (xb.T @ g / xb.shape[0] + lam * w)
            b = b - lr * g.mean()
    return w, b


def tanh_mlp_momentum(X, Y, W1, b1, W2, b2, lr=0.05, mu=0.9, epochs=2, batch=128):
    """A tanh MLP with a softmax cross-entropy head, SGD with momentum over minibatches."""
    vW1, vb1, vW2, vb2 = (np.zeros_like(a) for a in (W1, b1, W2, b2))
    n = X.shape[0]
    losses = []
    for _ in range(epochs):
        for i in range(0, n, batch):
            xb, yb = X[i:i + batch], Y[i:i + batch]
            h = np.tanh(xb @ W1 + b1)
            z = h @ W2 + b2
            z = z - z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            losses.append(-np.mean(np.sum(yb * np.log(p + 1e-12), axis=1)))
            dz = (p - yb) / xb.shape[0]
            dW2, db2 = h.T @ dz, dz.sum(axis=0)
            dh = (dz @ W2.T) * (1 - h * h)
            dW1, db1 = xb.T @ dh, dh.sum(axis=0)
            vW1 = mu * vW1 - lr * dW1
            vb1 = mu * vb1 - lr * db1
            vW2 = mu * vW2 - lr * dW2
            vb2 = mu * vb2 - lr * db2
            W1, b1, W2, b2 = W1 + vW1, b1 + vb1, W2 + vW2, b2 + vb2
    return W1, b1, W2, b2, np.array(losses)


def hinge_svm_minibatch(X, y, w, lam=1e-3, epochs=3, batch=200):
    """A linear SVM (labels +-1) by minibatch subgradient steps with a 1/(lam t) rate."""
    n = X.shape[0]
    t = 1
    for _ in range(epochs):
        for i in range(0, n, batch):
            xb, yb = X[i:i + batch], y[i:i + batch]
            viol = yb * (xb @ w) < 1.0
            grad = lam * w - (xb[viol] * yb[viol][:, None]).sum(axis=0) / xb.shape[0]
            w = w - grad / (lam * t)
            w = w * min(1.0, 1.0 / (np.sqrt(lam) * np.linalg.norm(w) + 1e-12))
            t += 1
    return w


# ---------------------------------------------------------------- the list


def programs(small: bool = False):
    """(name, fn, args, kwargs): args are copied before every call. ``small``: the same
    programs on small inputs and few steps (a differential test's sizes)."""
    rng = np.random.default_rng(77)

    def s(big, little):
        return little if small else big

    def r(*shape):
        return rng.random(shape)

    def normal(*shape):
        return rng.standard_normal(shape)

    def gen(seed):
        return np.random.default_rng(seed)

    n1 = s(200000, 60)
    n_g = s(200, 7)
    n_at = s(1000000, 40)
    sensors = normal(s(20000, 40), 8) * 10
    sensors[r(*sensors.shape) < 0.02] = -999.0
    gappy = np.sin(np.arange(n1) * 0.01) + 0.1 * normal(n1)
    gappy[r(n1) < 0.1] = np.nan
    gappy[0] = gappy[-1] = 0.0
    nanX = normal(s(20000, 30), 8)
    nanX[r(*nanX.shape) < 0.05] = np.nan
    n_ev = s(20000, 40)
    ev_p = normal(3, n_ev, 2) * 3
    ev_m = 0.5 + r(n_ev, 2)
    ev_e = np.sqrt(ev_m ** 2 + (ev_p ** 2).sum(axis=0))
    n_img = s(512, 16)
    img8 = (255 * r(n_img, n_img) ** 2).astype(np.uint8)
    n_cls, d_in, d_hid = 4, s(32, 5), s(64, 6)
    n_tr = s(4000, 40)
    X_tr = normal(n_tr, d_in)
    y_cls = (X_tr[:, 0] > 0).astype(int) + 2 * (X_tr[:, 1] > 0)
    n_sor = s(257, 9)
    return [
        # sorting and ranks
        ("rank-Gauss transform by double argsort", rank_gauss_columns,
         (normal(s(20000, 30), 8),), {}),
        ("quantile binning of a target", quantile_bin_target_means, (normal(n1), normal(n1)),
         {"n_bins": s(20, 4)}),
        ("k-th neighbour outlier scores", kth_neighbour_outlier_scores,
         (normal(s(800, 20), 4),), {"k": s(5, 3)}),
        ("Spearman correlation of columns", spearman_columns,
         (normal(s(20000, 30), 6), normal(s(20000, 30), 6)), {}),
        ("top-k softmax scattered back", topk_softmax_scatter, (normal(s(2000, 10), 256),),
         {"k": 8}),
        ("neighbours within a radius on a line", neighbours_within_radius_1d,
         (r(n1) * 100,), {"radius": 0.5}),
        # group-by aggregations
        ("group mean and variance by np.add.at", groupby_mean_var_add_at,
         (rng.integers(0, n_g, n_at), normal(n_at), n_g), {}),
        ("weighted 2-D histogram by bincount", weighted_hist2d_bincount,
         (r(2 * n1), r(2 * n1), r(2 * n1)), {"bins": s(32, 4)}),
        ("group range by maximum.at", group_range_maximum_at,
         (rng.integers(0, n_g, n_at), normal(n_at), n_g), {}),
        ("segment sums reset by cumsum", segment_cumsum_reset, (r(n1), r(n1) < 0.01), {}),
        # cumulative scans
        ("record highs by running maxima", record_highs_count,
         (np.cumsum(normal(s(200, 6), s(2000, 30)), axis=1),), {}),
        ("EWMA over time rows", ewma_time_rows, (normal(s(500, 12), s(400, 5)),), {}),
        ("rolling mean and std by cumsums", rolling_mean_std_cumsum,
         (normal(s(100, 4), s(4000, 50)),), {"w": s(20, 5)}),
        # boolean-mask pipelines
        ("sensor cleaning with sentinels and NaNs", sensor_cleaning, (sensors,), {}),
        ("event selection and pair mass", event_selection_mass,
         (ev_p[0], ev_p[1], ev_p[2], ev_e), {}),
        ("gap filling by interp over isnan", fill_gaps_interp, (gappy,), {}),
        # small matrices in loops
        ("Rauch-Tung-Striebel smoother", rts_smoother,
         (np.cumsum(0.1 * normal(s(400, 8))) + 0.3 * normal(s(400, 8)),), {}),
        ("Rodrigues rotation per step", rodrigues_spin,
         (normal(s(50000, 20), 3), np.array([1.0, 2.0, 2.0])), {"steps": s(20, 3)}),
        ("red-black SOR by strided slices", sor_red_black,
         (np.zeros((n_sor, n_sor)), normal(n_sor, n_sor), 1.0 / (n_sor - 1)),
         {"sweeps": s(10, 2)}),
        ("quaternion attitude integration", quaternion_attitude,
         (np.tile([1.0, 0.0, 0.0, 0.0], (s(20000, 10), 1)), normal(s(20000, 10), 3)),
         {"steps": s(20, 3)}),
        # image operations
        ("separable Gaussian by shifted slices", separable_gaussian,
         (r(n_img, n_img),), {"radius": s(6, 3)}),
        ("per-tile histogram equalisation", tiled_histogram_equalize, (img8,), {"tiles": 4}),
        ("morphological gradient by shifted max", morph_gradient_cross, (r(n_img, n_img),), {}),
        ("Harris corner response", harris_response, (r(n_img, n_img),), {}),
        # data cleaning
        ("robust scaling by nanmedian and IQR", robust_scale_nan, (nanX,), {}),
        # Monte Carlo with a Generator
        ("Monte Carlo pi by batches", mc_pi_batches, (gen(1),),
         {"batches": s(10, 2), "n": s(50000, 100)}),
        ("random walk first passage", random_walk_first_passage, (gen(2),),
         {"walkers": s(2000, 20), "steps": s(200, 30), "barrier": s(10, 3)}),
        ("knock-out barrier option", barrier_option_mc, (gen(3),),
         {"steps": s(100, 10), "paths": s(5000, 50)}),
        # training over minibatches
        ("L2 logistic regression by minibatches", logreg_l2_minibatch,
         (X_tr, (y_cls % 2).astype(np.float64), np.zeros(d_in)),
         {"batch": s(256, 16), "epochs": s(10, 2)}),
        ("tanh MLP with momentum", tanh_mlp_momentum,
         (X_tr, np.eye(n_cls)[y_cls], 0.3 * normal(d_in, d_hid), np.zeros(d_hid),
          0.3 * normal(d_hid, n_cls), np.zeros(n_cls)), {"batch": s(128, 16)}),
        ("hinge-loss SVM by minibatches", hinge_svm_minibatch,
         (X_tr, np.where(X_tr[:, 0] + 0.3 * X_tr[:, 2] > 0, 1.0, -1.0), np.zeros(d_in)),
         {"batch": s(200, 16)}),
    ]
