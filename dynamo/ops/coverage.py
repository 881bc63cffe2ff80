"""The coverage table of the registry, as ``docs/ops.md`` shows it.

``python -m dynamo.ops.coverage > docs/ops.md`` regenerates the page from the
registry itself, so the page lists exactly the ops that exist; the notes below say,
per op, which calls are graph breaks and why. ``ISSUE_FUNCTIONS`` is the list of
functions issue 6 asks for (the tests check every one is registered, and that the
page is current).

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
}
ISSUE_METHODS = "flatten ravel reshape transpose sum mean astype view copy sort argsort " \
                "take choose repeat".split()

_UFUNC_NOTE = ("`where=` without `out=` breaks (the result would hold uninitialised "
               "memory); `out=` of several arrays breaks")
NOTES = {
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
    "take": "`out=` breaks; index values are checked when the graph runs",
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
}
_RANDOM_NOTE = ("draws from NumPy's global RandomState when the graph runs, in program "
                "order; without `size=` and with scalar parameters it returns a Python "
                "number: a break")


def _callers(name: str) -> str:
    from ..variables.arrays import library_name, library_root

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
        note = NOTES.get(name) or (_RANDOM_NOTE if op.random else
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

Not in the registry, and why (each is a graph break naming the function):

- data-dependent output shapes: `nonzero`, `unique`, `argwhere`, `flatnonzero`,
  `extract`, `compress`, one-argument `where`, `x[mask]` with a traced mask;
- Python values computed from data: `allclose`, `array_equal`, `float(x)`, `x.item()`,
  `x.tolist()`, `round(x)`;
- random state: `np.random.seed`, `get_state`, `set_state`, `default_rng` and the
  methods of a `Generator` (not an array, so not a graph input: each call runs eagerly,
  in order);
- everything else not listed below (`np.fft.*`, `np.linalg.solve`, ...): the break's
  hint points at `dynamo.register_op(fn, meta=...)`, which makes a function one node.

Indexing (`getitem`/`setitem`): basic slices (steps, negatives), `None`, `...`,
integers (Python, NumPy, traced 0-d), integer arrays and lists (fancy, with NumPy's
placement of broadcast index dimensions), constant boolean lists, and `x[mask] = s`.

"""


if __name__ == "__main__":
    print(HEADER + table(), end="")
