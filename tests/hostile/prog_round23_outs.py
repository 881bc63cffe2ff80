"""Round 23, ufunc output buffers (``backends/numpy_backend/positional_out.py``: generated
code passes its own buffers positionally, ``np.add(a, b, c)``; the program's own
``out=``). The program passes ``out=`` and positional outputs itself: the output is an
input (``np.add(a, b, out=a)``), overlaps one shifted or reversed, is a strided or
Fortran-order view, a 0-d array, of another dtype (a cast error under the default
``same_kind`` rule, allowed with ``casting="unsafe"``), of a shape that broadcasts or
does not; ``where=`` leaves part of it as it was; two-output ufuncs (``divmod``,
``modf``, ``frexp``) with a tuple; ``np.maximum(a, b, c)``, which NumPy 2.4
deprecates (a DeprecationWarning eagerly); the result is the output itself (``r is c``)
and later ops read it. Chains whose temporaries the numpy backend writes into its own
buffers are returned, kept across calls and written by the caller afterwards.

    >>> def _out_is_input(a, b):
    ...     r = np.add(a, b, out=a)
    ...     return r is a, a
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round23_outs")
case = reg.case
scenario = reg.scenario

A = np.linspace(-2.0, 3.0, 8)
B = np.linspace(1.0, 0.5, 8)
A4 = A.astype(np.float32)
N = np.arange(-4, 4)
AB = ((A, B), (A4, B), (N, B))


def _out_is_input(a, b):
    r = np.add(a, b, out=a)
    return r is a, a


def _positional_out_is_input(a, b):
    r = np.multiply(a, b, a)
    return r is a, a, b


def _out_is_second_input(a, b):
    np.subtract(a, b, out=b)
    return b


def _out_overlaps_shifted(a, b):
    np.add(a[:-1], b[1:], out=a[1:])
    return a


def _out_overlaps_reversed(a, b):
    np.multiply(a, 2.0, out=a[::-1])
    return a


def _out_strided_view(a, b):
    np.add(a[::2], b[::2], out=a[1::2])
    return a


def _out_fortran(a, b):
    out = np.empty((2, 4), order="F")
    r = np.add(a.reshape(2, 4), b.reshape(2, 4), out=out)
    return r is out, out


def _out_zero_d(a, b):
    z = np.zeros(())
    r = np.add(a.sum(), b.sum(), out=z)
    return r is z, z, type(r).__name__


def _out_int_from_float(a, b):
    out = np.zeros(len(a), np.int64)
    np.multiply(a, b, out=out)
    return out


def _out_int_unsafe(a, b):
    out = np.zeros(len(a), np.int64)
    np.multiply(a, b, out=out, casting="unsafe")
    return out


def _out_float32_same_kind(a, b):
    out = np.zeros(len(a), np.float32)
    r = np.divide(a, b, out=out)
    return r, r.dtype


def _out_broadcast(a, b):
    out = np.zeros((3, len(a)))
    np.add(a, b, out=out)
    return out


def _out_bad_shape(a, b):
    out = np.zeros(len(a) - 1)
    np.add(a, b, out=out)
    return out


def _out_where(a, b):
    out = np.full(len(a), -7.0)
    np.divide(a, b, out=out, where=a > 0)
    return out


def _out_where_positional(a, b):
    out = np.full(len(a), -7.0)
    np.sqrt(a, out, where=a >= 0)
    return out


def _out_tuple(a, b):
    out = np.empty(len(a))
    r = np.add(a, b, out=(out,))
    return r is out, out


def _out_none(a, b):
    return np.add(a, b, out=None)


def _out_twice(a, b):
    out = np.empty(len(a))
    np.add(a, b, out)
    np.multiply(out, out, out)
    np.negative(out, out)
    return out


def _out_read_after(a, b):
    out = np.empty(len(a))
    np.exp(a, out)
    s = out.sum()
    np.log(b, out)
    return s, out


def _out_both_ways(a, b):
    try:
        np.add(a, b, a, out=a)
    except TypeError as e:
        return str(e)
    return None


def _maximum_positional(a, b):
    out = np.empty(len(a))
    np.maximum(a, b, out)
    return out


def _minimum_positional_warning_error(a, b):
    out = np.empty(len(a))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            np.minimum(a, b, out)
        except DeprecationWarning as e:
            return "raised", str(e)[:40]
    return out


def _maximum_keyword(a, b):
    out = np.empty(len(a))
    np.maximum(a, b, out=out)
    np.fmin(out, b, out)
    return out


def _divmod_out(a, b):
    q, r = np.empty(len(a)), np.empty(len(a))
    res = np.divmod(a, b, out=(q, r))
    return res[0] is q, res[1] is r, q, r


def _divmod_positional(a, b):
    q, r = np.empty(len(a)), np.empty(len(a))
    np.divmod(a, b, q, r)
    return q, r


def _modf_positional(a, b):
    f, i = np.empty(len(a)), np.empty(len(a))
    np.modf(a, f, i)
    return f, i


def _frexp_out(a, b):
    m, e = np.empty(len(a)), np.empty(len(a), np.int32)
    np.frexp(a, out=(m, e))
    return m, e


def _divmod_out_aliased(a, b):
    np.divmod(a, b, out=(a, b))
    return a, b


def _out_sqrt_negative(a, b):
    np.sqrt(a, out=a)
    return a


def _out_sqrt_errstate(a, b):
    with np.errstate(invalid="raise"):
        try:
            np.sqrt(a, a)
        except FloatingPointError:
            return "raised", a
    return a


for _fn in (_out_is_input, _positional_out_is_input, _out_is_second_input,
            _out_overlaps_shifted, _out_overlaps_reversed, _out_strided_view, _out_fortran,
            _out_zero_d, _out_int_from_float, _out_int_unsafe, _out_float32_same_kind,
            _out_broadcast, _out_bad_shape, _out_where, _out_where_positional, _out_tuple,
            _out_none, _out_twice, _out_read_after, _out_both_ways, _maximum_positional,
            _minimum_positional_warning_error, _maximum_keyword, _divmod_out,
            _divmod_positional, _modf_positional, _frexp_out, _divmod_out_aliased,
            _out_sqrt_negative, _out_sqrt_errstate):
    case(_fn, *AB)


def _out_given(a, b, out):
    r = np.add(a, b, out=out)
    return r is out, out


def _out_given_positional(a, b, out):
    r = np.multiply(a, b, out)
    return r is out


case(_out_given, (A, B, np.zeros(8)), (A, B, np.zeros(8, np.float32)), (A, B, np.zeros(8, int)),
     (A, B, np.zeros((2, 8))))
case(_out_given_positional, (A, B, np.zeros(8)), (A4, B, np.zeros(8, np.float32)),
     (A, B, None))
case(_out_given, lambda: (lambda a: (a, B.copy(), a))(A.copy()),
     lambda: (lambda b: (A.copy(), b, b[::-1]))(B.copy()), name="out_given_aliased")


# ------------------------------------------------- the backend's own buffers


def _chain_returned(a, b):
    t = a * b + 1.0
    u = np.exp(-t) * t
    return t, u, u / (t + 2.0)


def _chain_in_place(a, b):
    t = a * b
    t += 1.0
    t *= t
    np.sqrt(t, out=t)
    return t


def s_chain_kept(r):
    """Results of a chain are kept, and the caller writes into one between calls: the
    next call must not hand out the same memory."""
    f = r.compile(_chain_returned)
    first = r.call(f, A.copy(), B.copy())
    first[0][...] = 99.0
    second = r.call(f, A.copy(), B.copy())
    r.see("first after second", first)
    second[1][...] = -1.0
    r.call(f, A.copy() * 2, B.copy())
    r.see("second after third", second)


def _big_chain(a, b):
    t = a * b + 1.0
    u = np.tanh(t) * 2.0 - t
    np.multiply(u, u, out=u)
    return u + t


BIG_A = np.linspace(-3.0, 3.0, 300_000)
BIG_B = np.linspace(1.0, 2.0, 300_000)


def s_big_kept(r):
    f = r.compile(_big_chain)
    first = r.call(f, BIG_A.copy(), BIG_B.copy())
    first[:10] = 0.0
    r.call(f, BIG_A.copy(), BIG_B.copy())
    r.see("first", first)


def _big_out_is_input(a, b):
    np.add(a, b, a)
    np.multiply(a, a, out=b)
    return b[:5].copy(), a.sum()


scenario(s_chain_kept)
scenario(s_big_kept)
case(_chain_in_place, *AB)
case(_big_out_is_input, (BIG_A, BIG_B))


def _reduce_out(a, b):
    out = np.zeros(())
    np.add.reduce(a, out=out)
    return out, np.sum(b, out=np.zeros(()))


def _accumulate_out(a, b):
    out = np.empty(len(a))
    np.add.accumulate(a, out=out)
    return out


def _outer_out(a, b):
    out = np.empty((len(a), len(b)))
    np.multiply.outer(a, b, out=out)
    return out.sum()


case(_reduce_out, *AB)
case(_accumulate_out, *AB)
case(_outer_out, *AB)


def _out_dtype_argument(a, b):
    out = np.empty(len(a), np.float32)
    np.add(a, b, out=out, dtype=np.float64)
    return out


def _out_subok(a, b):
    out = np.ma.zeros(len(a))
    np.add(a, b, out=out)
    return type(out).__name__


case(_out_dtype_argument, *AB)
case(_out_subok, *AB)
