"""Which object a loop node's temporary is after it: maybe a carried value's (issue #19).

::

    m = x[0]
    for i in range(1, n):        # a loop node
        p = x[i]                 # a temporary: the node hands back its last value
        if p > m:
            m = p                # m: the select's way that keeps p, or m itself
    return m, m is p             # True where the last item was the running max

The node hands back ``m`` (a carried slot whose trip value may be another array:
``ArrayVariable.may_be``, set by the select) and ``p`` (its last value) as two outputs.
``m is p`` is the data's to say (the last trip's ``if``), but two distinct outputs
with no ``may_be`` between them were answered ``False`` while tracing. So a
temporary's output joins the ``may_be`` chain of each carried output that may be
another array, of its meta: ``is`` between them is then a break (eager's answer),
and no value is asked of them otherwise.
"""

from __future__ import annotations


def kept_temp(final: dict, temp):
    """``temp`` (a node's output for a temporary), its ``may_be`` chain joined to that of
    each carried output in ``final`` (slot -> Variable) that may be another array and
    has ``temp``'s meta."""
    for var in final.values():
        if getattr(var, "may_be", None) is None or getattr(var, "meta", None) != temp.meta:
            continue
        a, b = _end(temp), _end(var)
        if a is not b:
            a.may_be = b
    return temp


def _end(var):
    while var.may_be is not None:
        var = var.may_be
    return var
