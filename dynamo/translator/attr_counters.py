"""Int attributes of an object that a loop body steps by a constant (``self.t += 1``
in an optimizer's ``step``), counted like local counters (a mixin of ``LoopScope``,
``loops.py``; local counters: ``BodyState._temporaries``, docs/loops.md).

An object the frame held before the loop is Python state the body may not change
(``BodyState._check_effects``): an Adam optimizer's step counter made its whole training
loop run as Python, calling the compiled ``forward``, ``backward`` and ``step`` through
the hook each trip (0.88x plain NumPy). Where every attribute the body changed on such
an object (held by a local at the loop) is a plain int that moved by a constant, the
loop is tried again (``Counters``) with those attributes as counters, keyed
``"local.attribute"``: the body sees ``t0 + step * trip`` (so ``b1 ** self.t`` is a
float of the trip index), and after the loop the attribute holds
``t0 + step * trips``, as plain Python leaves it.

Example::

    >>> opt = Adam(params); for _ in range(100): ...; opt.step(grads)
    >>> # first try: Counters({'opt.t': 1}); then one node, opt.t == t0 + 100 after
"""

from __future__ import annotations

from ..symbolic import Sym, SymInt
from ..variables import ConstantVariable, ObjectVariable
from .loop_body_state import Counters
from .loop_facts import NotALoopNode, same_int


class AttrCounters:
    """``start_attr_counters`` before the body's trace, ``counted_attributes`` in its
    effects check, ``finish_attr_counters`` once the node is made."""

    entry_objects: dict = {}   # id(object) -> (the local holding it, its attributes)
    attr_starts: dict = {}     # "local.attribute" -> (the object, attribute, start)

    def start_attr_counters(self) -> None:
        """The counted attributes as ``t0 + step * trip``; then the attributes of every
        object a local holds, as the body starts (what ``counted_attributes`` compares)."""
        self.attr_starts = {}
        for key, step in self.counters.items():
            if "." not in key:
                continue
            local, attr = key.split(".", 1)
            obj = self.entry_locals.get(local)
            start = obj.pending.get(attr) if isinstance(obj, ObjectVariable) else None
            if not isinstance(start, ConstantVariable) or not _int(start.value):
                raise NotALoopNode(f"the counter {key!r} is no int at the loop")
            self.attr_starts[key] = (obj, attr, start.value)
            obj.pending[attr] = ConstantVariable(self._attr_counter(key, start.value, step, 0))
        self.entry_objects = {}
        for name, var in self.entry_locals.items():
            if isinstance(var, ObjectVariable) and id(var) not in self.entry_objects:
                self.entry_objects[id(var)] = (name, dict(var.pending))

    def _attr_counter(self, key: str, start: int, step: int, trips) -> SymInt:
        """The counted attribute ``key`` at trip ``trips``: ``start + step * (trip +
        trips)`` (as ``BodyState._counter`` for a local; ``start`` may be a dynamic int
        of the object's, a symbol of the graph)."""
        self.check_counter_start(key, start)   # (nested_loops)
        return start + SymInt(step * trips, Sym(((self.symbol, step),), step * trips,
                                                ((self.symbol, self.symbol),)))

    def counted_attributes(self, var) -> bool:
        """``var``, changed by the body, is an object a local held whose changed
        attributes are all counters: known ones (checked by ``finish_attr_counters``),
        or new ones (the loop is tried again with them: ``Counters``)."""
        entry = self.entry_objects.get(id(var)) if isinstance(var, ObjectVariable) else None
        if entry is None:
            return False
        local, before = entry
        now = var.pending
        changed = [k for k in {**before, **now} if now.get(k) is not before.get(k)]
        if not changed:
            return False   # (changed some other way than an attribute: as before)
        new = {}
        for attr in changed:
            key = f"{local}.{attr}"
            if key in self.counters:
                continue
            step = _step(before.get(attr), now.get(attr))
            if step is None:
                return False
            new[key] = step
        if new:
            raise Counters({**self.counters, **new})
        return True

    def finish_attr_counters(self) -> None:
        """Each counted attribute stepped by its step in the trip, and holds its value
        after the last trip now."""
        for key, (obj, attr, start) in self.attr_starts.items():
            step, var = self.counters[key], obj.pending.get(attr)
            if not isinstance(var, ConstantVariable) or \
                    not same_int(var.value, self._attr_counter(key, start, step, 1)):
                raise NotALoopNode(f"the counter {key!r} does not step by {step}")
            obj.pending[attr] = ConstantVariable(start + step * self.trips)


def _int(value) -> bool:
    """A Python int, or a dynamic int (``SymInt``, an int subclass); no bool."""
    return isinstance(value, int) and type(value) is not bool


def _step(old, new) -> int | None:
    """``new - old`` where both are ints (plain or dynamic) a constant apart."""
    if not (isinstance(old, ConstantVariable) and isinstance(new, ConstantVariable) and
            _int(old.value) and _int(new.value)):
        return None
    step = new.value - old.value
    return step if type(step) is int else None
