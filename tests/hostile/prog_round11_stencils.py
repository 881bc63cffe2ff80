"""Round 11, stencils that write straight into their target (``backends/numpy_backend/
flat.py``, the direct path from ``MIN_DIRECT_ELEMENTS`` on; ``runtime.eager_goes_on``):
the target's boundary columns (the gaps of the 1-D passes) saved and put back as raw
bytes rows, holding NaN payloads, signed zeros, infinities; sources whose boundary
columns divide by zero, overflow or take square roots of negatives where the window
does not (and the other way round); targets of other dtypes (float32, int, bool,
complex), non-contiguous, Fortran-ordered, read-only, or views of a wider array; and
the ways a RuntimeWarning may become an exception, changed between or during calls:
``warnings.simplefilter``/``filterwarnings`` inside the program and between calls,
``catch_warnings`` inside, ``np.errstate``/``np.seterr`` with a raising
``seterrcall``, a raising ``showwarning`` or ``formatwarning``, and a ``sys.stderr``
whose ``write`` raises. Arrays are 190 x 190 (the 188 x 188 window passes the direct
threshold)."""

import contextlib
import ctypes
import gc
import io
import os
import sys
import tempfile
import types
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round11_stencils")
scenario = reg.scenario

N = 190
rng = np.random.default_rng(11)
A = rng.standard_normal((N, N))
B0 = rng.standard_normal((N, N))

# raw NaN payloads, a signalling NaN, -0.0 and infinities for the target's border
_PAYLOADS = np.array([0x7FF8000000000001, 0xFFF8DEADBEEF0000, 0x7FF0000000000001,
                      0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000],
                     dtype=np.uint64).view(np.float64)


def _jacobi(a, b):
    b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return b


def _divide(a, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1]
    return b


def _sqrt(a, b):
    b[1:-1, 1:-1] = np.sqrt(a[1:-1, 1:-1]) + np.sqrt(a[:-2, 1:-1]) * 0.5
    return b


def _square(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] * a[1:-1, 1:-1] + a[:-2, 1:-1] * a[2:, 1:-1]
    return b


CHAINS = {"jacobi": _jacobi, "divide": _divide, "sqrt": _sqrt, "square": _square}


def _payload_border(b):
    """``b`` with NaN payloads, -0.0 and infinities in every boundary element."""
    b = b.copy()
    for k, edge in enumerate((b[0], b[-1], b[:, 0], b[:, -1])):
        edge[...] = np.resize(np.roll(_PAYLOADS, k), edge.shape)
    return b


def _bad_border(a):
    """``a`` whose boundary columns are 0, -1 and 1e200 (divide by zero, sqrt of a
    negative, overflow in the gaps) while its window is positive and small."""
    a = np.abs(a) + 0.5
    a[:, 0], a[:, -1] = 0.0, -1.0
    a[0, :], a[-1, :] = 1e200, -0.0
    return a


