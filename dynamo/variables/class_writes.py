"""Assignments to a program's class attributes (``Counter.n += 1``,
``type(self).n += 1``): replayed after the graph, as an instance attribute write is.

The write is kept on the class's Variable (``ClassVariable.pending``) and the glue
makes it when the graph returns (``setattr(cls, name, value)``, what ``Cls.name = v``
does for a class whose metaclass is ``type``). The trace reads its own write
wherever Python would: ``Counter.n``, ``type(self).n`` (another Variable of the same
class: one of them holds the writes, ``owner``) and ``self.n`` of an instance without
its own ``n`` (``read``). A read of that name that another class in the MRO would
answer, or of ``__dict__``, is a graph break: exact before fast. A read of the write
is guarded by the lookup that found it (the instance lacks its own ``n``; the
subclasses before the written class lack one), so ``o.n = -3`` between calls
recompiles.

Example::

    class IdAssigner:
        next_id = 0
        def tag(self, x):
            IdAssigner.next_id += 1          # replayed after the graph
            return np.concatenate([x, [IdAssigner.next_id]])   # reads the write

Only where the write is plain: a class with a source to write through, of metaclass
``type`` (no ``__setattr__`` or data descriptor of a metaclass runs), a heap type that
is not immutable and not a library's, and a name that is not a dunder (``type`` keeps
``__name__``, ``__doc__``, ``__bases__``... as data descriptors).
"""

from __future__ import annotations

import types

from dynamo.guards.type_slots import dict_of, mro_of

from ..exc import Unsupported
from .class_facts import class_entry, data_descriptor

_HEAPTYPE = 1 << 9          # Py_TPFLAGS_HEAPTYPE: a class made by a class statement
_IMMUTABLETYPE = 1 << 8     # Py_TPFLAGS_IMMUTABLETYPE (3.10+): its attributes are fixed


def refused(cls: type, name: str, has_source: bool, library: bool) -> str | None:
    """Why ``cls.name = value`` is not replayed (None: it is)."""
    if not has_source:
        return "the class has no source to write through"
    if library:
        return "a library's class"
    if type(cls) is not type:
        return f"its metaclass {type(cls).__qualname__} may see the write"
    if not cls.__flags__ & _HEAPTYPE or cls.__flags__ & _IMMUTABLETYPE:
        return "an immutable type"
    if name.startswith("__") and name.endswith("__"):
        return f"{name} is kept by type itself"
    return None


def _written(tx):
    """The class Variables with writes, in the trace's first-mutation order."""
    return [v for v in tx.output.side_effects.mutated.values()
            if isinstance(getattr(v, "cls", None), type) and getattr(v, "pending", None)]


def owner(tx, var):
    """The Variable that holds the writes to ``var``'s class: the first one written
    through (``Counter.n`` and ``type(self).n`` are two Variables of one class), else
    ``var`` itself."""
    for other in _written(tx):
        if other.cls is var.cls:
            return other
    return var


def read(tx, cls: type, name: str, source=None):
    """The Variable the trace wrote into ``name`` of the class that answers it for a
    lookup along ``cls``'s MRO (an instance's class's, or a class's own), or None when
    no write of the trace is seen there (the usual read: the class's value, guarded).
    The MRO and namespaces are read as ``type_slots`` reads them: no metaclass
    property runs.

    A write to a class later in the MRO than one that has ``name`` itself is not seen
    (None, as Python's lookup); a write to ``__dict__``'s contents is read only
    through ``name``: ``cls.__dict__`` after a write is a graph break.

    A write found past ``cls`` itself (``SubCounter.n`` after ``Counter.n += 1``) holds
    while the classes before it lack ``name``: a later ``SubCounter.n = 50`` would
    answer instead (round 30), so each of them is guarded through ``source`` (where
    ``cls`` is read from), and without a source the read is a graph break."""
    written = _written(tx)
    if not written:
        return None
    writes = {id(v.cls): v.pending for v in written}
    mro = mro_of(cls)
    if name == "__dict__" and any(id(c) in writes for c in mro):
        raise Unsupported("a class's __dict__ read after the trace wrote into it",
                          "The write is replayed after the graph; the mapping would "
                          "not show it yet.")
    for i, klass in enumerate(mro):
        pending = writes.get(id(klass))
        if pending is not None and name in pending:
            _guard_namespaces(tx, source, name, i, found=None)
            return pending[name]
        if name in dict_of(klass):
            if any(id(c) in writes and name in writes[id(c)] for c in mro[i + 1:]):
                # its own entry hides the write: a ``del Sub.n`` would uncover it
                _guard_namespaces(tx, source, name, i, found=i)
            return None
    return None


