"""A sixth program corpus of scripts/bench_realworld.py (issue #15): forty-four programs
written before any of them ran under dynamo, the way public NumPy code is written
(scalar loops, ``.copy()`` per step, in-place updates, helper functions, classes that
hold state, fancy indexing, argmax, cumsum, where, einsum, matmul chains).

None repeats a function of the earlier corpora; the kinds are: stencils (a biharmonic
plate step, a membrane wave with a point source set by fancy indexing, an abelian
sandpile, a 1-D diffusion with ghost cells by concatenation, morphological opening),
time steppers and ODE solvers (pendulum ensembles by velocity Verlet, SIR on a network
by a matmul, Heun with an error-controlled step, a stiff system by backward Euler and
Newton, a pseudo-spectral viscous Burgers, a three-body RK4 by scalars), iterative
linear solvers (conjugate residual, CGNR, a 1-D multigrid V-cycle, Arnoldi, Lanczos,
a weighted Jacobi with a residual history), small-matrix linear algebra (closed-form
2x2 eigenvalues, damped least-squares inverse kinematics, a polar decomposition by
Newton, a matrix exponential by scaling and squaring, a Stein equation by fixed point),
training steps (RMSprop MLP, a 1-D convolution net by window gathering, an Elman RNN
by truncated BPTT, a factorization machine, a layer-norm MLP with AdamW),
simulations (Nagel-Schreckenberg traffic, an SIR cellular automaton, Langevin
particles, a cloth of springs, rigid-body Euler equations), signal and image
processing (unsharp masking, gradient direction quantization, an integral-image box
filter, hysteresis thresholding, an autocorrelation by FFT), statistics (a Bayesian
linear model updated per batch, a Poisson mixture by EM, weighted quantiles, Welford
over chunks, a permutation test, a kernel density on a grid) and optimisation loops
(Nesterov on least squares, BFGS on Rosenbrock, coordinate descent for the elastic
net, projected gradient on the simplex, Gauss-Newton for an exponential fit).

``programs(small=False)`` lists them as (name, fn, args, kwargs) at sizes where plain
NumPy takes about a millisecond or more per call; ``small=True`` gives the same programs
on small inputs, for the differential test (tests/realworld/test_realworld_programs6.py).

Example::

    >>> name, fn, args, kwargs = programs(small=True)[0]
    >>> name
    'biharmonic plate step'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- stencils


def _lap5(u):
    out = np.zeros_like(u)
    out[1:-1, 1:-1] = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]
    return out


def biharmonic_plate_step(w, load, dt=1e-3, steps=5):
    """Plate deflection relaxing under a load: w += dt * (load - lap(lap(w)))."""
    for _ in range(steps):
        bi = _lap5(_lap5(w))
        w = w + dt * (load - bi)
        w[0, :] = w[-1, :] = 0.0
        w[:, 0] = w[:, -1] = 0.0
    return w


def membrane_wave_source(u, u_prev, src_i, src_j, c2=0.2, steps=10):
    """2-D wave equation by leapfrog; sources driven each step through fancy indexing."""
    for n in range(steps):
        u_next = 2 * u - u_prev
        u_next[1:-1, 1:-1] += c2 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                    - 4 * u[1:-1, 1:-1])
        u_next[src_i, src_j] += np.sin(0.3 * n)
        u_prev, u = u, u_next
    return u


def sandpile_topple(h, rounds=20):
    """Abelian sandpile: every cell with 4 grains or more gives one to each neighbour."""
    h = h.copy()
    for _ in range(rounds):
        over = (h >= 4).astype(h.dtype)
        h -= 4 * over
        h[1:, :] += over[:-1, :]
        h[:-1, :] += over[1:, :]
        h[:, 1:] += over[:, :-1]
        h[:, :-1] += over[:, 1:]
        h[0, :] = h[-1, :] = 0
        h[:, 0] = h[:, -1] = 0
    return h, int(h.sum())


def diffusion_ghost_concat(u, d=0.2, steps=30):
    """1-D diffusion with zero-flux ghost cells added by np.concatenate each step."""
    for _ in range(steps):
        g = np.concatenate(([u[0]], u, [u[-1]]))
        u = u + d * (g[2:] - 2 * g[1:-1] + g[:-2])
    return u


def morphological_open(img, size=1):
    """Grey-level opening (erosion then dilation) by minima/maxima of shifted slices."""
    def erode(a):
        p = np.pad(a, size, mode="edge")
        out = a.copy()
        for di in range(-size, size + 1):
            for dj in range(-size, size + 1):
                out = np.minimum(out, p[size + di:size + di + a.shape[0],
                                        size + dj:size + dj + a.shape[1]])
        return out

    def dilate(a):
        p = np.pad(a, size, mode="edge")
        out = a.copy()
        for di in range(-size, size + 1):
            for dj in range(-size, size + 1):
                out = np.maximum(out, p[size + di:size + di + a.shape[0],
                                        size + dj:size + dj + a.shape[1]])
        return out
    return dilate(erode(img))


# ---------------------------------------------------------------- time steppers, ODEs


def pendulum_verlet(theta, omega, g_over_l=9.81, dt=0.01, steps=50):
    """Velocity Verlet for an ensemble of nonlinear pendulums; returns the energy too."""
    acc = -g_over_l * np.sin(theta)
    for _ in range(steps):
        theta = theta + dt * omega + 0.5 * dt * dt * acc
        new_acc = -g_over_l * np.sin(theta)
        omega = omega + 0.5 * dt * (acc + new_acc)
        acc = new_acc
    energy = 0.5 * omega ** 2 + g_over_l * (1 - np.cos(theta))
    return theta, omega, energy.mean()


def network_sir(s, i, adj, beta=0.3, gamma=0.1, dt=0.1, steps=20):
    """SIR on a contact network: the force of infection is the adjacency times I."""
    r = 1.0 - s - i
    for _ in range(steps):
        force = beta * (adj @ i)
        new_inf = dt * force * s
        new_rec = dt * gamma * i
        s = s - new_inf
        i = i + new_inf - new_rec
        r = r + new_rec
    return s, i, r


def heun_adaptive(y0, t_end=2.0, dt=0.05, tol=1e-4):
    """Heun's method with an embedded Euler error estimate and step-size control."""
    def f(y):
        return -y ** 3 + np.sin(y)
    t, y, steps = 0.0, y0.copy(), 0
    while t < t_end and steps < 200:
        k1 = f(y)
        k2 = f(y + dt * k1)
        y_heun = y + 0.5 * dt * (k1 + k2)
        err = float(np.max(np.abs(y_heun - (y + dt * k1))))
        if err <= tol or dt < 1e-4:
            t += dt
            y = y_heun
        dt = min(0.2, 0.9 * dt * (tol / max(err, 1e-12)) ** 0.5, t_end - t + 1e-12)
        steps += 1
    return y, t, steps


