"""The trace hints a split loop's segment is traced at (issue #23, ``index_splits.py``).

An op's shape/dtype rule runs on the symbolic sizes put in at their hints
(``OutputGraph.call_op``), and a loop's trip has the hint 0 while its body is traced
(``LoopScope.trace_body``). A segment whose count follows the enclosing trips may run
no trip at those hints: there its first index is past its range, and a read through
it fails the rule (NumPy's ``IndexError`` at a trip that never runs), so the split was
refused and the loop unrolled. ``running_hints`` puts the enclosing trips at a corner
of their trips where the segment runs one, for the segment's trace only; what the
body's ops do at every trip is still checked at every corner (``nested_fit``), and
comparisons of the indices are still decided at the corners (``decide``).

Example (``i + j < n`` over ``j in range(m)``, ``n > m``: the i loop splits at
``i = n - m``, and in its segment ``i = n - m + t`` the j segment past the split
point, ``[n - i, m)``, has ``t`` trips)::

    for i in range(n):
        for j in range(m):        # segment [n - i, m): j = m - t + trip; at t = 0
            if i + j < n: ...     # (the hint) it runs no trip and B[m] is out of
            else: C[i, j] = B[j]  # bounds; traced at the corner t = n - 1 - (n - m)
"""

from __future__ import annotations

from contextlib import contextmanager

from ..symbolic.sizes import as_sym


@contextmanager
def running_hints(output, count, region):
    """While the segment of ``count`` trips is traced, the enclosing trips' hints at
    a corner of ``region()`` (the enclosing trips' corners, as ``trip_region``'s dicts)
    where ``count >= 1``, where it is below 1 at the trace's hints; else as they are."""
    hints = output.shape_env.hints
    count = as_sym(count)
    if count.evaluate({k: hints.get(k, 0) for k in count.symbols}) >= 1:
        yield
        return
    corner = next((t for t in region() or []
                   if count.evaluate({k: t.get(k, hints.get(k, 0))
                                      for k in count.symbols}) >= 1), None)
    if corner is None:
        yield
        return
    saved = {k: hints[k] for k in corner if k in hints}
    hints.update(corner)
    try:
        yield
    finally:
        for k in corner:
            if k in saved:
                hints[k] = saved[k]
            else:
                hints.pop(k, None)
