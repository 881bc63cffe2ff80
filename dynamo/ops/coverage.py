"""The coverage table of the registry, as ``docs/ops.md`` shows it.

``python -m dynamo.ops.coverage > docs/ops.md`` regenerates the page from the
registry itself, so the page lists exactly the ops that exist; the notes below say,
per op, which calls are graph breaks and why. ``ISSUE_FUNCTIONS`` is the list of
functions the project set out to cover (the tests check every one is registered, and
that the page is current).

Example::

    >>> print(table().splitlines()[2])
    | `absolute` | elementwise | `np.absolute` | `where=` without `out=` breaks ... |
"""

from __future__ import annotations

import numpy as np

from .registry import _FUNCTIONS, _METHODS, _PROPERTIES, REGISTRY

ISSUE_FUNCTIONS = {
    "elementwise": "add subtract multiply divide true_divide floor_divide negative positive "
                   "equal not_equal less less_equal greater greater_equal logical_and "
                   "logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor "
                   "invert left_shift right_shift exp exp2 expm1 log log2 log10 log1p sin "
                   "cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh "
                   "floor ceil trunc rint round around abs absolute sign sqrt cbrt square "
                   "reciprocal clip maximum minimum fmax fmin hypot arctan2 power "
                   "float_power mod fmod divmod copysign isnan isinf isfinite nan_to_num "
                   "where",
    "reductions": "sum prod mean var std max min amax amin argmax argmin any all cumsum "
                  "cumprod ptp median nansum nanmean nanmax linalg.norm",
    "linalg": "matmul dot vdot inner outer tensordot einsum trace diag diagonal",
    "shapes": "reshape ravel transpose swapaxes moveaxis expand_dims squeeze broadcast_to "
              "concatenate stack hstack vstack dstack split array_split tile repeat flip "
              "roll pad tril triu sort argsort",
    "creation": "zeros ones full empty zeros_like ones_like full_like empty_like arange "
                "linspace eye identity tri asarray array copy",
    "selection": "take take_along_axis choose select",
    # the gaps the real-world audit found (docs/realworld.md)
    "audit": "linalg.solve linalg.inv linalg.pinv linalg.det linalg.slogdet linalg.cholesky "
             "linalg.qr linalg.eigh fill_diagonal ascontiguousarray asfortranarray "
             "percentile quantile nanpercentile polyval polyfit isclose atleast_1d "
             "atleast_2d atleast_3d meshgrid histogram convolve correlate interp "
             "searchsorted",
}
# Generator methods realistic code calls, and the ufunc methods (both must be ops).
ISSUE_GENERATOR_METHODS = "normal random integers standard_normal uniform choice " \
                          "permutation shuffle exponential poisson".split()
ISSUE_UFUNC_METHODS = "reduce accumulate outer at".split()
ISSUE_METHODS = "flatten ravel reshape transpose sum mean astype view copy sort argsort " \
                "take choose repeat".split()

_UFUNC_NOTE = ("`where=` without `out=` breaks (the result would hold uninitialised "
               "memory); `out=` of several arrays breaks")
