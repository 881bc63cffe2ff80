"""How users write a library function: ``library_name(np.fft.fft) == "np.fft.fft"``,
the library it comes from (``library_root``), and whether it uses NumPy's or CuPy's
global random state (``_is_random_state``). Break reasons and the coverage report
name functions so.

Example::

    >>> library_name(np.exp), library_name(np.fft.fft), library_name(np.random.normal)
    ('np.exp', 'np.fft.fft', 'np.random.normal')
    >>> library_root(np.exp)
    'numpy'
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np

from dynamo.guards.type_slots import module_of_value, type_module

from .. import ops


def _is_random_state(fn) -> bool:
    mod = module_of_value(fn)
    owner = type_module(getattr(fn, "__self__", None))
    return any(m.split(".")[:2] in (["numpy", "random"], ["cupy", "random"])
               for m in (mod, owner))


def library_root(fn: Any) -> str:
    mod = module_of_value(fn) or type_module(fn)
    if isinstance(fn, np.ufunc):
        return "numpy"
    return mod.split(".")[0]


def library_name(fn: Any) -> str:
    """``np.exp``, ``np.fft.fft``, ``cp.random.normal``: how users write the function."""
    if not callable(fn) and ops.lookup_function(fn) is not None:   # np.mgrid: subscripted
        return f"np.{ops.lookup_function(fn)[0].name}[...]"
    if isinstance(fn, np.vectorize):   # named by its pyfunc: say what it is
        return f"np.vectorize({getattr(fn.pyfunc, '__name__', '?')})"
    root = library_root(fn)
    mod = module_of_value(fn)
    self_obj = getattr(fn, "__self__", None)
    owner = module_of_value(self_obj)
    if self_obj is not None and not isinstance(self_obj, types.ModuleType) and \
            self_obj is not getattr(np.random.mtrand, "_rand", None):
        return f"{type(self_obj).__name__}.{getattr(fn, '__name__', '?')}"  # rng.normal
    parts = [p for p in (mod or owner).split(".")[1:] if not p.startswith("_")]
    if parts[:1] == ["random"] or owner.startswith(("numpy.random", "cupy.random")):
        parts = ["random"]
    prefix = ".".join([{"numpy": "np", "cupy": "cp"}.get(root, root), *parts[:1]])
    return f"{prefix}.{getattr(fn, '__name__', type(fn).__name__)}"