def robertson_backward_euler(y, h=1e-3, steps=40):
    """Robertson's stiff kinetics by backward Euler, two Newton steps per time step."""
    k1, k2, k3 = 0.04, 3e7, 1e4
    eye = np.eye(3)
    for _ in range(steps):
        z = y.copy()
        for _ in range(2):
            a, b, c = z
            f = np.array([-k1 * a + k3 * b * c, k1 * a - k3 * b * c - k2 * b * b, k2 * b * b])
            jac = np.array([[-k1, k3 * c, k3 * b],
                            [k1, -k3 * c - 2 * k2 * b, -k3 * b],
                            [0.0, 2 * k2 * b, 0.0]])
            g = z - y - h * f
            z = z - np.linalg.solve(eye - h * jac, g)
        y = z
    return y


def burgers_pseudospectral(u, nu=0.05, dt=1e-4, steps=30):
    """Viscous Burgers on a periodic domain: derivatives by rfft, viscosity implicitly."""
    n = u.shape[0]
    k = np.fft.rfftfreq(n, d=1.0 / n)              # integer wavenumbers on [0, 2 pi)
    for _ in range(steps):
        uh = np.fft.rfft(u)
        ux = np.fft.irfft(1j * k * uh, n)
        nonlin = np.fft.rfft(u * ux)
        uh = (uh - dt * nonlin) / (1 + nu * dt * k ** 2)
        u = np.fft.irfft(uh, n)
    return u


def three_body_rk4(state, masses, dt=1e-3, steps=100):
    """Planar three-body problem by RK4; the state is (x, y, vx, vy) per body."""
    def rhs(s):
        pos = s[:, :2]
        d = pos[None, :, :] - pos[:, None, :]
        r3 = (np.sum(d * d, axis=-1) + 1e-3) ** 1.5
        acc = np.sum(masses[None, :, None] * d / r3[:, :, None], axis=1)
        return np.concatenate([s[:, 2:], acc], axis=1)
    for _ in range(steps):
        k1 = rhs(state)
        k2 = rhs(state + 0.5 * dt * k1)
        k3 = rhs(state + 0.5 * dt * k2)
        k4 = rhs(state + dt * k3)
        state = state + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return state


# ---------------------------------------------------------------- iterative solvers


def conjugate_residual(a, b, iters=30):
    """The conjugate residual method for a symmetric matrix."""
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    ar = a @ r
    ap = ar.copy()
    rar = r @ ar
    for _ in range(iters):
        alpha = rar / (ap @ ap)
        x += alpha * p
        r -= alpha * ap
        ar = a @ r
        rar_new = r @ ar
        beta = rar_new / rar
        rar = rar_new
        p = r + beta * p
        ap = ar + beta * ap
    return x, np.linalg.norm(r)


def cgnr(a, b, iters=25):
    """Least squares by CG on the normal equations, never forming A^T A."""
    x = np.zeros(a.shape[1])
    r = b - a @ x
    z = a.T @ r
    p = z.copy()
    zz = z @ z
    history = []
    for _ in range(iters):
        w = a @ p
        alpha = zz / (w @ w)
        x = x + alpha * p
        r = r - alpha * w
        z = a.T @ r
        zz_new = z @ z
        p = z + (zz_new / zz) * p
        zz = zz_new
        history.append(np.sqrt(zz))
    return x, history


def _smooth(u, f, h2, sweeps=2, w=2.0 / 3.0):
    for _ in range(sweeps):
        u[1:-1] = (1 - w) * u[1:-1] + w * 0.5 * (u[:-2] + u[2:] + h2 * f[1:-1])
    return u


