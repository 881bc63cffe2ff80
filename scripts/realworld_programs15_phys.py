"""The fifteenth corpus of scripts/bench_realworld.py, third part (see
``realworld_programs15.py``): physics and chemistry written the way their authors write
it (velocity Verlet for Lennard-Jones particles in a periodic box, single-spin
Metropolis for an Ising model, SPH density and pressure forces, implicit heat steps by the
Thomas algorithm, a decay chain by Euler steps, a Gillespie simulation, a leapfrog
wave equation) and text and sequences (edit distance by a DP double loop, Viterbi in
log space, greedy CTC decoding, the CTC forward loss, LCS lengths by rows, scaled HMM
forward-backward posteriors, TF-IDF cosine similarities).

Example::

    >>> programs(small=True)[0][0]
    'Lennard-Jones by velocity Verlet'
"""

from __future__ import annotations

import math

import numpy as np

# ---------------------------------------------------------------- physics and chemistry


def _lj_forces(pos, box):
    """Lennard-Jones forces and potential energy with the minimum image."""
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)
    r2 = (d ** 2).sum(-1)
    np.fill_diagonal(r2, np.inf)
    inv6 = (1.0 / r2) ** 3
    energy = 2.0 * np.sum(inv6 * inv6 - inv6)
    fmag = 24.0 * (2.0 * inv6 * inv6 - inv6) / r2
    return (fmag[:, :, None] * d).sum(axis=1), energy


def lj_velocity_verlet(pos, vel, box, dt=0.002, steps=50):
    """Velocity Verlet for Lennard-Jones particles in a periodic box, recording the
    total energy each step."""
    f, pe = _lj_forces(pos, box)
    energies = []
    for _ in range(steps):
        vel = vel + 0.5 * dt * f
        pos = (pos + dt * vel) % box
        f, pe = _lj_forces(pos, box)
        vel = vel + 0.5 * dt * f
        energies.append(pe + 0.5 * np.sum(vel ** 2))
    return pos, vel, np.array(energies)


def ising_random_sites(spins, beta, sites, u):
    """Single-spin Metropolis on a 2-D Ising lattice: a random site per step (pre-drawn),
    its four neighbours with periodic wrap, the Boltzmann factor from a table."""
    n = spins.shape[0]
    table = {dE: math.exp(-beta * dE) for dE in (4, 8)}
    energy_changes = 0
    for k in range(len(u)):
        i, j = sites[k]
        nb = (spins[(i + 1) % n, j] + spins[(i - 1) % n, j]
              + spins[i, (j + 1) % n] + spins[i, (j - 1) % n])
        dE = 2 * spins[i, j] * nb
        if dE <= 0 or u[k] < table[dE]:
            spins[i, j] = -spins[i, j]
            energy_changes += dE
    return spins.mean(), energy_changes



def sph_density_forces(pos, vel, h, mass=1.0, k=1.0, rho0=1.0, mu=0.1):
    """Smoothed-particle hydrodynamics: poly6 densities, an equation of state, and
    spiky-kernel pressure with viscosity forces, all pairs at once."""
    d = pos[:, None, :] - pos[None, :, :]
    r = np.sqrt((d ** 2).sum(-1))
    near = r < h
    poly6 = 315.0 / (64.0 * np.pi * h ** 9)
    rho = mass * poly6 * np.where(near, (h * h - r * r) ** 3, 0.0).sum(axis=1)
    p = k * (rho - rho0)
    spiky = -45.0 / (np.pi * h ** 6)
    pair = near & (r > 0)
    rs = np.where(pair, r, 1.0)
    grad = np.where(pair, spiky * (h - r) ** 2, 0.0)[:, :, None] * d / rs[:, :, None]
    fp = -(mass * ((p[:, None] + p[None, :]) / (2 * rho[None, :]))[:, :, None] * grad).sum(1)
    lap = np.where(pair, 45.0 / (np.pi * h ** 6) * (h - r), 0.0)
    fv = mu * mass * (((vel[None, :, :] - vel[:, None, :]) / rho[None, :, None])
                      * lap[:, :, None]).sum(1)
    return rho, fp + fv


