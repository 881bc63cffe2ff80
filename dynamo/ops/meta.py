"""What the tracer knows about an array without touching its data.

``ArrayMeta`` is the shape, dtype and array library of a value, and whether it is
a NumPy scalar (``np.float32(1.0)``) rather than an array: NumPy returns scalars
from full reductions and from ufuncs on 0-d inputs, and users can observe it.

Two ways to learn an op's result without computing it, both O(1) in array size:

- ``ghost(meta)``: a read-only array of the right shape and dtype whose strides are
  all zero (one element of memory). View ops (reshape, transpose, basic indexing)
  run on ghosts exactly as on real arrays, errors included.
- ``probe(meta)``: a 0-d array (or, with ``keep_ndim``, an array of the same ndim
  whose every dimension is 1, or 0 where the real one is 0) of the right dtype, used
  to ask NumPy for the result dtype of an op with NEP 50 promotion. Keeping the
  zero-size dimensions keeps NumPy's errors for empty arrays ("zero-size array to
  reduction operation maximum which has no identity") without touching data.

Example::

    >>> m = ArrayMeta((3, 4), np.dtype("float32"))
    >>> ghost(m).T.shape
    (4, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NUMPY, CUPY = "numpy", "cupy"
# A dask array: NumPy's semantics, computed lazily by dask (dynamo/variables/dask_arrays.py).
DASK = "dask"


def joined_kind(kinds) -> str:
    """The kind of an op's result on arrays of these kinds: the one kind; dask for dask
    and NumPy arrays (dask wraps the NumPy one, as ``x + a`` does); TypeError for any
    other mix (NumPy and CuPy arrays never meet in one op)."""
    kinds = set(kinds)
    if kinds == {NUMPY, DASK}:
        return DASK
    if len(kinds) > 1:
        raise TypeError(f"mixed array libraries in one call: {sorted(kinds)}")
    return kinds.pop() if kinds else NUMPY


@dataclass(frozen=True)
class ArrayMeta:
    shape: tuple
    dtype: np.dtype
    kind: str = NUMPY
    scalar: bool = False  # a NumPy scalar (np.generic), not an ndarray

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements (for symbolic sizes: at their hints)."""
        n = 1
        for d in self.shape:
            n *= int(d)
        return n

    def __str__(self) -> str:
        lib = "" if self.kind == NUMPY else f"{self.kind}:"
        kind = "scalar" if self.scalar else ""
        return f"{lib}{self.dtype}{kind}[{', '.join(str(d) for d in self.shape)}]"

    def with_(self, **changes) -> ArrayMeta:
        values = dict(shape=self.shape, dtype=self.dtype, kind=self.kind, scalar=self.scalar)
        values.update(changes)
        return ArrayMeta(**values)


class DataSize(int):
    """A result dimension whose size depends on the data (``x[mask]``: how many elements
    are True; ``np.unique``: how many distinct values), in what a shape rule returns.

    The rule cannot know the number: it marks the dimension, and ``OutputGraph.call_op``
    gives it a fresh *unbacked* symbolic size (``ShapeEnv.new_unbacked``). Its int value
    is always 0, so it stays the same wherever the fit moves the other sizes. Marks with
    the same ``key`` in one result are one size (``np.unique``'s values and counts).

    ``nonzero_of``: the size is the number of nonzero (True) elements of one array
    argument, the ``nonzero_of``-th ArrayMeta of the call (in ``rules.metas_in``
    order): ``x[m]``, ``np.nonzero(m)``, ``np.flatnonzero(m)`` of one mask have one
    length, so ``x[m] * w[m]`` needs no check (None: a size of its own).

    ``measure``: what of that argument's values the size is, when not its nonzero
    count: a hashable tag that holds every other input of the size (``np.bincount(x,
    minlength=m)`` is ``("bincount", m)``: its length is ``max(x) + 1`` or ``m``,
    whatever the weights). Two marks with one argument and one measure are one size:
    ``np.bincount(r, w) / np.bincount(r)`` needs no check.

    ``offset``: the dimension is the size of ``key`` plus this (``np.histogram(x,
    bins="auto")``: ``u0`` counts and ``u0 + 1`` edges). A key needs one mark with
    offset 0: the size is read off that dimension when the graph runs.

    Example::

        >>> ArrayMeta((DataSize(nonzero_of=1), 3), np.dtype("f8"))  # x[mask], x (n, 3)
    """

    key: int
    nonzero_of: int | None
    measure: object
    offset: int

    def __new__(cls, key: int = 0, nonzero_of: int | None = None,
                measure: object = "nonzero", offset: int = 0):
        self = super().__new__(cls, 0)
        self.key, self.nonzero_of, self.measure = key, nonzero_of, measure
        self.offset = offset
        return self

    def __repr__(self) -> str:
        extra = "" if self.measure == "nonzero" else f", measure={self.measure!r}"
        return f"DataSize({self.key}, nonzero_of={self.nonzero_of}{extra})"


def data_sizes(meta) -> list[tuple[int, int, DataSize]]:
    """``(result index, dimension, mark)`` of every ``DataSize`` in a rule's answer
    (one meta, or a tuple or list of them)."""
    metas = meta if isinstance(meta, (tuple, list)) else (meta,)
    return [(k, d, size) for k, m in enumerate(metas) if isinstance(m, ArrayMeta)
            for d, size in enumerate(m.shape) if isinstance(size, DataSize)]


def meta_of(value) -> ArrayMeta:
    """The meta of a real NumPy or CuPy array or NumPy scalar."""
    if isinstance(value, np.generic):
        return ArrayMeta((), value.dtype, NUMPY, True)
    kind = NUMPY if isinstance(value, np.ndarray) else CUPY
    return ArrayMeta(tuple(value.shape), value.dtype, kind, False)


def ghost(meta: ArrayMeta) -> np.ndarray:
    """A zero-strided read-only NumPy array with ``meta``'s shape and dtype."""
    base = np.zeros((), dtype=meta.dtype)
    if meta.scalar:
        return base[()]
    return np.broadcast_to(base, tuple(int(d) for d in meta.shape))


def probe(meta: ArrayMeta, keep_ndim: bool = False):
    """A tiny value of ``meta``'s dtype: 0-d, or ``min(d, 1)`` per dimension when
    ``keep_ndim`` (so a probe is empty exactly when the real array is)."""
    if meta.scalar:
        return np.zeros((), dtype=meta.dtype)[()]
    shape = tuple(min(int(d), 1) for d in meta.shape) if keep_ndim else ()
    return np.zeros(shape, dtype=meta.dtype)