def _bad_window(a):
    a = np.abs(a) + 0.5
    a[N // 2, N // 2] = 0.0
    a[N // 3, 7] = -4.0
    a[5, N // 4] = 1e300
    return a


SOURCES = {"plain": lambda: A.copy(), "bad_border": lambda: _bad_border(A),
           "bad_window": lambda: _bad_window(A)}


# ============================================================ targets with odd borders

def _add_border_case(chain_name, source_name):
    chain, source = CHAINS[chain_name], SOURCES[source_name]

    def s(r):
        f = r.compile(chain)
        for src in (SOURCES["plain"], source, SOURCES["plain"]):
            b = _payload_border(B0)
            out = r.call(f, src(), b)
            r.see("border bits", None if out is None else
                  (out[0].view(np.uint64).tolist(), out[:, -1].view(np.uint64).tolist()))
    s.__name__ = f"{chain_name}_{source_name}_payload_border"
    scenario(s)


for _c in CHAINS:
    for _s in SOURCES:
        _add_border_case(_c, _s)


# ============================================================ targets of other kinds

def _target_kinds(make_target, name):
    def s(r):
        f = r.compile(_divide)
        for src in ("plain", "plain", "bad_border", "bad_window", "plain"):
            r.call(f, SOURCES[src](), make_target())
    s.__name__ = f"divide_into_{name}"
    scenario(s)


def _wide_view():
    return np.zeros((N, N + 7))[:, 3:3 + N]


def _fortran():
    return np.asfortranarray(B0)


def _read_only():
    b = B0.copy()
    b.flags.writeable = False
    return b


def _reversed_rows():
    return B0.copy()[::-1]


def _strided_cols():
    return np.repeat(B0, 2, axis=1)[:, ::2]


def _transposed():
    return B0.copy().T


for _make, _name in ((lambda: B0.astype(np.float32), "float32"),
                     (lambda: (B0 * 10).astype(np.int64), "int64"),
                     (lambda: B0 > 0, "bool"),
                     (lambda: B0.astype(np.complex128) * (1 - 1j), "complex"),
                     (lambda: _payload_border(B0).astype(np.complex128), "complex_payload"),
                     (_wide_view, "wide_view"), (_fortran, "fortran"),
                     (_read_only, "read_only"), (_reversed_rows, "reversed_rows"),
                     (_strided_cols, "strided_cols"), (_transposed, "transposed"),
                     (lambda: np.full((N, N), -0.0), "negative_zeros")):
    _target_kinds(_make, _name)


def _complex_chain(a, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1] * 1j) / a[1:-1, 1:-1]
    return b


@scenario
def s_complex_source_and_target(r):
    f = r.compile(_complex_chain)
    for src in ("plain", "bad_border", "bad_window"):
        b = _payload_border(B0).astype(np.complex128)
        r.call(f, SOURCES[src]().astype(np.complex128), b)


# ============================================================ warnings that may raise

def _filter_scenario(name, install, chain=_divide, source="bad_window"):
    """The chain over a source meeting a condition in its window (or its border), with
    ``install()`` run inside the second and third calls (inside ``r.call``'s own
    catch_warnings, so that its filters and hooks are the ones the call meets)."""
    def s(r):
        f = r.compile(chain)
        g = _under(install, f)
        r.call(f, SOURCES["plain"](), _payload_border(B0))
        r.call(g, SOURCES[source](), _payload_border(B0))
        r.call(g, SOURCES["plain"](), _payload_border(B0))
        r.call(f, SOURCES[source](), _payload_border(B0))
    s.__name__ = name
    scenario(s)


def _under(install, f):
    def call(*args):
        with _restored():
            install()
            return f(*args)
    return call


@contextlib.contextmanager
def _restored():
    """catch_warnings, and what it does not put back (the default action, the
    formatter, sys.stderr)."""
    saved = (warnings.defaultaction, warnings.formatwarning, sys.stderr)
    try:
        with warnings.catch_warnings():
            yield
    finally:
        warnings.defaultaction, warnings.formatwarning, sys.stderr = saved


def _error_everything():
    warnings.simplefilter("error")


def _error_by_message():
    warnings.filterwarnings("error", message="invalid value")


def _error_by_divide_message():
    warnings.filterwarnings("error", message=".*divide")


def _error_by_module():
    warnings.filterwarnings("error", category=RuntimeWarning, module="prog_round11")


def _error_on_warning_class():
    warnings.filterwarnings("error", category=Warning)


def _default_action_error():
    warnings.resetwarnings()
    warnings.defaultaction = "error"


class _Shown(Exception):
    pass


def _raising_showwarning():
    def show(message, category, filename, lineno, file=None, line=None):
        raise _Shown(str(message))
    warnings.simplefilter("always")
    warnings.showwarning = show


def stock_show_impl():
    """The warnings module's own ``_showwarnmsg_impl`` (formats and writes to
    sys.stderr): ``r.call`` and pytest record warnings (a list's ``append`` in its
    place), under which a program's ``formatwarning`` or ``sys.stderr`` is never used;
    a catch_warnings without ``record`` keeps whatever is there."""
    own = warnings._showwarning_orig.__globals__
    return next(o for o in gc.get_objects() if type(o) is types.FunctionType
                and o.__name__ == "_showwarnmsg_impl" and o.__globals__ is own)


def _raising_formatwarning():
    def fmt(message, category, filename, lineno, line=None):
        raise _Shown("format " + str(message))
    warnings.simplefilter("always")
    warnings.showwarning = warnings._showwarning_orig
    warnings._showwarnmsg_impl = stock_show_impl()
    warnings.formatwarning = fmt


class _BadStream(io.StringIO):
    def write(self, s):
        raise _Shown("stderr write")


def _raising_stderr():
    warnings.simplefilter("always")
    warnings.showwarning = warnings._showwarning_orig
    warnings._showwarnmsg_impl = stock_show_impl()
    sys.stderr = _BadStream()


for _name, _install in (("filter_error_all", _error_everything),
                        ("filter_error_message", _error_by_message),
                        ("filter_error_divide_message", _error_by_divide_message),
                        ("filter_error_module", _error_by_module),
                        ("filter_error_warning_class", _error_on_warning_class),
                        ("default_action_error", _default_action_error),
                        ("raising_showwarning", _raising_showwarning),
                        ("raising_formatwarning", _raising_formatwarning),
                        ("raising_stderr", _raising_stderr)):
    _filter_scenario(_name, _install)
    _filter_scenario(_name + "_border_only", _install, source="bad_border")
    _filter_scenario(_name + "_sqrt", _install, chain=_sqrt)


# ============================================================ filters set inside the program

def _simplefilter_inside(a, b, action):
    warnings.simplefilter(action)
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1]
    return b


def _catch_inside(a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1]
        except RuntimeWarning as e:
            return "caught", str(e), b
    return b


def _errstate_inside(a, b):
    with np.errstate(divide="raise", invalid="raise", over="raise"):
        try:
            b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1]
        except FloatingPointError as e:
            return "fpe", str(e), b
    return b