NOTES = {
    "random_seed": "a seed other than an int or None breaks (it runs eagerly, in order)",
    "errstate_enter": "`call=` (a callable) breaks; a break inside the block runs the "
                      "whole `with` eagerly; dropped from CuPy graphs (CuPy ignores it)",
    "where": "one-argument `np.where(c)` breaks: the number of indices depends on the data",
    "nan_to_num": "`copy=False` breaks (it writes into its argument)",
    "astype": "`copy=False` may return the array itself (kept as NumPy does it)",
    "view": "only a dtype of the same itemsize; other itemsizes and `type=` break",
    "median": "`overwrite_input=True` breaks", "nanmedian": "`overwrite_input=True` breaks",
    "count_nonzero": "captured whenever NumPy returns an array or NumPy scalar",
    "diff": "`prepend=`/`append=` and `n=0` break",
    "dot": "`out=` breaks", "outer": "`out=` breaks", "einsum": "`out=` and the interleaved "
    "(operand, sublist) form break", "tensordot": "`out=` breaks; axes must be constants",
    "trace": "`out=` breaks",
    "matmul": "`axes=`/`axis=` break; `out=` must have exactly the result's shape",
    "concatenate": "`out=` breaks; an array as the sequence breaks", "stack": "`out=` breaks",
    "split": "returns a list of views; sections must be constants",
    "array_split": "returns a list of views; sections must be constants",
    "repeat": "repeats must be constants (an array of repeats sizes the result by data)",
    "tile": "reps must be constants", "pad": "a function as `mode` breaks; widths constant",
    "sort": "`order=` (structured arrays) breaks", "argsort": "`order=` breaks",
    "sort_inplace": "`x.sort()`: sorts in place and returns None",
    "take_along_axis": "constant (non-array) indices break",
    "choose": "`out=` and choices given as one array break",
    "select": "condlist and choicelist must be lists or tuples",
    "getitem": "a traced boolean mask breaks (result size is data); a slice bound that "
               "is a traced array breaks",
    "setitem": "`x[mask] = v` works for a scalar `v` (or one row); an array `v` whose "
               "fit depends on the number of True elements breaks; complex into real breaks",
    "linspace": "`retstep=True` breaks", "logspace": "an array `base` breaks",
    "arange": "array arguments break", "array": "`like=` and `ndmax=` break",
    "asarray": "returns its argument itself when no conversion is needed",
    "random_choice": "`size=None` and `p=` as an array break",
    "random_rand": "no arguments breaks (returns a Python float)",
    "random_randn": "no arguments breaks (returns a Python float)",
    "generator_choice": "without `size=`, an int population breaks (a Python int); a 0-d "
                        "array population breaks",
    "generator_integers": "without `size=` a NumPy scalar (captured); `dtype=bool` then "
                          "gives a Python bool: a break",
    "generator_permutation": "a 0-d array breaks", "generator_permuted": "`out=` breaks",
    "generator_shuffle": "shuffles in place and returns None",
    "generator_dirichlet": "an empty `alpha` breaks",
    "generator_multivariate_normal": "an empty `mean` breaks",
    "randomstate_shuffle": "shuffles in place and returns None",
    "solve": "b is (M,) or (..., M, K) (NumPy 2); LinAlgError when the graph runs; inside "
             "`try` it breaks",
    "inv": "LinAlgError when the graph runs; inside `try` it breaks",
    "cholesky": "LinAlgError when the graph runs; inside `try` it breaks",
    "matrix_power": "LinAlgError (n < 0) when the graph runs; inside `try` it breaks",
    "pinv": "`rcond`/`rtol` must be constants; inside `try` it breaks",
    "eigh": "returns EighResult; inside `try` it breaks",
    "eigvalsh": "inside `try` it breaks", "svd": "returns SVDResult; inside `try` it breaks",
    "qr": "returns QRResult; deprecated modes break", "slogdet": "returns SlogdetResult",
    "fill_diagonal": "writes in place, returns None",
    "ascontiguousarray": "returns its argument itself when it is already C-contiguous",
    "asfortranarray": "returns its argument itself when it is already F-contiguous",
    "meshgrid": "`copy=False` breaks (views of the inputs)",
    "percentile": "`out=`, `weights=`, `overwrite_input=True` break",
    "quantile": "`out=`, `weights=`, `overwrite_input=True` break",
    "nanpercentile": "`out=`, `weights=`, `overwrite_input=True` break",
    "nanquantile": "`out=`, `weights=`, `overwrite_input=True` break",
    "histogram": "a string `bins` ('auto'...) breaks: the number of bins comes from the "
                 "data; inside `try` it breaks",
    "histogram_bin_edges": "a string `bins` breaks",
    "polyfit": "`full=True` (residuals' shape is data) and `cov=` break",
    "polyval": "poly1d objects break",
    "interp": "`left`/`right` arrays break",
    "ufunc_reduce": "reduceat is not captured (a break)",
    "ufunc_outer": "`out=` and `where=` break",
    "ufunc_at": "writes in place, returns None; a traced boolean mask index breaks",
    "take": "`out=` breaks; index values are checked when the graph runs; `mode='wrap'` "
            "along an empty axis breaks (NumPy loops forever there)",
}
_RANDOM_NOTE = ("draws from NumPy's global RandomState when the graph runs, in program "
                "order; without `size=` and with scalar parameters it returns a Python "
                "number: a break")
_OBJECT_NOTE = ("calls the method of the object passed in when the graph runs, in program "
                "order; without `size=` and with scalar parameters it returns a Python "
                "number: a break")