def _guard_namespaces(tx, source, name: str, upto: int, found: int | None) -> None:
    """Guard that the first ``upto`` classes of the MRO of the class at ``source``
    still lack ``name`` in their own namespace and, with ``found``, that the class at
    that index still has it (read statically: ``type``'s own ``__dict__`` and ``__mro__``
    getters, so no metaclass property runs)."""
    if not upto and found is None:
        return
    if source is None:
        raise Unsupported(f"{name!r} read through a subclass of a class the trace "
                          "wrote it into, with no source to guard the subclass by")
    from dynamo.guards import EXPR, Guard
    b, klass = "___builtins", source.expr()

    def namespace(j):
        return (f"{b}.type.__dict__['__dict__'].__get__("
                f"{b}.type.__dict__['__mro__'].__get__({klass})[{j}])")

    tests = [f"{name!r} not in {namespace(j)}" for j in range(upto)]
    if found is not None:
        tests.append(f"{name!r} in {namespace(found)}")
    for test in tests:
        tx.output.guards.add(Guard(source, EXPR, test,
                                   note=f"{name!r} found where it was, the trace wrote it "
                                        "into a class of the MRO"))


def write(tx, var, name: str, value, library: bool) -> None:
    """``Cls.name = value`` through the class Variable ``var``, kept for the glue (or a
    graph break saying why it is not replayed)."""
    why = refused(var.cls, name, var.source is not None, library)
    if why is not None:
        raise Unsupported(f"attribute assignment on {var.describe()} ({why})")
    holder = owner(tx, var)
    holder.pending[name] = value
    tx.output.side_effects.mutate(holder)


def dropped(tx, var, name: str):
    """What ``Cls.name = v`` drops: the trace's earlier write, or the class's own
    entry (for ``lifetimes.break_at_drop``)."""
    return owner(tx, var).pending.get(name, dict_of(var.cls).get(name))


def read_on_class(tx, cls: type, name: str, source=None):
    """``Cls.name`` after the trace wrote it there (or into a base ``Cls`` inherits it
    from): the written Variable, or None. A written value that binds (a descriptor
    other than a plain function: ``staticmethod``, a property) is a graph break."""
    written = read(tx, cls, name, source)
    if written is not None and _binds(written, types.FunctionType):
        raise Unsupported(f"{name!r} read after the trace wrote a descriptor there")
    return written


def read_on_instance(tx, obj, name: str, class_source=None, guard_absent=None):
    """``obj.name`` after the trace wrote ``name`` into its class (``type(self).n +=
    1; return x * self.n``): the written Variable where the instance has no own
    ``name`` (which would win), else None. A written value that binds (a function
    becomes a bound method) is a graph break. ``guard_absent()`` guards that the
    instance keeps lacking its own ``name`` (an ``o.n = -3`` set between calls would
    answer instead: round 30)."""
    written = read(tx, type(obj), name, class_source)
    if written is None:
        return None
    if _binds(written, None):
        raise Unsupported(f"{name!r} read through an instance after the trace wrote a "
                          "function or descriptor into its class")
    try:
        own = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        own = None
    if type(own) is dict and name in own and \
            not data_descriptor(class_entry(type(obj), name)):
        return None           # the instance's own attribute
    if guard_absent is not None:
        guard_absent()
    return written


def _binds(var, plain) -> bool:
    """Does reading ``var``'s value as an attribute run its ``__get__`` (other than
    ``plain``'s, which gives the value itself on a class)? Unknown types: yes."""
    try:
        kind = var.python_type()
    except Unsupported:
        return True
    return kind is not plain and hasattr(kind, "__get__")
