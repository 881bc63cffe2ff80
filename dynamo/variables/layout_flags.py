"""``x.flags`` of an array whose layout the trace knows: its contiguity flags as constants.

Library-style code checks the layout before it works: ``if not x.flags["C_CONTIGUOUS"]:
x = np.ascontiguousarray(x)``, ``x.flags.c_contiguous``, ``x.flags.f_contiguous``. For
a graph input the flags are read from the argument and guarded (the contiguity guard
``OutputGraph._layout_of`` adds, so a call with another layout traces again); an array
of at most one element is contiguous both ways. The layout of an op's result is the
backend's business, so its ``flags`` still break (cause ``array_layout``), and so does
every flag that is not about contiguity (``writeable``, ``owndata``, ``aligned``: the
program can change them, or the backend decides them).

Example::

    >>> f = FlagsVariable(array_var, (False, True))    # an F-ordered input
    >>> f.getitem(tx, ConstantVariable("C_CONTIGUOUS")).as_python_constant()
    False
    >>> f.getattr(tx, "f_contiguous").as_python_constant()
    True
"""

from __future__ import annotations

from ..exc import Unsupported
from ..symbolic import SymInt
from .base import Variable
from .constant import ConstantVariable

# flagsobj's keys and attributes about contiguity -> f(c_contiguous, f_contiguous),
# as NumPy defines them (FORC: either; FNC: F and not C)
_KEYS = {"C_CONTIGUOUS": "c", "C": "c", "CONTIGUOUS": "c",
         "F_CONTIGUOUS": "f", "F": "f", "FORTRAN": "f", "FORC": "forc", "FNC": "fnc"}
_ATTRS = {"c_contiguous": "c", "contiguous": "c", "f_contiguous": "f", "fortran": "f",
          "forc": "forc", "fnc": "fnc"}
_RULES = {"c": lambda c, f: c, "f": lambda c, f: f, "forc": lambda c, f: c or f,
          "fnc": lambda c, f: f and not c}


class FlagsVariable(Variable):
    """``x.flags`` of an array with known (C-contiguous, F-contiguous) flags."""

    def __init__(self, array: Variable, contiguity: tuple[bool, bool]):
        self.array, self.contiguity = array, contiguity

    def describe(self) -> str:
        return f"flags of {self.array.describe()}"

    def python_type(self) -> type:
        import numpy as np
        return type(np.empty(0).flags)

    def _flag(self, rule: str | None, what: str) -> Variable:
        if rule is None:
            raise Unsupported(f"array attribute .flags{what} of {self.array.describe()}",
                              "Only the contiguity flags of an input are known while "
                              "tracing; the others may change or are the backend's.",
                              hint="read the flag before calling the compiled function",
                              cause="array_layout")
        return ConstantVariable(_RULES[rule](*self.contiguity))

    def getattr(self, tx, name: str) -> Variable:
        return self._flag(_ATTRS.get(name), f".{name}")

    def getitem(self, tx, index: Variable) -> Variable:
        key = index.as_python_constant() if index.is_constant() else None
        return self._flag(_KEYS.get(key) if isinstance(key, str) else None,
                          f"[{key!r}]")


def _made_c_contiguous(array) -> tuple[bool, bool] | None:
    """The flags of ``np.ascontiguousarray``'s result (every backend makes it C-ordered),
    where its shape is static: F-contiguous too when at most one axis is longer than 1
    (or it is empty), as NumPy decides it."""
    shape = array.meta.shape
    if getattr(array.node, "target", None) != "ascontiguousarray" or \
            any(isinstance(d, SymInt) for d in shape):
        return None
    return (True, 0 in shape or sum(d != 1 for d in shape) <= 1)


def flags_of(tx, array) -> Variable:
    """``array.flags``: a FlagsVariable where the trace knows the layout, else the break."""
    contiguity = tx.output._layout_of(array) or _made_c_contiguous(array)
    if contiguity is None:
        raise Unsupported(f"array attribute .flags of {array.describe()}",
                          "Memory layout of an op's result is decided by the backend, not "
                          "the trace (an input's contiguity flags are known).",
                          hint="read x.flags of an input, or call np.ascontiguousarray "
                               "without asking",
                          cause="array_layout")
    return FlagsVariable(array, contiguity)
