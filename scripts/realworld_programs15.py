"""A fifteenth program corpus of scripts/bench_realworld.py (issue #15, session p64 task
t8): programs written the way NumPy users write them, before any ran under dynamo, of
fields the fourteen corpora have little of. This file: finance (an American put on a
Cox-Ross-Rubinstein tree and by Longstaff-Schwartz regression, a Vasicek zero curve by
Monte Carlo, Black-Scholes Greeks, risk-parity weights by coordinate updates with an
early exit, drawdowns, EWMA volatility, a bond's yield by bisection) and statistics (a
bootstrap interval, Gibbs sampling, a 2-D kernel density, EM for a 1-D Gaussian
mixture, Kaplan-Meier, Welch's t for many features, OLS with standard errors,
Hamiltonian Monte Carlo, Kendall's tau by rows of pairs).
``realworld_programs15_sig.py`` (signal and image processing, graphics and geometry)
and ``realworld_programs15_phys.py`` (physics and chemistry, text and sequences) are
the rest, joined here. ``programs(small=False)``: (name, fn, args, kwargs); ``small``:
the differential test's sizes (tests/realworld/test_realworld_programs15.py).

Example::

    >>> programs(small=True)[0][0]
    'American put on a binomial tree'
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np


def _sibling(name):
    """A sibling script module (scripts/ need not be on sys.path)."""
    key = f"scripts.{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


# ---------------------------------------------------------------- finance


def crr_american_put(S0, K, r, sigma, T, steps):
    """American put by backward induction on a Cox-Ross-Rubinstein tree."""
    dt = T / steps
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    j = np.arange(steps + 1)
    ST = S0 * u ** j * d ** (steps - j)
    V = np.maximum(K - ST, 0.0)
    for i in range(steps - 1, -1, -1):
        j = np.arange(i + 1)
        ST = S0 * u ** j * d ** (i - j)
        V = disc * (p * V[1:] + (1 - p) * V[:-1])
        V = np.maximum(V, K - ST)
    return V[0]


def longstaff_schwartz_put(S0, K, r, sigma, T, z, degree=2):
    """An American put by Longstaff-Schwartz: paths from pre-drawn normals, then
    backwards in time a polynomial regression of the discounted continuation value
    on the in-the-money paths decides where to exercise."""
    n_paths, n_steps = z.shape
    dt = T / n_steps
    increments = (r - 0.5 * sigma ** 2) * dt + sigma * math.sqrt(dt) * z
    S = S0 * np.exp(np.cumsum(increments, axis=1))
    cash = np.maximum(K - S[:, -1], 0.0)
    disc = math.exp(-r * dt)
    for t in range(n_steps - 2, -1, -1):
        cash = cash * disc
        itm = K - S[:, t] > 0
        if itm.sum() <= degree + 1:
            continue
        x = S[itm, t]
        coef = np.polyfit(x, cash[itm], degree)
        cont = np.polyval(coef, x)
        exercise = K - x > cont
        idx = np.nonzero(itm)[0][exercise]
        cash[idx] = K - x[exercise]
    price = disc * cash.mean()
    return max(price, K - S0)



def vasicek_zero_curve(r0, kappa, theta, sigma, T, z, maturities):
    """Zero-coupon prices under a Vasicek short rate by Monte Carlo: Euler steps of
    every path, the integral of the rate accumulated, read off at each maturity."""
    n_paths, n_steps = z.shape
    dt = T / n_steps
    r = np.full(n_paths, r0)
    integral = np.zeros(n_paths)
    prices = {}
    for step in range(1, n_steps + 1):
        integral += r * dt
        r = r + kappa * (theta - r) * dt + sigma * math.sqrt(dt) * z[:, step - 1]
        for m in maturities:
            if abs(step * dt - m) < 1e-9:
                prices[m] = np.exp(-integral).mean()
    yields = {m: -math.log(p) / m for m, p in prices.items()}
    return prices, yields



def _norm_cdf(x):
    """Standard normal CDF by the Abramowitz-Stegun 26.2.17 polynomial."""
    t = 1.0 / (1.0 + 0.2316419 * np.abs(x))
    poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937
                + t * (-1.821255978 + t * 1.330274429))))
    pdf = np.exp(-0.5 * x * x) / np.sqrt(2 * np.pi)
    upper = 1.0 - pdf * poly
    return np.where(x >= 0, upper, 1.0 - upper)


def bs_call_greeks(S, K, T, r, sigma):
    """Black-Scholes call prices and Greeks over a book of options."""
    sqrtT = np.sqrt(T)
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * sqrtT)
    d2 = d1 - sigma * sqrtT
    pdf1 = np.exp(-0.5 * d1 ** 2) / np.sqrt(2 * np.pi)
    Nd1, Nd2 = _norm_cdf(d1), _norm_cdf(d2)
    price = S * Nd1 - K * np.exp(-r * T) * Nd2
    delta = Nd1
    gamma = pdf1 / (S * sigma * sqrtT)
    vega = S * pdf1 * sqrtT / 100
    theta = (-S * pdf1 * sigma / (2 * sqrtT) - r * K * np.exp(-r * T) * Nd2) / 365
    return {"price": price, "delta": delta, "gamma": gamma, "vega": vega, "theta": theta}


def risk_parity_weights(cov, tol=1e-10, max_iter=500):
    """Equal-risk-contribution weights by the cyclical coordinate update of each
    weight in turn (a quadratic's root), until the weights stop moving."""
    n = cov.shape[0]
    w = 1.0 / np.sqrt(np.diag(cov))
    w /= w.sum()
    budget = 1.0 / n
    for it in range(max_iter):  # noqa: B007 (the count is returned)
        old = w.copy()
        for i in range(n):
            c = cov[i] @ w - cov[i, i] * w[i]
            w[i] = (-c + math.sqrt(c * c + 4 * cov[i, i] * budget)) / (2 * cov[i, i])
        if np.max(np.abs(w - old)) < tol:
            break
    w = w / w.sum()
    rc = w * (cov @ w)
    return w, rc / rc.sum(), it



def drawdown_report(prices):
    """Maximum drawdown, its peak and trough, and the longest time under water (a
    loop over the drawdown series, as analysts write it)."""
    peak = np.maximum.accumulate(prices)
    dd = prices / peak - 1.0
    trough = int(np.argmin(dd))
    start = int(np.argmax(prices[:trough + 1])) if trough > 0 else 0
    longest = 0
    current = 0
    for v in dd:
        if v < 0:
            current += 1
            longest = max(longest, current)
        else:
            current = 0
    return dd.min(), start, trough, longest


def ewma_volatility(returns, lam=0.94, annualise=252):
    """RiskMetrics EWMA volatility of each asset, updated day by day."""
    n_days, n_assets = returns.shape
    var = returns[:20].var(axis=0)
    out = np.empty((n_days, n_assets))
    for t in range(n_days):
        var = lam * var + (1 - lam) * returns[t] ** 2
        out[t] = np.sqrt(var * annualise)
    return out


def bond_yield_bisection(price, coupon, face, years, freq=2, tol=1e-10):
    """A bond's yield to maturity by bisection on its price function."""
    n = int(years * freq)
    t = np.arange(1, n + 1) / freq
    cf = np.full(n, coupon * face / freq)
    cf[-1] += face
    lo, hi = 0.0, 1.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        pv = np.sum(cf / (1 + mid / freq) ** (t * freq))
        if pv > price:
            lo = mid
        else:
            hi = mid
    y = 0.5 * (lo + hi)
    disc = cf / (1 + y / freq) ** (t * freq)
    duration = np.sum(t * disc) / np.sum(disc)
    return y, duration


# ---------------------------------------------------------------- statistics


def bootstrap_median_ci(x, n_boot=1000, alpha=0.05, seed=0):
    """A percentile bootstrap interval for the median, resampling with a seeded
    generator inside the function."""
    rng = np.random.default_rng(seed)
    n = len(x)
    stats = np.empty(n_boot)
    for b in range(n_boot):
        idx = rng.integers(0, n, n)
        stats[b] = np.median(x[idx])
    lo, hi = np.percentile(stats, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return np.median(x), lo, hi


def gibbs_bivariate_normal(rho, z, burn=100):
    """Gibbs sampling of a standard bivariate normal with correlation rho, from
    pre-drawn standard normals, one coordinate at a time."""
    n = z.shape[0]
    s = math.sqrt(1 - rho * rho)
    x, y = 0.0, 0.0
    out = np.zeros((n, 2))
    for i in range(n):
        x = rho * y + s * z[i, 0]
        y = rho * x + s * z[i, 1]
        out[i, 0] = x
        out[i, 1] = y
    kept = out[burn:]
    return kept.mean(axis=0), np.corrcoef(kept.T)[0, 1]


def kde_2d_scott(points, nx, ny):
    """A 2-D Gaussian kernel density on a grid with Scott's bandwidth matrix (the
    data's covariance scaled), by whitening with its Cholesky factor."""
    n, d = points.shape
    factor = n ** (-1.0 / (d + 4))
    cov = np.cov(points, rowvar=False) * factor ** 2
    L = np.linalg.cholesky(cov)
    Linv = np.linalg.inv(L)
    xs = np.linspace(points[:, 0].min(), points[:, 0].max(), nx)
    ys = np.linspace(points[:, 1].min(), points[:, 1].max(), ny)
    gx, gy = np.meshgrid(xs, ys)
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    wp = points @ Linv.T
    dens = np.zeros(len(grid))
    for row in range(ny):
        g = grid[row * nx:(row + 1) * nx] @ Linv.T
        d2 = ((g[:, None, :] - wp[None, :, :]) ** 2).sum(-1)
        dens[row * nx:(row + 1) * nx] = np.exp(-0.5 * d2).sum(axis=1)
    norm = n * 2 * np.pi * np.prod(np.diag(L))
    return (dens / norm).reshape(ny, nx)



def em_gmm_1d(x, k=3, iters=200, tol=1e-6):
    """EM for a one-dimensional Gaussian mixture, stopping when the log-likelihood
    stops improving."""
    mu = np.percentile(x, np.linspace(10, 90, k))
    var = np.full(k, x.var())
    w = np.full(k, 1.0 / k)
    prev = -np.inf
    for _ in range(iters):
        dens = w * np.exp(-0.5 * (x[:, None] - mu) ** 2 / var) / np.sqrt(2 * np.pi * var)
        total = dens.sum(axis=1, keepdims=True)
        ll = np.log(total).sum()
        resp = dens / total
        nk = resp.sum(axis=0)
        w = nk / len(x)
        mu = (resp * x[:, None]).sum(axis=0) / nk
        var = (resp * (x[:, None] - mu) ** 2).sum(axis=0) / nk + 1e-6
        if ll - prev < tol:
            break
        prev = ll
    return w, mu, var, ll


def kaplan_meier(times, events):
    """The Kaplan-Meier survival curve: sort by time, then one step per distinct
    event time."""
    order = np.argsort(times, kind="stable")
    t = times[order]
    e = events[order]
    at_risk = len(t)
    surv = 1.0
    out_t = [0.0]
    out_s = [1.0]
    i = 0
    while i < len(t):
        j = i
        deaths = 0
        while j < len(t) and t[j] == t[i]:
            deaths += e[j]
            j += 1
        if deaths > 0:
            surv *= 1.0 - deaths / at_risk
            out_t.append(float(t[i]))
            out_s.append(surv)
        at_risk -= j - i
        i = j
    return np.array(out_t), np.array(out_s)


def welch_t_many(A, B):
    """Welch's t statistic and degrees of freedom for every feature (column) of two
    groups, as in a differential-expression screen."""
    na, nb = A.shape[0], B.shape[0]
    ma, mb = A.mean(axis=0), B.mean(axis=0)
    va, vb = A.var(axis=0, ddof=1), B.var(axis=0, ddof=1)
    se2 = va / na + vb / nb
    t = (ma - mb) / np.sqrt(se2)
    df = se2 ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    top = np.argsort(-np.abs(t))[:10]
    return t, df, top


def ols_with_se(X, y):
    """Ordinary least squares with an intercept: coefficients, standard errors,
    t statistics and R squared."""
    n = X.shape[0]
    Xd = np.column_stack([np.ones(n), X])
    XtX = Xd.T @ Xd
    beta = np.linalg.solve(XtX, Xd.T @ y)
    resid = y - Xd @ beta
    dof = n - Xd.shape[1]
    sigma2 = resid @ resid / dof
    se = np.sqrt(np.diag(np.linalg.inv(XtX)) * sigma2)
    r2 = 1 - resid @ resid / np.sum((y - y.mean()) ** 2)
    return beta, se, beta / se, r2


def hmc_gaussian(prec, n, step, n_leap, p0, u):
    """Hamiltonian Monte Carlo on a correlated Gaussian: leapfrog trajectories from
    pre-drawn momenta, accepted by the energy difference against pre-drawn uniforms."""
    d = prec.shape[0]
    x = np.zeros(d)
    samples = np.empty((n, d))
    accepted = 0
    for i in range(n):
        p = p0[i]
        xn = x.copy()
        pn = p - 0.5 * step * (prec @ xn)
        for _ in range(n_leap):
            xn = xn + step * pn
            pn = pn - step * (prec @ xn)
        pn = pn + 0.5 * step * (prec @ xn)
        h_old = 0.5 * x @ prec @ x + 0.5 * p @ p
        h_new = 0.5 * xn @ prec @ xn + 0.5 * pn @ pn
        if u[i] < math.exp(min(0.0, h_old - h_new)):
            x = xn
            accepted += 1
        samples[i] = x
    return samples, accepted / n



def kendall_tau_pairs(x, y):
    """Kendall's tau-a: concordant minus discordant pairs, one row of pairs per
    point (a triangular loop)."""
    n = len(x)
    s = 0
    for i in range(n - 1):
        s += np.sum(np.sign(x[i + 1:] - x[i]) * np.sign(y[i + 1:] - y[i]))
    return s / (n * (n - 1) / 2)



def programs(small: bool = False):
    """(name, fn, args, kwargs) of the whole fifteenth corpus, this file's and the
    siblings'."""
    rng = np.random.default_rng(15)
    s = lambda big, little: little if small else big
    rets = 0.0004 + 0.01 * rng.standard_normal((s(1000, 60), s(40, 4)))
    n_opt = s(50000, 20)
    S = rng.uniform(80, 120, n_opt)
    K = rng.uniform(80, 120, n_opt)
    T = rng.uniform(0.1, 2.0, n_opt)
    vol_true = rng.uniform(0.1, 0.5, n_opt)
    prices = 100 * np.exp(np.cumsum(0.0003 + 0.012 * rng.standard_normal(s(100000, 300))))
    data = np.concatenate([rng.normal(-2, 0.5, s(2000, 30)), rng.normal(1, 1.0, s(3000, 40)),
                           rng.normal(4, 0.7, s(1000, 20))])
    times = rng.integers(1, s(200, 12), s(3000, 30)).astype(float)
    events = (rng.random(len(times)) < 0.7).astype(int)
    A = rng.standard_normal((s(40, 5), s(20000, 30)))
    B = rng.standard_normal((s(50, 6), A.shape[1])) + 0.1
    Xo = rng.standard_normal((s(20000, 40), s(30, 3)))
    yo = Xo @ rng.standard_normal(Xo.shape[1]) + rng.standard_normal(len(Xo))
    n_mh = s(600, 30)
    C = rng.standard_normal((4, 4))
    prec = C @ C.T + 4 * np.eye(4)
    z_paths = rng.standard_normal((s(4000, 40), s(50, 6)))
    z_rates = rng.standard_normal((s(3000, 30), s(500, 10)))
    pts2 = rng.standard_normal((s(1000, 20), 2)) @ np.array([[1.0, 0.5], [0.0, 0.7]])
    kx = rng.standard_normal(s(2000, 25))
    ky = 0.5 * kx + rng.standard_normal(len(kx))
    return [
        ("American put on a binomial tree", crr_american_put,
         (100.0, 100.0, 0.05, 0.2, 1.0, s(800, 12)), {}),
        ("American put by Longstaff-Schwartz", longstaff_schwartz_put,
         (100.0, 100.0, 0.05, 0.2, 1.0, z_paths), {}),
        ("Vasicek zero curve by Monte Carlo", vasicek_zero_curve,
         (0.03, 0.5, 0.04, 0.01, 5.0, z_rates, (1.0, 2.0, 5.0)), {}),
        ("Black-Scholes Greeks of a book", bs_call_greeks, (S, K, T, 0.02, vol_true), {}),
        ("risk parity by coordinate updates", risk_parity_weights, (np.cov(rets, rowvar=False),),
         {}),
        ("drawdown report of a price series", drawdown_report, (prices,), {}),
        ("EWMA volatility day by day", ewma_volatility, (rets,), {}),
        ("bond yield by bisection", bond_yield_bisection, (97.5, 0.05, 100.0, s(30, 5)), {}),
        ("bootstrap interval for a median", bootstrap_median_ci, (data[:s(500, 30)],),
         {"n_boot": s(1000, 20)}),
        ("Gibbs sampler for a bivariate normal", gibbs_bivariate_normal,
         (0.8, rng.standard_normal((s(5000, 60), 2))), {"burn": s(100, 10)}),
        ("2-D kernel density with Scott's bandwidth", kde_2d_scott,
         (pts2, s(40, 5), s(30, 4)), {}),
        ("EM for a 1-D Gaussian mixture", em_gmm_1d, (data,), {"iters": s(200, 30)}),
        ("Kaplan-Meier survival curve", kaplan_meier, (times, events), {}),
        ("Welch's t for many features", welch_t_many, (A, B), {}),
        ("OLS with standard errors", ols_with_se, (Xo, yo), {}),
        ("Hamiltonian Monte Carlo on a Gaussian", hmc_gaussian,
         (prec, n_mh, 0.2, s(10, 3), rng.standard_normal((n_mh, 4)), rng.random(n_mh)), {}),
        ("Kendall's tau by rows of pairs", kendall_tau_pairs, (kx, ky), {}),
    ] + _sibling("realworld_programs15_sig").programs(small) \
        + _sibling("realworld_programs15_phys").programs(small)
