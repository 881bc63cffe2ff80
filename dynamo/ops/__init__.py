"""The op registry: canonical op names, their implementations and shape/dtype rules.

Example::

    >>> from dynamo import ops
    >>> op, adapt = ops.lookup_function(np.maximum)
    >>> op.name, op.kind
    ('maximum', 'elementwise')
    >>> ops.impl_table("numpy").maximum is np.maximum
    True

See :mod:`dynamo.ops.registry` for the op kinds and :mod:`dynamo.ops.rules` for how
results are described without touching data.
"""

from . import catalog  # noqa: F401  (fills the registry)
from .meta import CUPY, NUMPY, ArrayMeta, ghost, meta_of, probe
from .registry import (
    CREATION,
    ELEMENTWISE,
    MATMUL,
    MUTATION,
    OPAQUE,
    REDUCTION,
    REGISTRY,
    VIEW,
    OpDef,
    get,
    impl_table,
    is_array_library_object,
    lookup_function,
    lookup_method,
    lookup_property,
    register,
)
from .rules import MetaError

__all__ = [
    "ArrayMeta", "CREATION", "CUPY", "ELEMENTWISE", "MATMUL", "MUTATION", "MetaError", "NUMPY",
    "OPAQUE", "OpDef", "REDUCTION", "REGISTRY", "VIEW", "get", "ghost", "impl_table",
    "is_array_library_object", "lookup_function", "lookup_method", "lookup_property",
    "meta_of", "probe", "register",
]
