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
from .breaks import break_reason
from .data_sizes import one_argument_where
from .dtypes import fold_dtype_query, is_dtype_query
from .elementwise import operator_op
from .generator import is_random_object, lookup_random_method
from .meta import CUPY, DASK, NUMPY, ArrayMeta, DataSize, data_sizes, ghost, meta_of, probe
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
from .rules import MetaError, error_text
from .ufuncs import is_ufunc, lookup_ufunc_method

__all__ = [
    "ArrayMeta", "CREATION", "CUPY", "DASK", "DataSize", "data_sizes", "one_argument_where",
    "ELEMENTWISE", "MATMUL", "MUTATION", "MetaError",
    "NUMPY", "OPAQUE", "OpDef", "REDUCTION", "REGISTRY", "VIEW", "break_reason",
    "error_text", "fold_dtype_query",
    "get", "ghost", "impl_table", "is_array_library_object", "is_dtype_query",
    "is_random_object", "is_ufunc", "lookup_function", "lookup_method", "lookup_property",
    "lookup_random_method", "lookup_ufunc_method", "meta_of", "operator_op", "probe",
    "register",
]
