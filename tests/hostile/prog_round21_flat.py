"""Round 21, the numpy backend's flat 1-D passes (``backends/numpy_backend/flat.py``,
``flat_direct.py``) attacked: stencils over windows of 2-D and 3-D arrays that are
strided, reversed, Fortran-ordered, column slices, transposes, views of views,
overlapping ``as_strided`` rows, broadcast, unaligned, big-endian, a subclass; int,
bool, float16, float32, complex and object dtypes; grids with 0 rows, 1 interior
element, 2 columns; a target array that is an operand, a view of one, the same memory
shifted, one whose 0-d view, row or column is an operand; windows off the centre; NaN,
inf and float16 overflow in the corners (the elements only the flat pass's gaps read)
under every ``np.errstate``. (The in-place window updates, ``flat_updates.py``:
``prog_round21_updates.py``, the same category.)

    >>> def _jac(a):
    ...     b = np.zeros_like(a)        # a value written into a new array: a flat pass
    ...     b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
    ...                            + a[1:-1, :-2] + a[1:-1, 2:])
    ...     return b
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round21_flat")
case = reg.case
scenario = reg.scenario


def grid(n=60, m=70, dtype=float, order="C"):
    """Values that differ in every element (so a shifted read shows)."""
    a = (np.sin(np.arange(n * m) * 0.37) * 10).reshape(n, m)
    return np.array(a.astype(dtype), order=order)


def _jac(a):
    """The value is written into a new array (a returned value takes the plain path)."""
    b = np.zeros_like(a)
    b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                           + a[1:-1, :-2] + a[1:-1, 2:])
    return b


def _jac_sum(a):
    b = np.zeros_like(a)
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
    return b


def _jac_into(a, b):
    b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                           + a[1:-1, :-2] + a[1:-1, 2:])
    return b


def _lap_update(u, dt=0.1):
    lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]
    u[1:-1, 1:-1] += dt * lap
    return u


# --------------------------------------------------------------- layouts of the source

case(_jac, (grid(),), (grid(61, 71),), name="jac_c")
case(_jac, lambda: (grid(120, 70)[::2],), name="jac_strided_rows")
case(_jac, lambda: (grid()[::-1],), name="jac_reversed_rows")
case(_jac, lambda: (grid()[:, ::-1],), name="jac_reversed_columns")
case(_jac, lambda: (grid()[::-1, ::-1],), name="jac_reversed_both")
case(_jac, (grid(order="F"),), name="jac_fortran")
case(_jac, lambda: (grid(60, 90)[:, 5:75],), name="jac_column_slice")
case(_jac, lambda: (grid(70, 60).T,), name="jac_transposed")
case(_jac, lambda: (grid(64, 74)[2:][:, 3:][:-2, :-1],), name="jac_view_of_view")
case(_jac, lambda: (grid(60, 140)[:, ::2],), name="jac_strided_columns")
case(_jac, lambda: (grid(80, 70)[10:70],), name="jac_row_window_contiguous")
case(_jac, lambda: (np.lib.stride_tricks.as_strided(
    grid(1, 4300).ravel(), shape=(60, 70), strides=(8 * 70, 8)),),
    name="jac_as_strided_same")
case(_jac, lambda: (np.lib.stride_tricks.as_strided(
    grid(1, 4300).ravel(), shape=(60, 70), strides=(8 * 69, 8)),),
    name="jac_as_strided_overlapping_rows")
case(_jac, lambda: (np.broadcast_to(grid(1, 70), (60, 70)),), name="jac_broadcast_rows")


# --------------------------------------------------------------------------- dtypes

case(_jac, (grid(dtype=np.int64),), name="jac_int64")
case(_jac_sum, (grid(dtype=np.int32) * 400_000_000,), name="jac_sum_int32_wraps")
case(_jac_sum, (grid(dtype=np.int8),), (grid(dtype=np.uint8),), name="jac_sum_small_ints")
case(_jac, (grid(dtype=np.float32),), name="jac_float32")
case(_jac, (grid(dtype=np.float16),), name="jac_float16")
case(_jac, (grid(dtype=np.complex128) * (1 + 2j),), name="jac_complex")
case(_jac_sum, (grid(dtype=np.complex64),), name="jac_sum_complex64")


def _bool_stencil(a):
    b = np.ones_like(a)
    b[1:-1, 1:-1] = (a[1:-1, 1:-1] & a[:-2, 1:-1]) | (a[2:, 1:-1] ^ a[1:-1, :-2]) | ~a[1:-1, 2:]
    return b


case(_bool_stencil, (grid() > 0,), name="bool_stencil")


def _int_floor_div(a):
    b = np.zeros_like(a)
    b[1:-1, 1:-1] = (a[1:-1, 1:-1] + a[:-2, 1:-1]) // (a[2:, 1:-1] - a[1:-1, 2:])
    return b


case(_int_floor_div, (grid(dtype=np.int64),), name="int_floor_div_by_zero")


def _int_power(a, b):
    c = np.zeros_like(a)
    c[1:-1, 1:-1] = a[1:-1, 1:-1] ** b[1:-1, 2:] + a[:-2, 1:-1]
    return c


case(_int_power, lambda: (grid(dtype=np.int64) % 3, np.ones((60, 70), np.int64)),
     name="int_power_positive")


def _int_power_gap(a, b):
    """Only b's corners are negative: eager never raises, the gaps read them."""
    c = np.zeros_like(a)
    c[1:-1, 1:-1] = a[1:-1, 1:-1] ** b[:-2, 2:] + a[2:, :-2]
    return c


