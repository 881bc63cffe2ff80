"""Round 33, the numpy backend's block-wise plans of groups whose intermediates spill
the L2 cache (``backends/numpy_backend/plan.py``: ``_spills_cache``), FFT results as
buffer donors (``reuse.fresh_transform``: a result must never alias an input, another
result or an earlier call's result), and dead carried loop slots
(``backends/passes/dead_carried.py``): long elementwise chains over a few MB with
reductions, results kept across calls, an input written in place inside the chain,
views as inputs; ``rfft``/``fft``/``irfft`` results returned as well as reused, fed
an input that is itself returned; Newton-like loops whose temporaries are dead, read
after the loop, read by the next trip, or broken out of at trip k.

    >>> def _eig2(a, b, c, d):
    ...     tr, det = a + d, a * d - b * c
    ...     disc = np.sqrt(np.maximum(tr * tr / 4 - det, 0))
    ...     return tr / 2 + disc, tr / 2 - disc
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round33_spills")

N = 200_000          # float64: 1.6 MB per array, a chain of ten spills a 2 MiB L2


def _vals(seed, n=N, dtype=np.float64):
    return np.random.default_rng(seed).uniform(-2, 2, n).astype(dtype)


def _eig2(a, b, c, d):
    tr, det = a + d, a * d - b * c
    disc = np.sqrt(np.maximum(tr * tr / 4 - det, 0))
    return tr / 2 + disc, tr / 2 - disc


def _chain(x, y):
    t = np.sin(x) * y + np.cos(y) * x
    u = t * t - x * y + np.exp(-np.abs(t))
    v = np.tanh(u) * 2 + t / (1 + u * u)
    return v * x + u, t


def _chain_sum(x, y):
    t = np.sin(x) * y + np.cos(y) * x
    u = t * t - x * y + np.exp(-np.abs(t))
    return (u * t).sum(), np.tanh(u) + t


def _chain_input_returned(x, y):
    t = np.sqrt(np.abs(x)) + y * y
    u = np.log1p(t) * x - t
    return u * 2 + t, x, y


def _chain_written(x, y):
    t = np.sin(x) + np.cos(y) * 3
    u = t * t + x
    x[:] = u - t           # the input written inside the chain
    return x + y * u, u


def _chain_views(x, y):
    a, b = x[::2], y[1::2]
    t = a * b + np.sin(a) - np.cos(b)
    u = t * t + a - b
    return np.exp(-u * u) + t, a


def _chain_f32(x, y):
    t = x * np.float32(1.5) + y * y
    u = np.sqrt(t * t + 1) - x
    return np.tanh(u) * t + u, (u * t).max()


def _chain_int_mix(x, k):
    t = x * k + (k - 1)
    u = t * t - x * 3 + np.abs(t - k)
    return u / (1 + np.abs(t)), t


def _chain_2d(x, y):
    x2, y2 = x.reshape(400, 500), y.reshape(400, 500)
    t = x2 * y2 + np.sin(x2) - y2
    u = t * t + np.exp(-np.abs(x2))
    return (u + t).sum(axis=1), u * t


SPILLS = (
    ("eig2", _eig2, lambda k: (_vals(k), _vals(k + 1), _vals(k + 2), _vals(k + 3))),
    ("chain", _chain, lambda k: (_vals(k), _vals(k + 7))),
    ("chain_sum", _chain_sum, lambda k: (_vals(k), _vals(k + 7))),
    ("chain_input_returned", _chain_input_returned, lambda k: (_vals(k), _vals(k + 3))),
    ("chain_written", _chain_written, lambda k: (_vals(k), _vals(k + 3))),
    ("chain_views", _chain_views, lambda k: (_vals(k, 2 * N), _vals(k + 1, 2 * N))),
    ("chain_f32", _chain_f32, lambda k: (_vals(k, dtype=np.float32),
                                         _vals(k + 1, dtype=np.float32))),
    ("chain_int_mix", _chain_int_mix, lambda k: (_vals(k), k + 2)),
    ("chain_2d", _chain_2d, lambda k: (_vals(k), _vals(k + 5))),
    ("eig2_same_array", _eig2, lambda k: (_vals(k),) * 4),
    ("chain_same_array", _chain, lambda k: (_vals(k),) * 2),
    ("chain_small_then_big", _chain, lambda k: (_vals(k, 16 if k == 0 else N),
                                                _vals(k + 1, 16 if k == 0 else N))),
)


def _options(options, fn, make, calls=3):
    """``fn`` compiled with the numpy backend's ``options`` where it takes them."""
    def scenario(r):
        try:
            f = r.compile(fn, options=options) if r.compiled else fn
        except ValueError:       # (the eager backend takes no options)
            f = r.compile(fn)
        for k in range(calls):
            r.call(f, *make(k))
    return scenario


