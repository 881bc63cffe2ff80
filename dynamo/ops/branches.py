"""``branch_select``: the value of an ``if`` on array data that only chooses a value.

``if x.sum() > 0: y = x * 2 else: y = -x`` computes no Python effect either way; it
only decides which array ``y`` names. The translator traces both ways
(``translator/branch_selects.py``) and joins each name the two ways bind differently
with ``branch_select(flag, if_true, if_false)``, which returns one of the two objects
itself, as the program's own ``if`` does: the taken way's array, not a copy, so
identity and later writes through the name are eager's.

Both ways' ops run when the graph runs. The untaken way must not show anything: the
op counts as one that may raise (``extras["raises"]``), so the graph is rerun from the
frame's original code when an op of it raises, and runs under NumPy's floating-point
guard (a condition raises, and reruns it) where an op of it may report one
(``dynamo.raising.on_raise``, ``signals.reports_fp``): ``if d != 0: y = 1 / d`` with
``d == 0`` warns nothing, exactly as plain Python. The select itself reports nothing:
a running argmin (indexing, comparisons of floats, int casts) runs unguarded.

Example::

    >>> branch_select(np.float64(1.0) > 0, "taken", "not taken")
    'taken'
    >>> a = np.zeros(2)
    >>> branch_select(np.bool_(False), np.ones(2), a) is a
    True
"""

from __future__ import annotations

from .registry import OPAQUE, OpDef, register


def branch_select(flag, if_true, if_false):
    """``if_true`` if ``bool(flag)`` (the 0-d value the program's ``if`` tests), else
    ``if_false``: the object itself."""
    return if_true if flag else if_false


def _select_rule(op, args, kwargs):
    return args[1]   # (both ways have one meta: the translator checks it)


# (OPAQUE: no pass fuses, moves or reuses the memory of what it returns, which is one
# of its arguments; "raises": the graph reruns the frame when an op of it raises, and
# runs guarded where an op of it may report a floating-point condition,
# raising.raising_nodes and raising._reports_fp)
register(OpDef("branch_select", branch_select, _select_rule, OPAQUE, cupy=branch_select,
               doc="the value an `if` on array data chooses (one of two arrays, itself)",
               extras={"raises": True}))
