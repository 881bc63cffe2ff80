"""The coverage table of the registry, as ``docs/ops.md`` shows it.

``python scripts/ops_coverage.py`` regenerates the page (``page()``) from the registry
itself, so the page lists exactly the ops that exist; the notes below say, per op,
which calls are graph breaks and why. Its last section (``numpy_section()``) lists
every public NumPy function as captured, folded, breaks (why) or not applicable, in
the order the translator decides a call (``classify``). ``ISSUE_FUNCTIONS`` is the list of
functions the project set out to cover (the tests check every one is registered, and
that the page is current).

Example::

    >>> print(table().splitlines()[2])
    | `absolute` | elementwise | `np.absolute` | `where=` without `out=` breaks ... |
"""

from __future__ import annotations

import types

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
    # issue 19's missing ops (and np.add.reduceat, a ufunc method)
    "missing_ops": "cov corrcoef average block append insert delete isin kron cross "
                   "partition gradient trapezoid indices triu_indices tril_indices "
                   "linalg.multi_dot",
}
# Generator methods realistic code calls, and the ufunc methods (both must be ops).
ISSUE_GENERATOR_METHODS = "normal random integers standard_normal uniform choice " \
                          "permutation shuffle exponential poisson".split()
ISSUE_UFUNC_METHODS = "reduce accumulate reduceat outer at".split()
ISSUE_METHODS = "flatten ravel reshape transpose sum mean astype view copy sort argsort " \
                "take choose repeat".split()

_UFUNC_NOTE = ("`where=` without `out=` breaks (the result would hold uninitialised "
               "memory); `out=` of several arrays breaks")
