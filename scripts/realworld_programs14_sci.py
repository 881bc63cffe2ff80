"""The fourteenth corpus of scripts/bench_realworld.py, second part (see
``realworld_programs14.py``): astronomy and physics (a Kepler orbit by RK4 through a
helper, radiative transfer through slab layers, phase dispersion minimisation,
Lomb-Scargle one frequency at a time, Lane-Emden in Python floats with an early exit),
robotics (a planar arm's forward kinematics, DH chains from dicts, a particle filter
with systematic resampling, differential-drive odometry, a PID loop that stops when
settled, potential-field planning) and economics (value iteration for optimal growth,
Tauchen's method and a simulated chain).

Example::

    >>> programs(small=True)[0][0]
    'Kepler orbit by RK4, energy drift'
"""

from __future__ import annotations

import math

import numpy as np

# ---------------------------------------------------------------- astronomy, physics


def _kepler_rhs(state, mu):
    r = state[:2]
    return np.concatenate([state[2:], -mu * r / np.linalg.norm(r) ** 3])


def kepler_orbit_rk4(state0, mu, dt, n_steps):
    """A two-body orbit by RK4 through a helper; the relative energy drift per step."""
    s = np.array(state0, dtype=float)
    e0 = 0.5 * s[2:] @ s[2:] - mu / np.linalg.norm(s[:2])
    drift = np.empty(n_steps)
    for i in range(n_steps):
        k1 = _kepler_rhs(s, mu)
        k2 = _kepler_rhs(s + 0.5 * dt * k1, mu)
        k3 = _kepler_rhs(s + 0.5 * dt * k2, mu)
        k4 = _kepler_rhs(s + dt * k3, mu)
        s = s + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        e = 0.5 * s[2:] @ s[2:] - mu / np.linalg.norm(s[:2])
        drift[i] = abs((e - e0) / e0)
    return s, drift


def slab_radiative_transfer(kappa, source, dz, I0):
    """Formal solution through plane-parallel layers at many frequencies:
    I <- I e^{-dtau} + S (1 - e^{-dtau}), layer by layer, with the optical depth."""
    inten = np.array(I0, dtype=float)
    tau = np.zeros_like(inten)
    for layer in range(kappa.shape[0]):
        dtau = kappa[layer] * dz
        att = np.exp(-dtau)
        inten = inten * att + source[layer] * (1.0 - att)
        tau += dtau
    return inten, tau


def phase_dispersion_min(t, mag, periods, n_bins=10):
    """Phase dispersion minimisation: binned variance of the folded light curve over
    the total variance, per trial period; the best period."""
    total = mag.var()
    theta = np.empty(len(periods))
    for i, p in enumerate(periods):
        phase = (t / p) % 1.0
        b = (phase * n_bins).astype(int)
        cnt = np.bincount(b, minlength=n_bins)
        s1 = np.bincount(b, weights=mag, minlength=n_bins)
        s2 = np.bincount(b, weights=mag * mag, minlength=n_bins)
        ok = cnt > 1
        var_b = (s2[ok] - s1[ok] ** 2 / cnt[ok]) / (cnt[ok] - 1)
        theta[i] = (var_b * (cnt[ok] - 1)).sum() / (cnt[ok].sum() - ok.sum()) / total
    return periods[np.argmin(theta)], theta


def lomb_scargle_loop(t, y, freqs):
    """The classical Lomb-Scargle periodogram, one frequency at a time."""
    y = y - y.mean()
    power = np.zeros(len(freqs))
    for i, f in enumerate(freqs):
        w = 2 * np.pi * f
        tau = np.arctan2(np.sum(np.sin(2 * w * t)), np.sum(np.cos(2 * w * t))) / (2 * w)
        c = np.cos(w * (t - tau))
        s = np.sin(w * (t - tau))
        power[i] = 0.5 * ((y @ c) ** 2 / (c @ c) + (y @ s) ** 2 / (s @ s))
    return power / y.var()


