"""Scientific kernels as scientists write them in NumPy, for break counts
(``scripts/break_counts.py``, docs/realworld.md) and differential tests
(``test_kernel_programs.py``), issue #19.

Eighty-one kernels, none a copy of the other corpora: explicit time steppers for the heat,
wave, advection, Burgers and shallow-water equations; Jacobi, Gauss-Seidel and SOR
sweeps (vectorized and red-black); conjugate gradients, power iteration and Newton's
method with convergence checks; Runge-Kutta and Verlet integrators that store
trajectories in preallocated arrays; n-body and Lennard-Jones forces; Monte Carlo with
the legacy ``np.random`` functions and with Generators; Ising, random walks and
bootstrap resampling; Mandelbrot, Julia and cellular automata; FFT derivatives,
convolution and a Poisson solve; Gram-Schmidt, Householder, LU with pivoting, Thomas
and Cholesky by hand; splines, quadrature, fits, histograms, densities and filters.
Written before measuring, with the idioms of such code: ``np.copy``, in-place slices,
``np.linalg.norm`` in conditions, a ``verbose=False`` flag that guards progress
prints, ``assert``, and tuples of results. ``PROGRAMS`` lists ``(name, fn, args)`` with
small seeded arguments.

The module imports only NumPy, so the scripts load it from its file
(``realworld_programs.load_module``) and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(2024)


# ---------------------------------------------------------------- diffusion and waves


def heat_1d(u0, alpha=0.1, dx=0.1, dt=0.01, nsteps=50, verbose=False):
    """Explicit FTCS for u_t = alpha u_xx with fixed ends."""
    u = u0.copy()
    r = alpha * dt / dx**2
    assert r <= 0.5, "unstable time step"
    for n in range(nsteps):
        un = u.copy()
        u[1:-1] = un[1:-1] + r * (un[2:] - 2 * un[1:-1] + un[:-2])
        if verbose and n % 10 == 0:
            print(f"step {n}: max {u.max():.4f}")
    return u


def heat_2d(T, kappa=1.0, h=1.0, dt=0.2, steps=40):
    T = np.copy(T)
    for step in range(steps):
        lap = (T[2:, 1:-1] + T[:-2, 1:-1] + T[1:-1, 2:] + T[1:-1, :-2]
               - 4.0 * T[1:-1, 1:-1]) / h**2
        T[1:-1, 1:-1] += kappa * dt * lap
    return T


def heat_1d_implicit(u0, r=0.8, nsteps=20):
    """Backward Euler: a tridiagonal system per step, solved with np.linalg.solve."""
    n = len(u0)
    A = np.diag((1 + 2 * r) * np.ones(n)) - r * np.eye(n, k=1) - r * np.eye(n, k=-1)
    A[0, :] = 0.0
    A[-1, :] = 0.0
    A[0, 0] = A[-1, -1] = 1.0
    u = u0.copy()
    for _ in range(nsteps):
        u = np.linalg.solve(A, u)
    return u


def wave_1d(u0, c=1.0, dx=0.05, dt=0.025, nsteps=60):
    """Leapfrog for u_tt = c^2 u_xx, starting from rest."""
    C2 = (c * dt / dx) ** 2
    u_prev = u0.copy()
    u = u0.copy()
    u[1:-1] = u0[1:-1] + 0.5 * C2 * (u0[2:] - 2 * u0[1:-1] + u0[:-2])
    for n in range(1, nsteps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + C2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
    return u, u_prev


def wave_2d(u, v, c=0.5, nsteps=30):
    """Velocity form: v += c^2 lap(u) dt; u += v dt, periodic."""
    dt = 0.1
    energy = np.zeros(nsteps)
    for k in range(nsteps):
        lap = (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1)
               + np.roll(u, -1, 1) - 4 * u)
        v = v + c**2 * lap * dt
        u = u + v * dt
        energy[k] = 0.5 * np.sum(v**2)
    return u, energy


def reaction_diffusion_1d(a, b, Da=0.2, Db=0.1, f=0.055, k=0.062, steps=40):
    for _ in range(steps):
        lap_a = np.roll(a, 1) - 2 * a + np.roll(a, -1)
        lap_b = np.roll(b, 1) - 2 * b + np.roll(b, -1)
        ab2 = a * b * b
        a = a + (Da * lap_a - ab2 + f * (1 - a))
        b = b + (Db * lap_b + ab2 - (f + k) * b)
    return a, b


# ---------------------------------------------------------------- advection and flows


def advection_upwind(u, c=1.0, dx=0.1, dt=0.05, nsteps=40):
    nu = c * dt / dx
    for _ in range(nsteps):
        u = u - nu * (u - np.roll(u, 1))
    return u


def lax_wendroff(u, a=1.0, dx=0.02, dt=0.01, nsteps=40):
    s = a * dt / dx
    for n in range(nsteps):
        up = np.roll(u, -1)
        um = np.roll(u, 1)
        u = u - 0.5 * s * (up - um) + 0.5 * s**2 * (up - 2 * u + um)
    mass = u.sum() * dx
    return u, mass


def burgers_viscous(u, nu=0.07, dx=0.1, dt=0.01, nt=50):
    un = np.empty_like(u)
    for n in range(nt):
        un[:] = u
        u[1:-1] = (un[1:-1] - un[1:-1] * dt / dx * (un[1:-1] - un[:-2])
                   + nu * dt / dx**2 * (un[2:] - 2 * un[1:-1] + un[:-2]))
        u[0] = un[0] - un[0] * dt / dx * (un[0] - un[-2]) + nu * dt / dx**2 * (
            un[1] - 2 * un[0] + un[-2])
        u[-1] = u[0]
    return u


def shallow_water_1d(h, hu, g=9.81, dx=1.0, dt=0.02, nsteps=30):
    """Lax-Friedrichs for the 1-D shallow-water equations, periodic."""
    for _ in range(nsteps):
        u = hu / h
        F1 = hu
        F2 = hu * u + 0.5 * g * h**2
        h_new = 0.5 * (np.roll(h, 1) + np.roll(h, -1)) - dt / (2 * dx) * (
            np.roll(F1, -1) - np.roll(F1, 1))
        hu_new = 0.5 * (np.roll(hu, 1) + np.roll(hu, -1)) - dt / (2 * dx) * (
            np.roll(F2, -1) - np.roll(F2, 1))
        h, hu = h_new, hu_new
    return h, hu


def cfl_adaptive_advection(u, x, t_end=0.5, cfl=0.8):
    """Upwind with a CFL time step from the velocity field (a while loop over time)."""
    dx = x[1] - x[0]
    t = 0.0
    nsteps = 0
    while t < t_end:
        dt = cfl * dx / np.max(np.abs(u))
        if t + dt > t_end:
            dt = t_end - t
        u = u - dt / dx * u * (u - np.roll(u, 1))
        t += dt
        nsteps += 1
    return u, nsteps


# ---------------------------------------------------------------- relaxation


def jacobi_poisson(f, h=0.1, niter=60):
    u = np.zeros_like(f)
    for it in range(niter):
        u_new = u.copy()
        u_new[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                    + u[1:-1, :-2] - h**2 * f[1:-1, 1:-1])
        u = u_new
    return u


def jacobi_tolerance(f, h=0.1, tol=1e-4, maxit=500):
    u = np.zeros_like(f)
    err = 1.0
    it = 0
    while err > tol and it < maxit:
        u_old = u.copy()
        u[1:-1, 1:-1] = 0.25 * (u_old[2:, 1:-1] + u_old[:-2, 1:-1] + u_old[1:-1, 2:]
                                + u_old[1:-1, :-2] - h**2 * f[1:-1, 1:-1])
        err = np.linalg.norm(u - u_old) / np.linalg.norm(u)
        it += 1
    return u, it


def gauss_seidel_loops(u, f, h=0.25, sweeps=4):
    """Point Gauss-Seidel with explicit loops, on a small grid."""
    n, m = u.shape
    for sweep in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                u[i, j] = 0.25 * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1]
                                  - h * h * f[i, j])
    return u


def sor_red_black(u, f, omega=1.5, h=0.1, nsweeps=30):
    ii, jj = np.indices(u.shape)
    interior = np.zeros(u.shape, dtype=bool)
    interior[1:-1, 1:-1] = True
    red = ((ii + jj) % 2 == 0) & interior
    black = ((ii + jj) % 2 == 1) & interior
    for _ in range(nsweeps):
        for mask in (red, black):
            nb = (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1)
                  + np.roll(u, -1, 1))
            gs = 0.25 * (nb - h * h * f)
            u[mask] = (1 - omega) * u[mask] + omega * gs[mask]
    return u


def sor_vectorized_residual(u, f, omega=1.6, nsweeps=25):
    res = np.zeros(nsweeps)
    for k in range(nsweeps):
        u[1:-1, 1:-1] = (1 - omega) * u[1:-1, 1:-1] + omega * 0.25 * (
            u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - f[1:-1, 1:-1])
        r = f[1:-1, 1:-1] - (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                             - 4 * u[1:-1, 1:-1])
        res[k] = np.sqrt(np.mean(r**2))
    return u, res


# ---------------------------------------------------------------- iterative solvers


def conjugate_gradient(A, b, tol=1e-10, maxit=200):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs_old = r @ r
    it = 0
    while np.sqrt(rs_old) > tol and it < maxit:
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
        it += 1
    return x, it


def conjugate_gradient_fixed(A, b, niter=12):
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    history = np.empty(niter)
    for k in range(niter):
        Ap = np.dot(A, p)
        rr = np.dot(r, r)
        alpha = rr / np.dot(p, Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        beta = np.dot(r, r) / rr
        p = r + beta * p
        history[k] = np.linalg.norm(r)
    return x, history


def power_iteration(A, niter=50):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    for _ in range(niter):
        w = A @ v
        v = w / np.linalg.norm(w)
    lam = v @ A @ v
    return lam, v


def power_iteration_tol(A, tol=1e-9, maxit=1000):
    x = np.ones(A.shape[0])
    lam_old = 0.0
    for k in range(maxit):
        y = A.dot(x)
        lam = np.max(np.abs(y))
        x = y / lam
        if abs(lam - lam_old) < tol:
            break
        lam_old = lam
    return lam, x, k


def inverse_iteration(A, mu=1.5, niter=15):
    n = A.shape[0]
    M = A - mu * np.eye(n)
    x = np.ones(n)
    for _ in range(niter):
        x = np.linalg.solve(M, x)
        x /= np.linalg.norm(x)
    rayleigh = x @ A @ x / (x @ x)
    return rayleigh, x


def newton_system(x0, niter=8):
    """Newton for F(x, y) = (x^2 + y^2 - 4, x y - 1) with np.linalg.solve."""
    x = x0.copy()
    for it in range(niter):
        F = np.array([x[0]**2 + x[1]**2 - 4.0, x[0] * x[1] - 1.0])
        J = np.array([[2 * x[0], 2 * x[1]], [x[1], x[0]]])
        dx = np.linalg.solve(J, -F)
        x = x + dx
    return x, np.linalg.norm(F)


def newton_tolerance(x0, tol=1e-12, maxit=50):
    x = np.array(x0, dtype=float)
    for it in range(maxit):
        F = np.array([np.sin(x[0]) + x[1] - 1.0, x[0] - np.cos(x[1])])
        J = np.array([[np.cos(x[0]), 1.0], [1.0, np.sin(x[1])]])
        step = np.linalg.solve(J, F)
        x -= step
        if np.linalg.norm(step) < tol:
            break
    return x, it


def gradient_descent_quadratic(A, b, lr=0.05, steps=100):
    x = np.zeros(b.shape)
    losses = np.zeros(steps)
    for k in range(steps):
        g = A @ x - b
        x -= lr * g
        losses[k] = 0.5 * x @ A @ x - b @ x
    return x, losses


# ---------------------------------------------------------------- ODE integrators


def rk4_oscillator(y0, omega=2.0, dt=0.01, nsteps=200):
    def f(y):
        return np.array([y[1], -omega**2 * y[0]])

    traj = np.zeros((nsteps + 1, 2))
    traj[0] = y0
    y = y0.copy()
    for n in range(nsteps):
        k1 = f(y)
        k2 = f(y + 0.5 * dt * k1)
        k3 = f(y + 0.5 * dt * k2)
        k4 = f(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[n + 1] = y
    return traj


def lorenz_euler(state, sigma=10.0, rho=28.0, beta=8.0 / 3.0, dt=0.005, n=400):
    xs = np.empty(n + 1)
    ys = np.empty(n + 1)
    zs = np.empty(n + 1)
    xs[0], ys[0], zs[0] = state
    for i in range(n):
        x, y, z = xs[i], ys[i], zs[i]
        xs[i + 1] = x + dt * sigma * (y - x)
        ys[i + 1] = y + dt * (x * (rho - z) - y)
        zs[i + 1] = z + dt * (x * y - beta * z)
    return xs, ys, zs


def lorenz_rk4(u0, dt=0.01, nsteps=150):
    def rhs(u, sigma=10.0, rho=28.0, beta=8 / 3):
        x, y, z = u
        return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])

    out = np.zeros((nsteps, 3))
    u = u0.copy()
    for k in range(nsteps):
        k1 = rhs(u)
        k2 = rhs(u + dt / 2 * k1)
        k3 = rhs(u + dt / 2 * k2)
        k4 = rhs(u + dt * k3)
        u = u + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        out[k] = u
    return out


def lotka_volterra(prey0=10.0, pred0=5.0, a=1.1, b=0.4, c=0.4, d=0.1, dt=0.01, T=10.0):
    n = int(T / dt)
    pop = np.zeros((n, 2))
    pop[0] = prey0, pred0
    for k in range(n - 1):
        x, y = pop[k]
        pop[k + 1, 0] = x + dt * (a * x - b * x * y)
        pop[k + 1, 1] = y + dt * (d * x * y - c * y)
    return pop


def sir_ensemble(beta, gamma=0.1, dt=0.1, nsteps=300):
    """SIR for a vector of infection rates at once (one column per beta)."""
    S = np.full_like(beta, 0.99)
    inf = np.full_like(beta, 0.01)
    R = np.zeros_like(beta)
    peak = inf.copy()
    for _ in range(nsteps):
        new_inf = beta * S * inf * dt
        new_rec = gamma * inf * dt
        S = S - new_inf
        inf = inf + new_inf - new_rec
        R = R + new_rec
        peak = np.maximum(peak, inf)
    return S, inf, R, peak


def damped_pendulum_verlet(theta0, omega0, g=9.81, L=1.0, b=0.2, dt=0.01, nsteps=300):
    theta = np.empty(nsteps)
    omega = np.empty(nsteps)
    theta[0], omega[0] = theta0, omega0
    for i in range(nsteps - 1):
        acc = -g / L * np.sin(theta[i]) - b * omega[i]
        theta[i + 1] = theta[i] + omega[i] * dt + 0.5 * acc * dt**2
        acc_new = -g / L * np.sin(theta[i + 1]) - b * omega[i]
        omega[i + 1] = omega[i] + 0.5 * (acc + acc_new) * dt
    return theta, omega


# ---------------------------------------------------------------- particles


def nbody_verlet(pos, vel, mass, dt=0.01, nsteps=20, eps=0.1):
    def accel(p):
        d = p[np.newaxis, :, :] - p[:, np.newaxis, :]
        r2 = np.sum(d**2, axis=-1) + eps**2
        inv_r3 = r2 ** -1.5
        np.fill_diagonal(inv_r3, 0.0)
        return np.einsum("ij,ijk,j->ik", inv_r3, d, mass)

    a = accel(pos)
    for _ in range(nsteps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accel(pos)
        vel += 0.5 * dt * a
    ke = 0.5 * np.sum(mass[:, None] * vel**2)
    return pos, vel, ke


def lennard_jones(pos, box=5.0, rc=2.5):
    """Forces and energy with the minimum image convention and a cutoff mask."""
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)
    r2 = (d**2).sum(axis=2)
    np.fill_diagonal(r2, np.inf)
    mask = r2 < rc**2
    inv6 = np.where(mask, 1.0 / r2**3, 0.0)
    energy = 0.5 * np.sum(4.0 * (inv6**2 - inv6))
    fmag = np.where(mask, 24.0 * (2 * inv6**2 - inv6) / r2, 0.0)
    forces = np.sum(fmag[:, :, None] * d, axis=1)
    return energy, forces


def gravity_potential(pos, m):
    i, j = np.triu_indices(len(m), k=1)
    r = np.linalg.norm(pos[i] - pos[j], axis=1)
    return -np.sum(m[i] * m[j] / r)


def pairwise_distances_loop(X):
    n = X.shape[0]
    D = np.zeros((n, n))
    for i in range(n):
        D[i, :] = np.sqrt(((X - X[i]) ** 2).sum(axis=1))
    return D


def molecular_dynamics_box(pos, vel, box=4.0, dt=0.005, nsteps=10):
    """Soft repulsion, velocity Verlet, reflecting walls."""
    def forces(p):
        d = p[:, None, :] - p[None, :, :]
        r = np.sqrt((d**2).sum(-1))
        np.fill_diagonal(r, 1.0)
        f = np.where(r < 1.0, (1.0 - r) / r, 0.0)
        np.fill_diagonal(f, 0.0)
        return (f[:, :, None] * d).sum(1)

    F = forces(pos)
    for step in range(nsteps):
        vel = vel + 0.5 * dt * F
        pos = pos + dt * vel
        out = (pos < 0) | (pos > box)
        vel[out] *= -1
        pos = np.clip(pos, 0, box)
        F = forces(pos)
        vel = vel + 0.5 * dt * F
    return pos, vel


# ---------------------------------------------------------------- Monte Carlo


def monte_carlo_pi(n=20000, seed=42):
    np.random.seed(seed)
    x = np.random.rand(n)
    y = np.random.rand(n)
    inside = (x**2 + y**2) <= 1.0
    return 4.0 * inside.sum() / n


def monte_carlo_integral(f_scale, n=10000, seed=7):
    """The integral of exp(-x^2) on [0, 2] with uniform samples and its error."""
    np.random.seed(seed)
    x = np.random.uniform(0.0, 2.0, size=n)
    fx = f_scale * np.exp(-x**2)
    est = 2.0 * fx.mean()
    err = 2.0 * fx.std() / np.sqrt(n)
    return est, err


def monte_carlo_generator(rng, n=5000):
    pts = rng.random((n, 3))
    inside = np.sum(pts**2, axis=1) < 1.0
    return 8.0 * np.mean(inside)


def mc_volume_rng(dim=4, n=4000, seed=2024):
    """The volume of the unit ball in ``dim`` dimensions, with a Generator made here."""
    rng = np.random.default_rng(seed)
    pts = rng.uniform(-1.0, 1.0, size=(n, dim))
    inside = np.einsum("ij,ij->i", pts, pts) <= 1.0
    frac = inside.mean()
    return 2.0**dim * frac, 2.0**dim * np.sqrt(frac * (1 - frac) / n)


def langevin_particles(x0, gamma=0.5, kT=1.0, dt=0.01, nsteps=100, seed=6):
    """Overdamped Langevin in a harmonic well, noise from a seeded Generator."""
    rng = np.random.default_rng(seed)
    x = x0.copy()
    noise_scale = np.sqrt(2 * kT * dt / gamma)
    msd = np.zeros(nsteps)
    for k in range(nsteps):
        x += -x / gamma * dt + noise_scale * rng.standard_normal(x.shape)
        msd[k] = np.mean((x - x0) ** 2)
    return x, msd


def random_walk_1d(nsteps=500, nwalkers=50, seed=1):
    np.random.seed(seed)
    steps = np.random.choice([-1, 1], size=(nwalkers, nsteps))
    paths = np.cumsum(steps, axis=1)
    msd = np.mean(paths.astype(float)**2, axis=0)
    return paths[:, -1], msd


def random_walk_2d(n=300, seed=3, step=0.5):
    np.random.seed(seed)
    pos = np.zeros((n + 1, 2))
    for i in range(n):
        theta = 2 * np.pi * np.random.random()
        pos[i + 1] = pos[i] + step * np.array([np.cos(theta), np.sin(theta)])
    return pos, np.linalg.norm(pos[-1])


def brownian_paths(npaths=20, nsteps=100, T=1.0, seed=11):
    np.random.seed(seed)
    dt = T / nsteps
    dW = np.random.normal(0.0, np.sqrt(dt), size=(npaths, nsteps))
    W = np.zeros((npaths, nsteps + 1))
    W[:, 1:] = np.cumsum(dW, axis=1)
    return W, W[:, -1].var()


def gbm_option_price(S0=100.0, K=105.0, r=0.05, sigma=0.2, T=1.0, n=20000, seed=5):
    """A European call by Monte Carlo under geometric Brownian motion."""
    np.random.seed(seed)
    z = np.random.randn(n)
    ST = S0 * np.exp((r - 0.5 * sigma**2) * T + sigma * np.sqrt(T) * z)
    payoff = np.maximum(ST - K, 0.0)
    price = np.exp(-r * T) * payoff.mean()
    stderr = np.exp(-r * T) * payoff.std(ddof=1) / np.sqrt(n)
    return price, stderr


def ising_checkerboard(spins, beta=0.44, sweeps=20, seed=0):
    np.random.seed(seed)
    L = spins.shape[0]
    ii, jj = np.indices((L, L))
    parity = (ii + jj) % 2
    mags = np.zeros(sweeps)
    for s in range(sweeps):
        for color in (0, 1):
            nb = (np.roll(spins, 1, 0) + np.roll(spins, -1, 0) + np.roll(spins, 1, 1)
                  + np.roll(spins, -1, 1))
            dE = 2 * spins * nb
            accept = np.random.rand(L, L) < np.exp(-beta * dE)
            flip = accept & (parity == color)
            spins[flip] *= -1
        mags[s] = spins.mean()
    return spins, mags


def ising_single_spin(spins, beta=0.5, nsteps=200, seed=2):
    np.random.seed(seed)
    L = spins.shape[0]
    for _ in range(nsteps):
        i, j = np.random.randint(0, L, size=2)
        nb = (spins[(i + 1) % L, j] + spins[i - 1, j] + spins[i, (j + 1) % L]
              + spins[i, j - 1])
        dE = 2 * spins[i, j] * nb
        if dE <= 0 or np.random.rand() < np.exp(-beta * dE):
            spins[i, j] = -spins[i, j]
    return spins


def bootstrap_ci(data, nboot=500, seed=8):
    np.random.seed(seed)
    n = len(data)
    means = np.empty(nboot)
    for b in range(nboot):
        idx = np.random.randint(0, n, n)
        means[b] = data[idx].mean()
    lo, hi = np.percentile(means, [2.5, 97.5])
    return data.mean(), lo, hi


def bootstrap_vectorized(x, y, nboot=400, seed=9):
    """Bootstrap of a correlation coefficient, all resamples at once."""
    np.random.seed(seed)
    n = x.size
    idx = np.random.randint(0, n, size=(nboot, n))
    xs, ys = x[idx], y[idx]
    xc = xs - xs.mean(axis=1, keepdims=True)
    yc = ys - ys.mean(axis=1, keepdims=True)
    r = (xc * yc).sum(1) / np.sqrt((xc**2).sum(1) * (yc**2).sum(1))
    return r.mean(), r.std()


def permutation_test(a, b, nperm=300, seed=4):
    np.random.seed(seed)
    observed = a.mean() - b.mean()
    pooled = np.concatenate([a, b])
    count = 0
    for _ in range(nperm):
        np.random.shuffle(pooled)
        diff = pooled[:len(a)].mean() - pooled[len(a):].mean()
        count += abs(diff) >= abs(observed)
    return observed, count / nperm


def metropolis_gaussian(nsamples=2000, step=0.8, seed=12):
    """Random-walk Metropolis for a standard normal, vectorized proposal draws."""
    np.random.seed(seed)
    proposals = np.random.normal(0, step, nsamples)
    u = np.random.uniform(size=nsamples)
    x = 0.0
    chain = np.empty(nsamples)
    for i in range(nsamples):
        y = x + proposals[i]
        if np.log(u[i]) < 0.5 * (x * x - y * y):
            x = y
        chain[i] = x
    return chain.mean(), chain.var()


def percolation(p=0.59, L=20, trials=10, seed=13):
    np.random.seed(seed)
    fractions = np.zeros(trials)
    for t in range(trials):
        grid = np.random.rand(L, L) < p
        fractions[t] = grid.mean()
    return fractions


# ---------------------------------------------------------------- fractals and automata


def mandelbrot(xmin=-2.0, xmax=0.5, ymin=-1.25, ymax=1.25, n=60, maxiter=40):
    x = np.linspace(xmin, xmax, n)
    y = np.linspace(ymin, ymax, n)
    c = x[np.newaxis, :] + 1j * y[:, np.newaxis]
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=int)
    for k in range(maxiter):
        mask = np.abs(z) <= 2.0
        z[mask] = z[mask] ** 2 + c[mask]
        counts[mask] += 1
    return counts


def julia_escape(c=-0.8 + 0.156j, n=50, maxiter=30):
    y, x = np.ogrid[-1.5:1.5:n * 1j, -1.5:1.5:n * 1j]
    z = x + 1j * y
    escape = np.full(z.shape, maxiter, dtype=np.int32)
    for i in range(maxiter):
        z = np.where(np.abs(z) <= 2, z * z + c, z)
        newly = (np.abs(z) > 2) & (escape == maxiter)
        escape[newly] = i
    return escape


def game_of_life(board, generations=15):
    for _ in range(generations):
        neighbours = sum(np.roll(np.roll(board, i, 0), j, 1)
                         for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        board = (neighbours == 3) | (board & (neighbours == 2))
    return board


def elementary_ca(rule=30, width=41, steps=20):
    rule_bits = np.array([(rule >> i) & 1 for i in range(8)], dtype=np.uint8)
    cells = np.zeros((steps, width), dtype=np.uint8)
    cells[0, width // 2] = 1
    for t in range(1, steps):
        left = np.roll(cells[t - 1], 1)
        right = np.roll(cells[t - 1], -1)
        idx = 4 * left + 2 * cells[t - 1] + right
        cells[t] = rule_bits[idx]
    return cells


def forest_fire(grid, p_grow=0.05, p_fire=0.001, steps=10, seed=21):
    """0 empty, 1 tree, 2 burning."""
    np.random.seed(seed)
    for _ in range(steps):
        burning = grid == 2
        near_fire = (np.roll(burning, 1, 0) | np.roll(burning, -1, 0)
                     | np.roll(burning, 1, 1) | np.roll(burning, -1, 1))
        new = grid.copy()
        new[burning] = 0
        trees = grid == 1
        ignite = trees & (near_fire | (np.random.random(grid.shape) < p_fire))
        new[ignite] = 2
        grow = (grid == 0) & (np.random.random(grid.shape) < p_grow)
        new[grow] = 1
        grid = new
    return grid


# ---------------------------------------------------------------- spectral methods


def spectral_derivative(n=64, L=2 * np.pi):
    x = np.linspace(0, L, n, endpoint=False)
    f = np.sin(3 * x) * np.exp(np.cos(x))
    k = 2 * np.pi * np.fft.rfftfreq(n, d=L / n)
    df = np.fft.irfft(1j * k * np.fft.rfft(f), n=n)
    exact = np.exp(np.cos(x)) * (3 * np.cos(3 * x) - np.sin(x) * np.sin(3 * x))
    return df, np.max(np.abs(df - exact))


def fft_convolve(signal, kernel):
    n = len(signal) + len(kernel) - 1
    nfft = 1 << (n - 1).bit_length()
    S = np.fft.rfft(signal, nfft)
    K = np.fft.rfft(kernel, nfft)
    return np.fft.irfft(S * K, nfft)[:n]


def poisson_fft_periodic(f, L=1.0):
    n = f.shape[0]
    k = 2 * np.pi * np.fft.fftfreq(n, d=L / n)
    kx, ky = np.meshgrid(k, k, indexing="ij")
    k2 = kx**2 + ky**2
    k2[0, 0] = 1.0
    fhat = np.fft.fft2(f)
    uhat = -fhat / k2
    uhat[0, 0] = 0.0
    return np.real(np.fft.ifft2(uhat))


def heat_spectral(u0, nu=0.01, t=0.5):
    n = u0.size
    k = np.fft.fftfreq(n) * n
    uh = np.fft.fft(u0) * np.exp(-nu * k**2 * t)
    return np.fft.ifft(uh).real


def power_spectrum(x, fs=100.0):
    n = len(x)
    window = np.hanning(n)
    X = np.fft.rfft((x - x.mean()) * window)
    psd = np.abs(X) ** 2 / (fs * np.sum(window**2))
    psd[1:-1] *= 2
    freqs = np.fft.rfftfreq(n, 1 / fs)
    return freqs, psd, freqs[np.argmax(psd)]


def autocorrelation_fft(x):
    n = len(x)
    x = x - np.mean(x)
    f = np.fft.fft(x, n=2 * n)
    acf = np.fft.ifft(f * np.conjugate(f))[:n].real
    return acf / acf[0]


# ---------------------------------------------------------------- linear algebra by hand


def gram_schmidt(A):
    m, n = A.shape
    Q = np.zeros((m, n))
    R = np.zeros((n, n))
    for j in range(n):
        v = A[:, j].copy()
        for i in range(j):
            R[i, j] = Q[:, i] @ A[:, j]
            v -= R[i, j] * Q[:, i]
        R[j, j] = np.linalg.norm(v)
        Q[:, j] = v / R[j, j]
    return Q, R


def householder_qr(A):
    m, n = A.shape
    R = A.astype(float).copy()
    Q = np.eye(m)
    for k in range(n):
        x = R[k:, k]
        e = np.zeros_like(x)
        e[0] = np.copysign(np.linalg.norm(x), x[0])
        v = x + e
        v = v / np.linalg.norm(v)
        R[k:, :] -= 2.0 * np.outer(v, v @ R[k:, :])
        Q[:, k:] -= 2.0 * np.outer(Q[:, k:] @ v, v)
    return Q, np.triu(R)


def lu_partial_pivoting(A):
    n = A.shape[0]
    U = A.copy()
    L = np.eye(n)
    P = np.arange(n)
    for k in range(n - 1):
        p = np.argmax(np.abs(U[k:, k])) + k
        if p != k:
            U[[k, p]] = U[[p, k]]
            P[[k, p]] = P[[p, k]]
            L[[k, p], :k] = L[[p, k], :k]
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    return P, L, U


def thomas_solver(a, b, c, d):
    """Tridiagonal solve: a sub-, b main, c super-diagonal."""
    n = len(d)
    cp = np.zeros(n - 1)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / denom
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / denom
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def cholesky_by_hand(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        s = A[j, j] - np.dot(L[j, :j], L[j, :j])
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            L[i, j] = (A[i, j] - np.dot(L[i, :j], L[j, :j])) / L[j, j]
    return L


def back_substitution(U, b):
    n = len(b)
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


def natural_cubic_spline(x, y):
    """The second derivatives M of a natural cubic spline, and its values halfway."""
    n = len(x)
    h = np.diff(x)
    A = np.zeros((n, n))
    rhs = np.zeros(n)
    A[0, 0] = A[-1, -1] = 1.0
    for i in range(1, n - 1):
        A[i, i - 1] = h[i - 1]
        A[i, i] = 2 * (h[i - 1] + h[i])
        A[i, i + 1] = h[i]
        rhs[i] = 6 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
    M = np.linalg.solve(A, rhs)
    mid = 0.5 * (y[:-1] + y[1:]) - h**2 / 16 * (M[:-1] + M[1:])
    return M, mid


# ---------------------------------------------------------------- quadrature and fits


def trapezoid_simpson(a=0.0, b=np.pi, n=64):
    x = np.linspace(a, b, n + 1)
    f = np.sin(x) ** 2
    h = (b - a) / n
    trap = h * (0.5 * f[0] + f[1:-1].sum() + 0.5 * f[-1])
    simp = h / 3 * (f[0] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum() + f[-1])
    return trap, simp, np.trapezoid(f, x)


def romberg_table(a=0.0, b=1.0, levels=5):
    R = np.zeros((levels, levels))
    for i in range(levels):
        n = 2**i
        x = np.linspace(a, b, n + 1)
        fx = 4.0 / (1.0 + x**2)
        R[i, 0] = (b - a) / n * (fx.sum() - 0.5 * (fx[0] + fx[-1]))
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4**j - 1)
    return R


def least_squares_fit(t, y):
    A = np.vstack([np.ones_like(t), t, t**2]).T
    coef, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    yfit = A @ coef
    r2 = 1 - np.sum((y - yfit) ** 2) / np.sum((y - y.mean()) ** 2)
    return coef, r2


def polyfit_with_errors(x, y, deg=3):
    p = np.polyfit(x, y, deg)
    resid = y - np.polyval(p, x)
    sigma = np.sqrt(np.sum(resid**2) / (len(x) - deg - 1))
    dp = np.polyder(p)
    return p, sigma, np.polyval(dp, x[len(x) // 2])


def exponential_fit_loglinear(t, counts):
    ok = counts > 0
    slope, intercept = np.polyfit(t[ok], np.log(counts[ok]), 1)
    half_life = np.log(2) / -slope
    return np.exp(intercept), slope, half_life


# ---------------------------------------------------------------- statistics and signals


def histogram_density(samples, bins=20):
    counts, edges = np.histogram(samples, bins=bins, density=True)
    centers = 0.5 * (edges[1:] + edges[:-1])
    mode = centers[np.argmax(counts)]
    return counts, centers, mode


def kde_gaussian(samples, grid, bw=None):
    n = samples.size
    if bw is None:
        bw = 1.06 * samples.std() * n ** (-1 / 5)
    u = (grid[:, None] - samples[None, :]) / bw
    dens = np.exp(-0.5 * u**2).sum(axis=1) / (n * bw * np.sqrt(2 * np.pi))
    return dens


def savgol_smooth(y, window=7, order=2):
    half = window // 2
    k = np.arange(-half, half + 1)
    V = np.vander(k, order + 1, increasing=True)
    coeffs = np.linalg.pinv(V)[0]
    padded = np.concatenate([np.full(half, y[0]), y, np.full(half, y[-1])])
    return np.convolve(padded, coeffs[::-1], mode="valid")


def moving_average_filters(x, w=5):
    box = np.ones(w) / w
    smooth = np.convolve(x, box, mode="same")
    cs = np.cumsum(np.insert(x, 0, 0.0))
    running = (cs[w:] - cs[:-w]) / w
    return smooth, running


def binned_statistics(x, y, nbins=10):
    edges = np.linspace(x.min(), x.max(), nbins + 1)
    which = np.clip(np.digitize(x, edges) - 1, 0, nbins - 1)
    sums = np.bincount(which, weights=y, minlength=nbins)
    counts = np.bincount(which, minlength=nbins)
    means = sums / np.maximum(counts, 1)
    return edges, means, counts


def radial_profile(image):
    ny, nx = image.shape
    y, x = np.indices(image.shape)
    r = np.hypot(x - nx / 2, y - ny / 2).astype(int)
    tbin = np.bincount(r.ravel(), image.ravel())
    nr = np.bincount(r.ravel())
    return tbin / np.maximum(nr, 1)


def image_gradient_magnitude(img):
    gy, gx = np.gradient(img)
    mag = np.hypot(gx, gy)
    angle = np.arctan2(gy, gx)
    return mag, angle, mag > mag.mean() + 2 * mag.std()


# ---------------------------------------------------------------- the corpus


def _grid(n, m=None):
    m = n if m is None else m
    return _rng.random((n, m))


def _spd(n):
    M = _rng.normal(size=(n, n))
    return M @ M.T + n * np.eye(n)


def _tridiag(n):
    return (_rng.uniform(-1, 0, n - 1), _rng.uniform(4, 5, n), _rng.uniform(-1, 0, n - 1),
            _rng.normal(size=n))


_x1 = np.linspace(0, 1, 41)
_bump = np.exp(-100 * (_x1 - 0.5) ** 2)
_t = np.linspace(0, 4, 30)

PROGRAMS = [
    ("heat_1d", heat_1d, (_bump.copy(),)),
    ("heat_2d", heat_2d, (_grid(20),)),
    ("heat_1d_implicit", heat_1d_implicit, (_bump.copy(),)),
    ("wave_1d", wave_1d, (np.sin(np.pi * _x1),)),
    ("wave_2d", wave_2d, (_grid(16), np.zeros((16, 16)))),
    ("reaction_diffusion_1d", reaction_diffusion_1d,
     (np.ones(50), np.where(np.abs(np.arange(50) - 25) < 4, 0.5, 0.0))),
    ("advection_upwind", advection_upwind, (_bump.copy(),)),
    ("lax_wendroff", lax_wendroff, (_bump.copy(),)),
    ("burgers_viscous", burgers_viscous, (1.0 + _bump,)),
    ("shallow_water_1d", shallow_water_1d, (1.0 + 0.1 * _bump, np.zeros(41))),
    ("cfl_adaptive_advection", cfl_adaptive_advection, (0.5 + _bump, _x1)),
    ("jacobi_poisson", jacobi_poisson, (_grid(18),)),
    ("jacobi_tolerance", jacobi_tolerance, (_grid(12),)),
    ("gauss_seidel_loops", gauss_seidel_loops, (np.zeros((6, 6)), _grid(6))),
    ("sor_red_black", sor_red_black, (np.zeros((14, 14)), _grid(14))),
    ("sor_vectorized_residual", sor_vectorized_residual, (np.zeros((16, 16)), _grid(16))),
    ("conjugate_gradient", conjugate_gradient, (_spd(10), _rng.normal(size=10))),
    ("conjugate_gradient_fixed", conjugate_gradient_fixed, (_spd(12), _rng.normal(size=12))),
    ("power_iteration", power_iteration, (_spd(8),)),
    ("power_iteration_tol", power_iteration_tol, (_spd(6),)),
    ("inverse_iteration", inverse_iteration, (_spd(6),)),
    ("newton_system", newton_system, (np.array([2.0, 0.5]),)),
    ("newton_tolerance", newton_tolerance, ([0.5, 0.5],)),
    ("gradient_descent_quadratic", gradient_descent_quadratic,
     (_spd(5) / 10, _rng.normal(size=5))),
    ("rk4_oscillator", rk4_oscillator, (np.array([1.0, 0.0]),)),
    ("lorenz_euler", lorenz_euler, ((1.0, 1.0, 1.0),)),
    ("lorenz_rk4", lorenz_rk4, (np.array([1.0, 0.0, 0.5]),)),
    ("lotka_volterra", lotka_volterra, ()),
    ("sir_ensemble", sir_ensemble, (np.linspace(0.2, 0.5, 8),)),
    ("damped_pendulum_verlet", damped_pendulum_verlet, (1.0, 0.0)),
    ("nbody_verlet", nbody_verlet,
     (_rng.normal(size=(8, 3)), np.zeros((8, 3)), _rng.uniform(0.5, 1.5, 8))),
    ("lennard_jones", lennard_jones, (_rng.uniform(0, 5, size=(12, 3)),)),
    ("gravity_potential", gravity_potential, (_rng.normal(size=(10, 3)), np.ones(10))),
    ("pairwise_distances_loop", pairwise_distances_loop, (_rng.normal(size=(12, 3)),)),
    ("molecular_dynamics_box", molecular_dynamics_box,
     (_rng.uniform(0, 4, size=(10, 2)), _rng.normal(size=(10, 2)))),
    ("monte_carlo_pi", monte_carlo_pi, ()),
    ("monte_carlo_integral", monte_carlo_integral, (1.0,)),
    ("monte_carlo_generator", monte_carlo_generator, (np.random.default_rng(17),)),
    ("mc_volume_rng", mc_volume_rng, ()),
    ("langevin_particles", langevin_particles, (_rng.normal(size=(20, 2)),)),
    ("random_walk_1d", random_walk_1d, ()),
    ("random_walk_2d", random_walk_2d, ()),
    ("brownian_paths", brownian_paths, ()),
    ("gbm_option_price", gbm_option_price, ()),
    ("ising_checkerboard", ising_checkerboard,
     (np.where(_rng.random((12, 12)) < 0.5, -1, 1),)),
    ("ising_single_spin", ising_single_spin, (np.where(_rng.random((8, 8)) < 0.5, -1, 1),)),
    ("bootstrap_ci", bootstrap_ci, (_rng.normal(5.0, 2.0, 40),)),
    ("bootstrap_vectorized", bootstrap_vectorized,
     (_rng.normal(size=30), _rng.normal(size=30))),
    ("permutation_test", permutation_test, (_rng.normal(0.3, 1, 20), _rng.normal(0, 1, 25))),
    ("metropolis_gaussian", metropolis_gaussian, ()),
    ("percolation", percolation, ()),
    ("mandelbrot", mandelbrot, ()),
    ("julia_escape", julia_escape, ()),
    ("game_of_life", game_of_life, (_rng.random((16, 16)) < 0.3,)),
    ("elementary_ca", elementary_ca, ()),
    ("forest_fire", forest_fire, (_rng.integers(0, 3, size=(16, 16)),)),
    ("spectral_derivative", spectral_derivative, ()),
    ("fft_convolve", fft_convolve, (_rng.normal(size=50), np.hanning(9))),
    ("poisson_fft_periodic", poisson_fft_periodic, (_grid(16) - 0.5,)),
    ("heat_spectral", heat_spectral, (_bump.copy(),)),
    ("power_spectrum", power_spectrum,
     (np.sin(2 * np.pi * 12 * np.arange(128) / 100) + 0.3 * _rng.normal(size=128),)),
    ("autocorrelation_fft", autocorrelation_fft, (np.cumsum(_rng.normal(size=64)),)),
    ("gram_schmidt", gram_schmidt, (_rng.normal(size=(8, 5)),)),
    ("householder_qr", householder_qr, (_rng.normal(size=(7, 5)),)),
    ("lu_partial_pivoting", lu_partial_pivoting, (_rng.normal(size=(6, 6)),)),
    ("thomas_solver", thomas_solver, _tridiag(12)),
    ("cholesky_by_hand", cholesky_by_hand, (_spd(6),)),
    ("back_substitution", back_substitution,
     (np.triu(_rng.normal(size=(9, 9))) + 4 * np.eye(9), _rng.normal(size=9))),
    ("natural_cubic_spline", natural_cubic_spline, (_t, np.sin(_t))),
    ("trapezoid_simpson", trapezoid_simpson, ()),
    ("romberg_table", romberg_table, ()),
    ("least_squares_fit", least_squares_fit, (_t, 1 + 0.5 * _t - 0.2 * _t**2
                                              + 0.05 * _rng.normal(size=30))),
    ("polyfit_with_errors", polyfit_with_errors, (_t, np.cos(_t) + 0.01 * _rng.normal(size=30))),
    ("exponential_fit_loglinear", exponential_fit_loglinear,
     (_t, np.round(100 * np.exp(-0.7 * _t)))),
    ("histogram_density", histogram_density, (_rng.normal(size=300),)),
    ("kde_gaussian", kde_gaussian, (_rng.normal(size=80), np.linspace(-3, 3, 25))),
    ("savgol_smooth", savgol_smooth, (np.sin(_x1 * 6) + 0.1 * _rng.normal(size=41),)),
    ("moving_average_filters", moving_average_filters, (_rng.normal(size=40),)),
    ("binned_statistics", binned_statistics, (_rng.uniform(0, 1, 100), _rng.normal(size=100))),
    ("radial_profile", radial_profile, (_grid(15),)),
    ("image_gradient_magnitude", image_gradient_magnitude, (_grid(14),)),
]
