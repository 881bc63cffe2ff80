"""Random draws in a kernel: NumPy's own draw, called from the kernel in program order,
with the random state saved before the call and put back when the call is undone.

A draw (``rng.normal(0, 1, size=x.shape)``, ``rng.random(n)``, ``np.random.rand(3, 4)``)
becomes a NumPy call from object mode (calls.py's mechanism), at its place among the
kernel's statements, so the kernel consumes the stream exactly as eager does: the same
method of the same object with the same arguments, in the same order, the same numbers.
A draw may read the kernel's values (``rng.normal(mu, sigma)`` with ``mu`` computed by
the kernel) and may sit in a loop's body (a random walk draws once a trip).

Undo: a kernel call that flags (a NaN or infinity eager reports, a draw that raised or
returned another layout) is rerun by tier 1, which must draw the same numbers again, so
``tier2_calls.py`` takes ``bit_generator.state`` of every Generator the kernel takes, and
``np.random.get_state()`` when it draws from NumPy's global RandomState, before each
call, and sets them back after a flagged one (both are exact: the bit generator's whole
state, its buffered 32-bit half included; the legacy tuple with its cached Gaussian).

A Generator made in the graph (``rng = np.random.default_rng(seed)``) is made by the
kernel the same way, in object mode (``new_generator``): Numba holds the object (its
unboxing takes a reference) and hands it back, itself, to the draws that use it. It is
new on every call, so an undone call needs nothing put back: tier 1 makes its own.

What stays in tier 1 (the reason logged): a ``RandomState`` object as a graph input
(Numba cannot pass one to a kernel), a RandomState made in the graph, a Generator the
graph returns, ``np.random.seed``, draws into ``out=``, ``shuffle`` (writes its
argument), draws that return a Python number (``python_draw``, a 0-d value).

Example: ``x + rng.random(x.shape)`` (x (5,) float64, rng the second input) lowers to::

    with objmode(r0="float64[::1]", e1="boolean"):
        r0, e1 = _npcall(_np_ops.generator_random, (p1, (5,)), {}, (5,), 'float64')
    _nf |= e1
"""

from __future__ import annotations

import functools

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops.registry import MUTATION, REGISTRY

from .emitter import SEQ_FLAG
from .values import Obj

# The kernel module's header when a kernel makes a Generator (appended to CALL_PRELUDE).
GENERATOR_PRELUDE = '''
from dynamo.backends.native.draws import generator_type as _gt, new_generator as _new_generator

_generator_type = _gt()
'''


@functools.cache
def generator_type():
    """Numba's type of a Generator (the result type of object mode's ``default_rng``)."""
    import numba
    return numba.typeof(np.random.default_rng(0))


# Random ops that are no draw of an array: they make (``default_rng``: ``new_generator``)
# or reseed a random object, or draw a Python number (a 0-d value).
_NOT_DRAWN = frozenset({"random_seed", "random_default_rng", "random_randomstate",
                        "python_draw"})


def drawable(node: Node) -> bool:
    """``node`` is a draw a kernel can make through NumPy (module docstring): a random
    op that returns a new array or a NumPy scalar and writes nothing it is given."""
    op = REGISTRY.get(node.target) if node.op == CALL else None
    if op is None or not op.random or op.effect or op.kind == MUTATION or op.nout != 1 \
            or node.target in _NOT_DRAWN or node.target.startswith("randomstate_"):
        return False
    if node.kwargs.get("out") is not None:
        return False
    meta = node.meta.get("array")
    return meta is not None and hasattr(meta, "scalar") and (meta.scalar or meta.ndim > 0)


def new_generator(fn, args, kwargs):
    """``(fn(*args, **kwargs), False)``: the Generator eager makes; ``(a private one,
    True)`` when that raises (the kernel flags the call: tier 1 raises as eager). Runs
    in object mode."""
    try:
        return fn(*args, **kwargs), False
    except Exception:  # noqa: BLE001 (tier 1 reruns the call and raises as eager)
        return np.random.Generator(np.random.PCG64(0)), True


class Draws:
    """Methods of ``_Block`` (block.py): a Generator made in the graph."""

    def new_generator(self, node: Node) -> Obj:
        """``np.random.default_rng(seed)``'s value: the Generator, made in object mode."""
        em = self.em
        binds: list[str] = []
        args = self._source(tuple(node.args), binds)
        kwargs = self._source(dict(node.kwargs), binds)
        for b in binds:
            em.line(b)
        name, err = em.new("g"), em.new("e")
        em.uses_npcall = em.makes_generators = True
        em.line(f'with objmode({name}=_generator_type, {err}="boolean"):')
        em.lines.append(f"{em.pad}    {name}, {err} = _new_generator("
                        f"_np_ops.random_default_rng, {args}, {kwargs})")
        em.line(f"{SEQ_FLAG} |= {err}")
        return Obj(name)


def from_global_state(node: Node) -> bool:
    """The draw reads NumPy's global RandomState (``np.random.normal``...), not a
    Generator the graph takes."""
    return node.target.startswith("random_")


def is_generator_input(meta: dict) -> bool:
    """A graph input that is a ``np.random.Generator`` (``OutputGraph.object_input``)."""
    return meta.get("object") is np.random.Generator


def save_states(generators: list, global_state: bool) -> tuple:
    """The random states a kernel call may consume: each Generator's bit generator
    state, then the global RandomState's (or None)."""
    return ([g.bit_generator.state for g in generators],
            np.random.get_state() if global_state else None)


def restore_states(generators: list, saved: tuple) -> None:
    """Put back what ``save_states`` took (after a flagged call, before tier 1 draws)."""
    states, legacy = saved
    for g, state in zip(generators, states):
        g.bit_generator.state = state
    if legacy is not None:
        np.random.set_state(legacy)