@scenario
def s_simplefilter_inside_flips(r):
    f = r.compile(_simplefilter_inside)
    with warnings.catch_warnings():
        for action in ("always", "error", "ignore", "error", "always"):
            for src in ("bad_window", "bad_border"):
                r.call(f, SOURCES[src](), _payload_border(B0), action)


@scenario
def s_catch_warnings_inside(r):
    f = r.compile(_catch_inside)
    for src in ("plain", "bad_window", "bad_border", "bad_window"):
        r.call(f, SOURCES[src](), _payload_border(B0))


@scenario
def s_errstate_inside(r):
    f = r.compile(_errstate_inside)
    for src in ("plain", "bad_window", "bad_border", "bad_window"):
        r.call(f, SOURCES[src](), _payload_border(B0))


@scenario
def s_seterrcall_raising(r):
    seen = []

    def call(kind, flag):
        seen.append(kind)
        if len(seen) % 2:
            raise _Shown(kind)
    f = r.compile(_divide)
    old = np.seterrcall(call)
    try:
        for src in ("plain", "bad_window", "bad_border", "bad_window", "plain"):
            with np.errstate(all="call"):
                r.call(f, SOURCES[src](), _payload_border(B0))
            r.see("seen", list(seen))
    finally:
        np.seterrcall(old)


@scenario
def s_seterr_raise_between(r):
    f = r.compile(_divide)
    for mode in ("warn", "raise", "ignore", "raise", "print", "warn"):
        with np.errstate(all=mode):
            r.call(f, SOURCES["bad_window"](), _payload_border(B0))
            r.call(f, SOURCES["bad_border"](), _payload_border(B0))


def _print_mode_bad_stderr(f):
    def call(*args):
        with _restored(), np.errstate(all="print"):
            _raising_stderr()
            return f(*args)
    return call


@scenario
def s_raising_stderr_print_mode(r):
    f = r.compile(_divide)
    r.call(f, SOURCES["plain"](), _payload_border(B0))
    r.call(_under(_raising_stderr, f), SOURCES["bad_window"](), _payload_border(B0))
    r.call(_print_mode_bad_stderr(f), SOURCES["bad_window"](), _payload_border(B0))
    r.call(_print_mode_bad_stderr(f), SOURCES["bad_border"](), _payload_border(B0))