NOTES = {
    "random_seed": "a seed other than an int or None breaks (it runs eagerly, in order)",
    "random_default_rng": "its value is the Generator (an output when the program keeps "
                          "it); a seed other than an int or None breaks",
    "random_randomstate": "its value is the RandomState (an output when the program keeps "
                          "it); a seed other than an int or None breaks",
    "errstate_enter": "`call=` (a callable) breaks; a break inside the block runs the "
                      "whole `with` eagerly; dropped from CuPy graphs (CuPy ignores it)",
    "branch_select": "made by the translator: either way writes, draws, warns at Python "
                     "level, changes a Python object or leaves another shape or dtype, or "
                     "the graph cannot be rerun: the `if` breaks (translator/branch_selects.py)",
    "data_check": "a graph that writes an input, draws random numbers or warns at "
                  "Python level keeps the check as a break (translator/raising_checks.py)",
    "where": "one-argument `np.where(c)` is `np.nonzero(c)` (an unbacked size)",
    "nonzero": "the indices' length is an unbacked size (docs/unbacked.md); a 0-d array "
               "breaks (NumPy raises)",
    "flatnonzero": "the length is an unbacked size (docs/unbacked.md)",
    "argwhere": "the number of rows is an unbacked size (docs/unbacked.md)",
    "unique": "the number of values (or of distinct slices along `axis=`) is an unbacked "
              "size (docs/unbacked.md)",
    "unique_values": "the number of values is an unbacked size (docs/unbacked.md)",
    "unique_counts": "the number of values is an unbacked size; returns UniqueCountsResult",
    "unique_inverse": "the number of values is an unbacked size; returns "
                      "UniqueInverseResult",
    "unique_all": "the number of values is an unbacked size; returns UniqueAllResult",
    "extract": "the length is an unbacked size (docs/unbacked.md); a traced condition "
               "longer than the array breaks (NumPy raises or not by its values)",
    "compress": "the length along the axis is an unbacked size (docs/unbacked.md); `out=` "
                "and a traced condition longer than the axis break",
    "intersect1d": "the length is an unbacked size (docs/unbacked.md)",
    "union1d": "the length is an unbacked size (docs/unbacked.md)",
    "setdiff1d": "the length is an unbacked size (docs/unbacked.md)",
    "setxor1d": "the length is an unbacked size (docs/unbacked.md)",
    "trim_zeros": "a view; each trimmed length is an unbacked size (docs/unbacked.md); a 0-d "
                  "array breaks",
    "bincount": "the length is an unbacked size (docs/unbacked.md)",
    "zeros": "a size may be a 0-d integer array (`labels.max() + 1`): an unbacked size, "
             "its value (docs/unbacked.md)",
    "ones": "a size may be a 0-d integer array: an unbacked size (docs/unbacked.md)",
    "empty": "a size may be a 0-d integer array: an unbacked size (docs/unbacked.md)",
    "full": "a size may be a 0-d integer array (with a fill of one value): an unbacked "
            "size (docs/unbacked.md)",
    "matrix_rank": "of matrices (a stack: one count each); of a vector NumPy returns a "
                   "Python int: breaks. LinAlgError (no convergence) when the graph runs",
    "sym_size": "made by the translator: reads an unbacked size when the graph runs",
    "sym_number": "made by the translator: reads an unbacked number (`float(loss)` in "
                  "arithmetic) when the graph runs",
    "sym_int": "made by the translator: an int computed from unbacked sizes "
               "(`max(seg.size, 1)`) when the graph runs",
    "sym_truth": "made by the translator: a comparison of unbacked sizes (`len(kept) > 2`) "
                 "when the graph runs",
    "sym_truth_scalar": "made by the translator: `sym_truth` beside a NumPy scalar, as a "
                        "scalar of its dtype (NumPy's scalar path: overflow warnings)",
    "nan_to_num": "`copy=False` breaks (it writes into its argument)",
    "astype": "`copy=False` may return the array itself (kept as NumPy does it)",
    "view": "only a dtype of the same itemsize; other itemsizes and `type=` break",
    "median": "`overwrite_input=True` breaks", "nanmedian": "`overwrite_input=True` breaks",
    "count_nonzero": "captured whenever NumPy returns an array or NumPy scalar",
    "diff": "`n=0` breaks, and `prepend=`/`append=` of a shape that does not fit",
    "dot": "`out=` breaks; an operand may be a (nested) list of NumPy graph scalars "
           "(`np.dot([a, b], w)`: dynamo/ops/listed.py)",
    "outer": "`out=` breaks", "einsum": "`out=` and the interleaved "
    "(operand, sublist) form break", "tensordot": "`out=` breaks; axes must be constants",
    "trace": "`out=` breaks",
    "matmul": "`axes=`/`axis=` break; `out=` must have exactly the result's shape",
    "concatenate": "`out=` breaks; an array as the sequence breaks; a list member holding "
    "graph values (`[u[0]]`) is captured for NumPy arrays only (dynamo/ops/listed.py)",
    "stack": "`out=` breaks",
    "diag": "`v` may be a list of graph scalars (`np.diag([a, b])`) or of rows of them "
    "(`np.diag([[a, b], [c, d]])`: NumPy arrays only; dynamo/ops/listed.py), or of "
    "constants",
    "split": "returns a list of views; sections must be constants",
    "array_split": "returns a list of views; sections must be constants",
    "repeat": "repeats may be a 1-d integer array of the graph, one count per element "
    "(the length their sum, a size the data decides); a 0-d or one-element array of "
    "repeats breaks",
    "tile": "reps must be constants", "pad": "a function as `mode` breaks; widths constant",
    "sort": "`order=` (structured arrays) breaks", "argsort": "`order=` breaks",
    "sort_inplace": "`x.sort()`: sorts in place and returns None",
    "take_along_axis": "constant (non-array) indices break",
    "choose": "`out=` and choices given as one array break",
    "select": "condlist and choicelist must be lists or tuples",
    "getitem": "a traced boolean mask, and a slice whose bound is a traced 0-d integer "
               "array (step 1), give an unbacked size (docs/unbacked.md); a 0-d mask with "
               "other indices, a mask of a NumPy scalar, and a float, boolean or n-d "
               "slice bound or another step with an array bound break",
    "setitem": "`x[mask] = v`, `x[mask, 0] = v`, `x[mask, 1:] = v` and a 0-d mask: a "
               "scalar `v`, one that broadcasts, or one value per selected element (NumPy "
               "checks the count when the graph runs); complex into real breaks",
    "linspace": "`retstep=True` with an array or changing endpoint breaks",
    "logspace": "an array `base` breaks",
    "arange": "array arguments break", "array": "`like=` and `ndmax=` break",
    "asarray": "returns its argument itself when no conversion is needed",
    "random_choice": "`size=None` with an int population: a Python int drawn by the graph "
                     "(`python_draw`)",
    "random_rand": "no arguments: a Python float, drawn by the graph (`python_draw`)",
    "random_randn": "no arguments: a Python float, drawn by the graph (`python_draw`)",
    "generator_choice": "without `size=`, an int population: a Python int drawn by the "
                        "graph (`python_draw`); a 0-d array population breaks",
    "generator_integers": "without `size=` a NumPy scalar (captured); `dtype=bool` then "
                          "gives a Python bool: a break",
    "generator_permutation": "a 0-d array breaks", "generator_permuted": "`out=` breaks",
    "generator_shuffle": "shuffles in place and returns None",
    "generator_dirichlet": "an empty `alpha` breaks",
    "generator_multivariate_normal": "an empty `mean` breaks",
    "randomstate_shuffle": "shuffles in place and returns None",
    "solve": "b is (M,) or (..., M, K) (NumPy 2); LinAlgError when the graph runs; in "
             "`try`: eager rerun on error",
    "inv": "LinAlgError when the graph runs; in `try`: eager rerun on error",
    "cholesky": "LinAlgError when the graph runs; in `try`: eager rerun on error",
    "matrix_power": "LinAlgError (n < 0) when the graph runs; in `try`: eager rerun on error",
    "pinv": "`rcond`/`rtol` must be constants; in `try`: eager rerun on error",
    "eigh": "returns EighResult; in `try`: eager rerun on error",
    "eigvalsh": "in `try`: eager rerun on error",
    "svd": "returns SVDResult; in `try`: eager rerun on error",
    "qr": "returns QRResult; deprecated modes break", "slogdet": "returns SlogdetResult",
    "fill_diagonal": "writes in place, returns None",
    "ascontiguousarray": "returns its argument itself when it is already C-contiguous",
    "asfortranarray": "returns its argument itself when it is already F-contiguous",
    "meshgrid": "`copy=False` breaks (views of the inputs)",
    "percentile": "`out=`, `weights=`, `overwrite_input=True` break",
    "quantile": "`out=`, `weights=`, `overwrite_input=True` break",
    "nanpercentile": "`out=`, `weights=`, `overwrite_input=True` break",
    "nanquantile": "`out=`, `weights=`, `overwrite_input=True` break",
    "histogram": "a string `bins` ('auto'...): the number of bins comes from the data, an "
                 "unbacked size; in `try`: eager rerun on error",
    "histogram_bin_edges": "a string `bins`: an unbacked size",
    "histogram2d": "traced bins, range or density break; NaN or inf without `range=` raise "
                   "when the graph runs (in `try`: eager rerun on error)",
    "polyfit": "`full=True` (residuals' shape is data) and `cov=` break",
    "polyval": "a poly1d made in the trace is its coefficients; one from outside breaks",
    "poly1d_value": "made by the translator: `p(x)` of an `np.poly1d` made in the trace",
    "poly1d_coeffs": "made by the translator: `np.poly1d(c)`'s coefficients, a view of "
                     "`c` of an unbacked length (`variables/polynomials.py`)",
    "poly1d_result": "made by the translator: `p + q`, `p * 2.0`, `p ** 2`, `p.deriv()`, "
                     "`np.polyint(p)`... of `np.poly1d` objects, NumPy's own (an unbacked "
                     "length)",
    "poly1d_item": "made by the translator: `p[k]` of an `np.poly1d`",
    "interp": "`left`/`right` arrays break",
    "ufunc_reduce": "`out=` of another shape breaks",
    "ufunc_reduceat": "index values are checked when the graph runs; `out=` breaks",
    "cov": "fweights/aweights values are checked when the graph runs; inside `try` it "
           "breaks",
    "corrcoef": "one variable gives a NumPy scalar, as NumPy does",
    "average": "weights summing to zero raise when the graph runs; in `try`: eager rerun on error",
    "insert": "a traced boolean mask as `obj` breaks (the count is data); a traced integer "
              "index is checked when the graph runs",
    "delete": "a traced index array or 1-d mask: the result's length is an unbacked size "
              "(docs/unbacked.md); an index out of bounds raises when the graph runs",
    "block": "tuples raise as in NumPy; dtypes whose promotion order matters break",
    "isin": "`kind='table'` breaks (its memory depends on the values' range)",
    "sliding_window_view": "read-only (writes raise when the graph runs); `writeable=True` "
                           "and `subok=True` break",
    "unravel_index": "an index out of bounds raises when the graph runs; inside `try` it "
                     "breaks",
    "lexsort": "constant keys break",
    "digitize": "traced bins that are not monotonic raise when the graph runs; in "
                "`try`: eager rerun on error",
    "partition": "a traced `kth` and `order=` break",
    "argpartition": "a traced `kth` and `order=` break",
    "gradient": "a boolean `f` breaks (NumPy fails or not by the coordinates' spacing)",
    "multi_dot": "`out=` breaks",
    "ufunc_outer": "`out=` and `where=` break",
    "ufunc_at": "writes in place, returns None; a traced boolean mask index breaks",
    "take": "`out=` breaks; index values are checked when the graph runs; `mode='wrap'` "
            "along an empty axis breaks (NumPy loops forever there)",
}
_RANDOM_NOTE = ("draws from NumPy's global RandomState when the graph runs, in program "
                "order; without `size=` and with constant scalar parameters it returns a "
                "Python number, drawn by the graph (`python_draw`): an index or a returned "
                "value needs no break, arithmetic on it breaks there")