def multigrid_vcycle(u, f, h, cycles=3):
    """1-D Poisson -u'' = f by V-cycles: weighted Jacobi, full weighting, interpolation."""
    def vcycle(u, f, h):
        if u.shape[0] <= 3:
            u[1] = 0.5 * (u[0] + u[2] + h * h * f[1])
            return u
        u = _smooth(u, f, h * h)
        r = np.zeros_like(u)
        r[1:-1] = f[1:-1] + (u[:-2] - 2 * u[1:-1] + u[2:]) / (h * h)
        rc = np.zeros((u.shape[0] + 1) // 2)
        rc[1:-1] = 0.25 * r[1:-2:2] + 0.5 * r[2:-1:2] + 0.25 * r[3::2]
        ec = vcycle(np.zeros_like(rc), rc, 2 * h)
        e = np.zeros_like(u)
        e[::2] = ec
        e[1::2] = 0.5 * (ec[:-1] + ec[1:])
        return _smooth(u + e, f, h * h)
    for _ in range(cycles):
        u = vcycle(u, f, h)
    return u


def arnoldi_ritz(a, v0, m=20):
    """m steps of Arnoldi (modified Gram-Schmidt); the Ritz values of the Hessenberg."""
    n = a.shape[0]
    q = np.zeros((n, m + 1))
    hess = np.zeros((m + 1, m))
    q[:, 0] = v0 / np.linalg.norm(v0)
    for j in range(m):
        w = a @ q[:, j]
        for i in range(j + 1):
            hess[i, j] = q[:, i] @ w
            w = w - hess[i, j] * q[:, i]
        hess[j + 1, j] = np.linalg.norm(w)
        q[:, j + 1] = w / hess[j + 1, j]
    ritz = np.linalg.eigvals(hess[:m, :m])
    return np.sort(ritz.real)[::-1][:3]


def lanczos_extremes(a, v, m=30):
    """Lanczos tridiagonalization without reorthogonalization; extreme eigenvalues."""
    alphas, betas = [], []
    v = v / np.linalg.norm(v)
    v_prev = np.zeros_like(v)
    beta = 0.0
    for _ in range(m):
        w = a @ v - beta * v_prev
        alpha = w @ v
        w = w - alpha * v
        beta = np.linalg.norm(w)
        alphas.append(alpha)
        betas.append(beta)
        v_prev, v = v, w / beta
    t = np.diag(alphas) + np.diag(betas[:-1], 1) + np.diag(betas[:-1], -1)
    ev = np.linalg.eigvalsh(t)
    return ev[0], ev[-1]


def weighted_jacobi_history(a, b, omega=0.8, iters=40):
    """Weighted Jacobi for a diagonally dominant system, keeping the residual norms."""
    d = np.diag(a)
    x = np.zeros_like(b)
    res = []
    for _ in range(iters):
        r = b - a @ x
        x = x + omega * r / d
        res.append(np.linalg.norm(r) / np.linalg.norm(b))
    return x, np.array(res)


# ---------------------------------------------------------------- small-matrix algebra


def sym2x2_eigs(a, b, c):
    """Eigenvalues and the first eigenvector angle of many [[a, b], [b, c]] matrices."""
    mean = 0.5 * (a + c)
    diff = 0.5 * (a - c)
    rad = np.sqrt(diff * diff + b * b)
    lam1, lam2 = mean + rad, mean - rad
    theta = 0.5 * np.arctan2(2 * b, a - c)
    aniso = np.where(lam1 + lam2 != 0, (lam1 - lam2) / (np.abs(lam1) + np.abs(lam2) + 1e-12), 0)
    return lam1, lam2, theta, aniso


def two_link_ik(targets, l1=1.0, l2=0.8, damping=0.1, iters=30):
    """Damped least-squares inverse kinematics of a planar 2-link arm, target by target."""
    q = np.array([0.3, 0.3])
    out = np.zeros((targets.shape[0], 2))
    for k in range(targets.shape[0]):
        for _ in range(iters):
            c1, s1 = np.cos(q[0]), np.sin(q[0])
            c12, s12 = np.cos(q[0] + q[1]), np.sin(q[0] + q[1])
            pos = np.array([l1 * c1 + l2 * c12, l1 * s1 + l2 * s12])
            jac = np.array([[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]])
            err = targets[k] - pos
            q = q + jac.T @ np.linalg.solve(jac @ jac.T + damping ** 2 * np.eye(2), err)
        out[k] = q
    return out


def polar_newton(a, iters=8):
    """The orthogonal polar factor of each small matrix, X <- (X + X^-T) / 2."""
    x = a.copy()
    for _ in range(iters):
        x = 0.5 * (x + np.linalg.inv(x).transpose(0, 2, 1))
    h = np.einsum("nji,njk->nik", x, a)
    return x, h


def expm_scaling_squaring(a, terms=12):
    """exp(A) by scaling so that |A| < 1/2, a Taylor series, then repeated squaring."""
    norm = np.max(np.sum(np.abs(a), axis=1))
    s = max(0, int(np.ceil(np.log2(norm / 0.5)))) if norm > 0 else 0
    b = a / 2 ** s
    result = np.eye(a.shape[0])
    term = np.eye(a.shape[0])
    for k in range(1, terms):
        term = term @ b / k
        result = result + term
    for _ in range(s):
        result = result @ result
    return result


def stein_fixed_point(a, q, iters=60):
    """The discrete Lyapunov (Stein) equation X = A X A^T + Q by iteration."""
    x = q.copy()
    for _ in range(iters):
        x = a @ x @ a.T + q
    return x, np.trace(x)


# ---------------------------------------------------------------- training steps


def rmsprop_mlp(x, y, w1, w2, lr=1e-3, rho=0.9, epochs=10):
    """A ReLU MLP regression trained by RMSprop on the full batch."""
    w1, w2 = w1.copy(), w2.copy()
    s1, s2 = np.zeros_like(w1), np.zeros_like(w2)
    losses = []
    for _ in range(epochs):
        h = np.maximum(x @ w1, 0)
        pred = h @ w2
        err = pred - y
        losses.append(float(np.mean(err ** 2)))
        g2 = h.T @ err / len(x)
        gh = (err @ w2.T) * (h > 0)
        g1 = x.T @ gh / len(x)
        s1 = rho * s1 + (1 - rho) * g1 ** 2
        s2 = rho * s2 + (1 - rho) * g2 ** 2
        w1 -= lr * g1 / (np.sqrt(s1) + 1e-8)
        w2 -= lr * g2 / (np.sqrt(s2) + 1e-8)
    return w1, w2, losses


def conv1d_train_step(x, y, kern, w_out, lr=0.01, steps=3):
    """A 1-D convolution layer (windows gathered by fancy indexing), tanh, a linear head."""
    width = kern.shape[0]
    idx = np.arange(x.shape[1] - width + 1)[:, None] + np.arange(width)[None, :]
    for _ in range(steps):
        win = x[:, idx]                               # (batch, positions, width)
        z = np.einsum("bpw,wc->bpc", win, kern)
        h = np.tanh(z)
        feat = h.mean(axis=1)
        pred = feat @ w_out
        d = (pred - y) / len(y)
        g_out = feat.T @ d
        dh = (d @ w_out.T)[:, None, :] / h.shape[1] * (1 - h * h)
        g_k = np.einsum("bpw,bpc->wc", win, dh)
        w_out = w_out - lr * g_out
        kern = kern - lr * g_k
    return kern, w_out


class ElmanRNN:
    """An Elman RNN with its weights as attributes; ``step`` runs a truncated BPTT."""

    def __init__(self, wx, wh, wy):
        self.wx, self.wh, self.wy = wx.copy(), wh.copy(), wy.copy()

    def step(self, xs, ys, lr=0.01):
        hs = [np.zeros((xs.shape[1], self.wh.shape[0]))]
        for t in range(xs.shape[0]):
            hs.append(np.tanh(xs[t] @ self.wx + hs[-1] @ self.wh))
        out = hs[-1] @ self.wy
        d = (out - ys) / ys.shape[0]
        gwy = hs[-1].T @ d
        dh = d @ self.wy.T
        gwx, gwh = np.zeros_like(self.wx), np.zeros_like(self.wh)
        for t in range(xs.shape[0] - 1, -1, -1):
            dz = dh * (1 - hs[t + 1] ** 2)
            gwx += xs[t].T @ dz
            gwh += hs[t].T @ dz
            dh = dz @ self.wh.T
        self.wx -= lr * gwx
        self.wh -= lr * gwh
        self.wy -= lr * gwy
        return float(0.5 * np.mean((out - ys) ** 2))


def elman_rnn_bptt(xs, ys, wx, wh, wy, epochs=3):
    rnn = ElmanRNN(wx, wh, wy)
    losses = [rnn.step(xs, ys) for _ in range(epochs)]
    return rnn.wx, rnn.wh, rnn.wy, losses


def factorization_machine(x, y, w0, w, v, lr=0.01, epochs=5):
    """A second-order factorization machine trained by full-batch gradient descent."""
    w, v = w.copy(), v.copy()
    for _ in range(epochs):
        xv = x @ v
        pair = 0.5 * np.sum(xv ** 2 - (x ** 2) @ (v ** 2), axis=1)
        pred = w0 + x @ w + pair
        d = (pred - y) / len(y)
        w0 = w0 - lr * d.sum()
        w -= lr * (x.T @ d)
        gv = x.T @ (d[:, None] * xv) - v * ((x ** 2).T @ d)[:, None]
        v -= lr * gv
    return w0, w, v


def layernorm_mlp_adamw(x, y, w1, w2, lr=1e-3, wd=0.01, steps=5):
    """A layer-normalized hidden layer with GELU, trained by AdamW (bias-corrected)."""
    params = [w1.copy(), w2.copy()]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2 = 0.9, 0.999
    for t in range(1, steps + 1):
        w1, w2 = params
        z = x @ w1
        mu = z.mean(axis=1, keepdims=True)
        var = z.var(axis=1, keepdims=True)
        zn = (z - mu) / np.sqrt(var + 1e-5)
        h = 0.5 * zn * (1 + np.tanh(0.79788456 * (zn + 0.044715 * zn ** 3)))
        out = h @ w2
        d = 2 * (out - y) / y.size
        g2 = h.T @ d
        dh = d @ w2.T
        dzn = dh * (h / np.where(zn == 0, 1, zn))     # a cheap surrogate of GELU's slope
        dz = (dzn - dzn.mean(axis=1, keepdims=True)
              - zn * (dzn * zn).mean(axis=1, keepdims=True)) / np.sqrt(var + 1e-5)
        g1 = x.T @ dz
        for i, g in enumerate((g1, g2)):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            mhat = m[i] / (1 - b1 ** t)
            vhat = v[i] / (1 - b2 ** t)
            params[i] = params[i] - lr * (mhat / (np.sqrt(vhat) + 1e-8) + wd * params[i])
    return params


# ---------------------------------------------------------------- simulations


def nagel_schreckenberg(pos, vel, draws, length, vmax=5, p_slow=0.3):
    """Cars on a ring road: accelerate, keep the gap, slow at random, move."""
    for t in range(draws.shape[0]):
        order = np.argsort(pos)
        pos, vel = pos[order], vel[order]
        gap = (np.roll(pos, -1) - pos - 1) % length
        vel = np.minimum(vel + 1, vmax)
        vel = np.minimum(vel, gap)
        vel = np.where((draws[t] < p_slow) & (vel > 0), vel - 1, vel)
        pos = (pos + vel) % length
    return np.sort(pos), vel.mean()


def sir_cellular(state, draws, p_inf=0.3, p_rec=0.1):
    """SIR cellular automaton: 0 susceptible, 1 infected, 2 recovered; von Neumann."""
    for t in range(draws.shape[0]):
        inf = (state == 1).astype(np.int64)
        nb = np.zeros_like(inf)
        nb[1:, :] += inf[:-1, :]
        nb[:-1, :] += inf[1:, :]
        nb[:, 1:] += inf[:, :-1]
        nb[:, :-1] += inf[:, 1:]
        p = 1 - (1 - p_inf) ** nb
        new_state = state.copy()
        new_state[(state == 0) & (draws[t] < p)] = 1
        new_state[(state == 1) & (draws[t] < p_rec)] = 2
        state = new_state
    return np.bincount(state.ravel(), minlength=3)


def langevin_particles(x, v, noise, gamma=0.5, kt=1.0, dt=0.01):
    """Underdamped Langevin in a double well, BAOAB splitting, noise given per step."""
    c1 = np.exp(-gamma * dt)
    c2 = np.sqrt(kt * (1 - c1 * c1))

    def force(x):
        return -4 * x * (x * x - 1)
    f = force(x)
    for t in range(noise.shape[0]):
        v = v + 0.5 * dt * f
        x = x + 0.5 * dt * v
        v = c1 * v + c2 * noise[t]
        x = x + 0.5 * dt * v
        f = force(x)
        v = v + 0.5 * dt * f
    return x, v, np.mean(x > 0)


def cloth_springs(p, v, rest=0.1, k=50.0, dt=1e-3, steps=10):
    """A pinned cloth of structural springs (grid neighbours) under gravity."""
    p, v = p.copy(), v.copy()
    gravity = np.array([0.0, 0.0, -9.81])
    for _ in range(steps):
        f = np.zeros_like(p)
        f += gravity
        for axis in (0, 1):
            d = np.diff(p, axis=axis)
            length = np.sqrt(np.sum(d * d, axis=-1, keepdims=True))
            fs = k * (length - rest) * d / length
            if axis == 0:
                f[:-1] += fs
                f[1:] -= fs
            else:
                f[:, :-1] += fs
                f[:, 1:] -= fs
        v = 0.99 * v + dt * f
        v[0, :] = 0.0                       # the top row is pinned
        p = p + dt * v
    return p


def rigid_body_euler(omega, inertia, dt=1e-3, steps=100):
    """Torque-free Euler equations for many bodies, RK2 midpoint; energy drift."""
    i1, i2, i3 = inertia

    def rhs(w):
        return np.stack([(i2 - i3) / i1 * w[:, 1] * w[:, 2],
                         (i3 - i1) / i2 * w[:, 2] * w[:, 0],
                         (i1 - i2) / i3 * w[:, 0] * w[:, 1]], axis=1)
    e0 = 0.5 * (omega ** 2 @ inertia)
    for _ in range(steps):
        mid = omega + 0.5 * dt * rhs(omega)
        omega = omega + dt * rhs(mid)
    e1 = 0.5 * (omega ** 2 @ inertia)
    return omega, np.max(np.abs(e1 - e0))


# ---------------------------------------------------------------- signal and image


def _blur3(img):
    p = np.pad(img, 1, mode="reflect")
    rows = 0.25 * p[:-2, :] + 0.5 * p[1:-1, :] + 0.25 * p[2:, :]
    return 0.25 * rows[:, :-2] + 0.5 * rows[:, 1:-1] + 0.25 * rows[:, 2:]


def unsharp_iterated(img, amount=0.6, rounds=3):
    """Unsharp masking repeated, clipped to [0, 1] after each round."""
    for _ in range(rounds):
        img = np.clip(img + amount * (img - _blur3(img)), 0.0, 1.0)
    return img


def gradient_direction_bins(img):
    """Central-difference gradients, magnitude, direction quantized to 4 bins, a histogram."""
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, 1:-1] = 0.5 * (img[:, 2:] - img[:, :-2])
    gy[1:-1, :] = 0.5 * (img[2:, :] - img[:-2, :])
    mag = np.hypot(gx, gy)
    ang = np.rad2deg(np.arctan2(gy, gx)) % 180
    bins = (np.round(ang / 45.0) % 4).astype(np.int64)
    hist = np.bincount(bins.ravel(), weights=mag.ravel(), minlength=4)
    return mag, bins, hist / hist.sum()


