"""Small functions generated per kernel for tier 2's calls, and the checks a call makes
of its inputs: the layout key and the results (``call_helpers``), the fast call of a
kernel with no per-call work (``fast_native``), the inputs a kernel may write and their backups
(``written_check``) and NumPy's result order (``c_ordered``).

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
from .saves import new_savers

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
        elif out[2].ndim == 0:   # a scalar variable the graph returns as a 0-d array
            scope[f"_t{k}"], scope["_array"] = out[2].dtype.type, np.array
            items.append(f"_array(_t{k}(out[{out[1] + 1}]))")
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


def overlap_pairs(nparams: int, writes: list) -> list[tuple[int, int]]:
    """The pairs of parameters whose memory must not overlap for a tier-2 call: each
    unordered pair with at least one input the kernel writes, once (``np.may_share_memory``
    is symmetric: Jacobi's ``(A, B)``, both written, is one pair, not two).

    >>> overlap_pairs(3, [0, 1])
    [(0, 1), (0, 2), (1, 2)]
    """
    written = set(writes)
    return [(j, k) for j in range(nparams) for k in range(j + 1, nparams)
            if j in written or k in written]


def written_check(kernel: Kernel, name: str, share=np.may_share_memory):
    """``prepare(args, spares)``, generated for this kernel's written inputs and run on
    every tier-2 call of a kernel that writes one: ``(written, savers)``, the input
    arrays the kernel may write (kernel order) and the backup and state arrays it saves
    them into (saves.py), reset (taken from ``spares``, one set per concurrent caller,
    when their shapes and dtypes fit: a new array of a few MB costs its page faults on
    every call); None when a written input is no writeable ndarray or shares memory
    with another input (eager's order of reads and writes then matters: tier 1).

    Written out per parameter rather than looped over (``overlap_pairs``: each pair
    is asked once): the loops, generators and per-call lists it replaces cost 4-5 us
    a call of Jacobi 20x20, whose kernel takes about 4 (2026-12-04).

    The same answers as the loop it replaces: by position, not identity (``f(a, a)``
    where the graph was made for two inputs is two inputs sharing memory); a parameter
    that is not an ndarray (a scalar, a Generator) shares nothing; the writeable bit
    of ``flags.num`` (``flags.writeable`` of a broadcast view warns). ``share``: the
    overlap test (``np.may_share_memory``; a counting one in tests).

    Example (Jacobi: ``A`` and ``B`` both written, one overlap test)::

        >>> prepare = written_check(kernel, "g0")
        >>> prepare((A, B), [])[0] == [A, B]
        True
        >>> prepare((A, A), []) is None          # one array for both: tier 1
        True
    """
    names = [f"a{k}" for k in range(kernel.nparams)]
    lines = ["def prepare(args, spares):", f"    {''.join(n + ', ' for n in names)}= args"]
    for k in kernel.writes:
        lines.append(f"    if type(a{k}) is not _ndarray or not a{k}.flags.num & 1024:")
        lines.append("        return None")
    for j, k in overlap_pairs(kernel.nparams, kernel.writes):
        # a written input is an ndarray here; another parameter may be anything
        tests = [f"type(a{i}) is _ndarray" for i in (j, k) if i not in kernel.writes]
        lines.append(f"    if {' and '.join(tests + [f'_share(a{j}, a{k})'])}:")
        lines.append("        return None")
    written = "[" + "".join(f"a{k}, " for k in kernel.writes) + "]"
    lines += [f"    written = {written}",
              "    try:",
              "        s = spares.pop()",
              "    except IndexError:",
              "        return written, _new_savers(written)"]
    fits = " or ".join(f"s[{2 * i}].shape != a{k}.shape or s[{2 * i}].dtype != a{k}.dtype"
                       for i, k in enumerate(kernel.writes))
    lines += [f"    if len(s) != {2 * len(kernel.writes)} or {fits}:",
              "        return written, _new_savers(written)"]
    for i, k in enumerate(kernel.writes):   # saves.reset, per input
        lines += [f"    if a{k}.ndim >= 2:",
                  f"        s[{2 * i + 1}].fill(False)",
                  "    else:",
                  f"        s[{2 * i + 1}][0] = 0",
                  f"        s[{2 * i + 1}][1] = -1"]
    lines.append("    return written, s")
    scope: dict = {"_ndarray": np.ndarray, "_share": share,
                   "_new_savers": new_savers}
    compile_source("\n".join(lines) + "\n", f"<dynamo native written check {name}>", scope)
    return scope.pop("prepare")


