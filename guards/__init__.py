"""Guards: the facts a trace relied on, checked in one generated function per entry.

Example::

    >>> from dynamo.guards import Guard, ARRAY, ArraySpec, LocalSource, CheckFunction
    >>> g = Guard(LocalSource("x"), ARRAY, ArraySpec(np.ndarray, np.dtype("f4"), (3,)))
    >>> check = CheckFunction([g], ["x"], "f", {}, has_closure=False)
    >>> check(np.zeros(3, "f4")), check(np.zeros(4, "f4"))
    (True, False)
    >>> check.failures((np.zeros(4, "f4"),))
    ["L['x'] shape[0]: expected 3, got 4"]
"""

from .check import CheckFunction, GuardSet, keeps_failing
from .guards import (
    ARRAY,
    CONSTANT,
    DICT_KEYS,
    EXPR,
    ID,
    LENGTH,
    NOT_PRESENT,
    TYPE,
    ArraySpec,
    Guard,
    typed,
)
from .render import ordered, render
from .sources import (
    AsArraySource,
    AttrSource,
    BuiltinSource,
    CellSource,
    ClosureSource,
    FormSource,
    GlobalSource,
    IndexedItemSource,
    ItemSource,
    LocalSource,
    ModuleAttrSource,
    PassedCellSource,
    ShapeSource,
    Source,
    StoredItemSource,
    param_name,
    shared_reads,
)

__all__ = [
    "ARRAY", "CONSTANT", "DICT_KEYS", "EXPR", "ID", "LENGTH", "NOT_PRESENT", "TYPE",
    "ArraySpec", "AsArraySource", "AttrSource", "BuiltinSource", "CellSource", "CheckFunction",
    "ClosureSource", "GlobalSource", "Guard", "GuardSet", "IndexedItemSource", "ItemSource",
    "LocalSource",
    "ModuleAttrSource", "PassedCellSource", "FormSource", "ShapeSource", "Source",
    "StoredItemSource", "keeps_failing",
    "ordered", "param_name", "render", "shared_reads", "typed",
]