def heat_implicit_thomas(u0, alpha, dx, dt, steps):
    """Backward-Euler steps of the 1-D heat equation with fixed ends, each solved by
    the Thomas algorithm written out as two loops."""
    n = len(u0)
    r = alpha * dt / dx ** 2
    a = -r
    b = 1 + 2 * r
    c = -r
    u = u0.copy()
    cp = np.empty(n)
    dp = np.empty(n)
    for _ in range(steps):
        d = u.copy()
        cp[0] = 0.0
        dp[0] = d[0]
        for i in range(1, n - 1):
            m = b - a * cp[i - 1]
            cp[i] = c / m
            dp[i] = (d[i] - a * dp[i - 1]) / m
        u[n - 1] = d[n - 1]
        for i in range(n - 2, 0, -1):
            u[i] = dp[i] - cp[i] * u[i + 1]
    return u


def decay_chain_euler(rates, n0, dt, steps, every=10):
    """A radioactive decay chain (each species decays into the next) by explicit
    Euler steps of dN/dt = A N, saving every ``every`` steps."""
    k = len(rates)
    A = np.diag(-rates) + np.diag(rates[:-1], -1)
    N = n0.astype(float)
    saved = [N.copy()]
    for step in range(1, steps + 1):
        N = N + dt * (A @ N)
        if step % every == 0:
            saved.append(N.copy())
    return np.array(saved), N.sum() / n0.sum(), k


def gillespie_dimerisation(x0, rates, u, t_end):
    """Gillespie's direct method for 2A <-> B and A -> 0, from pre-drawn uniforms,
    until the end time or the uniforms run out."""
    a_count, b_count = x0
    k1, k2, k3 = rates
    t = 0.0
    ts = [t]
    states = [(a_count, b_count)]
    for i in range(len(u)):
        p1 = k1 * a_count * (a_count - 1) / 2
        p2 = k2 * b_count
        p3 = k3 * a_count
        total = p1 + p2 + p3
        if total == 0:
            break
        t += -math.log(u[i, 0]) / total
        if t > t_end:
            break
        pick = u[i, 1] * total
        if pick < p1:
            a_count -= 2
            b_count += 1
        elif pick < p1 + p2:
            a_count += 2
            b_count -= 1
        else:
            a_count -= 1
        ts.append(t)
        states.append((a_count, b_count))
    return np.array(ts), np.array(states)


def wave_leapfrog(u0, c, dx, dt, steps):
    """The 1-D wave equation by leapfrog with first-order absorbing ends."""
    r2 = (c * dt / dx) ** 2
    k = c * dt / dx
    prev = u0.copy()
    cur = u0.copy()
    cur[1:-1] = u0[1:-1] + 0.5 * r2 * (u0[2:] - 2 * u0[1:-1] + u0[:-2])
    for _ in range(steps):
        nxt = np.empty_like(cur)
        nxt[1:-1] = 2 * cur[1:-1] - prev[1:-1] + r2 * (cur[2:] - 2 * cur[1:-1] + cur[:-2])
        nxt[0] = cur[1] + (k - 1) / (k + 1) * (nxt[1] - cur[0])
        nxt[-1] = cur[-2] + (k - 1) / (k + 1) * (nxt[-2] - cur[-1])
        prev, cur = cur, nxt
    return cur, np.sum(cur ** 2) * dx


# ---------------------------------------------------------------- text and sequences


def edit_distance_dp(a, b):
    """Levenshtein distance between two token sequences, the full DP table."""
    n, m = len(a), len(b)
    D = np.zeros((n + 1, m + 1), dtype=np.int32)
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    return int(D[n, m])


def viterbi_log(obs, log_pi, log_A, log_B):
    """The most likely hidden-state path by Viterbi in log space: one vectorised max
    per time step, then backtracking."""
    T = len(obs)
    S = len(log_pi)
    delta = np.empty((T, S))
    psi = np.zeros((T, S), dtype=np.int64)
    delta[0] = log_pi + log_B[:, obs[0]]
    for t in range(1, T):
        scores = delta[t - 1][:, None] + log_A
        psi[t] = np.argmax(scores, axis=0)
        delta[t] = np.max(scores, axis=0) + log_B[:, obs[t]]
    path = np.empty(T, dtype=np.int64)
    path[-1] = np.argmax(delta[-1])
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
    return path, delta[-1].max()