def lane_emden_radius(n, h=1e-3, max_steps=100000):
    """Integrate Lane-Emden theta'' = -theta^n - 2 theta'/xi from the centre by RK4 in
    Python floats until theta crosses zero; the first zero and -xi^2 theta' there."""
    xi, theta, dtheta = 1e-6, 1.0, 0.0

    def rhs(x, th, dth):
        return dth, -(max(th, 0.0) ** n) - 2.0 * dth / x

    for _ in range(max_steps):
        k1 = rhs(xi, theta, dtheta)
        k2 = rhs(xi + h / 2, theta + h / 2 * k1[0], dtheta + h / 2 * k1[1])
        k3 = rhs(xi + h / 2, theta + h / 2 * k2[0], dtheta + h / 2 * k2[1])
        k4 = rhs(xi + h, theta + h * k3[0], dtheta + h * k3[1])
        new_theta = theta + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        new_dtheta = dtheta + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        if new_theta <= 0:
            frac = theta / (theta - new_theta)
            xi1 = xi + frac * h
            return xi1, -xi1 ** 2 * dtheta
        xi, theta, dtheta = xi + h, new_theta, new_dtheta
    return xi, -xi ** 2 * dtheta


# ---------------------------------------------------------------- robotics


def planar_arm_fk(angles, lengths):
    """End points of every joint of a planar arm for many poses (poses x joints)."""
    cum = np.cumsum(angles, axis=1)
    xs = np.cumsum(lengths * np.cos(cum), axis=1)
    ys = np.cumsum(lengths * np.sin(cum), axis=1)
    reach = np.hypot(xs[:, -1], ys[:, -1])
    return xs, ys, reach


def _dh_matrix(theta, d, a, alpha):
    ct, st = np.cos(theta), np.sin(theta)
    ca, sa = np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


def dh_chain_trajectory(dh_params, joint_traj):
    """Tool positions along a joint trajectory: per time step, the DH matrices of the
    joints (dicts of d, a, alpha) multiplied in a loop."""
    tool = np.empty((len(joint_traj), 3))
    for t, q in enumerate(joint_traj):
        T = np.eye(4)
        for joint, theta in zip(dh_params, q):
            T = T @ _dh_matrix(theta, joint["d"], joint["a"], joint["alpha"])
        tool[t] = T[:3, 3]
    return tool