def _target_is_source(a):
    a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return a


@scenario
def s_in_place_payload_border(r):
    f = r.compile(_target_is_source)
    for _ in range(3):
        a = _payload_border(A)
        out = r.call(f, a)
        r.see("bits", out[0].view(np.uint64).tolist())


def _two_sources(a, c, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + c[2:, 1:-1]) / c[1:-1, 1:-1]
    return b


@scenario
def s_target_aliases_second_source(r):
    f = r.compile(_two_sources)
    for src in ("plain", "plain", "bad_window", "bad_border"):
        c = SOURCES[src]()
        r.call(f, A.copy(), c, c)
        c = SOURCES[src]()
        r.call(f, A.copy(), c, c.reshape(-1).reshape(N, N))
        r.call(f, A.copy(), c, _payload_border(B0))


def _two_steps(a, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1]
    a[1:-1, 1:-1] = (b[:-2, 1:-1] - b[2:, 1:-1]) * b[1:-1, 1:-1]
    return a, b


@scenario
def s_two_steps_swapping(r):
    f = r.compile(_two_steps)
    for src in ("plain", "plain", "bad_window", "bad_border", "plain"):
        r.call(f, SOURCES[src](), _payload_border(B0))


# ============================================================ printed and logged conditions

@contextlib.contextmanager
def c_stderr(lines: list):
    """What C code writes to file descriptor 2 in the block (NumPy's ``print`` mode
    writes there with C's stdio, past ``sys.stdout`` and ``sys.stderr``, where
    ``r.call`` cannot see it), appended to ``lines``."""
    libc = ctypes.CDLL(None)
    sys.stderr.flush()
    libc.fflush(None)
    saved = os.dup(2)
    with tempfile.TemporaryFile() as t:
        os.dup2(t.fileno(), 2)
        try:
            yield lines
        finally:
            libc.fflush(None)
            os.dup2(saved, 2)
            os.close(saved)
            t.seek(0)
            lines += t.read().decode().splitlines()


class _Log:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)


def _printing(name, chain, sources, mode):
    def s(r):
        f = r.compile(chain)
        for src in sources:
            lines = []
            log = _Log()
            old = np.seterrcall(log)
            try:
                with c_stderr(lines), np.errstate(all=mode):
                    r.call(f, src(), _payload_border(B0))
            finally:
                np.seterrcall(old)
            r.see("printed", lines)
            r.see("logged", log.lines)
    s.__name__ = name
    scenario(s)


_PLAIN, _WIN, _BORDER = SOURCES["plain"], SOURCES["bad_window"], SOURCES["bad_border"]
for _mode in ("print", "log"):
    _printing(f"divide_{_mode}_mode", _divide, (_PLAIN, _PLAIN, _WIN, _BORDER, _WIN), _mode)
    _printing(f"sqrt_{_mode}_mode", _sqrt, (_PLAIN, _BORDER, _WIN, _PLAIN, _WIN), _mode)
    _printing(f"square_{_mode}_mode", _square, (_PLAIN, _PLAIN, _WIN, _WIN, _BORDER), _mode)


BIG = rng.standard_normal(1_200_000)


def _big_chain(x):
    return np.sqrt(x) * 2.0 + 1.0 / x + np.log(np.abs(x))


def _big_sources():
    bad = BIG.copy()
    bad[[5, 400_000, 1_100_000]] = 0.0
    return (lambda: np.abs(BIG) + 0.5, lambda: np.abs(BIG) + 0.5, lambda: BIG.copy(),
            lambda: bad.copy(), lambda: np.abs(bad))


for _mode in ("print", "log", "call"):
    def _s(r, mode=_mode):
        f = r.compile(_big_chain)
        for src in _big_sources():
            lines, log = [], _Log()
            old = np.seterrcall(log if mode != "call" else log.write)
            try:
                with c_stderr(lines), np.errstate(all=mode):
                    r.call(f, src())
            finally:
                np.seterrcall(old)
            r.see("printed", lines)
            r.see("logged", log.lines)
    _s.__name__ = f"blockwise_{_mode}_mode"
    scenario(_s)