def ctc_greedy_decode(logits, blank=0):
    """Greedy CTC decoding of a batch: argmax per frame, collapse repeats, drop
    blanks, as Python lists."""
    best = np.argmax(logits, axis=-1)
    out = []
    for seq in best:
        decoded = []
        prev = -1
        for s in seq:
            s = int(s)
            if s != prev and s != blank:
                decoded.append(s)
            prev = s
        out.append(decoded)
    return out


def ctc_forward_loss(log_probs, labels, blank=0):
    """The CTC negative log-likelihood of one label sequence by the alpha recursion
    over the blank-extended labels, in log space."""
    T = log_probs.shape[0]
    ext = np.full(2 * len(labels) + 1, blank)
    ext[1::2] = labels
    L = len(ext)
    skip = np.zeros(L, dtype=bool)
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    alpha = np.full(L, -np.inf)
    alpha[0] = log_probs[0, ext[0]]
    alpha[1] = log_probs[0, ext[1]]
    for t in range(1, T):
        a1 = np.concatenate([[-np.inf], alpha[:-1]])
        a2 = np.concatenate([[-np.inf, -np.inf], alpha[:-2]])
        a2 = np.where(skip, a2, -np.inf)
        m = np.maximum(np.maximum(alpha, a1), a2)
        safe = np.where(np.isinf(m), 0.0, m)
        total = safe + np.log(np.exp(alpha - safe) + np.exp(a1 - safe) + np.exp(a2 - safe))
        alpha = np.where(np.isinf(m), -np.inf, total) + log_probs[t, ext]
    return -np.logaddexp(alpha[-1], alpha[-2])


def lcs_length_rows(a, b):
    """Longest common subsequence length, one DP row at a time with the matches
    vectorised and the running max as a loop."""
    prev = np.zeros(len(b) + 1, dtype=np.int64)
    for i in range(len(a)):
        cur = np.zeros_like(prev)
        diag = np.where(a[i] == b, prev[:-1] + 1, 0)
        cur[1:] = np.maximum(diag, prev[1:])
        for j in range(1, len(cur)):
            if cur[j - 1] > cur[j]:
                cur[j] = cur[j - 1]
        prev = cur
    return int(prev[-1])


def hmm_posteriors(obs, pi, A, B):
    """Scaled forward-backward for a discrete HMM: state posteriors and the
    log-likelihood."""
    T, S = len(obs), len(pi)
    alpha = np.zeros((T, S))
    c = np.zeros(T)
    alpha[0] = pi * B[:, obs[0]]
    c[0] = alpha[0].sum()
    alpha[0] /= c[0]
    for t in range(1, T):
        alpha[t] = (alpha[t - 1] @ A) * B[:, obs[t]]
        c[t] = alpha[t].sum()
        alpha[t] /= c[t]
    beta = np.ones((T, S))
    for t in range(T - 2, -1, -1):
        beta[t] = A @ (B[:, obs[t + 1]] * beta[t + 1]) / c[t + 1]
    gamma = alpha * beta
    return gamma / gamma.sum(axis=1, keepdims=True), np.log(c).sum()


