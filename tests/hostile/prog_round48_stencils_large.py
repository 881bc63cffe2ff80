"""Round 48, stencils (2 of 2): the numpy backend's large-array paths over arrays that
share memory. A flat stencil pass writes straight into its target's window from
``flat_direct.MIN_DIRECT_ELEMENTS`` (32768) elements on, a window update in place
(``u[1:-1, 1:-1] += dt * lap``) runs as one 1-D pass with the boundary columns zeroed
meanwhile (``flat_updates``), and block-wise groups split the domain: here the target
and the sources are one buffer passed as two arguments (``f(X, X)``, ``f(X[1:],
X[:-1])``, ``f(X, X.T)``), the update's value is read from a view of the target, and
loops hand two arrays over (``A, B = B, A``) that are views of one buffer.

    >>> def _jacobi_into(A, B):          # f(X, X[1:]): B's window overlaps A's rows
    ...     B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    ...     return B
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round48_stencils")
case = reg.case


def _g(r=200, c=200, k=0.0):
    i = np.arange(r * c, dtype=np.float64).reshape(r, c)
    return np.sin(i * 0.013 + k) + np.cos(i * 0.007)


def _line(n=40000, k=0.0):
    return np.sin(np.arange(n, dtype=np.float64) * 0.011 + k)


def _pairs(mk, base=_g):
    def make():
        return mk(base())
    return make


def _jacobi_into(A, B):
    B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return B


case(_jacobi_into, (_g(), _g(k=1.0)), _pairs(lambda x: (x, x)), name="jacobi_into_same")
case(_jacobi_into, (_g(201), _g(201, k=1.0)[1:]), _pairs(lambda x: (x, x[1:]), lambda: _g(201)),
     name="jacobi_into_shifted_rows")
case(_jacobi_into, _pairs(lambda x: (x[:-1], x[1:]), lambda: _g(201)), (_g(200), _g(200, k=2.0)),
     name="jacobi_into_shifted_first")


def _update_from_view(u, v):
    lap = v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:] - 4.0 * v[1:-1, 1:-1]
    u[1:-1, 1:-1] += 0.1 * lap
    return u.sum()


case(_update_from_view, (_g(), _g(k=1.0)), _pairs(lambda x: (x, x)), name="update_from_same")
case(_update_from_view, (_g(), _g(k=1.0)), _pairs(lambda x: (x[:, :-1], x[:, 1:]), lambda: _g(200, 201)),
     name="update_from_shifted_columns")


def _heat_steps(u):
    for _ in range(3):
        u[1:-1, 1:-1] += 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                - 4.0 * u[1:-1, 1:-1])
    return u


case(_heat_steps, (_g(),), lambda: (_g(202)[1:-1],))


def _ping_pong(A, B):
    for _ in range(4):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A.sum(), B.sum()


case(_ping_pong, (_g(), _g(k=0.5)), _pairs(lambda x: (x[:-1], x[1:]), lambda: _g(201)),
     name="ping_pong_overlapping")


def _ping_pong_loop_node(A, B):
    for _ in range(12):
        B[1:-1] = 0.5 * (A[:-2] + A[2:])
        A, B = B, A
    return A, B


case(_ping_pong_loop_node, (_line(), _line(k=0.5)), _pairs(lambda x: (x[:-3], x[3:]), _line),
     name="ping_pong_loop_node_overlapping")


def _line_fused_into(a, b):
    a[...] = np.tanh(b) * 0.5 + b * b - 1.0
    return a


case(_line_fused_into, (_line(), _line(k=1.0)), _pairs(lambda x: (x, x[::-1]), _line),
     name="line_fused_into_reversed")
case(_line_fused_into, (_line(39000), _line(39000, 1.0)), _pairs(lambda x: (x[1000:], x[:-1000]), _line),
     name="line_fused_into_shifted")


def _line_iadd_fused(a, b):
    a += np.exp(b * 0.1) - b
    return a.sum()


case(_line_iadd_fused, (_line(), _line(k=1.0)), _pairs(lambda x: (x, x[::-1]), _line),
     name="line_iadd_fused_reversed")


def _line_three_point(x):
    x[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3.0
    return x


case(_line_three_point, (_line(),), lambda: (_line(80000)[::2],))


def _line_update_1d(u, v):
    u[1:-1] += 0.2 * (v[2:] - 2.0 * v[1:-1] + v[:-2])
    return u


case(_line_update_1d, (_line(), _line(k=1.0)), _pairs(lambda x: (x, x), _line),
     name="line_update_1d_same")
case(_line_update_1d, (_line(39999), _line(39999, 1.0)), _pairs(lambda x: (x[1:], x[:-1]), _line),
     name="line_update_1d_shifted")


def _transpose_target(A, B):
    B[1:-1, 1:-1] = A[:-2, 1:-1] - A[2:, 1:-1]
    return B


case(_transpose_target, (_g(), _g(k=1.0).T), _pairs(lambda x: (x, x.T)),
     name="transpose_target")


def _reduction_then_write(a, b):
    m = b.mean(axis=0)
    a[:] = a - m
    return a, b.mean(axis=0)


case(_reduction_then_write, (_g(), _g(k=1.0)), _pairs(lambda x: (x, x)), name="reduction_then_write_same")
case(_reduction_then_write, (_g(), _g(k=1.0)[::-1]), _pairs(lambda x: (x, x[::-1])),
     name="reduction_then_write_flipped")