def integral_box_filter(img, r=3):
    """A box mean through the integral image (cumsum twice) and corner differences."""
    ii = np.zeros((img.shape[0] + 1, img.shape[1] + 1))
    ii[1:, 1:] = img.cumsum(axis=0).cumsum(axis=1)
    rows = np.arange(img.shape[0])
    cols = np.arange(img.shape[1])
    r0 = np.clip(rows - r, 0, img.shape[0])
    r1 = np.clip(rows + r + 1, 0, img.shape[0])
    c0 = np.clip(cols - r, 0, img.shape[1])
    c1 = np.clip(cols + r + 1, 0, img.shape[1])
    s = (ii[r1][:, c1] - ii[r0][:, c1] - ii[r1][:, c0] + ii[r0][:, c0])
    area = (r1 - r0)[:, None] * (c1 - c0)[None, :]
    return s / area


def hysteresis_threshold(mag, low=0.3, high=0.7, max_iter=50):
    """Strong edges grow into weak ones by 8-neighbour dilation until nothing changes."""
    strong = mag >= high
    weak = mag >= low
    edges = strong.copy()
    grown_rounds = 0
    for _ in range(max_iter):
        p = np.pad(edges, 1)
        grown = (p[:-2, :-2] | p[:-2, 1:-1] | p[:-2, 2:] | p[1:-1, :-2] | p[1:-1, 2:]
                 | p[2:, :-2] | p[2:, 1:-1] | p[2:, 2:] | edges) & weak
        if np.array_equal(grown, edges):
            break
        edges = grown
        grown_rounds += 1
    return edges, grown_rounds


