"""Float attributes the frame's own code writes are changing numbers from its first
trace (issue #16).

A float attribute read by a trace is a constant of its entry, guarded by value, until an
entry learns that it changes (``DynamicPolicy.is_dynamic_number``; a write the trace
itself makes, ``symbolic/written_numbers.py``). A learning rate that the method halves
only in a branch a later call takes is a constant of every entry traced before that
call: once it changed, each of those entries misses and each branch side the program
takes is traced once more (``reduce_lr_on_plateau`` in
``tests/realworld/stateful_corpus12_agents.py``: 5 recompiles, 3 with this). The
method's bytecode says it up front: it stores that attribute (``STORE_ATTR lr``) on
one of its arguments. Such a float is read as a symbolic number from the first trace,
an input of the graph, so the entries of every branch serve the later values too.

Only floats (an int may be a size or an index: those keep their own rules), only
attributes of the frame's arguments (``self.lr``, not a global's), and only plain
instance attributes (``vars(obj)``: no property is run to look). A float the trace must
use as a plain value is pinned as any changing number is (``policy.static``).

Example::

    class ReduceOnPlateau:
        def step(self, w, g, loss):
            if loss < self.best:
                self.best, self.bad = loss, 0
            else:
                self.bad += 1
                if self.bad > 2:
                    self.lr, self.bad = self.lr * 0.5, 0   # STORE_ATTR lr
            return w - self.lr * g     # self.lr an input of every entry's graph

    >>> stored_floats(ReduceOnPlateau.step.__code__, {"self": r, "w": w, ...})
    {AttrSource(base=LocalSource(local='self'), attr='lr'), ...best...}
"""

from __future__ import annotations

import dis

from dynamo.guards import AttrSource, LocalSource

from . import pyversion


def _stored_attrs(code) -> frozenset:
    """The ``(local, name)`` pairs of ``local.name = ...`` and ``local.name += ...`` in
    ``code``: stores onto a local itself, not onto what a call gave (``type(ob).scale =
    ...`` writes the class, which the instance's reads reach only while no instance
    attribute shadows it: a changing number read at the call's start would miss that
    write, hostile round 37 ``class_attr_written``). Read once per trace, not cached: a
    cache would keep a dynamic function's code alive (``tests/dynamo/test_hook.py``)."""
    insts = list(dis.get_instructions(code))
    found = set()
    for k, inst in enumerate(insts):
        if inst.opname != "STORE_ATTR" or k == 0:
            continue
        owner = _loaded_local(insts[k - 1])
        if owner is None and insts[k - 1].opname == "SWAP":   # (``local.name += ...``)
            owner = _augmented_owner(insts, k, inst.argval)
        if owner is not None:
            found.add((owner, inst.argval))
    return frozenset(found)


def _loaded_local(inst) -> str | None:
    """The local a load pushes last (``LOAD_FAST self``; 3.13+'s ``LOAD_FAST_LOAD_FAST
    (lr, self)`` pushes ``self`` last), else None."""
    plain = pyversion.SUPER_INSTRUCTIONS.get(inst.opname, (inst.opname,))[-1]
    if plain not in pyversion.CELL_SLOT_LOADS or plain == "LOAD_DEREF":
        return None
    return inst.argval[-1] if isinstance(inst.argval, tuple) else inst.argval


def _augmented_owner(insts, k: int, name: str) -> str | None:
    """The local of ``local.name += ...`` whose ``STORE_ATTR name`` is ``insts[k]``:
    ``<load local>; COPY 1; LOAD_ATTR name; ...; SWAP 2; STORE_ATTR name``."""
    for j in range(k - 2, 1, -1):
        inst = insts[j]
        if inst.opname == "LOAD_ATTR" and inst.argval == name and \
                insts[j - 1].opname == "COPY":
            return _loaded_local(insts[j - 2])
    return None


def stored_floats(code, args: dict) -> set:
    """The sources ``arg.name`` of each argument's instance attribute that holds a
    float now and that ``code`` stores onto that argument (see the module's docstring)."""
    found = set()
    for param, name in _stored_attrs(code):
        obj = args.get(param)
        attrs = obj is not None and getattr(type(obj), "__dictoffset__", 0) and \
            _instance_dict(obj)
        if attrs and type(attrs.get(name)) is float:
            found.add(AttrSource(LocalSource(param), name))
    return found


def _instance_dict(obj):
    """``vars(obj)`` where it is a plain dict (no ``__getattr__`` or property run)."""
    try:
        attrs = object.__getattribute__(obj, "__dict__")
    except (AttributeError, TypeError):
        return None
    return attrs if type(attrs) is dict else None


__all__ = ["stored_floats"]
