"""Guards on what the frame-reader check at a graph break looked at.

At a graph break, ``convert._reader_after_break`` looks at the functions within the
frame's reach (``caller_frames.reader_within``: the arguments, the locals, the globals
the code names, one level into each) and, finding none that reads two or more frames
up, lets the frame compile with a break. That verdict holds for the objects it saw:
a global rebound afterwards to a reader (``READER = lambda: 0``; compile; ``READER =
two_up``) would be called by the resume function, which dynamo's runner calls, and
see dynamo's frame where plain Python shows the program's (issue #17
``frame-reader-made-later``). The guards added here make the entry fail once such a
name is rebound, so the next call traces again and the check looks again.

Only entries with a break get them (a whole-frame entry calls nothing from a frame of
dynamo's: its hit path must not pay for this; ``tests/dynamo/test_dispatch.py``).

Example::

    >>> READER = lambda: 0
    >>> def f(x): y = x + 1; print(); return READER()
    >>> # at the break: guard  G['READER'] is <lambda>  (an ID guard, held weakly)
"""

from __future__ import annotations

import functools
import types

from dynamo.guards import (
    EXPR,
    ID,
    TYPE,
    AttrSource,
    GlobalSource,
    Guard,
    ItemSource,
    LocalSource,
)

# (a class's attributes are read without its metaclass: a metaclass property may raise)
from dynamo.guards.type_slots import dict_of, instance_dict, is_builtin_class, mro_of

from .bytecode.caller_frames import called_names
from .bytecode.outline import UNBOUND

# Values a global is guarded on by identity: what ``caller_frames._functions_of``
# takes as a function itself (or ``None``, the "no reader yet" placeholder). Other
# values (numbers, arrays, containers) are left alone: an identity guard on them
# would fail on every rebinding (``COUNT += 1``) and recompile the frame each call.
_BY_IDENTITY = (types.FunctionType, types.MethodType, functools.partial, type,
                types.NoneType)


def guard_reach(fn, output, arg_values: dict) -> None:
    """Add to ``output.guards`` what the reader check at ``fn``'s break relied on:
    each global its code names that holds a function, a bound method, a partial, a
    class or ``None``, by identity; each argument that is a function, by its
    ``__code__`` (a closure by identity); and the type of each other global and
    argument that is an instance
    of a class of the program (its class functions were looked at: an object of
    another class may carry a reader).

    Example: ``def f(x, o): y = x * 2; print(); return o.read(y)`` compiled with
    ``o`` a ``Plain`` gets ``type(L['o']) is Plain``; ``f(x, Reading())`` recompiles,
    and the check then finds ``Reading.read``."""
    code = fn.__code__
    globals_ = getattr(fn, "__globals__", None)
    if isinstance(globals_, dict):
        for name in code.co_names:
            if name not in globals_:
                continue
            value = globals_[name]
            guard = _guard_for(GlobalSource(name), value)
            if guard is not None:
                output.guards.add(guard)
            for guard in _own_function_guards(GlobalSource(name), value, code.co_names):
                output.guards.add(guard)
    for name, value in arg_values.items():
        if value is UNBOUND:
            # an outlined loop body's local not bound yet (``Ap = A @ p`` on the first
            # trip): the body stores it before any read, so no call reaches it; its
            # marker's type guarded would fail at the second trip (a recompile)
            continue
        for guard in _argument_guards(LocalSource(name), value):
            output.guards.add(guard)
        for guard in _own_function_guards(LocalSource(name), value, code.co_names):
            output.guards.add(guard)


def _argument_guards(source, value) -> list[Guard]:
    """An argument is guarded by what the check took from it, not by its identity
    where a new object comes each call: a lambda made per call by its code (a
    closure by identity: the check looks through its cells, and one code may close
    over a reader in one and not in another), a bound method (``o.read``) by its
    function; the type guard first (``ordered`` reads a base before its attribute)."""
    kind = type(value)
    if kind is types.FunctionType:
        cells = _called_cell_guards(source, value)
        if cells is not None:
            return [Guard(source, TYPE, kind),
                    Guard(AttrSource(source, "__code__"), ID, value.__code__, _SAW),
                    *cells]
    if kind is types.MethodType:
        return [Guard(source, TYPE, kind),
                Guard(AttrSource(source, "__func__"), ID, value.__func__, _SAW)]
    if kind is functools.partial:
        return [Guard(source, TYPE, kind),
                Guard(AttrSource(source, "func"), ID, value.func, _SAW)]
    guard = _guard_for(source, value)
    return [] if guard is None else [guard]