def autocorr_fft(x, max_lag=50):
    """Autocorrelation of each row by zero-padded FFT; the first peak after lag 0."""
    n = x.shape[1]
    xc = x - x.mean(axis=1, keepdims=True)
    spec = np.fft.rfft(xc, 2 * n, axis=1)
    ac = np.fft.irfft(spec * np.conj(spec), 2 * n, axis=1)[:, :max_lag]
    ac = ac / ac[:, :1]
    peak = np.argmax(ac[:, 1:], axis=1) + 1
    return ac, peak


# ---------------------------------------------------------------- statistics


class BayesLinear:
    """A Gaussian posterior over weights, updated batch by batch (precision form)."""

    def __init__(self, dim, alpha=1.0, beta=25.0):
        self.prec = alpha * np.eye(dim)
        self.b = np.zeros(dim)
        self.beta = beta

    def update(self, x, y):
        self.prec = self.prec + self.beta * x.T @ x
        self.b = self.b + self.beta * x.T @ y

    def mean_cov(self):
        cov = np.linalg.inv(self.prec)
        return cov @ self.b, cov


def bayes_linear_batches(xs, ys):
    model = BayesLinear(xs.shape[2])
    spreads = []
    for x, y in zip(xs, ys):
        model.update(x, y)
        _, cov = model.mean_cov()
        spreads.append(np.sqrt(np.diag(cov)).max())
    mean, cov = model.mean_cov()
    return mean, cov, spreads


