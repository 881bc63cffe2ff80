"""Round 11, tier 2's written inputs without a backup (``backends/native/saves.py``
``free_inputs``, ``error_state.rerun_completes``): loops that store into an input before
reading it (a Jacobi pair, an ``out`` argument, a prefix sum in place), called with
values that make the kernel flag a condition (overflow, division by zero, NaN) while
a RuntimeWarning may become an exception mid-loop: a warnings filter of "error" (all,
by message, by category), ``np.errstate`` raise or call with a raising callback, a
raising ``showwarning``/``formatwarning``, a ``sys.stderr`` whose ``write`` raises, a
``catch_warnings`` inside the program; and inputs aliased with each other or with a
view of each other. Compiled with ``backend="native"``, tier 2 from the second call;
each call's arguments afterwards must be eager's, bit for bit."""

import warnings

import numpy as np
from hostile_check import Programs
from prog_round11_stencils import _BadStream, _restored, _Shown, c_stderr, stock_show_impl

import dynamo

reg = Programs("round11_native")
NATIVE = {"after_calls": 1, "background": False, "prefer": "native"}
N = 24


def _grids(big=False):
    a = np.random.default_rng(111).random((N, N))
    if big:
        a[N // 2:N // 2 + 2] = 1e308
    return a, a * 0.5


def _jacobi(A, B):
    for _ in range(6):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A, B


def _recip_out(a, out):
    for i in range(a.shape[0]):
        out[i] = 1.0 / a[i]
    return out


def _prefix(x):
    for i in range(1, x.shape[0]):
        x[i] = x[i - 1] + x[i]
    return x


def _vec(big):
    v = np.linspace(1.0, 2.0, 40)
    if big:
        v[17] = 0.0
        v[30] = -0.0
    return v


def _pre(big):
    v = np.linspace(1.0, 2.0, 40)
    if big:
        v[20:23] = 1e308
    return v


KERNELS = {
    "jacobi": (_jacobi, lambda big: _grids(big)),
    "recip_out": (_recip_out, lambda big: (_vec(big), np.full(40, -3.0))),
    "prefix": (_prefix, lambda big: (_pre(big),)),
}


def _filter_error():
    warnings.simplefilter("error")


def _filter_error_overflow():
    warnings.filterwarnings("error", message="overflow")


def _filter_error_category():
    warnings.simplefilter("always")
    warnings.filterwarnings("error", category=RuntimeWarning)


def _show_raises():
    def show(message, category, filename, lineno, file=None, line=None):
        raise _Shown(str(message))
    warnings.simplefilter("always")
    warnings.showwarning = show


def _format_raises():
    def fmt(message, category, filename, lineno, line=None):
        raise _Shown("format")
    warnings.simplefilter("always")
    warnings.showwarning = warnings._showwarning_orig
    warnings._showwarnmsg_impl = stock_show_impl()
    warnings.formatwarning = fmt


def _stderr_raises():
    warnings.simplefilter("always")
    warnings.showwarning = warnings._showwarning_orig
    warnings._showwarnmsg_impl = stock_show_impl()
    import sys
    sys.stderr = _BadStream()


def _stderr_none():
    warnings.simplefilter("always")
    warnings.showwarning = warnings._showwarning_orig
    warnings._showwarnmsg_impl = stock_show_impl()
    import sys
    sys.stderr = None


def _ignore_all():
    warnings.simplefilter("ignore")


INSTALLS = {"filter_error": _filter_error, "filter_error_overflow": _filter_error_overflow,
            "show_raises": _show_raises, "format_raises": _format_raises,
            "stderr_raises": _stderr_raises, "stderr_none": _stderr_none}
# (also a jacobi kernel: the file's CPU time is mostly Numba compiling kernels)
INSTALLS_JACOBI_ONLY = {"filter_error_category": _filter_error_category,
                        "ignore_all": _ignore_all}


def _under(install, f):
    def call(*args):
        with _restored():
            install()
            return f(*args)
    return call


def _compiled(r, fn):
    return dynamo.compile(fn, backend="native", options=NATIVE) if r.compiled else fn


def _add(kname, iname):
    fn, make = KERNELS[kname]
    install = {**INSTALLS, **INSTALLS_JACOBI_ONLY}[iname]

    def s(r):
        f = _compiled(r, fn)
        g = _under(install, f)
        r.call(f, *make(False))          # tier 1
        r.call(f, *make(False))          # tier 2
        r.call(g, *make(True))
        r.call(g, *make(False))
        r.call(f, *make(True))
    s.__name__ = f"{kname}_{iname}"
    reg.scenario(s)


for _k in KERNELS:
    for _i in INSTALLS:
        _add(_k, _i)
for _i in INSTALLS_JACOBI_ONLY:
    _add("jacobi", _i)


def _add_errstate(kname, mode):
    fn, make = KERNELS[kname]

    def s(r):
        f = _compiled(r, fn)
        r.call(f, *make(False))
        r.call(f, *make(False))
        for _ in range(2):
            printed = []   # print mode writes to C's stderr: r.call cannot see it
            with c_stderr(printed), np.errstate(all=mode):
                r.call(f, *make(True))
                r.call(f, *make(False))
            r.see("printed", printed)
    s.__name__ = f"{kname}_errstate_{mode}"
    reg.scenario(s)


for _k in KERNELS:
    for _m in ("raise", "ignore", "print"):
        _add_errstate(_k, _m)


def _add_seterrcall(kname):
    fn, make = KERNELS[kname]

    def s(r):
        seen = []

        def call(kind, flag):
            seen.append(kind)
            if len(seen) == 1:
                raise _Shown(kind)
        f = _compiled(r, fn)
        r.call(f, *make(False))
        r.call(f, *make(False))
        old = np.seterrcall(call)
        try:
            for _ in range(2):
                with np.errstate(all="call"):
                    r.call(f, *make(True))
        finally:
            np.seterrcall(old)
        r.see("seen", seen)
    s.__name__ = f"{kname}_seterrcall_raising"
    reg.scenario(s)


for _k in KERNELS:
    _add_seterrcall(_k)


# ============================================================ catch_warnings inside

def _jacobi_catching(A, B):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            for _ in range(6):
                B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2]
                                        + A[1:-1, 2:])
                A, B = B, A
        except RuntimeWarning as e:
            return "caught", str(e)
    return A, B


