"""Values whose end the program can see, and how long a frame holds them.

In plain Python a local holds its value until it is rebound, deleted, or the function
returns. For most values nobody can tell when that happens, but an object whose type
has a ``__del__`` (or that has weak references: a ``weakref.ref`` callback, a
``WeakValueDictionary`` entry) shows the moment it is freed. Two rules keep that
moment where plain Python has it:

- at a graph break, a local that is dead (never read again) but still bound to such an
  object is passed on to the resume function like a live one (``dynamo.convert``), so
  it is not freed at the break;
- where the trace drops the frame's last binding of such an object (``del a``, or
  ``a = other``), it graph-breaks: the break code runs the store or the ``del`` for
  real, between the effects before and after it (``translator/names.py``).

Counted are instances of user classes (``ObjectVariable``: their type is guarded, so a
``__del__`` is too) and arguments the trace never read. NumPy arrays are not: an array
dead at a break is freed there (the graph's intermediates are never made into Python
objects at all), which only a weak reference to an array could see. Weak references are
counted as the trace finds them (not guarded).
"""

from __future__ import annotations

import weakref

import numpy as np

from dynamo.guards.type_slots import defines, weakref_offset_of

from .base import Variable
from .objects import ObjectVariable


def end_is_visible(obj) -> bool:
    """Freeing ``obj`` runs code or changes what the program sees: its type has a
    ``__del__``, or it has weak references now. (Arrays never count, see above.)"""
    cls = type(obj)
    if issubclass(cls, np.ndarray):   # (by its type: isinstance may run its code)
        return False
    if defines(cls, "__del__"):   # (as CPython finds it: no metaclass __getattr__ runs)
        return True
    return bool(weakref_offset_of(cls)) and weakref.getweakrefcount(obj) > 0


def held_object(var):
    """The real object a local's Variable stands for, when it is an instance of a user
    class (``ObjectVariable``) or a raw value (an argument the trace never read), else
    None (arrays, constants, values the trace made or models itself)."""
    kind = type(var)   # (isinstance of a raw value may run its __getattribute__)
    if issubclass(kind, ObjectVariable):
        return var.obj
    if issubclass(kind, Variable):
        return None   # an array, a constant, a value the trace made
    return var


def ends_visibly(var) -> bool:
    """A local bound to ``var`` (a Variable, or an argument's raw value) holds an
    object whose end the program can see (``end_is_visible``)."""
    obj = held_object(var)
    return obj is not None and end_is_visible(obj)


def may_end_visibly(var) -> bool:
    """``ends_visibly``, or an instance of a user class that could get a weak reference
    from code the trace does not see: at a graph break, the breaking instruction runs
    for real and may take one (``weakref.finalize(b, cb)``; then ``b = None``).
    A dead local bound to it is passed on, so the object lives until plain Python
    drops it (the resume function's store or ``del`` then breaks, ``ends_visibly``)."""
    obj = held_object(var)
    if obj is None:
        return False
    return end_is_visible(obj) or bool(weakref_offset_of(type(obj)))
