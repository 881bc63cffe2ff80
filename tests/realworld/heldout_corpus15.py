"""A fifteenth corpus: scientific kernels as public repositories and textbooks write
them, written before any of it was run under dynamo (issue #19, standing in for the
held-out suite of scientific kernels), for break counts (``scripts/break_counts.py``,
docs/realworld.md) and differential tests (``test_heldout_corpus15.py``). This half:
stencils (heat, wave, Laplace, upwind advection, Gray-Scott, Game of Life, a stability
check), time steppers and ODE integrators (Euler, RK4 on Lorenz, Lotka-Volterra,
velocity Verlet, a pendulum, an adaptive step, a leapfrog orbit), iterative solvers
(Jacobi, Gauss-Seidel, SOR, conjugate gradient, power iteration, Newton, bisection)
and particle codes (n-body forces and energy, Lennard-Jones, particles in a box, a
cell list, minimum images); ``heldout_corpus15_signal.py`` holds the other half.
For example ``PROGRAMS[0]`` is ``("heat_1d_explicit", heat_1d_explicit, (_U, 0.2, 5))``.

``PROGRAMS`` lists ``(name, fn, args)`` (small, seeded); ``EDGE_ARGS`` maps a name to
more argument sets of the same shapes, values redrawn. The module imports only NumPy and
the standard library: the scripts load it from its file, the tests by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(15015)

# ================================================================ stencils


def heat_1d_explicit(u, r, steps):
    u = u.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def wave_1d(u0, c, steps):
    u_prev = u0.copy()
    u = u0.copy()
    for _ in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + c ** 2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
    return u


def laplace_jacobi_2d(grid, iters):
    g = grid.copy()
    for _ in range(iters):
        g[1:-1, 1:-1] = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
    return g


def upwind_advection(u, c, steps):
    u = u.copy()
    for _ in range(steps):
        if c > 0:
            u[1:] = u[1:] - c * (u[1:] - u[:-1])
        else:
            u[:-1] = u[:-1] - c * (u[1:] - u[:-1])
    return u


def gray_scott_step(U, V, Du=0.16, Dv=0.08, F=0.035, k=0.065):
    def lap(Z):
        return (np.roll(Z, 1, 0) + np.roll(Z, -1, 0) + np.roll(Z, 1, 1)
                + np.roll(Z, -1, 1) - 4 * Z)
    UVV = U * V * V
    U2 = U + Du * lap(U) - UVV + F * (1 - U)
    V2 = V + Dv * lap(V) + UVV - (F + k) * V
    return U2, V2


def game_of_life(board, steps):
    b = board.copy()
    for _ in range(steps):
        n = sum(np.roll(np.roll(b, i, 0), j, 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        b = ((n == 3) | ((b == 1) & (n == 2))).astype(int)
    return b


def heat_2d_neumann(T, alpha, steps):
    T = T.copy()
    for _ in range(steps):
        Tp = np.pad(T, 1, mode="edge")
        T = T + alpha * (Tp[:-2, 1:-1] + Tp[2:, 1:-1] + Tp[1:-1, :-2] + Tp[1:-1, 2:] - 4 * T)
    return T


def max_principle_check(u, r, steps):
    u = u.copy()
    lo, hi = u.min(), u.max()
    for _ in range(steps):
        u[1:-1] += r * (u[2:] - 2 * u[1:-1] + u[:-2])
        if u.min() < lo - 1e-12 or u.max() > hi + 1e-12:
            raise RuntimeError("scheme unstable")
    return u


# ================================================================ ODE integrators


def euler_decay(y0, k, dt, n):
    y = np.empty(n + 1)
    y[0] = y0
    for i in range(n):
        y[i + 1] = y[i] - dt * k * y[i]
    return y


def rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def lorenz_rk4(state, n, h=0.01, sigma=10.0, rho=28.0, beta=8.0 / 3.0):
    def f(t, s):
        x, y, z = s
        return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])
    traj = [state]
    t = 0.0
    for _ in range(n):
        state = rk4_step(f, t, state, h)
        t += h
        traj.append(state)
    return np.array(traj)


def lotka_volterra_euler(x0, y0, a, b, c, d, dt, n):
    xs = np.zeros(n)
    ys = np.zeros(n)
    x, y = x0, y0
    for i in range(n):
        xs[i], ys[i] = x, y
        dx = a * x - b * x * y
        dy = d * x * y - c * y
        x, y = x + dt * dx, y + dt * dy
    return xs, ys


def velocity_verlet_spring(x, v, k, m, dt, n):
    a = -k / m * x
    energy = []
    for _ in range(n):
        x = x + v * dt + 0.5 * a * dt ** 2
        a_new = -k / m * x
        v = v + 0.5 * (a + a_new) * dt
        a = a_new
        energy.append(0.5 * m * v ** 2 + 0.5 * k * x ** 2)
    return x, v, np.array(energy)


def pendulum_semi_implicit(theta, omega, g, L, dt, n):
    for _ in range(n):
        omega = omega - g / L * np.sin(theta) * dt
        theta = theta + omega * dt
    return theta, omega


def adaptive_euler(y0, t_end, tol):
    t, y, h = 0.0, y0, 0.1
    steps = 0
    while t < t_end:
        h = min(h, t_end - t)
        y_full = y + h * (-2.0 * y)
        y_half = y + h / 2 * (-2.0 * y)
        y_half = y_half + h / 2 * (-2.0 * y_half)
        err = abs(y_half - y_full)
        if err < tol:
            t += h
            y = y_half
            steps += 1
            h *= 1.5
        else:
            h /= 2
    return y, steps


def leapfrog_orbit(pos, vel, dt, n):
    pos = pos.copy()
    vel = vel.copy()
    for _ in range(n):
        r = np.linalg.norm(pos)
        vel -= 0.5 * dt * pos / r ** 3
        pos += dt * vel
        r = np.linalg.norm(pos)
        vel -= 0.5 * dt * pos / r ** 3
    return pos, vel


# ================================================================ iterative solvers


def jacobi_solve(A, b, iters=25):
    x = np.zeros_like(b)
    D = np.diag(A)
    R = A - np.diagflat(D)
    for _ in range(iters):
        x = (b - R @ x) / D
    return x


def gauss_seidel(A, b, iters=10):
    n = len(b)
    x = np.zeros(n)
    for _ in range(iters):
        for i in range(n):
            s = A[i, :i] @ x[:i] + A[i, i + 1:] @ x[i + 1:]
            x[i] = (b[i] - s) / A[i, i]
    return x


def sor_solve(A, b, omega=1.25, tol=1e-8, max_iter=50):
    x = np.zeros(len(b))
    for it in range(max_iter):
        x_old = x.copy()
        for i in range(len(b)):
            sigma = A[i] @ x - A[i, i] * x[i]
            x[i] = (1 - omega) * x[i] + omega * (b[i] - sigma) / A[i, i]
        if np.linalg.norm(x - x_old) < tol:
            break
    return x, it


def conjugate_gradient(A, b, tol=1e-10):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs_old = r @ r
    for _ in range(len(b)):
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        if np.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
    return x


def power_iteration(A, iters=30):
    v = np.ones(A.shape[0])
    lam = 0.0
    for _ in range(iters):
        w = A @ v
        lam = np.linalg.norm(w)
        v = w / lam
    return lam, v


def newton_sqrt(a, tol=1e-12):
    x = a if a > 1 else 1.0
    while abs(x * x - a) > tol:
        x = 0.5 * (x + a / x)
    return x


def bisection(f, lo, hi, tol=1e-8):
    flo = f(lo)
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        fm = f(mid)
        if np.sign(fm) == np.sign(flo):
            lo, flo = mid, fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


def bisect_cubic(c):
    return bisection(lambda x: x ** 3 - c, 0.0, max(1.0, c))


# ================================================================ particles


def nbody_accelerations(pos, mass, soft=0.1):
    dx = pos[None, :, :] - pos[:, None, :]
    r2 = (dx ** 2).sum(-1) + soft ** 2
    inv_r3 = r2 ** -1.5
    np.fill_diagonal(inv_r3, 0.0)
    return (dx * (inv_r3 * mass[None, :])[:, :, None]).sum(1)


def nbody_energy(pos, vel, mass):
    ke = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
    pe = 0.0
    n = len(mass)
    for i in range(n):
        for j in range(i + 1, n):
            r = np.linalg.norm(pos[i] - pos[j])
            pe -= mass[i] * mass[j] / r
    return ke + pe


def lennard_jones_energy(pos, eps=1.0, sigma=1.0, rc=2.5):
    n = len(pos)
    e = 0.0
    for i in range(n - 1):
        d = pos[i + 1:] - pos[i]
        r2 = np.sum(d * d, axis=1)
        r2 = r2[r2 < rc * rc]
        s6 = (sigma * sigma / r2) ** 3
        e += np.sum(4 * eps * (s6 * s6 - s6))
    return e


def particles_in_box(pos, vel, L, dt, n):
    pos = pos.copy()
    vel = vel.copy()
    for _ in range(n):
        pos += vel * dt
        for k in range(len(pos)):
            if pos[k] < 0:
                pos[k] = -pos[k]
                vel[k] = -vel[k]
            elif pos[k] > L:
                pos[k] = 2 * L - pos[k]
                vel[k] = -vel[k]
    return pos, vel


def cell_list_counts(pos, L, ncell):
    counts = np.zeros((ncell, ncell), dtype=int)
    for p in pos:
        ix = int(p[0] / L * ncell) % ncell
        iy = int(p[1] / L * ncell) % ncell
        counts[ix, iy] += 1
    return counts


def periodic_min_image(pos, L):
    d = pos[:, None, :] - pos[None, :, :]
    d -= L * np.round(d / L)
    return np.sqrt((d ** 2).sum(-1))


# ================================================================ arguments

_U = np.sin(np.linspace(0, np.pi, 12)) + 0.1 * _rng.standard_normal(12)
_GRID = np.zeros((8, 8))
_GRID[0, :] = 1.0
_GU = np.ones((10, 10))
_GV = np.zeros((10, 10))
_GV[4:6, 4:6] = 0.5
_BOARD = (_rng.random((8, 8)) < 0.3).astype(int)
_T = _rng.random((6, 6))
_SPD = _rng.standard_normal((5, 5))
_SPD = _SPD @ _SPD.T + 5 * np.eye(5)
_RHS = _rng.standard_normal(5)
_POS3 = _rng.standard_normal((6, 3))
_VEL3 = 0.1 * _rng.standard_normal((6, 3))
_MASS = _rng.uniform(0.5, 1.5, 6)
_P1 = _rng.uniform(0, 5.0, 8)
_V1 = _rng.standard_normal(8)
_P2 = _rng.uniform(0, 4.0, (12, 2))

PROGRAMS = [
    ("heat_1d_explicit", heat_1d_explicit, (_U, 0.2, 5)),
    ("wave_1d", wave_1d, (_U, 0.5, 6)),
    ("laplace_jacobi_2d", laplace_jacobi_2d, (_GRID, 10)),
    ("upwind_advection", upwind_advection, (_U, 0.4, 5)),
    ("gray_scott_step", gray_scott_step, (_GU, _GV)),
    ("game_of_life", game_of_life, (_BOARD, 3)),
    ("heat_2d_neumann", heat_2d_neumann, (_T, 0.1, 4)),
    ("max_principle_check", max_principle_check, (_U, 0.25, 4)),
    ("euler_decay", euler_decay, (1.0, 0.5, 0.1, 10)),
    ("lorenz_rk4", lorenz_rk4, (np.array([1.0, 1.0, 1.0]), 8)),
    ("lotka_volterra_euler", lotka_volterra_euler, (10.0, 5.0, 1.1, 0.4, 0.4, 0.1, 0.01, 10)),
    ("velocity_verlet_spring", velocity_verlet_spring, (1.0, 0.0, 2.0, 1.0, 0.05, 10)),
    ("pendulum_semi_implicit", pendulum_semi_implicit, (np.float64(0.5), 0.0, 9.81, 1.0, 0.01, 10)),
    ("adaptive_euler", adaptive_euler, (1.0, 1.0, 1e-3)),
    ("leapfrog_orbit", leapfrog_orbit, (np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.05, 8)),
    ("jacobi_solve", jacobi_solve, (_SPD, _RHS)),
    ("gauss_seidel", gauss_seidel, (_SPD, _RHS)),
    ("sor_solve", sor_solve, (_SPD, _RHS)),
    ("conjugate_gradient", conjugate_gradient, (_SPD, _RHS)),
    ("power_iteration", power_iteration, (_SPD,)),
    ("newton_sqrt", newton_sqrt, (2.0,)),
    ("bisect_cubic", bisect_cubic, (5.0,)),
    ("nbody_accelerations", nbody_accelerations, (_POS3, _MASS)),
    ("nbody_energy", nbody_energy, (_POS3, _VEL3, _MASS)),
    ("lennard_jones_energy", lennard_jones_energy, (_POS3 * 1.5,)),
    ("particles_in_box", particles_in_box, (_P1, _V1, 5.0, 0.5, 3)),
    ("cell_list_counts", cell_list_counts, (_P2, 4.0, 3)),
    ("periodic_min_image", periodic_min_image, (_P2[:6], 4.0)),
]


def _again(args, seed):
    """``args`` with every float array's values redrawn (same shapes) and every int
    array permuted: the same shapes and dtypes, other values."""
    g = np.random.default_rng(seed)

    def redraw(a):
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.ndim:
            return g.standard_normal(a.shape)
        if isinstance(a, np.ndarray) and a.dtype.kind == "i":
            return g.permutation(a.ravel()).reshape(a.shape)
        return a
    return tuple(redraw(a) for a in args)


# the programs whose values decide a way, a count or a size, called again on redrawn
# values (the solvers, particles and steppers keep their inputs: a redrawn matrix need
# not be diagonally dominant, a redrawn position may leave the box)
_REDRAWN = ("upwind_advection", "fir_filter", "peak_indices", "zero_crossings",
            "envelope_clip", "householder_vector", "partial_pivot_rows",
            "histogram_by_hand", "running_min_index", "count_above_threshold",
            "lennard_jones_energy", "game_of_life")
EDGE_ARGS: dict[str, list[tuple]] = {name: [_again(args, 1), _again(args, 2)]
                                     for name, _, args in PROGRAMS if name in _REDRAWN}
EDGE_ARGS["particles_in_box"] = [(_rng.uniform(0, 5.0, 8), _rng.standard_normal(8) * 3,
                                  5.0, 0.5, 3)]
EDGE_ARGS["particles_in_box"] = [(_rng.uniform(0, 5.0, 8), _rng.standard_normal(8) * 3,
                                  5.0, 0.5, 3)]
