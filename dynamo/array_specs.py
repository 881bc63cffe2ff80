"""What an array input of a graph is guarded on (``OutputGraph.add_input``).

Example::

    >>> spec = array_spec(np.ones((2, 3)), meta_of(np.ones((2, 3))), "contiguity")
    >>> spec.shape, spec.contiguity, spec.strides
    ((2, 3), (True, False), None)
"""

from __future__ import annotations

from typing import Any

from dynamo.guards import ArraySpec

from . import ops
from .ops import ArrayMeta
from .symbolic import SymInt


def array_spec(value: Any, meta: ArrayMeta, layout_guards) -> ArraySpec:
    """What an array input is guarded on: class, dtype, device, the static sizes (a
    symbolic one is ``None``), and its layout as far as the backend depends on it.

    ``layout_guards`` (the backend's): False, none; True, the exact strides;
    "contiguity", the C/F contiguity flags; "dynamic-contiguity", the strides, except
    for a contiguous input with a symbolic size, whose strides follow from its shape
    and change with it (then the flags). A dict gives one of these per array library
    (``backend="auto"`` pins layouts only for the library whose backend needs them)."""
    if isinstance(layout_guards, dict):
        layout_guards = layout_guards.get(meta.kind, False)
    layout = layout_guards if not meta.scalar else False
    if layout == "dynamic-contiguity":
        contiguous = value.flags.c_contiguous or value.flags.f_contiguous
        dynamic = any(isinstance(d, SymInt) for d in meta.shape)
        layout = "contiguity" if contiguous and dynamic else True
    return ArraySpec(
        cls=type(value), dtype=value.dtype,
        shape=tuple(None if isinstance(d, SymInt) else d for d in meta.shape),
        strides=tuple(value.strides) if layout and layout != "contiguity" else None,
        contiguity=(bool(value.flags.c_contiguous), bool(value.flags.f_contiguous))
        if layout == "contiguity" else None,
        device=value.device.id if meta.kind == ops.CUPY else None)


__all__ = ["array_spec"]