def _neg_corner():
    b = np.ones((60, 70), np.int64)
    b[0, 0] = b[-1, -1] = b[0, 1] = -1
    return grid(dtype=np.int64) % 3, b


case(_int_power_gap, _neg_corner, name="int_power_negative_corner")


# -------------------------------------------------------------------- small grids

case(_jac, (np.zeros((0, 70)),), (np.zeros((2, 70)),), name="jac_no_interior")
case(_jac, (grid(3, 3),), name="jac_one_element")
case(_jac, (grid(1102, 4),), name="jac_two_wide")
case(_jac, (grid(4, 1102),), name="jac_two_tall")
case(_lap_update, (grid(1102, 4),), name="update_two_wide")


# ------------------------------------------------------------ what only the gaps read

def _corners(value, dtype=float):
    def make():
        a = grid(dtype=dtype)
        a[0, 0] = a[0, -1] = a[-1, 0] = a[-1, -1] = value
        return (a,)
    return make


def _jac_in(mode):
    def f(a):
        b = np.zeros_like(a)
        with np.errstate(all=mode):
            b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                                   + a[1:-1, :-2] + a[1:-1, 2:])
        return b
    f.__name__ = f"_jac_{mode}"
    return f


for _mode in ("raise", "warn", "ignore"):
    case(_jac_in(_mode), _corners(np.inf), name=f"inf_corners_{_mode}")
    case(_jac_in(_mode), _corners(np.nan), name=f"nan_corners_{_mode}")
    case(_jac_in(_mode), _corners(65000.0, np.float16), name=f"f16_overflow_corners_{_mode}")


def _f16_sum_raise(a):
    b = np.zeros_like(a)
    with np.errstate(over="raise"):
        b[1:-1, 1:-1] = a[1:-1, 1:-1] * a[:-2, :-2] + a[2:, 2:]
    return b


case(_f16_sum_raise, _corners(300.0, np.float16), name="f16_product_corners_raise")


@scenario
def s_corner_errcall(r):
    """np.seterrcall's function sees only what eager's ops meet."""
    seen = []
    f = r.compile(_jac_in("call"))
    old = np.seterrcall(lambda kind, flag: seen.append(kind))
    try:
        r.call(f, *_corners(np.inf)())
        r.call(f, grid())
        a = grid()
        a[5, 5] = np.inf
        r.call(f, a)
    finally:
        np.seterrcall(old)
    r.see("seen", seen)