def _recip_catching(a, out):
    try:
        with np.errstate(divide="raise"):
            for i in range(a.shape[0]):
                out[i] = 1.0 / a[i]
    except FloatingPointError as e:
        return "fpe", str(e), out
    return out


for _fn, _make in ((_jacobi_catching, _grids), (_recip_catching,
                                                 lambda big: (_vec(big), np.full(40, -3.0)))):
    def _s(r, fn=_fn, make=_make):
        f = _compiled(r, fn)
        for big in (False, False, True, False, True):
            r.call(f, *make(big))
    _s.__name__ = _fn.__name__.removeprefix("_")
    reg.scenario(_s)


# ============================================================ aliased inputs

def _aliased(name, args_of):
    def s(r):
        f = _compiled(r, _jacobi)
        for big in (False, False, True, False):
            r.call(f, *args_of(big))
    s.__name__ = name
    reg.scenario(s)


_aliased("jacobi_same_array", lambda big: (_grids(big)[0],) * 2)
_aliased("jacobi_transposed", lambda big: (lambda a: (a, a.T))(_grids(big)[0]))
_aliased("jacobi_shifted_view", lambda big: (lambda a: (a[:-1], a[1:]))(
    np.concatenate([_grids(big)[0], np.ones((1, N))])))
_aliased("jacobi_reversed", lambda big: (lambda a: (a, a[::-1]))(_grids(big)[0]))
_aliased("jacobi_fortran_target", lambda big: (_grids(big)[0],
                                               np.asfortranarray(_grids(big)[1])))


def _recip_aliased(name, args_of):
    def s(r):
        f = _compiled(r, _recip_out)
        for big in (False, False, True, False):
            r.call(f, *args_of(big))
    s.__name__ = name
    reg.scenario(s)


_recip_aliased("recip_into_itself", lambda big: (lambda v: (v, v))(_vec(big)))
_recip_aliased("recip_into_reversed", lambda big: (lambda v: (v, v[::-1]))(_vec(big)))
_recip_aliased("recip_into_shifted", lambda big: (lambda v: (v[1:], v[:-1]))(_vec(big)))
