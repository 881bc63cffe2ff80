"""Symbolic values: what the translator keeps on its stack and in its locals.

=======================  ====================================================
Variable                 stands for
=======================  ====================================================
ArrayVariable            a NumPy/CuPy array or NumPy scalar (a graph node)
DaskArrayVariable        a dask array argument (a graph node; its type is dask's)
ConstantVariable         a Python value fixed while tracing (3, "a", None, dtype)
Tuple/List/Dict/Set      containers with known structure
UserFunctionVariable     a Python function (inlined when called)
BuiltinVariable          len, isinstance, math.sqrt, ...
LibraryFunctionVariable  np.exp, cp.matmul, ... (become graph nodes)
ModuleVariable           numpy, math, a user module
ObjectVariable           a user object (model), attributes read through guards
=======================  ====================================================

Example::

    >>> wrap(tx, 3, LocalSource("n"))
    constant 3          # and the guard L['n'] == 3

The modules are layered; each imports only the ones before it (``tests/
test_import_graph.py`` checks it):

    base < constant < changing_ranges < list_sort < sequences < text_items < data_tuples < sets
         < set_displays < dicts < named_tuples
         < container_ops < iterators < text_iterators < first_key_iterators
         < ndindex < functions < folding < library_names < loop_exit_tests < layout_flags
         < graph_numbers < loop_ints < snapshots < scalar_inputs < arrays < size_values
         < stacked_lists < ring_rows < trip_rows < formatted
         < formatted_calls
         < linspace_step < polynomials < number_casts < library_calls
         < dask_arrays < errstate
         < class_facts < class_writes < library_attributes < opaque < objects
         < super_lookup < random_objects < lifetimes < deques < deque_stacks < list_windows
         < identity_generators < float_windows < int_choices < unread_dicts < unread_sets
         < unread_ordered_dicts
         < loggers < iteration < combinatoric < made_deques
         < conversions < builtin_call_breaks < builtins < value_kinds < builder

(The containers: ``sequences`` tuples, lists and slices; ``sets`` sets and what sets and
dict views share; ``dicts`` dicts and their views; ``named_tuples``; ``container_ops``
the binary operators on them.)

A Variable that must make a kind from a later module gets it from the translator it is
handed: ``tx.wrap(value, source)`` (builder: a value from outside the trace, or a
library function), ``tx.call_builtin(var, args, kwargs)`` and ``tx.builtin_handler(fn)``
(builtins: the models of ``len``, ``tuple``...). Nothing here imports the translator,
the output graph, the code generator or ``dynamo.api``.
"""

from .arrays import ArrayMethodVariable, ArrayVariable
from .base import NULL, NullVariable, Variable
from .builder import wrap
from .constant import BuiltinVariable, ConstantVariable
from .data_tuples import DataTupleVariable
from .dicts import DictVariable, DictViewVariable
from .functions import (
    BaseFunctionVariable,
    CellVariable,
    NestedFunctionVariable,
    PartialVariable,
    UserFunctionVariable,
    UserMethodVariable,
)
from .iterators import GeneratorVariable, IteratorVariable
from .library_calls import LibraryFunctionVariable
from .named_tuples import NamedTupleVariable
from .objects import ClassVariable, ModuleVariable, ObjectVariable
from .sequences import (
    ListVariable,
    SequenceVariable,
    SliceVariable,
    TupleVariable,
    wrap_constant,
)
from .sets import SetVariable
from .super_lookup import SuperVariable

__all__ = [
    "NULL", "ArrayMethodVariable", "ArrayVariable", "BaseFunctionVariable", "BuiltinVariable",
    "CellVariable", "ClassVariable", "ConstantVariable", "DataTupleVariable", "DictVariable",
    "DictViewVariable",
    "GeneratorVariable", "IteratorVariable", "LibraryFunctionVariable", "ListVariable",
    "ModuleVariable", "NamedTupleVariable", "NestedFunctionVariable", "NullVariable",
    "ObjectVariable", "PartialVariable",
    "SequenceVariable", "SetVariable", "SliceVariable", "SuperVariable", "TupleVariable",
    "UserFunctionVariable", "UserMethodVariable", "Variable", "wrap", "wrap_constant",
]
