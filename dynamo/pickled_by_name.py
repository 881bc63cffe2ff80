"""Whether a pickler should send an object by its qualified name, as pickle and
cloudpickle send a function, rather than by value.

Example::

    >>> pickled_by_name(np.sum, main=False)        # found as numpy.sum: by name
    'sum'
    >>> pickled_by_name(lambda x: x, main=False)   # "<lambda>" is not found: by value
"""

from __future__ import annotations

import sys
from typing import Any


def pickled_by_name(obj: Any, *, main: bool) -> str | None:
    """The qualified name under which ``obj``'s own module holds ``obj``, if a pickler
    should send it by that name (as pickle sends a function), else None.

    As cloudpickle decides for a function: not in ``__main__`` unless ``main`` (another
    process's ``__main__`` is another program, so cloudpickle sends its functions by
    value), nor in a module registered with ``cloudpickle.register_pickle_by_value``."""
    module_name = getattr(obj, "__module__", None)
    module = sys.modules.get(module_name) if isinstance(module_name, str) else None
    if module is None or (module_name == "__main__" and not main) or \
            _registered_by_value(module_name):
        return None
    found: Any = module
    for part in obj.__qualname__.split("."):
        found = getattr(found, part, None)   # "<locals>" finds nothing: not by name
    return obj.__qualname__ if found is obj else None


def _registered_by_value(module_name: str) -> bool:
    """Whether cloudpickle (if imported: it is never imported here) sends the functions
    of ``module_name``, or of a package above it, by value."""
    cloudpickle = sys.modules.get("cloudpickle")
    if cloudpickle is None:
        return False
    registered = cloudpickle.list_registry_pickle_by_value()
    parts = module_name.split(".")
    return any(".".join(parts[:i]) in registered for i in range(1, len(parts) + 1))
