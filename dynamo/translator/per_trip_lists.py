"""The hint for a list built one item per trip of a count only the data knows (issue #19).

::

    classes = np.unique(y)
    means = np.array([X[y == c].mean(0) for c in classes])   # breaks at the loop

A loop over ``classes`` (a length the data decides) can be one loop node
(``data_trips``), but not one that builds a list: with no class, eager's
``np.array([])`` is float64 of shape ``(0,)``, unlike the stacked ``(k, d)`` a node
would give, and a list's length is a Python value. So the loop breaks at its
``GET_ITER`` as before; this module only recognises the form, so the break says
what stays in the graph instead: a preallocated result written row by row.

The forms, from the ``GET_ITER``:

- 3.11 comprehension: ``MAKE_FUNCTION`` of a ``<listcomp>`` code, the iterable,
  ``GET_ITER; PRECALL 0; CALL 0``;
- 3.12+ comprehension (inlined): ``GET_ITER; LOAD_FAST_AND_CLEAR; SWAP 2;
  BUILD_LIST 0; SWAP 2; [GET_ITER (3.13);] FOR_ITER``;
- a ``for`` loop whose body calls ``.append``.

    >>> builds_list_per_trip(tx.info.insts, get_iter.index)    # the comprehension above
    True
"""

from __future__ import annotations

import types

HINT = ("this loop builds a list one item per trip of a count only the data knows; with "
        "no trip np.array(items) is np.array([]) (float64, shape (0,)), which no loop "
        "node gives, so the loop runs in Python: preallocate the result "
        "(out = np.zeros((len(classes), X.shape[1]))) and write out[i] = ... in "
        "`for i in range(len(classes))` (one loop node, no break), or pass the count in")

# How far back of the GET_ITER the 3.11 comprehension's MAKE_FUNCTION may be (the
# iterable's own instructions lie between)
_BACK = 40


def builds_list_per_trip(insts, at: int) -> bool:
    """Does the loop whose iterator the ``GET_ITER`` at ``at`` makes build a list one
    item per trip (a list comprehension, or ``.append`` in a ``for`` body)?"""
    names = [i.name for i in insts[at + 1:at + 7]]
    if names[:2] == ["PRECALL", "CALL"] or names[:1] == ["CALL"]:   # 3.11: <listcomp>
        return any(_listcomp(insts, j) for j in range(at - 1, max(at - _BACK, 0), -1))
    if "BUILD_LIST" in names and "FOR_ITER" in names:    # 3.12+: inlined comprehension
        return names.index("BUILD_LIST") < names.index("FOR_ITER")
    loop = insts[at + 1] if at + 1 < len(insts) else None
    if loop is None or loop.name != "FOR_ITER" or loop.target is None:
        return False
    return any(i.name in ("LOAD_METHOD", "LOAD_ATTR") and _attr(i.arg) == "append"
               for i in insts[loop.index + 1:loop.target])


def _listcomp(insts, j: int) -> bool:
    return insts[j].name == "MAKE_FUNCTION" and j >= 1 and any(
        i.name == "LOAD_CONST" and isinstance(i.arg, types.CodeType) and
        i.arg.co_name == "<listcomp>" for i in insts[max(j - 3, 0):j])


def _attr(arg) -> str | None:
    if isinstance(arg, str):
        return arg
    if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[1], str):
        return arg[1]   # (3.12+: LOAD_ATTR's (method?, name))
    return None
