"""Round 48, arguments (issue #17): two array arguments over one buffer. The trace sees
two placeholders (or one, for ``f(x, x)``), and nothing in a guard tells ``f(x[1:],
x[:-1])`` from ``f(a[1:], b[:-1])``: same shapes, strides and dtypes. Each body writes
one argument (an augmented assignment, ``out=``, ``[...] =``, ``np.copyto``, a sort, a
fill) and reads the other before and after. Every body is registered twice by ``pair``:
traced on distinct buffers and then called on one shared buffer, and the other way round
(``_first``): the shared layout is the same ``mk(x, x)`` as the distinct ``mk(x, y)``.

    >>> def _iadd(a, b):         # f(x[1:], x[:-1]): b[1:] is a[:-1]
    ...     a += b
    ...     return a
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round48_args")


def _v(n=12, k=0.0):
    return np.arange(n, dtype=np.float64) * 0.75 - 3.0 + k


def _m(n=4, k=0.0):
    return (np.arange(n * n, dtype=np.float64).reshape(n, n) - 5.0) * 0.5 + k


def pair(fn, mk, base=_v, name=None):
    """Two programs: ``fn`` on ``mk(x, y)`` (two buffers) twice, then on ``mk(x, x)``
    twice, then ``mk(x, y)`` again; and ``_first``, the shared buffer first."""
    name = name or fn.__name__.removeprefix("_")

    def distinct():
        return mk(base(), base(k=10.0))

    def shared():
        x = base()
        return mk(x, x)

    reg.case(fn, distinct, shared, name=name)
    reg.case(fn, shared, distinct, name=name + "_first")


def same(x, y):
    return (x, y)


def shift(x, y):
    return (x[1:], y[:-1])


def rev(x, y):
    return (x, y[::-1])


def interleave(x, y):
    return (x[::2], y[1::2])


def halves(x, y):
    return (x[:6], y[6:])


def trans(x, y):
    return (x, y.T)


def flat(x, y):
    return (x.reshape(-1), y.ravel())


def column(x, y):
    return (x[:, 1], y[1, :])


# ----------------------------------------------------------------------------- bodies

def _iadd(a, b):
    a += b
    return a


pair(_iadd, shift)


def _iadd_scaled_then_read(a, b):
    a += b * 2.0
    return a + b


pair(_iadd_scaled_then_read, rev)


def _add_out_first(a, b):
    np.add(a, b, out=a)
    return b * 1.0


pair(_add_out_first, same)


def _add_out_reversed_other(a, b):
    np.add(a, b, out=b[::-1])
    return a.copy(), b.sum()


pair(_add_out_reversed_other, shift)


def _ellipsis_assign(a, b):
    a[...] = b + 1.0
    return b.sum()


pair(_ellipsis_assign, interleave)


def _sum_write_sum(a, b):
    s = b.sum()
    a *= 2.0
    return s, b.sum()


pair(_sum_write_sum, halves)


def _sum_write_sum_overlap(a, b):
    s = b.sum()
    a *= 2.0
    return s, b.sum(), b[0]


pair(_sum_write_sum_overlap, shift, name="sum_write_sum_shift")


def _slice_assign_reversed(a, b):
    a[:] = b[::-1]
    return a, b


pair(_slice_assign_reversed, same)


def _copy_before_write(a, b):
    c = b.copy()
    a -= 1.0
    return c, b


pair(_copy_before_write, rev)


def _out_then_product(a, b):
    np.multiply(a, 2.0, out=a)
    return b * 1.0


pair(_out_then_product, interleave, name="out_then_product_interleaved")
pair(_out_then_product, shift)


def _swap_ends(a, b):
    a[0] = b[-1]
    a[-1] = b[0]
    return a[0] + a[-1]


pair(_swap_ends, same)


def _copyto_other(a, b):
    np.copyto(a, b * 0.5)
    return a - b


pair(_copyto_other, rev)


def _sum_into_shift(a, b):
    t = a + b
    a[1:] = t[:-1]
    return a, t


pair(_sum_into_shift, shift)


def _exp_out_other(a, b):
    np.exp(b * 0.1, out=a)
    return b.max()


pair(_exp_out_other, shift)


def _sort_then_read(a, b):
    a.sort()
    return b * 2.0


pair(_sort_then_read, rev)


def _cumsum_out(a, b):
    np.cumsum(b, out=a)
    return a[-1], b[-1]


pair(_cumsum_out, shift)


def _strided_assign(a, b):
    a[::2] = b[1::2]
    return a.sum() + b.sum()


pair(_strided_assign, same)


def _fill_then_max(a, b):
    a.fill(0.0)
    return b.max()


pair(_fill_then_max, interleave)


def _clip_out(a, b):
    a.clip(-1.0, 1.0, out=a)
    return b + 0.0


pair(_clip_out, shift)


def _mask_assign(a, b):
    m = a > 0
    a[m] = b[m] * 10.0
    return a, m


pair(_mask_assign, rev)


def _shares_flags(a, b):
    return (bool(np.shares_memory(a, b)), bool(np.may_share_memory(a, b)), a + b)


pair(_shares_flags, interleave)


def _branch_on_is(a, b):
    if a is b:
        return a * 2.0
    return a + b


pair(_branch_on_is, same)


def _branch_on_shares(a, b):
    if np.shares_memory(a, b):
        a += 1.0
        return b.sum()
    return (a + b).sum()


pair(_branch_on_shares, shift)


def _two_outs(a, b):
    np.subtract(a, b, out=a)
    np.subtract(b, a, out=b)
    return a, b


pair(_two_outs, shift)


def _accumulate_out(a, b):
    np.maximum.accumulate(b, out=a)
    return a + b


pair(_accumulate_out, rev)


def _negative_out(a, b):
    np.negative(b, out=a)
    return a + b


pair(_negative_out, halves)


def _matrix_iadd_transpose(a, b):
    a += b
    return a.trace(), b[0, 1]


pair(_matrix_iadd_transpose, trans, base=_m)


def _matrix_flat_write(a, b):
    a[:5] = 7.0
    return b[:6].sum(), a


pair(_matrix_flat_write, flat, base=_m)


def _column_row_write(a, b):
    a *= -1.0
    return b.copy(), b[1]


pair(_column_row_write, column, base=_m)


def _divmod_outs(a, b):
    q, r = np.divmod(a, 3.0, out=(a, b))
    return q is a, r is b, a + b


pair(_divmod_outs, shift)


def _iv(n=12, k=0.0):
    return np.arange(n, dtype=np.int64) * 3 - 7 + int(k)


def _compare_write_compare(a, b):
    m1 = b > 0.0
    a -= 5.0
    m2 = b > 0.0
    return np.count_nonzero(m1 != m2), m2


pair(_compare_write_compare, shift)


def _int_twice_around_write(a, b):
    u = b * 3
    a += 7
    w = b * 3
    return (w - u).sum(), w


pair(_int_twice_around_write, rev, base=_iv)


def _w(n=6, k=0.0):
    return np.arange(1.0, n + 1.0) + k * 0.1


def _while_reads_other(a, b):
    n = 0
    while b[0] < 10.0:
        a += 1.0
        n += 1
        if n > 50:
            break
    return n, a[0], b[0]


pair(_while_reads_other, rev, base=_w)


def _while_sum_of_other(a, b):
    k = 0
    while b.sum() < 100.0 and k < 30:
        a *= 1.5
        k += 1
    return k


pair(_while_sum_of_other, same, base=_w)


def _loop_branch_on_other(a, b):
    for _ in range(10):
        if b[1] > 3.0:
            a[1] -= 1.0
        else:
            a[1] += 2.0
    return a[1]


pair(_loop_branch_on_other, same, base=_w)


def _loop_max_of_other(a, b):
    t = 0.0
    for _ in range(12):
        a[:] = a * 0.5 + 1.0
        t += b.max()
    return t


pair(_loop_max_of_other, rev, base=_w)
