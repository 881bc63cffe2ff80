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
  real, between the effects before and after it (``translator/names.py``);
- when the function returns, its frame drops its locals in slot order (3.14: in
  reverse); a resume function's glue gets its values in another order (the stack's
  values first, then the live locals), so it drops them in the order of the locals of
  the program's frame that hold them at the return (``glue_slot_order``): a weakref
  made at a break (``r = weakref.ref(p, cb)``) dies after ``p`` and ``cb`` runs, as
  plainly.

Counted are instances of user classes (``ObjectVariable``: their type is guarded, so a
``__del__`` is too), weak references with a callback (``weak_end_is_visible``) and
arguments the trace never read. NumPy arrays are not: an array dead at a break is freed
there (the graph's intermediates are never made into Python objects at all), which only
a weak reference to an array could see. Weak references are counted as the trace finds
them (not guarded).
"""

from __future__ import annotations

import weakref

import numpy as np

from dynamo.guards.sources import LocalSource
from dynamo.guards.type_slots import defines, qualname_of, weakref_offset_of

from .. import pyversion
from ..bytecode.drop_order import frame_slots
from ..exc import Unsupported
from .base import Variable
from .data_tuples import DataTupleVariable
from .functions import NestedFunctionVariable
from .objects import ObjectVariable
from .sequences import TupleVariable


def end_is_visible(obj) -> bool:
    """Freeing ``obj`` runs code or changes what the program sees: its type has a
    ``__del__``, or it has weak references now. (Arrays never count, see above.)"""
    cls = type(obj)
    if issubclass(cls, np.ndarray):   # (by its type: isinstance may run its code)
        return False
    if defines(cls, "__del__"):   # (as CPython finds it: no metaclass __getattr__ runs)
        return True
    if issubclass(cls, _WEAK_TYPES):
        return weak_end_is_visible(obj)
    return bool(weakref_offset_of(cls)) and weakref.getweakrefcount(obj) > 0


_WEAK_TYPES = (weakref.ReferenceType, *weakref.ProxyTypes)
# (read through the C type's own descriptors: a subclass of ``weakref.ref`` may define
# ``__getattribute__`` or ``__call__``, and a proxy forwards every read to its referent)
_CALLBACK = weakref.ReferenceType.__dict__["__callback__"].__get__
_REFERENT = weakref.ReferenceType.__call__


def weak_end_is_visible(ref) -> bool:
    """Dropping the weak reference ``ref`` changes what the program sees: it has a
    callback and its referent is alive, so the callback runs only if ``ref`` outlives
    the referent. Plain Python's frame drops its locals in slot order when it returns;
    a resume function that got ``ref`` in another slot, or a break that freed it as
    dead, loses the callback. A proxy counts always (its referent cannot be read
    without running the referent's code).

        >>> class P: pass
        >>> p = P()
        >>> weak_end_is_visible(weakref.ref(p)), weak_end_is_visible(weakref.ref(p, print))
        (False, True)
    """
    if not issubclass(type(ref), weakref.ReferenceType):   # a proxy (by its type: see above)
        return True
    return _CALLBACK(ref) is not None and _REFERENT(ref) is not None


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


def visible_ends_held(var) -> list:
    """The objects whose end the program sees that a local bound to ``var`` keeps alive
    directly: the one it holds (``ends_visibly``), or the items of a tuple it holds (a
    tuple the trace made, or an argument's raw tuple). Dropping the tuple's last binding
    frees them, as plainly::

        t = tuple(items)      # items: Noisy objects (a __del__ that logs)
        items.clear()
        del t                 # plainly both __del__ run here

        >>> visible_ends_held(TupleVariable([ObjectVariable(noisy), ConstantVariable(1)]))
        [noisy]
    """
    if ends_visibly(var):
        return [held_object(var)]
    if isinstance(var, DataTupleVariable) and var.is_unread():
        return []   # (Python numbers only, not read yet: reading them would guard them)
    if isinstance(var, TupleVariable):
        items = var.items
    elif type(var) is tuple:
        items = var
    else:
        return []
    return [held_object(v) for v in items if ends_visibly(v)]


def may_end_visibly(var) -> bool:
    """``ends_visibly``, or an instance of a user class that could get a weak reference
    from code the trace does not see: at a graph break, the breaking instruction runs
    for real and may take one (``weakref.finalize(b, cb)``; then ``b = None``).
    A dead local bound to it is passed on, so the object lives until plain Python
    drops it (the resume function's store or ``del`` then breaks, ``ends_visibly``).
    A tuple holding one (``visible_ends_held``) is passed on too: plainly it keeps its
    items alive until it is rebound (``t = (o.h, 1); o.h = None`` frees nothing)."""
    if visible_ends_held(var):
        return True   # (also a raw tuple: an argument the trace never read)
    obj = held_object(var)
    return obj is not None and bool(weakref_offset_of(type(obj)))


def break_at_drop(olds, where: str) -> None:
    """Graph-break where a store into, or a delete from, an object, a dict or a list
    (``where``) drops one of ``olds`` (its values there before) whose end the program
    sees. The glue writes each mutated object's final state when the graph returns, one object
    after the other in first-mutation order, so a ``__del__`` the overwrite runs would
    see the other objects' effects in another order than the program made them; the
    break code runs the store for real, between the effects before and after it::

        log.append("before")
        o.h = None              # o.h was the last reference of a Noisy: break here
        log.append("after")     # plainly the Noisy's __del__ ran before this

    Also where the frame still holds the value (``h = o.h; o.h = None``): the glue's
    write would free it, as no real frame holds the trace's locals; after the break the
    program's own frame does, and frees it where plain Python does."""
    for old in olds:
        if old is not None and ends_visibly(old):
            obj = held_object(old)
            raise Unsupported(f"a {qualname_of(type(obj))} object dropped from {where}")


def holds_frame_cells(var, cells: dict) -> bool:
    """``var`` is a function made in the frame whose closure holds one of the frame's
    ``cells``. On 3.14 a returning frame drops its cells before its locals (last slot
    first), so the end of a cell's object waits for such a function (``k = lambda: c``)
    in a local: a dead one is passed on at a break, as a local whose end is visible
    (3.11-3.13 drop the cells last, after any local)."""
    return pyversion.FRAME_DROPS_LAST_SLOT_FIRST and \
        type(var) is NestedFunctionVariable and \
        any(c is cell for c in var.closure for cell in dict.values(cells))


def glue_slot_order(params: dict[str, str], locals_at_return: dict, unread: dict,
                    cells, original) -> list[str]:
    """The parameters of a resume function's glue in the slot order that drops the
    values they carry the way the program's frame (of code ``original``) drops them
    when the function returns.

    ``params`` maps each local name of the resume function's parameters to its name in
    generated code; ``locals_at_return`` are the trace's locals at the return,
    ``unread`` the arguments it never read, ``cells`` the cell variables passed as
    cells. The program's frame drops a value when it clears the last of the slots that
    hold it: slots go first to last (3.11-3.13) or last to first (3.14,
    ``pyversion.FRAME_DROPS_LAST_SLOT_FIRST``). A parameter that no local holds at the
    return (a value the break left on the stack, or an alias of another parameter)
    goes where it is dropped first: plain Python dropped it before the return. So
    ``r``, which holds ``___stack0`` (the weakref the breaking call returned), puts it
    after ``p``::

        >>> glue_slot_order({"___stack0": "______stack0", "p": "p"},
        ...                 {"p": P, "r": R0}, {}, (), original)   # R0: ___stack0's
        ['p', '______stack0']          # the same on 3.14: it clears the last slot first
    """
    slots = {name: i for i, name in enumerate(frame_slots(original))}
    by_generated = {generated: local for local, generated in params.items()}
    reverse = pyversion.FRAME_DROPS_LAST_SLOT_FIRST
    # (where the value dies: its last holder's slot in clearing order)
    last = min if reverse else max
    held: dict[str, int] = {}

    def held_at(generated: str, local: str) -> None:
        if generated in by_generated and local in slots:
            at = slots[local]
            held[generated] = last(held[generated], at) if generated in held else at

    for local, var in dict.items(locals_at_return):
        source = getattr(var, "source", None)
        if type(source) is LocalSource:   # the parameter's own value, still bound
            held_at(source.expr(), local)
    for local in [*unread, *cells]:
        if local in params:
            held_at(params[local], local)
    unheld = len(slots) if reverse else -1   # (dropped first)
    return sorted(params.values(), key=lambda p: held.get(p, unheld))   # (stable)