_SAW = "the frame-reader check at the break saw it"


def _called_cell_guards(source, fn) -> list[Guard] | None:
    """For a function made per call (a generator expression carried over a break
    mid-``sum``, a lambda closing over ``self``): guards on the closure cells its code
    *calls* by name, the only cells the check looks through (``caller_frames.
    called_names``), each by what the check took from it; None (guard the closure
    by identity, as before) where such a cell is empty or holds a closure itself.

    Example: ``sum(self.gamma ** i * x for i, x in enumerate(self.rewards))`` broken
    at the deque: the generator function closes over ``self`` and calls nothing
    through it, so it is guarded by its code alone, and a new one each call hits."""
    code = fn.__code__
    if not code.co_freevars:
        return []
    if fn.__closure__ is None or len(fn.__closure__) != len(code.co_freevars):
        return None
    guards = []
    for name in called_names(code):
        if name not in code.co_freevars:
            continue
        i = code.co_freevars.index(name)
        try:
            held = fn.__closure__[i].cell_contents
        except ValueError:     # an empty cell: filled later, it may hold a reader
            return None
        if type(held) is types.FunctionType and held.__code__.co_freevars:
            return None        # (a closure in a closure: by identity, as before)
        cell = AttrSource(ItemSource(AttrSource(source, "__closure__"), i), "cell_contents")
        guards += _argument_guards(cell, held) or [Guard(cell, TYPE, type(held), _SAW)]
    return guards


def _own_function_guards(source, value, names) -> list[Guard]:
    """Guards on the functions ``value``'s own ``__dict__`` holds under a name the
    code loads (``self.read = reader`` in ``__init__``: one class, a reader in one
    instance and not in another), read as plain attributes: only where the class
    reads its attributes the ordinary way (no ``__getattribute__`` or ``__getattr__``
    of its own, no class attribute of that name that could be a descriptor), so a
    guard runs no code of the program's."""
    kind = type(value)
    # (by the type: isinstance would also ask a program's __getattribute__ for __class__)
    if is_builtin_class(kind) or issubclass(kind, _BY_IDENTITY) or \
            issubclass(kind, types.ModuleType):
        return []
    own = instance_dict(value)   # (by the slot: no __dict__ property of the program's runs)
    if type(own) is not dict or any(
            "__getattribute__" in dict_of(k) or "__getattr__" in dict_of(k)
            for k in mro_of(kind) if k is not object):
        return []
    guards = []
    for name in names:
        item = own.get(name)
        if type(item) is types.FunctionType and name.isidentifier() and not any(
                name in dict_of(k) for k in mro_of(kind)):
            guards.append(_still_own_entry(source, name))
            guards += _argument_guards(AttrSource(source, name), item)
    return guards


def _still_own_entry(source, name: str) -> Guard:
    """Checked before the guards read ``source.name`` (a base before its attribute):
    the read still finds the instance's entry, and no code of the class's (a property,
    ``__getattr__`` or ``__getattribute__`` added to the class later, which the guards'
    read would run on every call besides the program's own: issue #17, round 12).
    ``variables/objects.py ObjectVariable._guard_own_entry`` makes the same test."""
    obj, b = source.expr(), "___builtins"
    return Guard(source, EXPR,
                 f"{b}.type({obj}).__getattribute__ is {b}.object.__getattribute__ and "
                 f"{name!r} in {obj}.__dict__ and not {b}.hasattr({b}.type({obj}), {name!r})",
                 note=f"attribute {name!r} read from the instance")


def _guard_for(source, value) -> Guard | None:
    kind = type(value)
    if any(kind is k for k in _BY_IDENTITY) or \
            issubclass(kind, (types.FunctionType, types.MethodType)):
        return Guard(source, ID, value, _SAW)
    if is_builtin_class(kind) or issubclass(kind, types.ModuleType):
        return None
    return Guard(source, TYPE, kind, "the frame-reader check at the break saw its class")