# The spill bound these programs cross: 2x the L2 cache (the default is 12x since the
# plain path was measured faster below it, its values in the L3 cache; options.py)
SPILL_AT_2X = {"blocked_working_set": 2.0}


def _kept(name, fn, make, calls=3):
    reg._add(name, _options(SPILL_AT_2X, fn, make, calls), (fn.__doc__ or "").strip())


for _name, _fn, _make in SPILLS:
    _kept(f"spill_{_name}", _fn, _make)


def _chain_then_branch(x, y):
    t = np.sin(x) * y + np.cos(y) * x
    u = t * t - x * y + np.exp(-np.abs(t))
    if float(u[0]) > 0.5:        # a break between two spilling groups
        return np.tanh(u) * t + x, u
    return np.tanh(t) * u - y, t


def _chain_out_param(x, y):
    t = np.sin(x) * y + np.cos(y) * x
    u = t * t - x * y + np.exp(-np.abs(t))
    np.add(t, u, out=x)
    return x * y + u, u


def _chain_where(x, y):
    t = np.where(x > 0, x * y, np.sin(y)) + x * x
    u = np.where(t > 1, t - 1, np.exp(t)) * y
    return u * t + np.sqrt(np.abs(u)), t > u


for _name, _fn, _make in (
        ("chain_then_branch", _chain_then_branch, lambda k: (_vals(k), _vals(k + 7))),
        ("chain_out_param", _chain_out_param, lambda k: (_vals(k), _vals(k + 7))),
        ("chain_where", _chain_where, lambda k: (_vals(k), _vals(k + 7)))):
    _kept(f"spill_{_name}", _fn, _make)
_kept("spill_chain_five_calls_kept", _chain, lambda k: (_vals(k), _vals(k + 7)), calls=5)
for _name, _fn, _opts in (
        ("eig2_threads", _eig2, {**SPILL_AT_2X, "threads": 2, "min_threaded_elements": 0}),
        ("chain_threads", _chain, {**SPILL_AT_2X, "threads": 2, "min_threaded_elements": 0}),
        ("chain_tight_working_set", _chain_sum, {"blocked_working_set": 0.25}),
        ("chain_no_recycle", _chain, {**SPILL_AT_2X, "recycle_outputs": False})):
    _make = SPILLS[0][2] if _fn is _eig2 else SPILLS[1][2]
    reg._add(f"spill_{_name}", _options(_opts, _fn, _make), "")


# ----------------------------------------------------------------------------- FFTs

H = np.exp(-np.arange(513) / 50.0)


def _rfft_filter(x):
    F = np.fft.rfft(x, 1024)
    return np.fft.irfft(F * H, 1024)


def _rfft_returned_and_used(x):
    F = np.fft.rfft(x, 1024)
    return F * H, F


def _rfft_two_results(x):
    F = np.fft.rfft(x)
    G = np.fft.rfft(x * 2)
    return F + G, F, G


def _fft_of_complex_input(z):
    F = np.fft.fft(z)
    return F * 2 + 1, z


def _fft_abs(z):
    F = np.fft.fft(z, 256)
    return np.abs(F) ** 2, np.angle(F)


def _ifft_of_fft(z):
    return np.fft.ifft(np.fft.fft(z) * 0.5), z


def _rfft_axis(x):
    F = np.fft.rfft(x, axis=0)
    return F.real * F.imag + 1, F.conj()


def _rfft_in_place_after(x):
    F = np.fft.rfft(x)
    F *= 2
    return F + 1, F


def _fft_view_input(z):
    F = np.fft.fft(z[::2])
    return F * F, z[::2]


def _rfft_reused_twice(x):
    F = np.fft.rfft(x)
    a = F * H[:F.shape[0]]
    b = F - a
    return a, b


def _hfft(z):
    y = np.fft.hfft(z)
    return y * 3 - 1, np.fft.ihfft(y)


def _rfft_scalar_out(x):
    F = np.fft.rfft(x)
    return (F * F.conj()).real.sum(), F[1:3]


def _cplx(seed, n):
    rng = np.random.default_rng(seed)
    return rng.normal(size=n) + 1j * rng.normal(size=n)


