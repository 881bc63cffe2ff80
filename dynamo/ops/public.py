"""``dynamo.register_op``: teach the registry a function it does not know.

Example::

    >>> def softplus(x):
    ...     return np.log1p(np.exp(x))
    >>> dynamo.register_op(softplus, meta="elementwise")
    >>> # now softplus(x) inside compiled code is one graph node "softplus"

``meta`` is ``"elementwise"`` (broadcast shapes; dtype from running the function
on 0-d probes), ``"same"`` (result has the first argument's shape and dtype), or a
callable ``meta(*args, **kwargs) -> (shape, dtype)`` that receives ``ArrayMeta`` for
array arguments and plain values for the rest.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import rules
from .meta import ArrayMeta
from .registry import ELEMENTWISE, OPAQUE, REGISTRY, OpDef, register


def register_op(fn: Callable, meta: str | Callable = "elementwise", *, name: str | None = None,
                kind: str | None = None, cupy: Callable | None = None) -> Callable:
    """Register ``fn`` (and ``cupy``, its CuPy twin) as one graph op. Returns ``fn``."""
    if not callable(fn):
        raise TypeError(f"register_op expects a function, got {type(fn).__name__}")
    op_name = name or getattr(fn, "__name__", None)
    if not op_name or not op_name.isidentifier():
        raise ValueError("register_op needs a name= that is a Python identifier")
    known = REGISTRY.get(op_name)
    if known is not None and known.impl is not fn:
        raise ValueError(f"an op named {op_name!r} already exists ({known.doc or known.impl}); "
                         f"register {getattr(fn, '__qualname__', fn)!r} under another name= ")
    if meta == "elementwise":
        rule, default_kind = rules.elementwise, ELEMENTWISE
    elif meta == "same":
        rule, default_kind = _same_rule, OPAQUE
    elif callable(meta):
        rule, default_kind = _user_rule(meta), OPAQUE
    else:
        raise ValueError(f"meta must be 'elementwise', 'same' or a callable, got {meta!r}")
    op = OpDef(op_name, fn, rule, kind or default_kind, cupy=cupy, extras={"user": True})
    register(op, functions=[fn] + ([cupy] if cupy is not None else []))
    return fn


def _same_rule(op, args, kwargs) -> ArrayMeta:
    first = next(a for a in args if isinstance(a, ArrayMeta))
    return first.with_(scalar=False)


def _user_rule(fn):
    def rule(op, args, kwargs) -> ArrayMeta:
        shape, dtype = fn(*args, **kwargs)
        kind = rules.array_kind((args, kwargs))
        return ArrayMeta(tuple(shape), np.dtype(dtype), kind, False)
    return rule