def tfidf_cosine(counts, top=3):
    """TF-IDF weights of a document-term count matrix, cosine similarities between
    documents, and each document's nearest neighbours."""
    n_docs = counts.shape[0]
    tf = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    df = (counts > 0).sum(axis=0)
    idf = np.log((1 + n_docs) / (1 + df)) + 1
    X = tf * idf
    X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
    sim = X @ X.T
    np.fill_diagonal(sim, -1)
    return sim, np.argsort(-sim, axis=1)[:, :top]


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this part of the fifteenth corpus."""
    rng = np.random.default_rng(15016)
    s = lambda big, little: little if small else big
    n_lj = s(64, 8)
    side = int(math.ceil(n_lj ** (1 / 3)))
    box = side * 1.5
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)
    lj_pos = (grid[:n_lj] + 0.5) * 1.5 + 0.05 * rng.standard_normal((n_lj, 3))
    lj_vel = 0.1 * rng.standard_normal((n_lj, 3))
    n_is = s(64, 6)
    spins = rng.choice([-1, 1], (n_is, n_is))
    n_flips = s(5000, 40)
    n_sph = s(400, 12)
    sph_pos = rng.random((n_sph, 2)) * s(4.0, 1.0)
    sph_vel = 0.1 * rng.standard_normal((n_sph, 2))
    x_h = np.linspace(0, 1, s(400, 12))
    u_heat = np.exp(-100 * (x_h - 0.5) ** 2)
    rates = np.array([0.5, 0.2, 0.1, 0.05, 0.0])
    n0 = np.array([1000, 0, 0, 0, 0])
    u_g = rng.random((s(5000, 40), 2))
    x_w = np.linspace(0, 1, s(2000, 30))
    tok_a = rng.integers(0, 5, s(150, 5))
    tok_b = np.where(rng.random(s(140, 4)) < 0.8, np.resize(tok_a, s(140, 4)),
                     rng.integers(0, 5, s(140, 4)))
    S, V = s(8, 3), s(20, 4)
    A = rng.random((S, S)) + np.eye(S)
    A /= A.sum(axis=1, keepdims=True)
    Bm = rng.random((S, V))
    Bm /= Bm.sum(axis=1, keepdims=True)
    pi = np.full(S, 1.0 / S)
    obs = rng.integers(0, V, s(3000, 25))
    logits = rng.standard_normal((s(32, 2), s(200, 12), s(30, 5)))
    lp = rng.standard_normal((s(400, 14), s(30, 5)))
    lp = lp - np.log(np.exp(lp).sum(axis=1, keepdims=True))
    labels = rng.integers(1, lp.shape[1], s(60, 4))
    counts = rng.poisson(0.05, (s(400, 10), s(2000, 40)))
    return [
        ("Lennard-Jones by velocity Verlet", lj_velocity_verlet, (lj_pos, lj_vel, box),
         {"steps": s(50, 3)}),
        ("Ising model by single-spin Metropolis", ising_random_sites,
         (spins, 0.44, rng.integers(0, n_is, (n_flips, 2)), rng.random(n_flips)), {}),
        ("SPH densities and pressure forces", sph_density_forces, (sph_pos, sph_vel, 0.3), {}),
        ("implicit heat steps by the Thomas algorithm", heat_implicit_thomas,
         (u_heat, 1.0, float(x_h[1] - x_h[0]), 1e-4, s(20, 2)), {}),
        ("decay chain by Euler steps", decay_chain_euler, (rates, n0, 0.01, s(3000, 30)), {}),
        ("Gillespie dimerisation", gillespie_dimerisation,
         ((s(300, 20), 0), (0.002, 0.1, 0.01), u_g, 50.0), {}),
        ("wave equation by leapfrog, absorbing ends", wave_leapfrog,
         (np.exp(-400 * (x_w - 0.3) ** 2), 1.0, float(x_w[1] - x_w[0]),
          0.5 * float(x_w[1] - x_w[0]), s(1000, 10)), {}),
        ("edit distance by a DP double loop", edit_distance_dp, (tok_a, tok_b), {}),
        ("Viterbi path in log space", viterbi_log,
         (obs, np.log(pi), np.log(A), np.log(Bm)), {}),
        ("greedy CTC decoding of a batch", ctc_greedy_decode, (logits,), {}),
        ("CTC forward loss", ctc_forward_loss, (lp, labels), {}),
        ("LCS length by rows and a scan", lcs_length_rows, (tok_a, tok_b), {}),
        ("HMM posteriors by scaled forward-backward", hmm_posteriors, (obs, pi, A, Bm), {}),
        ("TF-IDF cosine neighbours", tfidf_cosine, (counts,), {}),
    ]