FFTS = (
    ("rfft_filter", _rfft_filter, lambda k: (_vals(k, 1000),)),
    ("rfft_returned_and_used", _rfft_returned_and_used, lambda k: (_vals(k, 900),)),
    ("rfft_two_results", _rfft_two_results, lambda k: (_vals(k, 64),)),
    ("fft_of_complex_input", _fft_of_complex_input, lambda k: (_cplx(k, 128),)),
    ("fft_abs", _fft_abs, lambda k: (_cplx(k, 200),)),
    ("ifft_of_fft", _ifft_of_fft, lambda k: (_cplx(k, 96),)),
    ("rfft_axis", _rfft_axis, lambda k: (_vals(k, 60).reshape(12, 5),)),
    ("rfft_in_place_after", _rfft_in_place_after, lambda k: (_vals(k, 50),)),
    ("fft_view_input", _fft_view_input, lambda k: (_cplx(k, 64),)),
    ("rfft_reused_twice", _rfft_reused_twice, lambda k: (_vals(k, 300),)),
    ("hfft", _hfft, lambda k: (_cplx(k, 33),)),
    ("rfft_scalar_out", _rfft_scalar_out, lambda k: (_vals(k, 40),)),
    ("rfft_filter_f32", _rfft_filter, lambda k: (_vals(k, 1000, np.float32),)),
    ("rfft_two_results_big", _rfft_two_results, lambda k: (_vals(k, 1 << 16),)),
)
for _name, _fn, _make in FFTS:
    _kept(f"fft_{_name}", _fn, _make)


# ----------------------------------------------------------------------------- loops

def _newton(a, b, tol):
    x = np.cbrt(b)
    for it in range(50):
        fx = x ** 3 + a * x - b          # dead after the loop, stored before read
        step = fx / (3 * x ** 2 + a)
        x = x - step
        if np.max(np.abs(step)) < tol:
            break
    return x, it


def _newton_step_read_after(a, b, tol):
    x = np.cbrt(b)
    step = x * 0
    for _ in range(50):
        fx = x ** 3 + a * x - b
        step = fx / (3 * x ** 2 + a)
        x = x - step
        if np.max(np.abs(step)) < tol:
            break
    return x, step                       # the last step is read after the loop


def _carried_read_next_trip(a, b, tol):
    x, prev = np.cbrt(b), np.zeros_like(b)
    for it in range(40):
        nxt = x - (x ** 3 + a * x - b) / (3 * x ** 2 + a)
        if np.max(np.abs(nxt - prev)) < tol:
            break
        prev = x                         # read by the next trip
        x = nxt
    return x, it


def _dead_with_while(a, b, tol):
    x, it = np.cbrt(b), 0
    while True:
        r = x ** 3 + a * x - b
        d = 3 * x ** 2 + a
        x = x - r / d
        it += 1
        if np.max(np.abs(r)) < tol or it > 60:
            break
    return x, it


def _dead_then_raise(a, b, tol):
    x = np.cbrt(b)
    for it in range(5):
        fx = x ** 3 + a * x - b
        step = fx / (3 * x ** 2 + a)
        x = x - step
        if it == 3 and tol > 0.5:
            raise ValueError(f"gave up at {it}")
    return x


def _dead_slot_size_changes(a, b, tol):
    x = np.cbrt(b)
    tmp = np.zeros(3)                    # another size before the loop
    for it in range(50):
        tmp = x ** 3 + a * x - b
        x = x - tmp / (3 * x ** 2 + a)
        if np.max(np.abs(tmp)) < tol:
            break
    return x, it


def _newton_args(k, n=64):
    rng = np.random.default_rng(k)
    return rng.uniform(1, 3, n), rng.uniform(-5, 5, n), 10.0 ** -(6 + k)


LOOPS = (
    ("newton", _newton, _newton_args),
    ("newton_big", _newton, lambda k: _newton_args(k, N // 4)),
    ("newton_step_read_after", _newton_step_read_after, _newton_args),
    ("carried_read_next_trip", _carried_read_next_trip, _newton_args),
    ("dead_with_while", _dead_with_while, _newton_args),
    ("dead_then_raise", _dead_then_raise, lambda k: (*_newton_args(k)[:2], k * 0.4)),
    ("dead_slot_size_changes", _dead_slot_size_changes, _newton_args),
    ("newton_one_element", _newton, lambda k: _newton_args(k, 1)),
    ("newton_shape_change", _newton, lambda k: _newton_args(k, 16 + k)),
)
for _name, _fn, _make in LOOPS:
    _kept(f"loop_{_name}", _fn, _make)
