"""Small functions generated per kernel for tier 2's calls, and the checks a call makes
of its inputs: the layout key and the results (``call_helpers``), the fast call of a
kernel with no per-call work (``fast_native``), the inputs a kernel may write
(``written_inputs``) and NumPy's result order (``c_ordered``).

Example::

    >>> layout_key, finish = call_helpers(kernel, "g0")
    >>> layout_key((x, 2.0))          # x.flags bits Numba's type depends on, type(2.0)
    (1283, <class 'float'>)
"""

from __future__ import annotations

import logging

import numpy as np

from dynamo.source import compile_source

from .error_state import KNOWN_DEFAULT, default_errstate, get_state
from .lower import Kernel

log = logging.getLogger("dynamo.backend")

# NumPy's flag bits that Numba's type of an array depends on beyond dtype and shape
# (which the graph's guards fix): C_CONTIGUOUS, F_CONTIGUOUS, ALIGNED, WRITEABLE.
_LAYOUT_BITS = 0x1 | 0x2 | 0x100 | 0x400


def c_ordered(a: np.ndarray) -> bool:
    """NumPy's order="K" allocates a C-ordered result for this operand (strides
    non-increasing in magnitude over the dimensions of size > 1)."""
    if a.flags.c_contiguous:
        return True
    strides = [abs(s) for s, n in zip(a.strides, a.shape) if n > 1]
    return all(x >= y for x, y in zip(strides, strides[1:]))


def call_helpers(kernel: Kernel, name: str):
    """Two small functions generated for this kernel's inputs and outputs, run on every
    tier-2 call (written out rather than looped over: a comprehension costs about as
    much as the recursion benchmark's whole check):

    - ``layout_key(args)``: what Numba's type of each argument depends on beyond dtype
      and shape (which the graph's guards fix): an array's C/F contiguity, alignment and
      writability (bits of ``flags.num``), another value's type;
    - ``finish(args, out)``: the graph's outputs from the kernel's ``out = (flag,
      *results)``: the caller's input for an input written in place, a new array as
      Numba made it, a scalar as the NumPy scalar eager returns (Numba gives a Python
      number)."""
    names = [f"a{k}" for k in range(kernel.nparams)]
    unpack = f"    {''.join(n + ', ' for n in names)}= args\n" if names else ""
    keys = "".join(f"{n}.flags.num & {_LAYOUT_BITS} if type({n}) is ndarray else type({n}), "
                   for n in names)
    scope: dict = {"ndarray": np.ndarray}
    items = output_items(kernel, scope, "args[{}]")
    src = (f"def layout_key(args):\n{unpack}    return ({keys})\n\n\n"
           f"def finish(args, out):\n    return ({''.join(i + ', ' for i in items)})\n")
    compile_source(src, f"<dynamo native call helpers {name}>", scope)
    return scope.pop("layout_key"), scope.pop("finish")


def output_items(kernel: Kernel, scope: dict, input_source: str) -> list[str]:
    """The source of each result of ``kernel``'s call: an input it returns
    (``input_source`` formatted with its index), an array it made (``out[i]``), or a
    scalar as the NumPy scalar eager returns (the type is added to ``scope``)."""
    items = []
    for k, out in enumerate(kernel.outputs):
        if out[0] == "input":
            items.append(input_source.format(out[1]))
        elif out[2].scalar:
            scope[f"_t{k}"] = out[2].dtype.type
            items.append(f"_t{k}(out[{out[1] + 1}])")
        else:
            items.append(f"out[{out[1] + 1}]")
    return items


def fast_native(tiered, dispatcher):
    """The tier-2 call of a kernel that needs none of ``_try_native``'s per-call work
    but the error-state check (no scalar parameter, no input it writes, no parallel
    loop, no new array of 2 or more dimensions: the scalar recursion), generated for
    its parameters; None for other kernels. It saves what the generic path spends on
    ``*args`` tuples, attribute reads and branches that cannot apply (the recursion:
    about 0.6 us of 5 a call; its kernel takes about 3.5).

    The same answers as ``_native``: tier 1 for a non-default error state, an input
    layout with no kernel yet (Numba's dispatch raises TypeError: ``_new_layout``), a
    flagged call (nothing written: nothing to restore) and an unexpected error."""
    kernel = tiered.kernel
    if kernel.scalar_params or kernel.writes or kernel.parallel or kernel.fresh_ndim >= 2 \
            or kernel.buffers or kernel.ordered_inputs or kernel.generators \
            or kernel.global_draws:
        return None
    params = "".join(f"a{k}, " for k in range(kernel.nparams))
    scope: dict = {"_get": get_state, "_known": KNOWN_DEFAULT, "_kernel": dispatcher,
                   "_default_errstate": default_errstate, "_tiered": tiered,
                   "_tier1": tiered.tier1, "_log": log}
    items = output_items(kernel, scope, "a{}")
    src = f"""def native({params}):
    if _get() is _known[0] or _default_errstate():
        try:
            out = _kernel({params})
        except TypeError:   # Numba's dispatch: no kernel for these layouts yet
            _tiered._new_layout(({params}))
            return _tier1({params})
        except Exception:   # (not expected) tier 1 answers
            _log.exception("native tier: graph %s's kernel raised", _tiered.name)
            return _tier1({params})
        if not out[0]:
            _tiered.native_calls += 1
            return ({''.join(i + ', ' for i in items)})
    return _tier1({params})
"""
    compile_source(src, f"<dynamo native call {tiered.name}>", scope)
    return scope.pop("native")


def written_inputs(args, writes: list) -> list | None:
    """The input arrays the kernel may write; None when one of them is read-only or
    shares memory with another input (eager's order of reads and writes then matters)."""
    written = [args[k] for k in writes]
    if any(type(w) is not np.ndarray for w in written):
        return None
    # by position, not identity: one array passed for two inputs (``f(a, a)`` where
    # the graph was made for two; the guards admit it) is two inputs sharing memory
    arrays = [(j, a) for j, a in enumerate(args) if type(a) is np.ndarray]
    for k, w in zip(writes, written):
        if not w.flags.num & 1024:   # (flags.writeable of a broadcast view warns)
            return None
        if len(arrays) > 1 and any(j != k and np.may_share_memory(a, w) for j, a in arrays):
            return None
    return written


