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

Two object inputs that share one ``__dict__`` (``p.__dict__ = o.__dict__``) are kept
apart the same way: a break where they share it, else guarded ``not (o.__dict__ is
p.__dict__)``. So is a module's namespace, which the trace reads and writes as globals
(``G['SCALE']``): a dict input that is one (``f(x, globals())``), or an object whose
``__dict__`` is one, is a graph break; a dict input is guarded ``not (d is ___G)``, a
written object ``not (o.__dict__ is ___G)``.
"""

from __future__ import annotations

import sys

from dynamo.guards import EXPR, AttrSource, Guard

from .exc import Unsupported
from .made_dicts import unmade
from .variables import DictVariable, ObjectVariable


def guard_instance_dicts(output, var, mutated: bool = True) -> None:
    """``var``, an input, is mutated for the first time (``mutated``), or is new: keep
    it apart from each input of the other kind (a dict, an object) that one of the two
    writes (see the module docstring)."""
    inputs = [(v, s) for group in output.mutable_inputs.values() for v, s in group]
    source = next((s for v, s in inputs if v is var), None)
    if source is None or not isinstance(var, (DictVariable, ObjectVariable)):
        return
    _guard_namespaces(output, var, source, mutated)
    if isinstance(var, ObjectVariable):
        _guard_shared_dicts(output, var, source, inputs, mutated)
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


def _instance_dict(value):
    """``value``'s own ``__dict__`` (None where it has none)."""
    try:
        return object.__getattribute__(value, "__dict__")
    except AttributeError:
        return None


def _guard_shared_dicts(output, var, source, inputs, mutated: bool) -> None:
    """Two object inputs that share one ``__dict__`` (``p.__dict__ = o.__dict__``) are
    one store of attributes under two Variables: ``o.a = v`` then ``p.a`` would read the
    value from before the write. Where one of the pair is written: a graph break where
    they share it now, else guarded ``not (o.__dict__ is p.__dict__)``. (The dicts are
    read only where there is such a pair: reading one makes it, ``made_dicts``.)"""
    pairs = [(other, other_source) for other, other_source in inputs
             if other is not var and isinstance(other, ObjectVariable) and
             (mutated or id(other) in output.side_effects.mutated)]
    own = _instance_dict(output.input_objects.get(source)) if pairs else None
    if own is None:
        return
    for _other, other_source in pairs:
        theirs = _instance_dict(output.input_objects.get(other_source))
        if theirs is None:
            continue
        if theirs is own:
            raise Unsupported("two objects that share one __dict__ under two names, one "
                              "written", cause="unsupported_value")   # (hints_statements)
        a, b = AttrSource(source, "__dict__"), AttrSource(other_source, "__dict__")
        on = a if a.depth() >= b.depth() else b
        output.guards.add(Guard(on, EXPR, f"not ({a.expr()} is {b.expr()})",
                                note="objects with distinct instance dicts while tracing"))


def _made_or_unmade(value):
    """``value``'s own ``__dict__`` (None where it has none), or an empty dict in its
    place where its class keeps one that was never made (``made_dicts.unmade``): such
    an object is no namespace (no made dict is one), and reading its ``__dict__`` would
    make it, which on 3.11 slows each later attribute access of the object, compiled
    or plain, for good. (An object the trace writes gets its guard all the same.)"""
    return {} if unmade(value) else _instance_dict(value)


def _is_namespace(output, d) -> bool:
    """Is ``d`` the compiled function's globals or a loaded module's namespace?"""
    if d is output.fn_globals:
        return True
    name = dict.get(d, "__name__") if type(d) is dict else None
    module = sys.modules.get(name) if type(name) is str else None
    return module is not None and getattr(module, "__dict__", None) is d


def _guard_namespaces(output, var, source, mutated: bool) -> None:
    """A dict input that is a module's namespace is one store under two kinds of
    Variable (the dict's items, the globals the trace reads and writes): a graph break.
    Else a dict input is guarded not to be the function's globals on a later call (a
    global written by the trace and read through the dict, or the other way round),
    and so is the ``__dict__`` of an object input that is written."""
    value = output.input_objects.get(source)
    if isinstance(var, ObjectVariable):
        own, mutated_here = _made_or_unmade(value), mutated
        expr = AttrSource(source, "__dict__")
    else:
        own, mutated_here, expr = value, True, source
    if own is None or type(own) is not dict:
        return
    if _is_namespace(output, own):
        raise Unsupported("a module's globals dict as an input, as a dict or an "
                          "object's __dict__", cause="unsupported_value")   # (hints)
    if mutated_here:
        on = expr if expr.depth() >= source.depth() else source
        output.guards.add(Guard(on, EXPR, f"not ({expr.expr()} is ___G)",
                                note="not the function's globals while tracing"))