def poisson_mixture_em(counts, lam, pi, iters=20):
    """EM for a mixture of Poissons (log-space responsibilities, log-sum-exp)."""
    log_fact = np.cumsum(np.log(np.arange(1, counts.max() + 1)))
    log_fact = np.concatenate(([0.0], log_fact))[counts]
    for _ in range(iters):
        logp = (counts[:, None] * np.log(lam)[None, :] - lam[None, :]
                - log_fact[:, None] + np.log(pi)[None, :])
        mx = logp.max(axis=1, keepdims=True)
        resp = np.exp(logp - mx)
        resp /= resp.sum(axis=1, keepdims=True)
        nk = resp.sum(axis=0)
        lam = (resp * counts[:, None]).sum(axis=0) / nk
        pi = nk / len(counts)
    return lam, pi


def weighted_quantiles(values, weights, qs):
    """Weighted quantiles of each column by argsort, cumsum and searchsorted."""
    out = np.empty((len(qs), values.shape[1]))
    for j in range(values.shape[1]):
        order = np.argsort(values[:, j])
        v, w = values[order, j], weights[order]
        cw = np.cumsum(w) - 0.5 * w
        cw /= w.sum()
        out[:, j] = np.interp(qs, cw, v)
    return out


def welford_chunks(data, chunk=1000):
    """Streaming mean and variance per column, chunk by chunk (Chan's combination)."""
    n = 0
    mean = np.zeros(data.shape[1])
    m2 = np.zeros(data.shape[1])
    for start in range(0, data.shape[0], chunk):
        block = data[start:start + chunk]
        nb = block.shape[0]
        mb = block.mean(axis=0)
        m2b = ((block - mb) ** 2).sum(axis=0)
        delta = mb - mean
        tot = n + nb
        mean = mean + delta * nb / tot
        m2 = m2 + m2b + delta ** 2 * n * nb / tot
        n = tot
    return mean, m2 / (n - 1)


def permutation_test(a, b, perms):
    """The two-sided p-value of a difference of means over given permutations."""
    pooled = np.concatenate([a, b])
    observed = a.mean() - b.mean()
    shuffled = pooled[perms]                      # (n_perm, n) by fancy indexing
    diffs = shuffled[:, :len(a)].mean(axis=1) - shuffled[:, len(a):].mean(axis=1)
    return observed, (np.sum(np.abs(diffs) >= abs(observed)) + 1) / (len(perms) + 1)


def kde_grid(samples, grid, bandwidth=None):
    """A Gaussian kernel density on a grid, Silverman's bandwidth when none is given."""
    n = samples.shape[0]
    if bandwidth is None:
        iqr = np.subtract(*np.percentile(samples, [75, 25]))
        bandwidth = 0.9 * min(samples.std(), iqr / 1.34) * n ** -0.2
    z = (grid[:, None] - samples[None, :]) / bandwidth
    dens = np.exp(-0.5 * z * z).sum(axis=1) / (n * bandwidth * np.sqrt(2 * np.pi))
    return dens, grid[np.argmax(dens)]


# ---------------------------------------------------------------- optimisation loops


def nesterov_least_squares(a, b, iters=50):
    """Nesterov's accelerated gradient on 1/2 |Ax - b|^2 with step 1/L (L by power)."""
    v = np.ones(a.shape[1])
    for _ in range(10):
        v = a.T @ (a @ v)
        v /= np.linalg.norm(v)
    lip = np.linalg.norm(a.T @ (a @ v))
    x = np.zeros(a.shape[1])
    y = x.copy()
    t = 1.0
    for _ in range(iters):
        x_new = y - (a.T @ (a @ y - b)) / lip
        t_new = 0.5 * (1 + np.sqrt(1 + 4 * t * t))
        y = x_new + (t - 1) / t_new * (x_new - x)
        x, t = x_new, t_new
    return x, 0.5 * np.sum((a @ x - b) ** 2)


