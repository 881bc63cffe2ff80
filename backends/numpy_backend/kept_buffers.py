"""Let go of the buffers a generated function keeps between calls (issue #15, peak
memory), for a caller that stops calling it: the native tier, once tier 2 answers a
graph's calls (``native.tier2_calls.Tier2Calls.release_tier1``).

The generated code keeps, for speed, large intermediates from one call to the next:
``scratch.Scratch`` sites and flat passes' output holders (``runtime.Recycler``),
block scratch sets and gap saves (``runtime.ScratchCache``), bound as globals of its
module (``Module.bind``), and so are the loop bodies' functions with theirs. While
tier 2 runs, tier 1 answers only the rare call tier 2 cannot (a NaN eager reports, a
new layout): its kept buffers were 7-9 MB beside tier 2's on an anisotropic
diffusion of 1000x1000. Released, they are no longer referenced from here; a later
call of the function makes new ones (``Recycler.take``, ``ScratchCache.take``: both
make an array where they hold none), so a release changes no result, only where the
memory comes from.

    >>> fn = numpy_code(graph, inputs)        # keeps a Scratch of 8 MB after a call
    >>> release_kept(fn)                      # -> bytes let go: 8000000
"""

from __future__ import annotations

import types

from .runtime import Recycler, ScratchCache


def holders(fn) -> list:
    """The recyclers and scratch caches bound in ``fn``'s generated module and in the
    modules of the generated functions it binds (loop bodies), each once."""
    found: dict[int, object] = {}
    seen: set = set()
    todo = [fn]
    while todo:
        f = todo.pop()
        scope = getattr(f, "__globals__", None)
        if not isinstance(f, types.FunctionType) or id(scope) in seen or \
                "_run" not in scope:          # (not a generated module: Module.scope)
            continue
        seen.add(id(scope))
        for value in list(scope.values()):
            if isinstance(value, (Recycler, ScratchCache)):
                found[id(value)] = value
            elif isinstance(value, types.FunctionType):
                todo.append(value)
    return list(found.values())


def release_kept(fn) -> int:
    """Let go of every buffer ``fn``'s holders keep (see the module's text); the bytes
    they held (arrays a caller still holds stay alive with it)."""
    total = 0
    for h in holders(fn):
        total += h.retained()
        h.release()
    return total
