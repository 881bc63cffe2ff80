"""The op registry: one ``OpDef`` per canonical op name.

An ``OpDef`` says how to run the op (its NumPy implementation, and where CuPy keeps
the same function), how to compute its result's shape and dtype without data
(``meta``), and what kind of op it is for the backends:

============  =======================================================================
kind          meaning
============  =======================================================================
elementwise   output element i depends on input elements i (after broadcasting)
reduction     reduces over one or more axes (sum, max, var, argmax, ...)
view          returns a view of its first argument (reshape, transpose, indexing)
matmul        matrix products (matmul, dot, einsum, ...)
creation      makes a new array from Python values (zeros, arange, ...)
mutation      writes into its first argument in place (setitem)
opaque        anything else; backends run it as a plain library call
============  =======================================================================

User-facing callables (``np.add``, ``np.amax``, ``cupy.exp``) map to an op through
``lookup_function``; array methods (``x.sum``) through ``lookup_method``.

Example::

    >>> op = lookup_function(np.exp)
    >>> op.name, op.kind
    ('exp', 'elementwise')
    >>> op.meta(op, (ArrayMeta((3,), np.dtype("float32")),), {})
    ArrayMeta(shape=(3,), dtype=dtype('float32'), kind='numpy', scalar=False)
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dynamo.guards.type_slots import module_of_value, type_module

from .meta import DASK, NUMPY

ELEMENTWISE, REDUCTION, VIEW, MATMUL = "elementwise", "reduction", "view", "matmul"
CREATION, MUTATION, OPAQUE = "creation", "mutation", "opaque"

# An adapter turns a user's call (args, kwargs) into the op's canonical call.
Adapter = Callable[[tuple, dict], tuple[tuple, dict]]


def same(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    return args, kwargs


def no_array(op, args, kwargs) -> None:
    """The rule of an op that only changes state (``OutputGraph.effect_op`` adds it)."""
    return None


@dataclass
class OpDef:
    name: str
    impl: Callable                   # NumPy implementation, called as impl(*args, **kwargs)
    meta: Callable                   # meta(op, args, kwargs) -> ArrayMeta or tuple of them
    kind: str = OPAQUE
    cupy: str | Callable | None = None   # dotted name in cupy, or a callable; None: impl's path
    nout: int = 1
    random: bool = False             # draws from a random state: keep in program order
    effect: bool = False             # changes state outside its arguments (np.errstate)
    doc: str = ""
    extras: dict = field(default_factory=dict)  # backend hints (e.g. the CUDA expression)
    # may return its first argument itself (np.asarray(x) is x): when (see identity.py)
    same_object: Callable | None = None


REGISTRY: dict[str, OpDef] = {}
_FUNCTIONS: dict[int, tuple[Any, OpDef, Adapter]] = {}   # id(callable) -> (callable, op, adapter)
_METHODS: dict[str, tuple[OpDef, Adapter]] = {}          # ndarray method name -> (op, adapter)
_PROPERTIES: dict[str, OpDef] = {}                         # ndarray property -> op (x.T)
_cupy_bound = False


def register(op: OpDef, functions=(), methods=(), properties=(), adapter: Adapter = same,
             method_adapter: Adapter | None = None) -> OpDef:
    """Add ``op`` and map user-facing callables and array methods to it."""
    REGISTRY[op.name] = op
    for fn in functions:
        _FUNCTIONS[id(fn)] = (fn, op, adapter)
    for name in methods:
        _METHODS[name] = (op, method_adapter or adapter)
    for name in properties:
        _PROPERTIES[name] = op
    return op


def get(name: str) -> OpDef:
    return REGISTRY[name]


def lookup_function(obj: Any) -> tuple[OpDef, Adapter] | None:
    """The op behind a NumPy or CuPy callable, or None when it is not registered."""
    hit = _FUNCTIONS.get(id(obj))
    if hit is None and not _cupy_bound and _is_cupy_object(obj):
        _bind_cupy()
        hit = _FUNCTIONS.get(id(obj))
    if hit is None or hit[0] is not obj:
        return None
    return hit[1], hit[2]


def lookup_method(name: str) -> tuple[OpDef, Adapter] | None:
    return _METHODS.get(name)


def lookup_property(name: str) -> OpDef | None:
    return _PROPERTIES.get(name)


def is_array_library_object(obj: Any) -> bool:
    """True for objects that live in numpy or cupy (functions, ufuncs, modules)."""
    mod = module_of_value(obj) or type_module(obj)
    if isinstance(obj, types.ModuleType):
        mod = obj.__name__
    if isinstance(obj, np.ufunc):
        return True
    return mod.split(".")[0] in ("numpy", "cupy", "cupyx")


# --------------------------------------------------------------------------- cupy

def _is_cupy_object(obj: Any) -> bool:
    mod = module_of_value(obj) or type_module(obj)
    return mod.startswith(("cupy", "cupyx"))


def _resolve_cupy(op: OpDef) -> Callable | None:
    try:
        import cupy
    except ImportError:
        return None
    if callable(op.cupy):
        return op.cupy
    path = op.cupy or _numpy_path(op.impl)
    if path is None:
        return op.impl  # written against the array API (methods), runs on both
    obj: Any = cupy
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _numpy_path(fn: Callable) -> str | None:
    """'linalg.norm' for np.linalg.norm, 'add' for np.add; None for our own helpers."""
    mod = getattr(fn, "__module__", None)
    if isinstance(fn, np.ufunc):
        return fn.__name__
    name = getattr(fn, "__name__", None)   # np.mgrid is an instance: no name, no mirror
    if mod is None or not mod.startswith("numpy") or name is None:
        return None
    if "linalg" in mod:
        return "linalg." + name
    if "random" in mod:
        return "random." + name
    if "fft" in mod:
        return "fft." + name
    return name


def _bind_cupy() -> None:
    """Map every CuPy function that mirrors a registered NumPy function to its op."""
    global _cupy_bound
    _cupy_bound = True
    for fn, op, adapter in list(_FUNCTIONS.values()):
        if _is_cupy_object(fn):
            continue
        path = _numpy_path(fn)
        if path is None:
            continue
        try:
            import cupy
        except ImportError:
            return
        obj: Any = cupy
        for part in path.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                break
        if obj is not None and id(obj) not in _FUNCTIONS:
            _FUNCTIONS[id(obj)] = (obj, op, adapter)


# --------------------------------------------------------------------------- impl tables

class ImplTable:
    """Attribute access by op name gives the implementation for one array library.

    Generated graph code calls ``ops.add(x, y)``; ``ops`` is one of these.
    """

    def __init__(self, kind: str):
        self._kind = kind

    def __getattr__(self, name: str) -> Callable:
        op = REGISTRY.get(name)
        if op is None:
            raise AttributeError(name)
        if self._kind in (NUMPY, DASK):   # dask implements NumPy's functions on its arrays
            # a faster call with the same result, when there is one
            fn = op.extras.get("numpy_call", op.impl)
        else:
            fn = _resolve_cupy(op)
        if fn is None:
            raise NotImplementedError(f"op {name!r} has no {self._kind} implementation")
        setattr(self, name, fn)  # cache: later lookups skip __getattr__
        return fn

    def __reduce__(self):
        """Pickled by reference, as its kind: ``impl_table(kind)`` gives the live table
        back (one per kind), in this process or another. By value, a pickle would copy
        the cache ``__getattr__`` grows, every op looked up so far (all 487 once
        backends/eager_ops.py has run), legacy ``np.random`` methods with a copy of
        their RandomState among them: Numba's pickle of each object-mode block's IR
        holds the kernel module's ``_np_ops``, and grew from 10 KB to 34 KB, a copy
        made at every run of the block (issue #15; tests/ops/test_ops_registry.py).

            >>> pickle.loads(pickle.dumps(impl_table("numpy"))) is impl_table("numpy")
            True
        """
        return impl_table, (self._kind,)


_TABLES: dict[str, ImplTable] = {}


def impl_table(kind: str) -> ImplTable:
    if kind not in _TABLES:
        _TABLES[kind] = ImplTable(kind)
    return _TABLES[kind]