_OBJECT_NOTE = ("calls the method of the object passed in when the graph runs, in program "
                "order; without `size=` and with constant scalar parameters it returns a "
                "Python number, drawn by the graph (`python_draw`): an index or a returned "
                "value needs no break, arithmetic on it breaks there")


def _callers(name: str) -> str:
    from ..variables.library_names import library_name, library_root

    op = REGISTRY[name]
    if name in ("errstate_enter", "errstate_exit"):
        return "`with np.errstate(...)`"
    if name == "branch_select":
        return "`if <array test>: y = ... else: y = ...`, `a if <array test> else b`"
    if name == "data_check":
        return "`assert <array test>`, `if <array test>: raise ...`"
    if name == "random_seed":
        return "`np.random.seed(n)`"
    if name in ("random_default_rng", "random_randomstate"):
        return f"`np.random.{op.extras['name']}(n)`"
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
(`python scripts/ops_coverage.py`); `tests/ops/test_ops_coverage.py`
checks that it is current. Its last section, "Every public NumPy function", lists
all of `np`, `np.linalg`, `np.fft`, `np.random` and the Generator methods as
captured, folded, breaks (why) or not applicable, with counts.

How it works: see `dynamo/ops/__init__.py` (the registry), `dynamo/ops/rules.py` (how
a result's shape and dtype are found without touching data) and the family modules.
Kinds: `elementwise`, `reduction`, `view` (may return a view of its first argument),
`matmul`, `creation`, `mutation` (writes into its first argument), `opaque`.

Random generators: a `np.random.Generator` (or `RandomState`) passed in (an
argument, an attribute, a global) is guarded by type and is an input of the graph,
the first argument of its methods' ops (`rng.normal(...)` is
`generator_normal(rng, ...)`), which call the method when the graph runs, in program
order: the same seed gives the same numbers as eager, and a fresh Generator per call
uses the same cache entry. A draw without `size=` that returns a Python number
(`rng.random()`) is drawn by the graph (`python_draw`) and converted by the glue; compared
with a Python number (`rng.random() < eps`) it stays in the graph as a comparison op whose
bool the glue makes (`translator/number_compares.py`; a branch on it breaks at the jump).
Ufunc methods:
`np.maximum.accumulate(x)` is `ufunc_accumulate(np.maximum, x)`. `np.result_type`,
`promote_types`, `can_cast`, `common_type`, `iscomplexobj`, `isrealobj` and
`min_scalar_type` of traced arrays fold to constants (they need only dtypes).
Ops that raise from the data (`linalg.inv` of a singular matrix, `take` out of
bounds, a draw with a negative scale array) are graph breaks inside a `try` block,
so that the `except` clause sees the error.

