"""Nested values: one walker for the tuples, lists, dicts and slices that graph
arguments, op-rule arguments and results are made of.

A *container* is a tuple (a named tuple too), a list, a dict (its values: keys are
left alone) or a slice (its start, stop and step). Anything else is a *leaf*, and so is
a container for which ``is_leaf(value)`` is true: it is handed to ``fn`` whole.

Example::

    >>> tree_map(lambda v: v * 10, (1, [2, {"k": 3}]))
    (10, [20, {'k': 30}])
    >>> tree_leaves((1, [2, {"k": 3}], slice(None, 4)))
    [1, 2, 3, None, 4, None]
    >>> tree_leaves(([1, 2], (3,)), is_leaf=lambda v: isinstance(v, list))
    [[1, 2], 3]

``tree_map`` rebuilds each container as its plain type (``tuple``, ``list``, ``dict``,
``slice``): a named tuple comes back as a plain tuple, a dict subclass as a dict. A
caller that must keep such a type whole says so with ``is_leaf``.

This module imports nothing from the project, so every layer may use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def tree_map(fn: Callable[[Any], Any], value: Any,
             is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """``value`` with every leaf replaced by ``fn(leaf)``, in new containers.

    >>> tree_map(str, {"a": (1, 2), "b": [3]})
    {'a': ('1', '2'), 'b': ['3']}
    >>> tree_map(len, ([1, 2], [3]), is_leaf=lambda v: isinstance(v, list))
    (2, 1)
    """
    if is_leaf is not None and is_leaf(value):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(tree_map(fn, v, is_leaf) for v in value)
    if isinstance(value, list):
        return [tree_map(fn, v, is_leaf) for v in value]
    if isinstance(value, dict):
        return {k: tree_map(fn, v, is_leaf) for k, v in value.items()}
    if isinstance(value, slice):
        return slice(tree_map(fn, value.start, is_leaf), tree_map(fn, value.stop, is_leaf),
                     tree_map(fn, value.step, is_leaf))
    return fn(value)


def tree_leaves(value: Any, is_leaf: Callable[[Any], bool] | None = None) -> list:
    """The leaves of ``value``, depth first, left to right (a slice gives its start, stop
    and step, ``None`` included).

    >>> tree_leaves([(1, 2), {"a": 3}])
    [1, 2, 3]
    >>> tree_leaves(5)
    [5]
    """
    out: list = []
    _collect(value, is_leaf, out)
    return out


def _collect(value: Any, is_leaf, out: list) -> None:
    if is_leaf is not None and is_leaf(value):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _collect(v, is_leaf, out)
    elif isinstance(value, dict):
        for v in value.values():
            _collect(v, is_leaf, out)
    elif isinstance(value, slice):
        _collect(value.start, is_leaf, out)
        _collect(value.stop, is_leaf, out)
        _collect(value.step, is_leaf, out)
    else:
        out.append(value)


__all__ = ["tree_leaves", "tree_map"]