def _rosen(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def _rosen_grad(x):
    g = np.zeros_like(x)
    g[:-1] = -400 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
    g[1:] += 200 * (x[1:] - x[:-1] ** 2)
    return g


def bfgs_rosenbrock(x, iters=40):
    """BFGS with an Armijo backtracking line search on the n-D Rosenbrock function."""
    n = x.shape[0]
    h = np.eye(n)
    g = _rosen_grad(x)
    fx = _rosen(x)
    for _ in range(iters):
        p = -h @ g
        step = 1.0
        while _rosen(x + step * p) > fx + 1e-4 * step * (g @ p) and step > 1e-8:
            step *= 0.5
        s = step * p
        x_new = x + s
        g_new = _rosen_grad(x_new)
        yv = g_new - g
        sy = s @ yv
        if sy > 1e-10:
            rho = 1.0 / sy
            eye = np.eye(n)
            h = (eye - rho * np.outer(s, yv)) @ h @ (eye - rho * np.outer(yv, s)) \
                + rho * np.outer(s, s)
        x, g, fx = x_new, g_new, _rosen(x_new)
    return x, fx


def elastic_net_cd(x, y, lam=0.1, alpha=0.5, sweeps=5):
    """Cyclic coordinate descent for the elastic net with a running residual."""
    n, p = x.shape
    beta = np.zeros(p)
    col_sq = (x ** 2).sum(axis=0) / n
    resid = y.copy()
    for _ in range(sweeps):
        for j in range(p):
            rho = x[:, j] @ resid / n + col_sq[j] * beta[j]
            new = np.sign(rho) * max(abs(rho) - lam * alpha, 0.0) / (col_sq[j] + lam * (1 - alpha))
            resid -= x[:, j] * (new - beta[j])
            beta[j] = new
    return beta, resid @ resid / n


def _project_simplex(v):
    u = np.sort(v, axis=1)[:, ::-1]
    css = np.cumsum(u, axis=1) - 1
    ind = np.arange(1, v.shape[1] + 1)
    cond = u - css / ind > 0
    rho = v.shape[1] - 1 - np.argmax(cond[:, ::-1], axis=1)
    theta = css[np.arange(v.shape[0]), rho] / (rho + 1)
    return np.maximum(v - theta[:, None], 0)


def simplex_projected_gradient(c, q, lr=0.1, iters=30):
    """Rows of probability vectors minimizing a quadratic, by projected gradient."""
    w = np.full(c.shape, 1.0 / c.shape[1])
    for _ in range(iters):
        grad = w @ q + c
        w = _project_simplex(w - lr * grad)
    return w, np.einsum("ij,jk,ik->i", w, q, w).mean()


def gauss_newton_expfit(t, y, theta, iters=15):
    """Fit y = a exp(-b t) + c by Gauss-Newton (3x3 normal equations each step)."""
    for _ in range(iters):
        a, b, c = theta
        e = np.exp(-b * t)
        r = y - (a * e + c)
        jac = np.stack([e, -a * t * e, np.ones_like(t)], axis=1)
        step = np.linalg.solve(jac.T @ jac + 1e-9 * np.eye(3), jac.T @ r)
        theta = theta + step
    return theta, np.sum(r * r)


# ---------------------------------------------------------------- the list


def programs(small: bool = False) -> list:
    rng = np.random.default_rng(66)

    def s(big, little):
        return little if small else big

    def r(*shape):
        return rng.random(shape)

    def normal(*shape):
        return rng.standard_normal(shape)

    n2 = s(300, 12)
    n1 = s(200000, 50)
    n_lin = s(400, 12)
    spd = normal(n_lin, n_lin)
    spd = spd @ spd.T / n_lin + np.eye(n_lin)
    dd = normal(n_lin, n_lin) + n_lin * np.eye(n_lin)
    n_mg = s(2 ** 14 + 1, 17)
    mats = normal(s(20000, 6), 3, 3) + 3 * np.eye(3)
    stable = 0.9 * np.linalg.qr(normal(s(150, 6), s(150, 6)))[0]
    n_x, d_x, d_h = s(4000, 20), s(32, 4), s(64, 6)
    n_cars, len_road = s(20000, 30), s(60000, 90)
    tt = np.linspace(0, 4, s(20000, 30))
    n_bayes, d_bayes = s(20000, 20), s(16, 3)
    return [
        # stencils
        ("biharmonic plate step", biharmonic_plate_step, (np.zeros((n2, n2)), r(n2, n2)),
         {"steps": s(5, 2)}),
        ("membrane wave with fancy-indexed sources", membrane_wave_source,
         (np.zeros((n2, n2)), np.zeros((n2, n2)), np.array([n2 // 3, n2 // 2]),
          np.array([n2 // 2, n2 // 3])), {"steps": s(10, 3)}),
        ("abelian sandpile", sandpile_topple, (rng.integers(0, 8, (n2, n2)),),
         {"rounds": s(20, 3)}),
        ("1-D diffusion with concatenated ghosts", diffusion_ghost_concat, (r(n1),),
         {"steps": s(30, 3)}),
        ("grey-level morphological opening", morphological_open, (r(s(400, 10), s(400, 10)),),
         {}),
        # time steppers and ODE solvers
        ("pendulum ensemble velocity Verlet", pendulum_verlet, (normal(n1), np.zeros(n1)),
         {"steps": s(10, 4)}),
        ("SIR on a contact network", network_sir,
         (np.full(n_lin, 0.99), np.full(n_lin, 0.01), (r(n_lin, n_lin) < 0.05) * 1.0),
         {"steps": s(60, 3)}),
        ("Heun with step-size control", heun_adaptive, (normal(s(2000, 20)),), {}),
        ("Robertson kinetics by backward Euler", robertson_backward_euler,
         (np.array([1.0, 0.0, 0.0]),), {"steps": s(80, 4)}),
        ("viscous Burgers pseudo-spectral", burgers_pseudospectral,
         (np.sin(np.linspace(0, 2 * np.pi, s(8192, 32), endpoint=False)),),
         {"steps": s(30, 3)}),
        ("planar three-body RK4", three_body_rk4,
         (np.array([[1.0, 0, 0, 0.5], [-1.0, 0, 0, -0.5], [0, 1.0, -0.5, 0]]),
          np.array([1.0, 1.0, 0.5])), {"steps": s(100, 4)}),
        # iterative linear solvers
        ("conjugate residual", conjugate_residual, (spd, normal(n_lin)), {"iters": s(50, 4)}),
        ("CGNR least squares", cgnr, (normal(2 * n_lin, n_lin), normal(2 * n_lin)),
         {"iters": s(25, 4)}),
        ("1-D multigrid V-cycles", multigrid_vcycle, (np.zeros(n_mg), np.ones(n_mg),
                                                      1.0 / (n_mg - 1)), {"cycles": s(3, 2)}),
        ("Arnoldi Ritz values", arnoldi_ritz, (dd / n_lin, normal(n_lin)), {"m": s(20, 5)}),
        ("Lanczos extreme eigenvalues", lanczos_extremes, (spd, normal(n_lin)),
         {"m": s(50, 5)}),
        ("weighted Jacobi with residual history", weighted_jacobi_history,
         (dd, normal(n_lin)), {"iters": s(60, 4)}),
        # small-matrix linear algebra
        ("closed-form 2x2 symmetric eigenvalues", sym2x2_eigs,
         (normal(n1), normal(n1), normal(n1)), {}),
        ("2-link arm damped least-squares IK", two_link_ik,
         (0.5 + r(s(20, 3), 2),), {"iters": s(30, 3)}),
        ("polar decomposition by Newton", polar_newton, (mats,), {"iters": s(8, 3)}),
        ("matrix exponential scaling and squaring", expm_scaling_squaring,
         (3 * normal(s(120, 6), s(120, 6)) / np.sqrt(s(120, 6)),), {}),
        ("Stein equation fixed point", stein_fixed_point,
         (stable, np.eye(s(150, 6))), {"iters": s(60, 5)}),
        # training steps
        ("RMSprop ReLU MLP", rmsprop_mlp,
         (normal(n_x, d_x), normal(n_x, 1), 0.3 * normal(d_x, d_h), 0.3 * normal(d_h, 1)),
         {"epochs": s(10, 3)}),
        ("1-D conv net by gathered windows", conv1d_train_step,
         (normal(s(256, 6), s(128, 12)), normal(s(256, 6), 1), 0.3 * normal(5, s(16, 3)),
          0.3 * normal(s(16, 3), 1)), {"steps": s(3, 2)}),
        ("Elman RNN truncated BPTT", elman_rnn_bptt,
         (normal(s(20, 4), s(128, 5), s(16, 3)), normal(s(128, 5), 1),
          0.3 * normal(s(16, 3), s(32, 4)), 0.2 * normal(s(32, 4), s(32, 4)),
          0.3 * normal(s(32, 4), 1)), {"epochs": s(3, 2)}),
        ("factorization machine", factorization_machine,
         (r(n_x, d_x), normal(n_x), 0.0, np.zeros(d_x), 0.1 * normal(d_x, 8)),
         {"epochs": s(5, 2)}),
        ("layer-norm GELU MLP with AdamW", layernorm_mlp_adamw,
         (normal(n_x, d_x), normal(n_x, 4), 0.3 * normal(d_x, d_h), 0.3 * normal(d_h, 4)),
         {"steps": s(3, 2)}),
        # simulations
        ("Nagel-Schreckenberg traffic", nagel_schreckenberg,
         (np.sort(rng.choice(len_road, n_cars, replace=False)), np.zeros(n_cars, np.int64),
          r(s(10, 3), n_cars), len_road), {}),
        ("SIR cellular automaton", sir_cellular,
         (np.where(r(n2, n2) < 0.01, 1, 0), r(s(10, 3), n2, n2)), {}),
        ("Langevin particles BAOAB", langevin_particles,
         (normal(s(20000, 20)), np.zeros(s(20000, 20)), normal(s(30, 4), s(20000, 20))), {}),
        ("pinned cloth of springs", cloth_springs,
         (np.stack(list(np.meshgrid(np.arange(s(60, 5)) * 0.1, np.arange(s(60, 5)) * 0.1,
                               indexing="ij")) + [np.zeros((s(60, 5), s(60, 5)))], axis=-1),
          np.zeros((s(60, 5), s(60, 5), 3))), {"steps": s(10, 3)}),
        ("rigid bodies, Euler's equations", rigid_body_euler,
         (normal(s(20000, 20), 3), np.array([1.0, 2.0, 3.0])), {"steps": s(100, 5)}),
        # signal and image processing
        ("unsharp masking, clipped", unsharp_iterated, (r(s(400, 12), s(400, 12)),), {}),
        ("gradient direction histogram", gradient_direction_bins,
         (r(s(400, 12), s(400, 12)),), {}),
        ("integral-image box filter", integral_box_filter, (r(s(400, 12), s(400, 12)),), {}),
        ("hysteresis thresholding", hysteresis_threshold, (_blur3(r(s(400, 16), s(400, 16))),),
         {"low": 0.45, "high": 0.6}),
        ("autocorrelation by FFT", autocorr_fft,
         (np.sin(np.arange(s(2048, 64)) * 0.2)[None, :] + normal(s(64, 3), s(2048, 64)),),
         {"max_lag": s(50, 8)}),
        # statistics
        ("Bayesian linear model by batches", bayes_linear_batches,
         (normal(s(20, 3), n_bayes // 10, d_bayes), normal(s(20, 3), n_bayes // 10)), {}),
        ("Poisson mixture EM", poisson_mixture_em,
         (np.concatenate([rng.poisson(3, n1 // 8), rng.poisson(12, n1 // 8)]),
          np.array([2.0, 8.0]), np.array([0.5, 0.5])), {"iters": s(10, 3)}),
        ("weighted quantiles per column", weighted_quantiles,
         (normal(s(20000, 30), s(8, 3)), r(s(20000, 30)), np.array([0.1, 0.5, 0.9])), {}),
        ("Welford over chunks", welford_chunks, (normal(s(100000, 50), 16),),
         {"chunk": s(5000, 16)}),
        ("permutation test of means", permutation_test,
         (normal(s(200, 10)), 0.3 + normal(s(200, 12)),
          np.argsort(r(s(3000, 20), s(400, 22)), axis=1)), {}),
        ("Gaussian KDE on a grid", kde_grid, (normal(s(5000, 40)), np.linspace(-4, 4, s(400, 20))),
         {}),
        # optimisation loops
        ("Nesterov on least squares", nesterov_least_squares,
         (normal(2 * n_lin, n_lin), normal(2 * n_lin)), {"iters": s(50, 5)}),
        ("BFGS on Rosenbrock", bfgs_rosenbrock, (np.zeros(s(20, 4)),), {"iters": s(40, 5)}),
        ("elastic net by coordinate descent", elastic_net_cd,
         (normal(s(2000, 30), s(40, 5)), normal(s(2000, 30))), {"sweeps": s(5, 2)}),
        ("projected gradient on the simplex", simplex_projected_gradient,
         (normal(s(5000, 10), 8), np.eye(8) + 0.1), {"iters": s(30, 3)}),
        ("Gauss-Newton exponential fit", gauss_newton_expfit,
         (tt, 2.0 * np.exp(-1.3 * tt) + 0.5 + 0.01 * normal(tt.shape[0]),
          np.array([1.0, 1.0, 0.0])), {"iters": s(15, 4)}),
    ]
