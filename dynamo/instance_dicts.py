"""An object and its own ``__dict__`` as two inputs of one trace (issue #17, one object
under two names): ``d = vars(o)`` breaks the graph, and the code after the break gets
``d`` and ``o`` as two inputs; ``d["a"] = v`` then ``o.a`` must read ``v``, which two
independent Variables would not (``o.a`` read the value from before the write).

Where the trace first mutates a dict input or an object input, or reads one beside such
a mutated input, each such pair of a dict input and an object input is checked: the
very ``__dict__`` of the object now is a graph break (the trace cannot keep one object
apart under two kinds of Variable); otherwise the entry is guarded ``not (d is
o.__dict__)``, so a later call that passes the pair makes its own trace (and breaks
there).

Example::

    def f(x, o, d):
        d["a"] = x.sum()          # d mutated: guard  not (L['d'] is L['o'].__dict__)
        return x + o.a

    f(x, o, {})                   # traced, guarded
    f(x, o, o.__dict__)           # misses the entry; its trace breaks at the write
"""

from __future__ import annotations

from dynamo.guards import EXPR, AttrSource, Guard

from .exc import Unsupported
from .variables import DictVariable, ObjectVariable


def guard_instance_dicts(output, var, mutated: bool = True) -> None:
    """``var``, an input, is mutated for the first time (``mutated``), or is new: keep
    it apart from each input of the other kind (a dict, an object) that one of the two
    writes (see the module docstring)."""
    inputs = [(v, s) for group in output.mutable_inputs.values() for v, s in group]
    source = next((s for v, s in inputs if v is var), None)
    if source is None or not isinstance(var, (DictVariable, ObjectVariable)):
        return
    kind = ObjectVariable if isinstance(var, DictVariable) else DictVariable
    for other, other_source in inputs:
        if not isinstance(other, kind) or \
                not (mutated or id(other) in output.side_effects.mutated):
            continue
        dict_source, obj_source = (source, other_source) if kind is ObjectVariable \
            else (other_source, source)
        try:
            own = object.__getattribute__(output.input_objects[obj_source], "__dict__")
        except (AttributeError, KeyError):
            continue   # (no instance dict: nothing to alias)
        if own is output.input_objects.get(dict_source):
            raise Unsupported("an object and its own __dict__ under two names, one "
                              "written", cause="unsupported_value")   # (hints_statements)
        attrs = AttrSource(obj_source, "__dict__")
        on = dict_source if dict_source.depth() >= attrs.depth() else attrs
        output.guards.add(Guard(on, EXPR, f"not ({dict_source.expr()} is {attrs.expr()})",
                                note="distinct objects while tracing"))
