"""Draws made by Numba itself: ``rng.standard_normal`` and ``rng.random`` of a Generator
the graph takes, lowered to Numba's own Generator methods in nopython mode instead of a
NumPy call from object mode (draws.py: 4-5 us a call, and the kernel holds the GIL).

Numba's Generator methods call the bit generator's own C functions on its live state
(``bit_generator.ctypes``) and port NumPy's transforms (the ziggurat of
``standard_normal``, ``next_double``/``next_float`` of ``random``). Whether they give
NumPy's numbers and leave NumPy's state is a fact about the installed NumPy and Numba
(NumPy promises no stream stability across versions, Numba copies its tables), so it is
measured, once a process, before a kernel that draws this way is compiled
(``draws_match``: every bit generator NumPy has, both dtypes, both methods, interleaved
so that a buffered 32-bit half is handed from one to the next, odd sizes, the final
state compared whole). Where it does not hold, the kernel is compiled from its other
lowering (``Kernel.fallback``: the same graph with every draw a NumPy call).

When: a draw of one of these from a Generator (a graph input, or one the kernel made
with ``default_rng``), in the graph or a loop's body, with an array result, a float64
or float32 dtype given as a constant, no ``out=``. Other draws go through NumPy as
before (draws.py), in program order with these: the same state advances either way,
and NumPy's draws take the lock ``locked`` holds again (``bit_generator.lock`` is an
``RLock``).

Locks: NumPy draws under ``bit_generator.lock`` (and without the GIL for large sizes);
the kernel's draws take no lock, so ``tier2_calls.py`` holds the locks of the Generators a
kernel draws from (``locked``) from the state saved before the call to the state put
back after an undone one: no other thread's draw can fall between.

Undo: as draws.py, ``bit_generator.state`` before the call, set back after a flagged
one: the kernel's draws advanced that same state.

Example: ``x + rng.standard_normal(x.shape)`` (x (5,) float64, rng the second input)
lowers to ``r0 = p1.standard_normal((5,), np.float64)`` where draws.py wrote an
object-mode block.
"""

from __future__ import annotations

import functools
import logging

import numpy as np

from dynamo.graph import CALL, Node

from .draws import drawable
from .values import Arr

log = logging.getLogger("dynamo.backend")

# the graph's op -> Numba's Generator method (same name, same arguments)
METHODS = {"generator_standard_normal": "standard_normal", "generator_random": "random"}
_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def _dtype_argument(node: Node):
    """The draw's dtype argument: the value given, or float64 when none is."""
    if len(node.args) > 2:
        return node.args[2]
    return node.kwargs.get("dtype", np.float64)


def nopython_form(node: Node) -> bool:
    """``node`` is a draw Numba makes exactly: one of ``METHODS`` on a Generator (the
    caller checks that its value is one: an input, or one the kernel made), an array
    result of float64 or float32, the dtype a constant, only ``size`` and ``dtype``
    given."""
    if node.op != CALL or node.target not in METHODS or not drawable(node):
        return False
    if not (node.args and isinstance(node.args[0], Node)):
        return False
    if len(node.args) > 3 or set(node.kwargs) - {"size", "dtype"}:
        return False
    dtype = _dtype_argument(node)
    if isinstance(dtype, Node):
        return False
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        return False
    meta = node.meta.get("array")
    return meta is not None and not meta.scalar and meta.ndim > 0 and \
        meta.dtype == dtype and dtype in _DTYPES


def emit_draw(em, gen_name: str, node: Node) -> Arr:
    """``r = p1.standard_normal((7, 5), np.float32)``: the draw's value, made in the
    kernel in program order (its shape and dtype are the graph's metadata)."""
    meta = node.meta["array"]
    em.drew_nopython = True
    name = em.new("r")
    em.line(f"{name} = {gen_name}.{METHODS[node.target]}({tuple(meta.shape)!r}, "
            f"np.{meta.dtype.name})")
    return Arr(name, meta.shape, meta.dtype, name, fresh=True)


class locked:
    """``with locked(generators):`` holds each distinct Generator's bit generator lock
    (in one order, by id, so two kernels never wait on each other)."""

    def __init__(self, generators):
        seen = {id(g): g.bit_generator.lock for g in generators}
        self.locks = [seen[k] for k in sorted(seen)]

    def __enter__(self):
        for lock in self.locks:
            lock.acquire()
        return self

    def __exit__(self, *exc):
        for lock in reversed(self.locks):
            lock.release()
        return False


_BIT_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937,
                   np.random.Philox, np.random.SFC64)


def _sequence(rng, n):
    """The probe's draws, NumPy's or Numba's (the same source, compiled or not): each
    method and dtype, odd sizes, float32 draws between float64 ones (the bit generator's
    buffered 32-bit half), the ziggurat's rare branches met over ``n`` normals."""
    a = rng.standard_normal(n)
    b = rng.random(3, np.float32)
    c = rng.standard_normal(n, np.float32)
    d = rng.random((n, 3))
    e = rng.standard_normal((2, 3), np.float64)
    f = rng.random(1, np.float32)
    return a, b, c, d, e, f


@functools.cache
def draws_match() -> bool:
    """Numba's ``standard_normal``/``random`` give NumPy's numbers and final state for
    every bit generator (module docstring). Compiles one small function (about 2 s of
    CPU, once a process, in the compile thread; Numba's own disk cache keeps it where
    it can write one), runs it and NumPy on every bit generator (about 20 ms)."""
    import numba
    try:
        probe = numba.njit(_sequence, cache=True)
    except RuntimeError:   # (no writable cache directory: compiled in memory)
        probe = numba.njit(_sequence)
    for cls in _BIT_GENERATORS:
        for seed in (0, 12345):
            mine, theirs = np.random.Generator(cls(seed)), np.random.Generator(cls(seed))
            try:
                got = probe(mine, 20001)
            except Exception as e:  # noqa: BLE001 (a Numba without these methods)
                log.info("native tier: Numba cannot draw from a Generator (%s): draws "
                         "are NumPy calls", e)
                return False
            want = _sequence(theirs, 20001)
            same = all(g.dtype == w.dtype and g.shape == w.shape and
                       g.tobytes() == w.tobytes() for g, w in zip(got, want))
            if not same or repr(mine.bit_generator.state) != repr(theirs.bit_generator.state):
                log.info("native tier: Numba's draws from %s differ from NumPy's here: "
                         "draws are NumPy calls", cls.__name__)
                return False
    return True