@scenario
def s_corner_warnings_error(r):
    """A warnings filter turning RuntimeWarning into an error, inf in the corners (set
    inside the recorded call: ``r.call`` records warnings under its own filter)."""
    f = r.compile(_jac_in("warn"))

    def under_error_filter(a):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            try:
                return f(a)
            except RuntimeWarning as e:
                return "raised", str(e), a
    r.call(under_error_filter, *_corners(np.inf)())
    a = grid()
    a[3, 3] = np.inf
    a[3, 4] = -np.inf                # inf + -inf: invalid, inside the window
    r.call(under_error_filter, a)


# ------------------------------------------------------------------ direct targets

def big(n=200, m=200, dtype=float):
    return grid(n, m, dtype)


case(_jac_into, lambda: (big(), np.zeros((200, 200))), name="into_fresh")
case(_jac_into, lambda: (big(), np.full((200, 200), np.nan)), name="into_nan_target")


def _same_object():
    a = big()
    return a, a


def _shifted_target():
    base = big(201, 200)
    return base[:-1], base[1:]


def _reversed_target():
    a = big()
    return a, a[::-1]


def _reshaped_target():
    a = big()
    return a, a.reshape(-1).reshape(200, 200)


case(_jac_into, _same_object, name="into_itself")
case(_jac_into, _shifted_target, name="into_itself_shifted_a_row")
case(_jac_into, _reversed_target, name="into_itself_reversed")
case(_jac_into, _reshaped_target, name="into_itself_other_view")
case(_jac_into, lambda: (big(), np.zeros((200, 200), np.float32)), name="into_float32")
case(_jac_into, lambda: (big(), np.zeros((200, 200), np.int64)), name="into_int")
case(_jac_into, lambda: (big(), np.zeros((200, 200), complex)), name="into_complex")
case(_jac_into, lambda: (big(), np.zeros((200, 200), order="F")), name="into_fortran")
case(_jac_into, lambda: (big(), np.zeros((200, 260))[:, :200]), name="into_column_slice")


def _readonly_target():
    b = np.zeros((200, 200))
    b.setflags(write=False)
    return big(), b


case(_jac_into, _readonly_target, name="into_readonly")


def _into_raise(a, b):
    with np.errstate(all="raise"):
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                               + a[1:-1, :-2] + a[1:-1, 2:])
    return b


def _inf_inside():
    a = big()
    a[50, 50] = np.inf
    a[51, 50] = -np.inf
    return a, np.ones((200, 200))


def _inf_corner_big():
    a = big()
    a[0, 0] = a[-1, -1] = np.inf
    a[0, -1] = -np.inf
    return a, np.ones((200, 200))


case(_into_raise, _inf_inside, name="into_raise_keeps_target")
case(_into_raise, _inf_corner_big, name="into_raise_inf_corners")


def _into_3d(a, b):
    b[1:-1, 1:-1, 1:-1] = (a[:-2, 1:-1, 1:-1] + a[2:, 1:-1, 1:-1] + a[1:-1, :-2, 1:-1]
                           + a[1:-1, 2:, 1:-1] + a[1:-1, 1:-1, :-2] + a[1:-1, 1:-1, 2:]) / 6
    return b


def _cube(n=34):
    return (np.cos(np.arange(n ** 3) * 0.11)).reshape(n, n, n)


case(_into_3d, lambda: (_cube(), np.zeros((34, 34, 34))), name="into_3d")
case(_into_3d, lambda: (_cube(), _cube()[::-1]), name="into_3d_reversed_self")


def _same_cube():
    c = _cube()
    return c, c


case(_into_3d, _same_cube, name="into_3d_itself")
case(_jac, lambda: (_cube(60)[5],), name="jac_slice_of_cube")
case(_jac, lambda: (_cube(60)[:, 5],), name="jac_middle_slice_of_cube")


# ------------------------------------------- operands that are views of the target

def _into_times(a, b, s):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 2:]) * s
    return b


def _into_scaled_first(a, b, s):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] * s + a[2:, 1:-1]) * 0.5
    return b


def _update_times(a, b, s):
    b[1:-1, 1:-1] += (a[:-2, 1:-1] + a[2:, 1:-1]) * s
    return b