Not in the registry, and why (each is a graph break naming the function):

- data-dependent output shapes not modelled: none (`nonzero`, `flatnonzero`, `argwhere`,
  one-argument `where`, `unique` and the `unique_*` functions, `bincount`, `extract`,
  `compress`, `delete` with a mask, `intersect1d`, `union1d`, `setdiff1d`,
  `setxor1d`, `trim_zeros`, `linalg.lstsq`'s residuals, `histogram` with a string `bins`
  and `x[mask]` are captured: their size is an *unbacked*
  size, known when the graph runs, docs/unbacked.md);
- Python values computed from data, where the program needs them while tracing (an
  `if`, arithmetic, formatting): `float(x)`, `x.item()`, `x.tolist()` of a 0-d array,
  `np.allclose`, `np.array_equal` (returned or stored, the glue makes them after the
  graph: no break); `x.tolist()` of more dimensions, `round(x)`, `array_equiv`; and
  `einsum_path` (a Python list and string);
- data-dependent dtypes: `linalg.eig`, `linalg.eigvals`, `roots` (real or complex);
- random state: `np.random.seed` and `np.random.default_rng` of anything but an int
  or None (`np.random.default_rng(0)` itself is an op: the graph makes the
  Generator), `get_state`, `set_state`, and `Generator.bytes`, `spawn`,
  `multinomial`, `multivariate_hypergeometric`, `out=`;
