"""``ops`` of a compiled graph printout that runs on NumPy: the NumPy implementation table
(``dynamo.ops.impl_table(NUMPY)``) as a module, one global per op.

A graph's printout calls ``ops.tanh(x)``; ``backends.common.python_function`` binds
``ops`` to this module. Reading an attribute of a module is a read CPython specializes
(``LOAD_ATTR_MODULE``: one dict slot, checked by the dict's version), as long as the
module has no ``__getattr__``. The ``ImplTable`` object cannot be read so: its class has
a ``__getattr__``, which keeps every ``ops.<name>`` a generic attribute lookup (about
20-25 ns more per op call on CPython 3.11, measured with ``time.process_time``).

The table stays the one place that says which function implements an op: every op
registered when this module is imported (``dynamo.ops`` fills the registry at import)
is copied here from it, and ``provide`` copies one registered later, before a
printout that calls it runs. An op the table cannot give is left out, and a printout
that calls one gets the table itself (``ops_for``), which raises what it raises
(``NotImplementedError``) where the op is called, as before.

Example::

    >>> from dynamo.backends import eager_ops
    >>> eager_ops.tanh is impl_table(NUMPY).tanh
    True
    >>> eager_ops.ops_for("    tanh = ops.tanh(x)\\n") is eager_ops
    True

Op names never begin with ``_`` and none is ``ops_for`` or ``provide``, so this
module's own names hide none of them (``tests/backends/test_eager_ops.py`` checks).
"""

import re as _re
import sys as _sys

from dynamo.ops import NUMPY as _NUMPY
from dynamo.ops import REGISTRY as _REGISTRY
from dynamo.ops import impl_table as _impl_table

_CALLS = _re.compile(r"\bops\.([A-Za-z_]\w*)")


def provide(name: str) -> bool:
    """Copy op ``name``'s NumPy implementation here; False if the table has none (or
    the name is one of this module's own)."""
    if _own(name):
        return False
    try:
        fn = getattr(_impl_table(_NUMPY), name)
    except (AttributeError, NotImplementedError):
        return False
    globals()[name] = fn
    return True


def ops_for(src: str):
    """What a printout ``src`` binds ``ops`` to: this module when it holds every op the
    printout calls (``ops.<name>``), else the table itself."""
    here = globals()
    for name in set(_CALLS.findall(src)):
        if _own(name) or (name not in here and not provide(name)):
            return _impl_table(_NUMPY)
    return _sys.modules[__name__]


def _own(name: str) -> bool:
    """Whether ``name`` is one of this module's own names rather than an op's."""
    return name.startswith("_") or name in ("ops_for", "provide")


for _name in list(_REGISTRY):
    provide(_name)
