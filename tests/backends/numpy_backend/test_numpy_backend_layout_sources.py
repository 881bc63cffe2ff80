"""Buffer reuse through results whose layout NumPy fixes (``reuse.c_ordered``, issue #15).

A dead intermediate lends its buffer only when its layout is known to be eager's (C
order). ``np.pad``, the joins (``np.stack``, ``np.concatenate``, ``np.vstack``,
``np.hstack``, ``np.column_stack``), ``np.array`` of a list or of one array, random
draws, 2-D matrix products, ``x[idx]`` gathers, ``np.mgrid``/``np.indices`` grids,
ops with NumPy scalar operands and ``out=`` results have known layouts too: a stencil over a padded board
(``p[:-2, 1:-1] + p[2:, 1:-1] + ...``) then adds in place as NumPy's own temporary
elision does for plain code, instead of allocating one array per ``+``.

Each form is compared with eager over every argument layout of
test_numpy_backend_inplace (values, strides of the result, the arguments afterwards,
warnings), on the plain and the block-wise path; the source shows the reuse.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from harness import rand
from test_numpy_backend import compiled_graph
from test_numpy_backend_inplace import LAYOUTS, OPTIONS, differential


def pad_stencil(x, y):
    p = np.pad(x, 1)
    n = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
    return n * 2.0 + y


def pad_edge(x, y):
    p = np.pad(x, ((1, 1), (2, 2)), mode="edge")
    return (p[1:-1, 2:-2] - p[:-2, 4:]) * 0.5 + y


def stack_last(x, y):
    s = np.stack([x, y], -1)
    return np.exp(s) * 2.0 + 1.0


def joins(x, y):
    c = np.concatenate([x, y], axis=1)
    v = np.vstack([x, y]) * 3.0 - 1.0
    h = np.hstack([x, y])
    return c * 2.0 + h, v + 1.0, np.column_stack([x[0], y[0]]) * 2.0 + 1.0


def array_of(x, y):
    a = np.array([x[0] * 2.0, y[1]])
    b = np.array(x)
    return a * 2.0 + 1.0, np.exp(b) * 2.0 + y


def out_result(x, y):
    x += y
    t = np.exp(x) * 2.0      # x's layout: what += wrote into
    np.multiply(t, 3.0, out=t)
    return t + y


def products(x, y):
    # a 2-D matrix product is C-contiguous whatever its operands' layouts
    g = x.T @ y - 1.0
    return g * 2.0 + y[:23].T, np.dot(x, y.T) * 0.5 - x @ y.T


def gathered(x, y):
    # rows picked by an index array or a list: C order when x is (a mask's count is
    # data-dependent, a graph break: its gather is tested alone, below)
    idx = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    rows = np.exp(x[idx]) * 2.0 + y[:8]
    picked = (x[np.arange(0, 37, 3)] - 1.0) * 3.0
    return rows, picked, (x[[0, 2]] + 1.0) * 2.0


def drawn(x, rng):
    r = rng.random(x.shape)
    n = rng.standard_normal(x.shape)
    return (r * 2.0 + n) * x + 1.0


def grid_rotation(x, y):
    # np.mgrid fills np.empty of the grid: C order whatever the arguments' layout (a
    # grid of more than 65,536 values: not folded into a constant)
    yy, xx = np.mgrid[0:300, 0:250]
    xs = 0.8 * (xx - x[0, 0]) + 0.6 * (yy - y[0, 0])
    return (xs * 2.0 - 1.0)[:37, :23] * x + y


def scalar_operands(x, y):
    # NumPy scalar operands (0.18 / np.exp(...), s.max() ** 2, as in a tone mapping)
    # have no axes: the results are C-ordered when x and y are, and lend their buffers
    s = 0.18 / np.exp(np.mean(np.log(x + 1.0))) * x
    return s * (1 + s / s.max() ** 2) / (1 + s) + y


FORMS = [("pad stencil", pad_stencil), ("pad edge", pad_edge), ("stack last", stack_last),
         ("joins", joins), ("array of", array_of), ("out result", out_result),
         ("products", products), ("gathered", gathered), ("grid rotation", grid_rotation),
         ("scalar operands", scalar_operands)]


@pytest.mark.parametrize("path", list(OPTIONS))
@pytest.mark.parametrize("name, fn", FORMS, ids=[f[0] for f in FORMS])
def test_results_keep_eagers_layout(name, fn, path):
    differential(fn, rand(37, 23), rand(37, 23, seed=1), options=OPTIONS[path],
                 rtol=1e-5, atol=1e-5, layouts=list(LAYOUTS))


def masked(x, y):
    return (x[y[:, 0] > 0.5] - 1.0) * 3.0 + 2.0


@pytest.mark.parametrize("path", list(OPTIONS))
def test_masked_rows_keep_eagers_layout(path):
    differential(masked, rand(37, 23), rand(37, 23, seed=1), options=OPTIONS[path],
                 rtol=1e-5, atol=1e-5, layouts=list(LAYOUTS), graphs=None)


@pytest.mark.parametrize("path", list(OPTIONS))
def test_draws_keep_eagers_layout(path):
    differential(drawn, rand(37, 23), np.random.default_rng(3), options=OPTIONS[path],
                 rtol=1e-5, atol=1e-5, layouts=list(LAYOUTS))


def test_a_padded_stencil_adds_in_place():
    # every + of the neighbour sum writes into the previous sum (C order whenever x is,
    # so x's layout is checked on entry); the padded array itself is never written
    src = compiled_graph(pad_stencil, rand(37, 23), rand(37, 23, seed=1)).__dynamo_source__
    assert "if not ((x.flags.c_contiguous or _row_major(x)))" in src, src
    assert len(re.findall(r", add(_\d+)?\)", src)) >= 3, src
    assert "out=pad" not in src and ", pad)" not in src, src


def test_joins_draws_and_lists_lend_their_buffers():
    for fn, args, donor in [(stack_last, (rand(37, 23), rand(37, 23, seed=1)), "out=exp"),
                            (drawn, (rand(37, 23), np.random.default_rng(3)),
                             "out=multiply"),   # (a draw itself is an effect: kept)
                            (array_of, (rand(37, 23), rand(37, 23, seed=1)),
                             "out=multiply"),
                            (products, (rand(37, 23), rand(37, 23, seed=1)),
                             "out=matmul"),
                            (gathered, (rand(37, 23), rand(37, 23, seed=1)),
                             "out=exp"),
                            (grid_rotation, (rand(37, 23), rand(37, 23, seed=1)),
                             "out=subtract_1"),
                            (scalar_operands, (rand(37, 23), rand(37, 23, seed=1)),
                             "out=divide")]:
        src = compiled_graph(fn, *args).__dynamo_source__
        # (a ufunc that takes it positionally gets the buffer last: positional_out.py)
        assert donor in src or f", {donor[4:]}" in src, src