- ufunc methods other than `reduce`, `accumulate`, `reduceat`, `outer`, `at`;
- everything else not listed below (`np.fft.hfft2`, ...): the break's hint points at
  `dynamo.register_op(fn, meta=...)`, which makes a function one node.

Indexing (`getitem`/`setitem`): basic slices (steps, negatives), `None`, `...`,
integers (Python, NumPy, traced 0-d), integer arrays and lists (fancy, with NumPy's
placement of broadcast index dimensions), constant boolean lists, traced boolean masks
(`x[mask]`, a 0-d mask: an unbacked size), slices whose start or stop is a traced 0-d
integer array (`v[p[0]:p[1]]`, step 1: an unbacked length), and `x[mask] = v`,
`x[mask, 0] = v` (a scalar, or one value per selected element: NumPy checks the count
when the graph runs).

"""


# --------------------------------------------------------------------------- all of NumPy

CAPTURED, FOLDED, BREAKS, NOT_APPLICABLE = "captured", "folded", "breaks", "not applicable"

# Functions that are no array computation a graph could hold (they run eagerly, at a
# break): files, printing and formatting, NumPy's configuration, help.
_NOT_APPLICABLE = {
    "reads or writes files": "load loadtxt save savetxt savez savez_compressed genfromtxt "
                             "fromfile fromregex",
    "formats text": "array2string array_repr array_str base_repr binary_repr "
                    "format_float_positional format_float_scientific datetime_as_string "
                    "typename mintypecode",
    "reads or sets NumPy's configuration": "get_printoptions set_printoptions printoptions "
                                           "getbufsize setbufsize geterr seterr geterrcall "
                                           "seterrcall get_include show_config show_runtime "
                                           "info test get_bit_generator set_bit_generator",
}
# Why other functions outside the registry break (the default: not in the registry).
_BREAK_REASONS = {
    "the result's dtype depends on the data": "real_if_close roots",
    # (apply_along_axis, vectorize, piecewise...: ops/breaks.py says why, at the break too)
    "calls Python functions per element or slice": "fromiter nested_iters",
    "reads Python objects or memory, not arrays": "frombuffer fromstring from_dlpack "
                                                  "may_share_memory shares_memory isfortran "
                                                  "iterable datetime_data",
    "a matrix object (np.matrix), not an array": "asmatrix bmat",
    "random state outside the registry (runs eagerly, in order)": "get_state set_state "
                                                                  "bytes",
}


def _lookup(table: dict) -> dict:
    return {name: why for why, names in table.items() for name in names.split()}


def classify(fn, name: str | None = None) -> tuple[str, str]:
    """``(status, why)`` of a call of ``fn`` (named ``name`` in its module) on traced
    arrays, in the translator's order (``LibraryFunctionVariable.call`` in
    ``dynamo/variables/library_calls.py``)."""
    from ..variables.arrays import DATA_DEPENDENT, DATA_TO_PYTHON
    from ..variables.folding import is_array_fact
    from .breaks import break_reason
    from .dtypes import is_dtype_query
    from .registry import lookup_function

    name = name or getattr(fn, "__name__", "")
    if is_array_fact(fn):
        return FOLDED, "read from the array's shape while tracing"
    hit = lookup_function(fn)
    if hit is not None:
        return CAPTURED, f"op `{hit[0].name}`"
    if is_dtype_query(fn):
        return FOLDED, "computed from the arrays' dtypes while tracing"
    if fn is np.issubdtype or fn is getattr(np, "isdtype", None):
        return FOLDED, "of dtypes and scalar types: computed while tracing"
    if fn is np.ix_:
        return CAPTURED, "reshape ops (views of its 1-d integer index arrays; a mask breaks)"
    known = break_reason(fn)
    if known is not None:
        return BREAKS, known[1]
    if fn is np.random.seed:
        return CAPTURED, "effect op `random_seed` (an int or None)"
    if fn is np.random.default_rng or fn is np.random.RandomState:
        op = "random_default_rng" if fn is np.random.default_rng else "random_randomstate"
        return CAPTURED, f"op `{op}` (an int or None): the graph makes the object"
    if name in _lookup(_NOT_APPLICABLE):
        return NOT_APPLICABLE, _lookup(_NOT_APPLICABLE)[name]
    if name in DATA_DEPENDENT:
        return BREAKS, "the result's shape depends on the data"
    if fn is np.allclose or fn is np.array_equal:
        return CAPTURED, ("ops `isclose`/`equal` and `all`: the glue makes the Python bool "
                          "after the graph (a use that needs it while tracing, an `if`, "
                          "breaks; `array_equal(equal_nan=True)` breaks)")
    if name in DATA_TO_PYTHON:
        return BREAKS, "returns a Python value computed from array data"
    if name in _lookup(_BREAK_REASONS):
        return BREAKS, _lookup(_BREAK_REASONS)[name]
    return BREAKS, "not in the op registry (`dynamo.register_op` can add it)"


def _public(module) -> list[tuple[str, object]]:
    """The public functions of a NumPy module (not classes, types or submodules)."""
    out = []
    for name in sorted(dir(module)):
        value = getattr(module, name, None)
        if name.startswith("_") or isinstance(value, (type, types.ModuleType)) or \
                not callable(value):
            continue
        out.append((name, value))
    return out


def numpy_coverage() -> dict[str, list[tuple[str, str, str]]]:
    """``{namespace: [(function, status, why), ...]}`` for every public NumPy function
    (``np``, ``np.linalg``, ``np.fft``, ``np.random``) and every Generator method."""
    from .generator import lookup_random_method

    result = {}
    for label, module in (("np", np), ("np.linalg", np.linalg), ("np.fft", np.fft),
                          ("np.random", np.random)):
        result[label] = [(name, *classify(fn, name)) for name, fn in _public(module)]
    rng = np.random.Generator(np.random.PCG64(0))
    rows = []
    for name, _ in _public(rng):
        hit = lookup_random_method(rng, name)
        if hit is not None:
            rows.append((name, CAPTURED, f"op `{hit[0].name}`"))
        elif name == "spawn":
            rows.append((name, BREAKS, "makes Generator objects (a graph returns arrays)"))
        else:
            rows.append((name, BREAKS, _lookup(_BREAK_REASONS).get(
                name, "not in the op registry: runs eagerly, in order")))
    result["Generator"] = rows
    return result


COVERAGE_BEGIN = "<!-- numpy coverage: generated by scripts/ops_coverage.py -->"


def numpy_section() -> str:
    """The generated section of docs/ops.md: counts, then one table per namespace."""
    cov = numpy_coverage()
    statuses = (CAPTURED, FOLDED, BREAKS, NOT_APPLICABLE)
    lines = [COVERAGE_BEGIN, "", "## Every public NumPy function", "",
             f"Generated with NumPy {np.__version__} (`python scripts/ops_coverage.py`). "
             "*captured*: one graph node; *folded*: computed while tracing (no node, no "
             "break); *breaks*: a graph break, and why; *not applicable*: no array "
             "computation (files, printing, configuration), it runs eagerly at a break. "
             "Classes and scalar types (`np.float32(x)` is the op `scalar_cast`) are not "
             "listed; ufunc methods `reduce`, `accumulate`, `reduceat`, `outer` and `at` "
             "are captured for every ufunc.", "",
             "| namespace | " + " | ".join(statuses) + " | total |",
             "|---|" + "---|" * (len(statuses) + 1)]
    for label, rows in cov.items():
        counts = [sum(1 for r in rows if r[1] == s) for s in statuses]
        lines.append(f"| `{label}` | " + " | ".join(map(str, counts)) + f" | {len(rows)} |")
    total = [sum(1 for rows in cov.values() for r in rows if r[1] == s) for s in statuses]
    lines.append("| all | " + " | ".join(map(str, total)) + f" | {sum(total)} |")
    for label, rows in cov.items():
        lines += ["", f"### `{label}`", "", "| function | status | how, or why not |",
                  "|---|---|---|"]
        lines += [f"| `{name}` | {status} | {why} |" for name, status, why in rows]
    return "\n".join(lines) + "\n"


def page() -> str:
    """The whole of docs/ops.md."""
    return HEADER + table() + "\n" + numpy_section()


if __name__ == "__main__":
    print(page(), end="")
