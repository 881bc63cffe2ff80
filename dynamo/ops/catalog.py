"""The ops the registry knows, one module per family (importing them registers them).

=============  ============================================================
module         ops
=============  ============================================================
elementwise    every ufunc, clip/round/isclose/nan_to_num, where, astype, view
reductions     sum/mean/var/argmax/median/nan*/norm, cumsum/cumprod, diff
linalg         matmul, dot, vdot, inner, outer, tensordot, einsum, trace, diag
lapack         linalg.solve/inv/pinv/det/slogdet/cholesky/qr/eigh/eigvalsh/svd
shaping        reshape/transpose/... views, ravel, tile, repeat, roll, pad, sort
joining        concatenate, stack, h/v/dstack, split, array_split
creation       zeros/ones/full/empty(+_like), arange, linspace, eye, array, copy,
               ascontiguousarray, meshgrid
selection      take, take_along_axis, choose, select, copyto/putmask/put/fill,
               fill_diagonal
statistics     percentile/quantile (and nan*), histogram
spectral       np.fft transforms (1-d, 2-d, n-d), fftfreq/rfftfreq, fftshift,
               window functions (hanning, hamming, blackman, bartlett, kaiser)
numerics       polyval, polyfit, convolve, correlate, interp
routines       cov, corrcoef, average, append, insert, delete, block, isin,
               partition
routines_math  kron, cross, linalg.multi_dot, gradient, trapezoid, unwrap, indices,
               triu_indices/tril_indices (+ _from)
indexing       getitem, setitem
data_sizes     nonzero, flatnonzero, argwhere, unique (and unique_*), bincount,
               extract, compress, set operations (intersect1d...), trim_zeros,
               sym_size: results whose size only the data decides (unbacked sizes)
ufuncs         ufunc methods: np.add.reduce, np.maximum.accumulate, reduceat, outer, at
checks         data_check: `assert`/`if ...: raise` on array data, rerun if it fails
branches       branch_select: the value an `if` on array data chooses (both ways traced)
errstate       `with np.errstate(...)`: entering and leaving it, as two effect ops
loops          fori_loop (a traced `for` loop over a range), while_loop (a `while`
               loop on a 0-d array test), after_loop
random         np.random legacy functions (rand, normal, choice, shuffle, ...)
generator      methods of Generator and RandomState objects passed in (rng.normal...)
=============  ============================================================

``docs/ops.md`` is the coverage table: every op, its kind, and what breaks and why.
"""

from . import (  # noqa: F401  (each module registers its ops)
    branches,
    checks,
    creation,
    data_sizes,
    elementwise,
    errstate,
    generator,
    indexing,
    joining,
    lapack,
    linalg,
    loops,
    numerics,
    random,
    reductions,
    routines,
    routines_math,
    selection,
    shaping,
    spectral,
    statistics,
    ufuncs,
)
