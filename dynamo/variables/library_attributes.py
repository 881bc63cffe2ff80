"""Attributes of library modules (NumPy, CuPy, ``math``, ``cmath``, ``operator``) that a
trace reads, guarded by identity (docs/guards.md, *Library module attributes*).

The trace bakes a library attribute in: ``np.tanh`` becomes a graph op, ``np.pi`` a
constant, ``np.float32`` a dtype. So ``np.tanh = my_tanh`` after compiling must miss
the cache and retrace, and putting the original back must hit the first entry again.
Each read adds one guard on the module's namespace entry, whichever way the function
reached the module (``np.linalg.inv`` guards ``linalg`` in ``numpy`` and ``inv`` in
``numpy.linalg``).

Example::

    >>> is_library_module(np), is_library_module(collections)
    (True, False)
    >>> guard_library_attribute(tx, np, "tanh", np.tanh)
    # adds Guard(ModuleAttrSource(numpy, 'tanh'), ID, np.tanh): the check reads
    # numpy.__dict__['tanh'] and tests it with ``is``
"""

from __future__ import annotations

import types
from typing import Any

from dynamo.guards import ID, Guard, ModuleAttrSource

from ..exc import Unsupported
from .class_facts import LIBRARY_MODULES

_MISSING = object()


def is_library_module(module: types.ModuleType) -> bool:
    """A module of a library the trace models (``numpy.linalg`` is NumPy's)."""
    return module.__name__.split(".")[0] in LIBRARY_MODULES


def guard_library_attribute(tx, module: types.ModuleType, name: str, value: Any) -> None:
    """Guard that ``module.name`` is still ``value``, the object the trace saw.

    The guard is a fact about the module object, whatever path led to it, and is
    checked by reading the module's ``__dict__`` (see ``ModuleAttrSource``): a module
    with a ``__getattr__`` (NumPy has one) gets no specialized attribute load, and the
    dictionary read is about twice as fast. A value that is not the namespace entry
    (served by a module ``__getattr__`` each time) cannot be guarded that way: such a
    read is not traced.
    """
    if vars(module).get(name, _MISSING) is not value:
        raise Unsupported(f"{module.__name__}.{name} is not an entry of the module's "
                          "namespace, so a change to it could not be guarded")
    tx.output.guards.add(Guard(ModuleAttrSource(module, name), ID, value))