def particle_filter_2d(seed, landmarks, controls, ranges, n_particles, noise):
    """Monte Carlo localisation: move particles, weight them by range likelihoods to
    landmarks, resample systematically when the effective size drops."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(-1, 1, (n_particles, 2))
    w = np.full(n_particles, 1.0 / n_particles)
    estimates = []
    for u, z in zip(controls, ranges):
        p = p + u + rng.normal(0, noise["motion"], p.shape)
        d = np.sqrt(((p[:, None, :] - landmarks[None, :, :]) ** 2).sum(-1))
        w = w * np.exp(-0.5 * ((d - z) ** 2).sum(axis=1) / noise["range"] ** 2)
        w += 1e-300
        w /= w.sum()
        estimates.append(w @ p)
        if 1.0 / np.sum(w ** 2) < n_particles / 2:
            positions = (rng.random() + np.arange(n_particles)) / n_particles
            idx = np.searchsorted(np.cumsum(w), positions)
            idx = np.minimum(idx, n_particles - 1)
            p = p[idx]
            w = np.full(n_particles, 1.0 / n_particles)
    return np.array(estimates)


def diff_drive_odometry(ticks_l, ticks_r, params):
    """Poses of many robots from wheel ticks, step by step (exact arc integration)."""
    n_robots = ticks_l.shape[1]
    x = np.zeros(n_robots)
    y = np.zeros(n_robots)
    th = np.zeros(n_robots)
    per_tick = 2 * math.pi * params["wheel_radius"] / params["ticks_per_rev"]
    for k in range(ticks_l.shape[0]):
        dl = ticks_l[k] * per_tick
        dr = ticks_r[k] * per_tick
        ds = 0.5 * (dl + dr)
        dth = (dr - dl) / params["base"]
        x += ds * np.cos(th + 0.5 * dth)
        y += ds * np.sin(th + 0.5 * dth)
        th = (th + dth + np.pi) % (2 * np.pi) - np.pi
    return x, y, th


def pid_step_response(gains, setpoint=1.0, dt=0.001, t_max=10.0, tol=0.002):
    """A PID loop on a mass-spring-damper in Python floats; stops once the output has
    stayed within ``tol`` of the set point for 0.5 s."""
    m, c, k = 1.0, 0.4, 2.0
    pos = vel = integral = 0.0
    prev_err = setpoint
    settled = 0
    trace = []
    for step in range(int(t_max / dt)):
        err = setpoint - pos
        integral += err * dt
        deriv = (err - prev_err) / dt
        force = gains["kp"] * err + gains["ki"] * integral + gains["kd"] * deriv
        prev_err = err
        acc = (force - c * vel - k * pos) / m
        vel += acc * dt
        pos += vel * dt
        trace.append(pos)
        settled = settled + 1 if abs(err) < tol else 0
        if settled * dt >= 0.5:
            return np.array(trace), step * dt
    return np.array(trace), None


def potential_field_path(start, goal, obstacles, radius, step=0.01, max_iter=2000):
    """Gradient descent on an attractive + repulsive potential until near the goal."""
    p = np.array(start, dtype=float)
    path = [p.copy()]
    for _ in range(max_iter):
        force = goal - p
        diff = p - obstacles
        dist = np.sqrt((diff ** 2).sum(axis=1))
        near = dist < radius
        if near.any():
            rep = (1.0 / dist[near] - 1.0 / radius) / dist[near] ** 3
            force = force + (rep[:, None] * diff[near]).sum(axis=0)
        norm = np.linalg.norm(force)
        p = p + step * force / max(norm, 1e-9)
        path.append(p.copy())
        if np.linalg.norm(goal - p) < step:
            break
    return np.array(path)



# ---------------------------------------------------------------- economics


def value_iteration_growth(k_grid, params, tol=1e-6, max_iter=500):
    """Optimal growth by value iteration on a capital grid: log utility, Cobb-Douglas
    output; stops when the sup-norm change is below ``tol``."""
    alpha, beta, delta = params["alpha"], params["beta"], params["delta"]
    wealth = k_grid ** alpha + (1 - delta) * k_grid
    c = wealth[:, None] - k_grid[None, :]
    u = np.where(c > 0, np.log(np.where(c > 0, c, 1.0)), -np.inf)
    V = np.zeros(len(k_grid))
    for it in range(max_iter):  # noqa: B007  (the count is returned)
        Q = u + beta * V[None, :]
        V_new = Q.max(axis=1)
        if np.max(np.abs(V_new - V)) < tol:
            V = V_new
            break
        V = V_new
    policy = k_grid[np.argmax(u + beta * V[None, :], axis=1)]
    return V, policy, it


def tauchen_simulate(seed, rho, sigma, n_states, T, m=3.0):
    """Tauchen's discretisation of an AR(1) (math.erf for the normal CDF), then a
    simulated path of the chain by inverse-CDF draws."""
    std_y = sigma / math.sqrt(1 - rho ** 2)
    y = np.linspace(-m * std_y, m * std_y, n_states)
    step = y[1] - y[0]

    def cdf(v):
        return 0.5 * (1 + math.erf(v / math.sqrt(2)))

    P = np.empty((n_states, n_states))
    for i in range(n_states):
        for j in range(n_states):
            hi = (y[j] - rho * y[i] + step / 2) / sigma
            lo = (y[j] - rho * y[i] - step / 2) / sigma
            if j == 0:
                P[i, j] = cdf(hi)
            elif j == n_states - 1:
                P[i, j] = 1 - cdf(lo)
            else:
                P[i, j] = cdf(hi) - cdf(lo)
    rng = np.random.default_rng(seed)
    cum = np.cumsum(P, axis=1)
    state = n_states // 2
    path = np.empty(T, dtype=np.int64)
    for t in range(T):
        state = min(int(np.searchsorted(cum[state], rng.random())), n_states - 1)
        path[t] = state
    return P, y[path]


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this part of the fourteenth corpus."""
    rng = np.random.default_rng(1414)
    s = lambda big, little: little if small else big
    n_freq = s(2000, 6)
    kappa = rng.uniform(0.01, 0.2, (s(200, 4), n_freq)) * np.linspace(0.5, 2, n_freq)
    source = np.linspace(1.0, 0.2, kappa.shape[0])[:, None] * np.ones(n_freq)
    t_obs = np.sort(rng.uniform(0, 100, s(3000, 40)))
    mag = 12 + 0.3 * np.sin(2 * np.pi * t_obs / 2.37) + 0.05 * rng.standard_normal(len(t_obs))
    periods = np.linspace(1.0, 5.0, s(300, 6))
    angles = rng.uniform(-np.pi, np.pi, (s(100000, 10), 6))
    lengths = np.array([0.4, 0.35, 0.3, 0.2, 0.1, 0.05])
    dh = [{"d": 0.33, "a": 0.0, "alpha": math.pi / 2}, {"d": 0.0, "a": 0.4, "alpha": 0.0},
          {"d": 0.0, "a": 0.35, "alpha": 0.0}, {"d": 0.2, "a": 0.0, "alpha": math.pi / 2},
          {"d": 0.0, "a": 0.0, "alpha": -math.pi / 2}, {"d": 0.08, "a": 0.0, "alpha": 0.0}]
    q_traj = np.linspace(0, 1, s(200, 4))[:, None] * np.linspace(0.2, 1.2, 6)
    landmarks = np.array([[2.0, 2.0], [-2.0, 1.5], [0.5, -2.5], [3.0, -1.0]])
    n_pf = s(40, 4)
    controls = np.tile([0.05, 0.02], (n_pf, 1))
    truth = np.cumsum(controls, axis=0)
    ranges = np.sqrt(((truth[:, None, :] - landmarks[None]) ** 2).sum(-1))
    ranges = ranges + 0.05 * rng.standard_normal(ranges.shape)
    ticks_l = rng.integers(8, 12, (s(500, 6), s(2000, 5)))
    ticks_r = rng.integers(8, 13, ticks_l.shape)
    obstacles = rng.uniform(0.5, 4.5, (s(40, 4), 2))
    k_grid = np.linspace(0.05, 10.0, s(400, 12))
    return [
        ("Kepler orbit by RK4, energy drift", kepler_orbit_rk4,
         ([1.0, 0.0, 0.0, 1.2], 1.0, 0.01, s(500, 5)), {}),
        ("radiative transfer through slab layers", slab_radiative_transfer,
         (kappa, source, 0.5, np.zeros(n_freq)), {}),
        ("phase dispersion minimisation", phase_dispersion_min, (t_obs, mag, periods), {}),
        ("Lomb-Scargle periodogram by frequency", lomb_scargle_loop,
         (t_obs, mag, np.linspace(0.05, 2.0, s(200, 5))), {}),
        ("Lane-Emden radius in Python floats", lane_emden_radius, (1.5,),
         {"h": s(2e-3, 0.5)}),
        ("planar arm forward kinematics", planar_arm_fk, (angles, lengths), {}),
        ("DH chain along a joint trajectory", dh_chain_trajectory, (dh, q_traj), {}),
        ("particle filter with systematic resampling", particle_filter_2d,
         (9, landmarks, controls, ranges, s(2000, 30)), {"noise": {"motion": 0.02, "range": 0.3}}),
        ("differential-drive odometry of many robots", diff_drive_odometry,
         (ticks_l, ticks_r), {"params": {"wheel_radius": 0.05, "ticks_per_rev": 360,
                                         "base": 0.3}}),
        ("PID step response until settled", pid_step_response,
         ({"kp": 20.0, "ki": 8.0, "kd": 3.0},), {"dt": s(0.001, 0.05), "t_max": s(10.0, 2.0)}),
        ("potential-field path planning", potential_field_path,
         (np.array([0.0, 0.0]), np.array([5.0, 5.0]), obstacles, 0.8),
         {"step": s(0.01, 0.5)}),
        ("value iteration for optimal growth", value_iteration_growth,
         (k_grid, {"alpha": 0.36, "beta": 0.95, "delta": 0.1}), {"tol": s(1e-6, 1e-2)}),
        ("Tauchen chain and a simulated path", tauchen_simulate,
         (21, 0.9, 0.1, s(31, 5), s(3000, 20)), {}),
    ]