def _zero_d_view_of_target(i, j):
    """``s`` is a 0-d view of one element of ``b``: inside the window, in a boundary
    column (a gap of the 1-D pass), or a corner."""
    def make():
        b = big() + 5
        return big(), b, b[i, j, ...]
    return make


for _fn in (_into_times, _into_scaled_first, _update_times):
    case(_fn, _zero_d_view_of_target(50, 50), _zero_d_view_of_target(0, 0),
         _zero_d_view_of_target(60, 0), _zero_d_view_of_target(60, 199),
         _zero_d_view_of_target(1, 1), name=f"{_fn.__name__[1:]}_0d_view_of_target")


def _row_of_target():
    b = big() + 5
    return big(), b, b[50, 1:-1]


def _column_of_target():
    b = big() + 5
    return big(), b, b[1:-1, 0:1]


case(_into_times, _row_of_target, _column_of_target, name="into_times_view_of_target")


# ----------------------------------------------------------- windows off the centre

def _window_full_rows(u, v):
    u[1:-1, :] += 0.5 * (v[:-2, :] + v[2:, :])
    return u


def _window_corner(u, v):
    u[2:, 1:] -= 0.5 * (v[:-2, :-1] + v[2:, 1:]) * v[1:-1, :-1]
    return u


def _window_whole(u, v):
    u[:, :] *= 0.5 * (v + v * v)
    return u


def _into_full_rows(a, b):
    b[1:-1, :] = 0.5 * (a[:-2, :] + a[2:, :])
    return b


def _into_offset(a, b):
    b[3:, :-3] = 0.5 * (a[:-3, 3:] + a[3:, :-3]) - a[:-3, :-3]
    return b


def _two_grids():
    return big(), big()


for _fn in (_window_full_rows, _window_corner, _window_whole, _into_full_rows, _into_offset):
    case(_fn, _two_grids, lambda: (big(), big().T.copy()), name=_fn.__name__[1:])


# ------------------------------------------------------------- odd elements and arrays

class Counted:
    """An object whose arithmetic is counted: an op over a gap would count too."""

    calls = 0

    def __init__(self, v):
        self.v = v

    def __add__(self, o):
        Counted.calls += 1
        return Counted(self.v + (o.v if isinstance(o, Counted) else o))

    __radd__ = __add__

    def __mul__(self, o):
        Counted.calls += 1
        return Counted(self.v * (o.v if isinstance(o, Counted) else o))

    __rmul__ = __mul__


def _object_grid():
    a = np.empty((50, 50), object)
    for i in range(50):
        for j in range(50):
            a[i, j] = Counted(i + j)
    a[0, 0] = a[-1, -1] = a[0, -1] = a[-1, 0] = None    # only the gaps read these
    return (a,)


def _reset_counted():
    Counted.calls = 0


case(_jac, _object_grid, setup=_reset_counted, watch=lambda: Counted.calls,
     name="object_grid_counts_ops")


def _unaligned(n=200, m=200):
    raw = np.zeros(n * m * 8 + 1, np.uint8)
    a = np.ndarray((n, m), np.float64, raw.data, offset=1)
    a[...] = big(n, m)
    return a


case(_lap_update, lambda: (_unaligned(),), name="update_unaligned")
case(_jac_into, lambda: (big(), _unaligned()), lambda: (_unaligned(), big()),
     name="into_unaligned")
case(_lap_update, lambda: (big().astype(">f8"),), name="update_big_endian")
case(_jac_into, lambda: (big().astype(">f8"), np.zeros((200, 200), ">f8")),
     name="into_big_endian")


class Tagged(np.ndarray):
    """Counts the views NumPy makes of it."""

    made = 0

    def __array_finalize__(self, obj):
        Tagged.made += 1


def _reset_tagged():
    Tagged.made = 0


case(_lap_update, lambda: (big().view(Tagged),), setup=_reset_tagged,
     watch=lambda: Tagged.made, name="update_subclass_counts_views")
case(_jac_into, lambda: (big().view(Tagged), np.zeros((200, 200)).view(Tagged)),
     setup=_reset_tagged, watch=lambda: Tagged.made, name="into_subclass_counts_views")
