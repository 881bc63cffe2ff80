"""Symbolic values: what the translator keeps on its stack and in its locals.

=======================  ====================================================
Variable                 stands for
=======================  ====================================================
ArrayVariable            a NumPy/CuPy array or NumPy scalar (a graph node)
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
"""

from .arrays import ArrayMethodVariable, ArrayVariable, LibraryFunctionVariable
from .base import NULL, NullVariable, Variable
from .builder import wrap
from .constant import ConstantVariable, wrap_constant
from .containers import (
    DictVariable,
    DictViewVariable,
    GeneratorVariable,
    IteratorVariable,
    ListVariable,
    NamedTupleVariable,
    SequenceVariable,
    SetVariable,
    SliceVariable,
    TupleVariable,
)
from .functions import (
    BaseFunctionVariable,
    BuiltinVariable,
    CellVariable,
    NestedFunctionVariable,
    PartialVariable,
    UserFunctionVariable,
    UserMethodVariable,
)
from .objects import ClassVariable, ModuleVariable, ObjectVariable, SuperVariable

__all__ = [
    "NULL", "ArrayMethodVariable", "ArrayVariable", "BaseFunctionVariable", "BuiltinVariable",
    "CellVariable", "ClassVariable", "ConstantVariable", "DictVariable", "DictViewVariable",
    "GeneratorVariable", "IteratorVariable", "LibraryFunctionVariable", "ListVariable",
    "ModuleVariable", "NamedTupleVariable", "NestedFunctionVariable", "NullVariable",
    "ObjectVariable", "PartialVariable",
    "SequenceVariable", "SetVariable", "SliceVariable", "SuperVariable", "TupleVariable",
    "UserFunctionVariable", "UserMethodVariable", "Variable", "wrap", "wrap_constant",
]
