"""Round 22, 3-D direct writes and 3-D and integer window updates
(``backends/numpy_backend/flat_direct.py``, ``flat_windows.py``, ``flat_updates.py``).

``B[1:-1, 1:-1, 1:-1] = value`` where ``B`` is the source itself, a view of it (the
same elements, shifted a plane, its transpose), a copy made just before, float32, int,
Fortran-ordered, read-only, of no interior or of a window just under, at and just over
``MIN_DIRECT_ELEMENTS`` (32768), with NaN/inf/overflow under ``np.errstate`` raise and
call; ``u[1:-1, 1:-1, 1:-1] += value`` and ``u[1:-1, 1:-1] += value`` of int64, int32
(wrapping), uint8, int8 with a float value (UFuncTypeError), bool ``|=``, integer
``//=`` and ``%=`` by zero, values that read ``u`` shifted (NumPy's overlap rule), and an
``np.seterrcall`` function that reads the boundary planes mid-update.

    >>> def _direct3(a, b):
    ...     b[1:-1, 1:-1, 1:-1] = (a[2:, 1:-1, 1:-1] + a[:-2, 1:-1, 1:-1]
    ...                            + a[1:-1, 2:, 1:-1] + a[1:-1, :-2, 1:-1]) * 0.25
    ...     return b
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round22_windows")
case = reg.case
scenario = reg.scenario


def cube(n=34, p=34, m=34, dtype=np.float64):
    return (np.sin(np.arange(n * p * m) * 0.37) * 10).reshape(n, p, m).astype(dtype)


def icube(n=34, dtype=np.int64, scale=1000):
    return ((np.arange(n ** 3) * 7919) % scale).reshape(n, n, n).astype(dtype)


def _value3(a):
    return (a[2:, 1:-1, 1:-1] + a[:-2, 1:-1, 1:-1] + a[1:-1, 2:, 1:-1]
            + a[1:-1, :-2, 1:-1] + a[1:-1, 1:-1, 2:] + a[1:-1, 1:-1, :-2]) * (1 / 6)


def _direct3(a, b):
    b[1:-1, 1:-1, 1:-1] = _value3(a)
    return b


def _direct3_twice(a, b):
    for _ in range(2):
        b[1:-1, 1:-1, 1:-1] = _value3(a)
        a, b = b, a
    return a, b


def _direct3_into_self(a):
    a[1:-1, 1:-1, 1:-1] = _value3(a)
    return a


def _direct3_fresh(u):
    new = u.copy()
    new[1:-1, 1:-1, 1:-1] = u[1:-1, 1:-1, 1:-1] + 0.1 * (_value3(u) - u[1:-1, 1:-1, 1:-1])
    return new


def _direct3_returns_window(a, b):
    w = b[1:-1, 1:-1, 1:-1]
    b[1:-1, 1:-1, 1:-1] = _value3(a)
    return w, w.base is b


def _direct3_then_read_edges(a, b):
    b[1:-1, 1:-1, 1:-1] = _value3(a)
    return b[0].sum(), b[:, 0].sum(), b[:, :, -1].sum()


def _direct3_log(a, b):
    b[1:-1, 1:-1, 1:-1] = np.log(_value3(a))
    return b


def _direct3_div(a, b, d):
    b[1:-1, 1:-1, 1:-1] = _value3(a) / d[1:-1, 1:-1, 1:-1]
    return b


N = 34
case(_direct3, lambda: (cube(), np.zeros((N, N, N))), name="direct3")
case(_direct3, lambda: (cube(33, 34, 34), np.zeros((33, 34, 34))), name="direct3_just_under")
case(_direct3, lambda: (cube(35, 34, 34), np.zeros((35, 34, 34))), name="direct3_just_over")
case(_direct3, lambda: (cube(2, 34, 34), np.zeros((2, 34, 34))), name="direct3_no_interior")
case(_direct3, lambda: (cube(34, 34, 2), np.zeros((34, 34, 2))), name="direct3_no_columns")
case(_direct3, lambda: (cube(), np.zeros((N, N, N), np.float32)), name="direct3_float32_target")
case(_direct3, lambda: (cube(), np.zeros((N, N, N), np.int64)), name="direct3_int_target")
case(_direct3, lambda: (cube() * 1e3, np.zeros((N, N, N), np.int8)), name="direct3_int8_overflow")
case(_direct3, lambda: (cube(), np.zeros((N, N, N), np.complex128)), name="direct3_complex_target")
case(_direct3, lambda: (cube(), np.zeros((N, N, N), order="F")), name="direct3_fortran_target")
case(_direct3, lambda: (cube(), np.zeros((N, N, N)).transpose(1, 0, 2)),
     name="direct3_transposed_target")
case(_direct3_twice, lambda: (cube(), np.zeros((N, N, N))))
case(_direct3_into_self, lambda: (cube(),))
case(_direct3_fresh, lambda: (cube(),))
case(_direct3_returns_window, lambda: (cube(), np.ones((N, N, N))))
case(_direct3_then_read_edges, lambda: (cube(), np.full((N, N, N), 2.0)))


def _same_array():
    a = cube()
    return (a, a)


def _view_of_source():
    a = cube()
    return (a, a[:, :, :])


def _shifted_plane():
    flat = cube(35, 34, 34).reshape(-1)
    return (flat[: 34 ** 3].reshape(34, 34, 34), flat[34 * 34:].reshape(34, 34, 34))


def _readonly():
    b = np.zeros((N, N, N))
    b.flags.writeable = False
    return (cube(), b)


case(_direct3, _same_array, name="direct3_target_is_source")
case(_direct3, _view_of_source, name="direct3_target_view_of_source")
case(_direct3, _shifted_plane, name="direct3_target_shifted_plane")
case(_direct3, _readonly, name="direct3_readonly_target")
case(_direct3_log, lambda: (cube(), np.ones((N, N, N))), name="direct3_log_nan")


def _errstate_scenario(fn, make, settings, name, errcall=False):
    def s(r):
        f = r.compile(fn)
        seen = []

        def run():
            args = make()
            b = args[1]
            edges = b[0].copy()

            def look(kind, flag):
                seen.append((kind, bool(np.array_equal(b[0], edges)),
                             float(b[:, 0].sum()), float(b[:, :, 0].sum())))
            old = np.seterrcall(look) if errcall else None
            try:
                with np.errstate(**settings):
                    try:
                        f(*args)
                    finally:
                        r.see("b after", b)
            finally:
                if errcall:
                    np.seterrcall(old)
            return list(seen)
        r.call(run)
        r.call(run)
    s.__name__ = name
    reg.scenario(s)


def _zero_somewhere():
    d = np.ones((N, N, N))
    d[10, 10, 10] = 0.0
    return (cube(), np.full((N, N, N), 7.0), d)


def _log_inputs():
    return (cube(), np.full((N, N, N), 7.0))


_errstate_scenario(_direct3_div, _zero_somewhere, {"divide": "raise"}, "direct3_div_raise")
_errstate_scenario(_direct3_div, _zero_somewhere, {"divide": "call"}, "direct3_div_call",
                   errcall=True)
_errstate_scenario(_direct3_log, _log_inputs, {"invalid": "raise"}, "direct3_log_raise")
_errstate_scenario(_direct3_log, _log_inputs, {"invalid": "call"}, "direct3_log_call",
                   errcall=True)


# ------------------------------------------------------------------- window updates

def _update3(u, v):
    u[1:-1, 1:-1, 1:-1] += 0.1 * _value3(v)
    return u


def _update3_reads_self(u):
    u[1:-1, 1:-1, 1:-1] += u[:-2, 1:-1, 1:-1] - u[2:, 1:-1, 1:-1]
    return u


def _update3_int(u, v):
    u[1:-1, 1:-1, 1:-1] += v[2:, 1:-1, 1:-1] * 3 - v[:-2, 1:-1, 1:-1]
    return u


def _update3_int_float(u, v):
    u[1:-1, 1:-1, 1:-1] += 0.5 * v[2:, 1:-1, 1:-1]
    return u


def _update3_floordiv(u, v):
    u[1:-1, 1:-1, 1:-1] //= v[2:, 1:-1, 1:-1] - v[:-2, 1:-1, 1:-1]
    return u


def _update3_mod(u, v):
    u[1:-1, 1:-1, 1:-1] %= v[2:, 1:-1, 1:-1] % 5
    return u


def _update2_int(u, v):
    u[1:-1, 1:-1] += v[2:, 1:-1] * v[1:-1, 2:] - v[:-2, 1:-1]
    return u


def _update2_int_sub(u, v):
    u[1:-1, 1:-1] -= v[2:, 1:-1] + v[:-2, 1:-1]
    return u


def _update2_int_mul(u, v):
    u[1:-1, 1:-1] *= v[2:, 1:-1] + v[:-2, 1:-1] + 1
    return u


def _update2_bool_or(u, v):
    u[1:-1, 1:-1] |= v[2:, 1:-1] ^ v[:-2, 1:-1]
    return u


def _update2_int_reads_self(u):
    u[1:-1, 1:-1] += u[:-2, 1:-1] + u[2:, 1:-1]
    return u


def _update2_shift(u, v):
    u[1:-1, 1:-1] <<= v[2:, 1:-1] % 7
    return u


def _update2_int_returns_window(u, v):
    w = u[1:-1, 1:-1]
    w += v[2:, 1:-1] - v[:-2, 1:-1]
    return w, u[0].sum(), u[:, -1].sum()


def sq(n=200, dtype=np.int64, scale=1000):
    return ((np.arange(n * n) * 7919) % scale).reshape(n, n).astype(dtype)


case(_update3, lambda: (cube(), cube()), name="update3_float")
case(_update3, lambda: (cube(dtype=np.float32), cube()), name="update3_float32_target")
case(_update3, lambda: (cube(2, 34, 34), cube(2, 34, 34)), name="update3_no_interior")
case(_update3_reads_self, lambda: (cube(),))
case(_update3_int, lambda: (icube(), icube()), name="update3_int64")
case(_update3_int, lambda: (icube(dtype=np.int32, scale=2 ** 31 - 1),
                            icube(dtype=np.int32, scale=2 ** 31 - 1)),
     name="update3_int32_wraps")
case(_update3_int, lambda: (icube(dtype=np.uint8, scale=256), icube(dtype=np.uint8, scale=256)),
     name="update3_uint8_wraps")
case(_update3_int_float, lambda: (icube(dtype=np.int8, scale=100), icube(dtype=np.int8, scale=100)),
     name="update3_int8_float_value")
case(_update3_floordiv, lambda: (icube(), icube(scale=3)), name="update3_floordiv_zero")
case(_update3_mod, lambda: (icube(), icube()), name="update3_mod_zero")
case(_update2_int, lambda: (sq(), sq()), name="update2_int64")
case(_update2_int, lambda: (sq(dtype=np.int32, scale=2 ** 31 - 1),
                            sq(dtype=np.int32, scale=2 ** 31 - 1)), name="update2_int32_wraps")
case(_update2_int_sub, lambda: (sq(dtype=np.uint16, scale=60000), sq(dtype=np.uint16)),
     name="update2_uint16_sub_wraps")
case(_update2_int_mul, lambda: (sq(dtype=np.int16), sq(dtype=np.int16)), name="update2_int16_mul")
case(_update2_int_mul, lambda: (sq(), sq(dtype=np.float64)), name="update2_int_target_float_value")
case(_update2_bool_or, lambda: (sq(scale=2).astype(bool), sq(scale=3).astype(bool)),
     name="update2_bool_or")
case(_update2_int_reads_self, lambda: (sq(),))
case(_update2_shift, lambda: (sq(), sq()), name="update2_shift")
case(_update2_int_returns_window, lambda: (sq(), sq()), name="update2_int_returns_window")
case(_update2_int, lambda: (sq(2), sq(2)), name="update2_int_no_interior")
case(_update2_int, lambda: (sq()[:, ::-1], sq()), name="update2_int_reversed_target")
case(_update2_int, lambda: (np.asfortranarray(sq()), sq()), name="update2_int_fortran_target")


def _same2():
    u = sq()
    return (u, u)


case(_update2_int, _same2, name="update2_int_value_reads_target")
case(_update3_int, lambda: (lambda u: (u, u))(icube()), name="update3_int_value_reads_target")


def _update_errcall(fn, make, settings, name):
    def s(r):
        f = r.compile(fn)
        seen = []

        def run():
            u, v = make()
            edge = u[:, 0].copy()

            def look(kind, flag):
                seen.append((kind, bool(np.array_equal(u[:, 0], edge))))
            old = np.seterrcall(look)
            try:
                with np.errstate(**settings):
                    f(u, v)
            finally:
                np.seterrcall(old)
            return u, list(seen)
        r.call(run)
        r.call(run)
    s.__name__ = name
    reg.scenario(s)


_update_errcall(_update3_floordiv, lambda: (icube(), icube(scale=3)), {"divide": "call"},
                "update3_floordiv_errcall")
_update_errcall(_update3, lambda: (cube(), cube() * 1e307), {"over": "call"},
                "update3_overflow_errcall")
_update_errcall(_update2_int_mul, lambda: (sq(), sq() * 0), {"all": "call"},
                "update2_int_errcall_quiet")
