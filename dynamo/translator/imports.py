"""``import`` statements of modules that are already imported: a lookup, traced.

``from collections import defaultdict``, ``import numpy.linalg as la`` or ``from
numpy.lib.stride_tricks import as_strided`` inside a function (repositories import
lazily) run no module code when every module they name is in ``sys.modules`` and done
initializing: ``__import__`` then only reads ``sys.modules``. The trace does the same
read and guards it (``sys.modules[name] is module``), and ``builtins.__import__`` by
identity, so a later call that would import for real (a module removed from
``sys.modules``, an ``__import__`` hook) misses the cache and runs the statement.
Anything else breaks as before: a relative import, a module not imported yet (its
code must run when the program runs), ``from m import *``, and a name that is not
already an attribute of the module (``from pkg import submodule`` may import it).

Example::

    >>> import_value(tx, "collections", ("defaultdict",), 0)
    ModuleVariable(<module 'collections'>), guarded sys.modules['collections'] is it
"""

from __future__ import annotations

import builtins
import sys

from dynamo.guards import BuiltinSource, ItemSource, ModuleAttrSource

from ..exc import Unsupported
from ..variables import wrap

# The interpreter's own __import__: another one (a hook) may do anything.
_IMPORT = builtins.__import__
_MODULES = ModuleAttrSource(sys, "modules")


def _loaded(name: str):
    """``sys.modules[name]`` when it is a module that is done initializing, else None."""
    module = sys.modules.get(name)
    if module is None or getattr(getattr(module, "__spec__", None), "_initializing", False):
        return None
    return module


def import_value(tx, name: str, fromlist, level: int):
    """The Variable ``IMPORT_NAME`` pushes, or ``Unsupported`` where the statement may
    run module code (see the module docstring)."""
    builtin_dict = tx.fn_globals.get("__builtins__", builtins.__dict__)
    if not isinstance(builtin_dict, dict):
        builtin_dict = builtin_dict.__dict__
    why = None
    if level != 0:
        why = "a relative import"
    elif builtin_dict.get("__import__") is not _IMPORT:
        why = "builtins.__import__ is replaced"
    elif fromlist is not None and "*" in fromlist:
        why = "from ... import *"
    if why is None:
        parts = name.split(".")
        names = [".".join(parts[:i + 1]) for i in range(len(parts))]
        if any(_loaded(n) is None for n in names):
            why = f"module {name!r} is not imported yet"
        else:
            module = sys.modules[name]
            missing = [x for x in fromlist or () if x not in vars(module)]
            if missing:
                why = f"{missing[0]!r} is not yet an attribute of {name!r}"
    if why is not None:
        raise Unsupported(f"import inside the traced function ({why})",
                          hint="import at module level", cause="import")
    wrap(tx, _IMPORT, BuiltinSource("__import__"))        # guarded by identity
    for n in names[1:]:   # every level must stay imported for the lookup to be all
        wrap(tx, sys.modules[n], ItemSource(_MODULES, n))
    top = names[-1] if fromlist else names[0]
    return wrap(tx, sys.modules[top], ItemSource(_MODULES, top))
