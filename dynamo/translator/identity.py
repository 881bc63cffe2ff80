"""``a is b`` while tracing: which Variables are one object at run time.

Constants compare as Python does; two values from outside are one object or two in
this call, a fact guarded like any other (``f(x, y)`` then ``f(x, x)`` must not share
an entry that tested ``x is y``); an object built in the trace is only its own
Variable; an array and the result of an op that may return it is a break (NumPy's
choice depends on a memory layout the trace does not know).

Example::

    >>> is_same_object(tx, x_var, y_var)   # two array inputs: guards ``x is y`` (or not)
    False
"""

from __future__ import annotations

from dynamo.guards import EXPR, Guard

from ..exc import Unsupported
from ..variables import (
    ArrayVariable,
    DictVariable,
    SequenceVariable,
    SetVariable,
    TupleVariable,
    Variable,
)
from ..variables.objects import NewObjectVariable
from ..variables.random_objects import RandomObjectVariable


def is_same_object(tx, a: Variable, b: Variable) -> bool:
    """``a is b`` of two traced values: decided while tracing where it can be, guarded
    where it is a fact about two inputs, a break where it depends on what NumPy
    returned (an op that may return its argument)."""
    if a is b:
        return True
    if isinstance(a, NewObjectVariable) or isinstance(b, NewObjectVariable):
        return False   # built in the trace: only its own Variable is that object
    if a.is_constant() and b.is_constant():
        va, vb = a.as_python_constant(), b.as_python_constant()
        if a.source is None or b.source is None or \
                type(va) in (type(None), bool, type(Ellipsis)):
            return va is vb
        # two numbers or strings from outside, equal by value, may still be one
        # object or two (`k is ONE`, `a is b`), which their value guards do not
        # tell: guarded, as for any two inputs (the real objects: a symbolic
        # number's Variable holds a stand-in)
        objects = tx.output.input_objects
        same = objects.get(a.source, va) is objects.get(b.source, vb)
        expr = f"{a.source.expr()} is {b.source.expr()}"
        tx.output.guards.add(Guard(a.source, EXPR, expr if same else f"not ({expr})",
                                   note="identity of two inputs"))
        return same
    if a.source is not None and b.source is not None:
        # two values from outside: whether they are one object is a fact to guard
        # (f(x, y) and then f(x, x) must not share an entry that tested x is y)
        same = _runtime_identity(tx, a, b)
        expr = f"{a.source.expr()} is {b.source.expr()}"
        tx.output.guards.add(Guard(a.source, EXPR, expr if same else f"not ({expr})",
                                   note="identity of two inputs"))
        return same
    if isinstance(a, ArrayVariable) and isinstance(b, ArrayVariable) and \
            _may_be_same(a, b):
        raise Unsupported("`is` between an array and the result of an op that may "
                          "return it", "Whether NumPy returned its argument itself "
                          "depends on a memory layout the trace does not know; the "
                          "comparison runs eagerly.", cause="array_layout")
    if isinstance(a, ArrayVariable) or isinstance(b, ArrayVariable):
        # distinct Variables are distinct runtime objects: an op that returns its
        # argument gives back the argument's Variable (OutputGraph.call_op)
        return False
    if isinstance(a, RandomObjectVariable) and b.is_constant() or \
            isinstance(b, RandomObjectVariable) and a.is_constant():
        return False  # `rng is None`: a Generator is never a Python constant
    if isinstance(a, (SequenceVariable, DictVariable, SetVariable)) or \
            isinstance(b, (SequenceVariable, DictVariable, SetVariable)):
        if isinstance(a, TupleVariable) or isinstance(b, TupleVariable):
            raise Unsupported("identity of tuples")
        return False
    raise Unsupported(f"identity of {a.describe()} and {b.describe()}")


def _runtime_identity(tx, a: Variable, b: Variable) -> bool:
    """Whether two sourced values are one object in this call (read, not traced)."""
    return tx.output.input_objects.get(a.source) is \
        tx.output.input_objects.get(b.source) is not None


def _may_be_same(a: ArrayVariable, b: ArrayVariable) -> bool:
    """Whether two distinct array Variables may be one object at run time: one is (a
    chain of) ``may_be`` of the other, or both of a common array (see
    ``ArrayVariable.may_be``)."""
    def chain(v):
        seen = []
        while v is not None:
            seen.append(v)
            v = v.may_be
        return seen
    return any(x is y for x in chain(a) for y in chain(b))