def _callers(name: str) -> str:
    from ..variables.arrays import library_name, library_root

    op = REGISTRY[name]
    if name in ("errstate_enter", "errstate_exit"):
        return "`with np.errstate(...)`"
    if name == "random_seed":
        return "`np.random.seed(n)`"
    if "method_of" in op.extras:  # a method of a Generator / RandomState passed in
        obj = "rng" if op.extras["method_of"] == "Generator" else "rs"
        return f"`{obj}.{op.extras['name']}()`"
    if "method" in op.extras:     # a ufunc method
        return f"`np.<ufunc>.{op.extras['method']}()`"
    names = [f"`{library_name(fn)}`" for fn, op, _ in _FUNCTIONS.values()
             if op.name == name and library_root(fn) != "cupy"]
    names += [f"`x.{m}()`" for m, (op, _) in _METHODS.items() if op.name == name]
    names += [f"`x.{p}`" for p, op in _PROPERTIES.items() if op.name == name]
    return ", ".join(dict.fromkeys(names)) or "(operators and the translator)"


def table() -> str:
    rows = ["| op | kind | captured from | what breaks, and why |",
            "|---|---|---|---|"]
    for name in sorted(REGISTRY):
        op = REGISTRY[name]
        if op.extras.get("user"):   # registered by a user (or a test): not ours to list
            continue
        random_note = _OBJECT_NOTE if "method_of" in op.extras else _RANDOM_NOTE
        note = NOTES.get(name) or (random_note if op.random else
                                   _UFUNC_NOTE if isinstance(op.impl, np.ufunc) else "")
        rows.append(f"| `{name}` | {op.kind} | {_callers(name)} | {note} |")
    return "\n".join(rows) + "\n"


HEADER = """# Ops: what the registry captures

Every NumPy (and, by the same names, CuPy) function a compiled program calls either
becomes one graph node with NumPy's exact semantics, or is a graph break whose reason
names the function. This page is generated from the registry
(`python -m dynamo.ops.coverage > docs/ops.md`); `tests/ops/test_ops_coverage.py`
checks that it is current.

How it works: see `dynamo/ops/__init__.py` (the registry), `dynamo/ops/rules.py` (how
a result's shape and dtype are found without touching data) and the family modules.
Kinds: `elementwise`, `reduction`, `view` (may return a view of its first argument),
`matmul`, `creation`, `mutation` (writes into its first argument), `opaque`.

Random generators: a `np.random.Generator` (or `RandomState`) passed in (an
argument, an attribute, a global) is guarded by type and is an input of the graph,
the first argument of its methods' ops (`rng.normal(...)` is
`generator_normal(rng, ...)`), which call the method when the graph runs, in program
order: the same seed gives the same numbers as eager, and a fresh Generator per call
uses the same cache entry. Ufunc methods:
`np.maximum.accumulate(x)` is `ufunc_accumulate(np.maximum, x)`. `np.result_type`,
`promote_types`, `can_cast`, `common_type`, `iscomplexobj`, `isrealobj` and
`min_scalar_type` of traced arrays fold to constants (they need only dtypes).
Ops that raise from the data (`linalg.inv` of a singular matrix, `take` out of
bounds, a draw with a negative scale array) are graph breaks inside a `try` block,
so that the `except` clause sees the error.

Not in the registry, and why (each is a graph break naming the function):

- data-dependent output shapes: `nonzero`, `unique`, `argwhere`, `flatnonzero`,
  `extract`, `compress`, `bincount`, `linalg.lstsq` (its residuals), one-argument
  `where`, `x[mask]` with a traced mask, `histogram` with a string `bins`;
- Python values computed from data: `allclose`, `array_equal`, `float(x)`, `x.item()`,
  `x.tolist()`, `round(x)`; and `einsum_path` (a Python list and string);
- data-dependent dtypes: `linalg.eig`, `linalg.eigvals` (real or complex);
- random state: `np.random.seed` of anything but an int or None, `get_state`,
  `set_state`, creating a Generator in
  the compiled function (`np.random.default_rng(0)`: a graph can neither make nor
  return one), and `Generator.bytes`, `spawn`, `multinomial`,
  `multivariate_hypergeometric`, `out=`;
- ufunc methods other than `reduce`, `accumulate`, `outer`, `at` (`reduceat`);
- everything else not listed below (`np.fft.*`, ...): the break's hint points at
  `dynamo.register_op(fn, meta=...)`, which makes a function one node.

Indexing (`getitem`/`setitem`): basic slices (steps, negatives), `None`, `...`,
integers (Python, NumPy, traced 0-d), integer arrays and lists (fancy, with NumPy's
placement of broadcast index dimensions), constant boolean lists, and `x[mask] = s`.

"""


if __name__ == "__main__":
    print(HEADER + table(), end="")
