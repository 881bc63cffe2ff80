"""Each ``with objmode(...)`` block of a kernel (calls.py, draws.py) moved into a small
function of its own, which the kernel calls (issue #15: tier 2's peak memory).

Why: Numba runs an object-mode block through a pickle of the block's lifted function,
which it rebuilds as a Python ``bytes`` object at *every* run of the block (its
``ObjModeUtils.load_dispatcher`` unserializes ``(dispatcher, argtypes)`` before it
looks at its cache of the dispatcher). That pickle holds the block's IR, whose scope
lists every variable of the function the block sits in: for a kernel of a few hundred
lines, 120 KB copied at each run, alive while the block runs. Adam on the n-d
Rosenbrock function (two NumPy divides a trip, 8 KB arrays) peaked at 159 KiB in its
kernel, 56 KiB with the same two divides outlined: 2.5x plain NumPy's peak before
(``scripts/bench_peak_memory.py``), and the copies cost about 14 us a block. In a
function of its own, the block's scope is its few parameters. (The IR's globals are in
the pickle too: the op table ``_np_ops`` as its kind, ``ImplTable.__reduce__``; by value
it added every op the table had looked up, 24 KB. The block's code reads its globals
from the kernel module when it runs, not from the pickle.)

Only blocks outside ``prange`` loops move (Numba refuses a block in one; a call would
not be refused), and only in kernels that are not parallel (lower.py). Not because the
move slowed parallel kernels: that was the load (corpus 13's separable Gaussian blur,
tier 2 forced: 340-830 ms a call moved against about 1 ms not, in runs one after the
other; both kernels in one process, calls interleaved, at load 4-11: the same best,
0.9-1.1 ms, and medians of 1 to 600 ms for either, by which ran first after other work:
each of its 26 ``prange`` loops waited for a core; nests.py now makes them 2). But in a
parallel kernel the move raised corpus 13's autocorrelation by FFT from 0.83x to 1.11x
plain NumPy's peak (tier 2 forced; 4 MB more, the size of its ``rfft`` result, which
the inline blocks let go before ``irfft``; why Numba keeps it is not found; p65 t4).

The moved function is compiled with ``cache=True`` where the kernel's module is a file
(``kernel_files.module_from_file``: Numba's disk cache), so that a kernel loaded from
the cache finds its blocks' functions there too (``numba_calls.compile_object_mode_blocks``
compiles their blocks ahead).

Example: the block ::

        with objmode(r4="float64[::1]", e5="boolean"):
            r4, e5 = _npcall(_np_ops.divide, (a3, (1 - 0.9 ** float(trip2 + 2))), {}, ...)

becomes, before ``def kernel``, ::

    @_outlined
    def _om0(a3, trip2):
        with objmode(r4="float64[::1]", e5="boolean"):
            r4, e5 = _npcall(_np_ops.divide, (a3, (1 - 0.9 ** float(trip2 + 2))), {}, ...)
        return r4, e5

and in the kernel ``r4, e5 = _om0(a3, trip2)``.
"""

from __future__ import annotations

import ast

# The decorator of the moved functions (a line of the kernel module's prelude):
# cached where the module is a file, as the kernel is (tier.py's ``cache=True``).
OUTLINE_PRELUDE = '''
_outlined = njit(cache=globals().get("__file__") is not None)
'''

HELPER_PREFIX = "_om"


def outline_objmode(lines: list, params: list) -> tuple:
    """(the kernel's body lines with each object-mode block outside a ``prange`` loop
    replaced by a call, the source of the functions called). ``lines``: the body of
    ``def kernel(*params)``, indented by four spaces."""
    blocks = _blocks(lines)
    if not blocks:
        return lines, ""
    local = _assigned(lines) | set(params)
    out, helpers, done = [], [], 0
    for k, line in enumerate(lines):
        if k < done:
            continue
        end = blocks.get(k)
        if end is None:
            out.append(line)
            continue
        pad = line[:len(line) - len(line.lstrip())]
        body = [b[len(pad):] for b in lines[k:end]]
        outputs = _outputs(line)
        inputs = sorted(_read(body[1:]) & local)
        name = f"{HELPER_PREFIX}{len(helpers)}"
        helpers.append("\n".join(
            ["@_outlined", f"def {name}({', '.join(inputs)}):"]
            + ["    " + b for b in body]
            + [f"    return {', '.join(outputs)},"]))
        out.append(f"{pad}{', '.join(outputs)}, = {name}({', '.join(inputs)})")
        done = end
    return out, OUTLINE_PRELUDE + "\n\n" + "\n\n\n".join(helpers) + "\n"


def _blocks(lines: list) -> dict:
    """{index of a ``with objmode(`` line outside ``prange`` loops: index after its body}."""
    found, loops = {}, []   # loops: (indent, is prange) of the enclosing ``for`` lines
    for k, line in enumerate(lines):
        text = line.lstrip()
        if not text:
            continue
        indent = len(line) - len(text)
        while loops and loops[-1][0] >= indent:
            loops.pop()
        if text.startswith("for "):
            loops.append((indent, "prange(" in text))
        elif text.startswith("with objmode(") and not any(p for _, p in loops):
            end = k + 1
            while end < len(lines) and (not lines[end].strip() or
                                        len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            found[k] = end
    return found


def _outputs(header: str) -> list:
    """The names a ``with objmode(a="...", b=...):`` line declares, in order."""
    call = ast.parse(header.strip().removeprefix("with ").removesuffix(":"), mode="eval")
    return [kw.arg for kw in call.body.keywords]


def _read(body: list) -> set:
    """Names the (dedented) statements ``body`` read."""
    tree = ast.parse("\n".join(b[4:] if b.startswith("    ") else b for b in body))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and
            isinstance(n.ctx, ast.Load)}


def _assigned(lines: list) -> set:
    """Names the kernel's body assigns (its local variables, with its parameters)."""
    tree = ast.parse("def kernel():\n" + "\n".join(lines))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and
            isinstance(n.ctx, ast.Store)}


def outlined_functions(dispatcher) -> list:
    """The moved functions (Numba dispatchers) of ``dispatcher``'s kernel module."""
    scope = getattr(getattr(dispatcher, "py_func", None), "__globals__", {})
    return [v for k, v in sorted(scope.items())
            if k.startswith(HELPER_PREFIX) and k[len(HELPER_PREFIX):].isdigit()]


def cached_signatures(helper) -> list:
    """The signatures Numba's disk cache holds for the moved function ``helper`` (the
    kernel's compile, in a child process, compiled and saved them): none where it has
    no cache, or Numba's cache index is not what this reads (the blocks then compile
    at their first run, as before). (Numba's index: ``{(signature, target, hashes):
    file}``; its cache object has no public list of signatures.)"""
    cache = getattr(helper, "_cache", None)
    try:
        return [key[0] for key in cache._cache_file._load_index()]
    except Exception:  # noqa: BLE001 (no cache, or another Numba: nothing ahead)
        return []
