"""Kept buffers that would sit idle at a call's peak: given up (issue #15, peak memory).

A ``Recycled`` site (``reuse.donors``, ``scratch.Scratch``) keeps its array from one
call to the next, so the array counts in the program's memory at every step of a
call, also at the step where the call holds the most: where the op that takes the
site runs at a quieter step, its kept array adds its whole size to the peak plain
NumPy has. The integral-image box filter of corpus 6 keeps a float64 site for
``img.cumsum(0).cumsum(1)`` and an int64 one for the ``area`` product, both 400x400,
both idle while ``ii[r1][:, c1] - ii[r0][:, c1]`` holds four gathered arrays: 1.46x
plain NumPy's peak. ``trim`` estimates, step by step, the bytes a call holds (each
buffer from the op that makes it to the last reader of its value, the sites' arrays
all the time) against what plain NumPy holds (every fresh result from its op to its
last reader), and gives up the largest site idle at the highest step (its ops write
fresh arrays, as plain NumPy's do) until the highest step is within ``SLACK`` of
plain's::

    cumsum = _cumsum(img, axis=0, out=_scratch10.take())     # idle at the peak
    cumsum = _cumsum(img, axis=0)                             # after ``trim``

Only where memory comes from changes, never a value. An estimate: sizes of static
shapes only, a view (basic indexing, a reshape...) holds nothing of its own, and a
block-wise group's step holds its outputs.
"""

from __future__ import annotations

import math

from dynamo.graph import Node
from dynamo.ops.node_facts import made_bytes

# The highest step may hold this much more than plain's highest (issue #15's bound:
# 1.25x plain NumPy's peak).
SLACK = 1 / 4


def trim(chosen: dict, steps: list, last: dict, returned, site_type) -> None:
    """Drop from ``chosen`` (``reuse.donors``' node -> donor or site) the sites that
    raise the estimated peak over ``1 + SLACK`` times plain's (see the module's text)."""
    if not any(isinstance(s, site_type) for s in chosen.values()):
        return
    end = len(steps)
    made: dict[Node, int] = {}
    for i, step in enumerate(steps):
        for n in (step.outputs if not isinstance(step, Node) else (step,)):
            made[n] = i
    span = {n: (i, end if n in returned else max(last.get(n, i), i))
            for n, i in made.items() if made_bytes(n)}
    top = max(_add_up((a, b, made_bytes(n)) for n, (a, b) in span.items()))
    while True:
        # (site, first step, last step) of each op that takes a site
        uses = [(s, span[n][0], _chain_end(n, chosen, span)) for n, s in chosen.items()
                if isinstance(s, site_type) and n in span]
        held = _held(chosen, span, end)
        at = max(range(end + 1), key=lambda i: held[i])
        if held[at] + _kept(uses) <= (1 + SLACK) * top:
            return
        busy = {s for s, a, z in uses if a <= at <= z}
        idle = [s for s, _, _ in uses if s not in busy]
        if not idle:
            return
        drop = max(idle, key=_site_bytes)
        for n in [n for n, s in chosen.items() if s == drop]:
            del chosen[n]


def _kept(uses: list) -> int:
    """Bytes the sites' holders keep: one holder per shape and dtype for the process
    (``scratch.scratch_site``) keeps as many arrays as its sites are in use at once."""
    by_key: dict[tuple, list] = {}
    for s, a, z in uses:
        by_key.setdefault((s.shape, s.dtype), []).append((a, z, 1))
    return sum(max(_add_up(spans)) * math.prod(shape) * dtype.itemsize
               for (shape, dtype), spans in by_key.items())


def _held(chosen: dict, span: dict, end: int) -> list:
    """Bytes of the buffers a call makes itself (not sites' arrays), by step: a buffer
    from the op that makes it to the last reader of any value written into it."""
    # (not the values written into a donor's buffer or a site's: their buffer is that)
    held = _add_up((a, _chain_end(n, chosen, span), made_bytes(n))
                   for n, (a, _) in span.items() if n not in chosen)
    return held + [0] * (end + 1 - len(held))


def _add_up(spans) -> list:
    """``[sum of b for (first, last, b) in spans if first <= i <= last for i ...]``."""
    delta: dict[int, int] = {}
    for a, z, b in spans:
        delta[a] = delta.get(a, 0) + b
        delta[z + 1] = delta.get(z + 1, 0) - b
    total, out = 0, []
    for i in range(max(delta, default=0) + 1):
        total += delta.get(i, 0)
        out.append(total)
    return out or [0]


def _chain_end(n: Node, chosen: dict, span: dict) -> int:
    """The last step at which ``n``'s buffer is read: by ``n`` or by a value written
    into it (``chosen[m] is n``), and so on."""
    end, todo, seen = span.get(n, (0, 0))[1], [n], {n}
    while todo:
        d = todo.pop()
        for u in d.users:
            if chosen.get(u) is d and u not in seen:
                seen.add(u)
                todo.append(u)
                end = max(end, span.get(u, (0, end))[1])
    return end


def _site_bytes(site) -> int:
    return math.prod(site.shape) * site.dtype.itemsize
