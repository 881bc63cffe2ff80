"""The type of the object a method is called on in an island, read off the instructions
that compute it, where they are a small expression of locals of known types.

An island (code that runs as Python after a break) routes each method call through
``intercept`` unless the method is known to be C code (``emit.intercept_calls``,
``break_calls._c_code_now``). For a method of a local (``rng.random()``) the local's
type says so. A loop that runs as Python often calls methods of expressions instead:
``prob[:t].sum()``, ``(levels[:t] * prob[:t]).sum()``, ``(x - m).mean()``; each call
of ``intercept`` costs about as much as a small reduction's call itself (Otsu's
threshold scan, three sums over 255 levels a call: 0.91x plain). ``receiver_type``
reads such an expression backwards from its last instruction:

- a plain local: its type in ``local_types`` (a local the island never rebinds);
- a constant: its type;
- ``e[a:b]`` / ``e[a:b:c]`` with plain bounds: ``e``'s type, where its slices keep it
  (an ndarray, a list, a tuple, a str, bytes);
- ``e1 <op> e2`` (arithmetic) and ``-e``: an ndarray where one side is an ndarray and
  the other an ndarray or a number (Python's or NumPy's); the result is an ndarray or,
  of a 0-d array, a NumPy scalar, whose methods are C code too;
- anything else: None (the call goes through ``intercept``, as before).

A wrong type would only cost speed, never change a result: a method called directly
that turned out to be a user function runs uncompiled, as the island itself does.

Example::

    >>> out = [Instr("LOAD_FAST", "prob"), Instr("LOAD_CONST", None),
    ...        Instr("LOAD_FAST", "t"), Instr("BINARY_SLICE")]
    >>> receiver_type(out, {"prob": np.ndarray, "t": int})
    <class 'numpy.ndarray'>
"""

from __future__ import annotations

import numpy as np
from bytecode import Instr

_LOCAL_LOADS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW")
_BOUND_LOADS = _LOCAL_LOADS + ("LOAD_CONST", "LOAD_SMALL_INT")   # (a slice's bounds)
# types whose slice (``x[a:b]``) is an object of exactly the same type
SLICES_KEEP = frozenset({np.ndarray, list, tuple, str, bytes})
# BINARY_OP's arithmetic operators (+ // * % ** - /, and their in-place forms, 13 on)
_ARITHMETIC = frozenset({0, 2, 5, 6, 8, 10, 11})
_SUBSCR = 26   # (3.14's BINARY_OP for ``x[i]``)
_NUMBERS = frozenset({int, float, bool, complex})
_DEPTH = 12   # (a longer expression is not worth reading: through ``intercept``)


def receiver_type(out: list, local_types: dict) -> type | None:
    """The type of the value that the instructions ending ``out`` push, or None."""
    found = _read(out, len(out), local_types, _DEPTH)
    return None if found is None else found[0]


def _read(out: list, end: int, local_types: dict, depth: int):
    """(type, start) of the expression whose last instruction is ``out[end - 1]``:
    ``out[start:end]`` computes it; None where it is not one ``receiver_type`` reads."""
    if end <= 0 or depth <= 0 or not isinstance(out[end - 1], Instr):
        return None
    inst = out[end - 1]
    name = inst.name
    if name in _LOCAL_LOADS:
        kind = local_types.get(inst.arg)
        return None if kind is None else (kind, end - 1)
    if name == "LOAD_CONST":
        return type(inst.arg), end - 1
    if name == "LOAD_SMALL_INT":
        return int, end - 1
    if name == "BINARY_SLICE":   # (3.12+: the container, the start, the stop)
        return _sliced(out, end - 1, 2, local_types, depth)
    subscript = name == "BINARY_SUBSCR" or name == "BINARY_OP" and int(inst.arg) == _SUBSCR
    if subscript and end >= 2 and isinstance(out[end - 2], Instr) and \
            out[end - 2].name == "BUILD_SLICE":   # (3.11; a step: 3.12+, 3.14's BINARY_OP)
        return _sliced(out, end - 2, out[end - 2].arg, local_types, depth)
    if name == "UNARY_NEGATIVE":
        operand = _read(out, end - 1, local_types, depth - 1)
        return operand if operand is not None and operand[0] is np.ndarray else None
    if name == "BINARY_OP" and int(inst.arg) % 13 in _ARITHMETIC and int(inst.arg) < _SUBSCR:
        right = _read(out, end - 1, local_types, depth - 1)
        if right is None:
            return None
        left = _read(out, right[1], local_types, depth - 1)
        if left is None:
            return None
        kinds = {left[0], right[0]}
        if np.ndarray in kinds and all(k is np.ndarray or _number(k) for k in kinds):
            return np.ndarray, left[1]
    return None


def _sliced(out: list, end: int, bounds: int, local_types: dict, depth: int):
    """``container[bounds...]``, its bounds ending ``out[:end]``: each bound a plain
    local or a constant, the container any expression read here."""
    start = end - bounds
    if start < 1 or not all(isinstance(i, Instr) and i.name in _BOUND_LOADS
                            for i in out[start:end]):
        return None
    container = _read(out, start, local_types, depth - 1)
    if container is None or container[0] not in SLICES_KEEP:
        return None
    return container


def _number(kind) -> bool:
    """A Python number, or one of NumPy's own scalar types (static C types)."""
    return kind in _NUMBERS or (isinstance(kind, type) and issubclass(kind, np.generic)
                                and kind.__module__ == "numpy")
