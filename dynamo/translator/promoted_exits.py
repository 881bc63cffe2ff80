"""What the code right after a triangular inner loop does with a promoted float
(``promoted_floats``): ``exit_use_is_exact`` says whether every path from the loop's
exit reads the accumulator ``s`` first in a way whose result is the same object type
and the same bits whether ``s`` is a Python float (the loop ran no trip) or an
``np.float64`` (it ran some), and then drops it (each of these)::

    x[i] = (b[i] - s) / L[i, i]        # b[i] - s: np.float64 either way
    L[j, j] = np.sqrt(A[j, j] - s)     # (the call reads the difference, not s)
    out[i] = s                         # the same float64 stored into a float64 array
    if unit:                           # a branch that does not read s: each path
        x[i] = b[i] - s                #   on its own
    else:
        x[i] = (b[i] - s) / L[i, i]
    for j in range(i + 1, n):          # a second inner loop: its first trip reads s
        s += A[i, j] * x[j]            #   exactly, and its exit is walked on

It follows the instructions on an abstract stack of kinds (``_Walk``): ``TAINT`` (the
value of ``s``), ``F64`` (an ``np.float64`` in eager too: an element of a float64
NumPy array by as many int indices as it has dimensions, a float64 NumPy scalar
local, arithmetic of those with numbers), an array or int local, or something else.
Locals are read from the frame as they are before the loop; a local the loop body
stores is something else, and one stored on the walk has the stored value's kind.
``s`` must meet, first, a ``+``, ``-``, ``*`` or ``/`` whose other operand is ``F64``,
or be the value stored into a float64 NumPy array, and be dead right after (or
stored); any other instruction that pops it, a second load, storing it under another
name, a backward jump or more than ``_STEPS`` instructions: no. A ``for`` loop on
the way (``_loop``): its body's path, where the body reads ``s``, and its exit.

Example::

    >>> exit_use_is_exact(tx, for_iter, "s", stored={"j", "s"})   # forward substitution
    True
"""

from __future__ import annotations

import builtins

import numpy as np

from .. import ops, pyversion
from ..symbolic import SymInt
from ..variables import ArrayVariable, ConstantVariable
from .loop_body_state import dead_after
from .loop_exits import names

TAINT, F64, INT, NUMBER, OTHER = "taint", "f64", "int", "number", "other"
RANGE, RANGE_OBJ, RANGE_ITER = "range", "range()", "iter(range())"   # (ints when run)
_STEPS = 80          # instructions looked at on all paths together
_EXACT_OPS = {"ADD", "SUBTRACT", "MULTIPLY", "TRUE_DIVIDE", "INPLACE_ADD",
              "INPLACE_SUBTRACT", "INPLACE_MULTIPLY", "INPLACE_TRUE_DIVIDE"}
# (pops, pushes) of the instructions that only move values no one but the walk sees
_SHUFFLES = {"PUSH_NULL": (0, 1), "COMPARE_OP": (2, 1), "TO_BOOL": (1, 1),
             "NOP": (0, 0), "CACHE": (0, 0), "PRECALL": (0, 0), "EXTENDED_ARG": (0, 0),
             "LOAD_METHOD": (1, 2), "NOT_TAKEN": (0, 0)}
_FORWARD_JUMPS = {"JUMP_FORWARD", "JUMP"}
_CONDITIONAL = {"POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE",
                "POP_JUMP_FORWARD_IF_TRUE"}


def exit_use_is_exact(tx, inst, name: str, stored: set[str]) -> bool:
    """Every path from the exit of the ``for`` loop at ``inst`` reads ``name`` first
    exactly (module docstring) and then drops it. ``stored``: the locals the loop's
    body stores (their values after it are not the frame's now)."""
    if inst.target is None:
        return False
    k = inst.target + pyversion.FOR_ITER_EXIT_SKIP   # (the first instruction run after)
    if not pyversion.FOR_ITER_EXIT_POPS and tx.info.insts[k].name == "POP_ITER":
        k += 1
    walk = _Walk(tx, name, stored)
    return walk.path(k, [], {})


class _Walk:
    def __init__(self, tx, name: str, stored: set[str]):
        self.tx, self.name, self.stored = tx, name, stored
        self.steps = 0

    def path(self, k: int, stack: list, bound: dict) -> bool:
        """From instruction ``k`` with the kinds ``stack`` and ``bound`` (the locals
        stored on this path: name -> kind)."""
        insts = self.tx.info.insts
        while k < len(insts):
            self.steps += 1
            if self.steps > _STEPS:
                return False
            if TAINT not in stack and self.name in dead_after(self.tx, k):
                return True    # (never read on this path: nothing can see its type)
            i = insts[k]
            if i.name in pyversion.LOCAL_LOADS and not i.name.startswith("STORE"):
                stack += [bound.get(n) or self._local(n)
                          for n in (names(i.arg)[at] for at, _ in
                                    pyversion.LOCAL_LOADS[i.name])]
                if stack.count(TAINT) > 1:
                    return False
            elif i.name in ("LOAD_CONST", "LOAD_SMALL_INT"):
                stack.append(INT if type(i.arg) is int else
                             NUMBER if type(i.arg) is float else OTHER)
            elif i.name == "LOAD_GLOBAL":
                flag, glob = i.arg if isinstance(i.arg, tuple) else (False, i.arg)
                stack += [OTHER] * bool(flag) + \
                    [RANGE if glob == "range" and _builtin_range(self.tx) else OTHER]
            elif i.name == "STORE_FAST":
                if not stack or stack[-1] == TAINT:
                    return False   # (s under another name)
                if i.arg == self.name:
                    return TAINT not in stack   # (s rebound to a value eager has too)
                bound = {**bound, i.arg: stack.pop()}
            elif i.name in ("CALL", "GET_ITER"):
                pops = i.arg + 2 if i.name == "CALL" else 1
                callee = stack[len(stack) - pops:len(stack) - pops + 2]
                if not self._pop(stack, pops):
                    return False
                stack.append(RANGE_OBJ if i.name == "CALL" and RANGE in callee else
                             RANGE_ITER if callee == [RANGE_OBJ] else OTHER)
            elif i.name == "FOR_ITER" and i.target is not None and i.target > k:
                if not self._loop(i, stack, bound):
                    return False
                k = i.target + pyversion.FOR_ITER_EXIT_SKIP
                if not pyversion.FOR_ITER_EXIT_POPS and insts[k].name == "POP_ITER":
                    k += 1
                stack = stack[:-1]   # (the iterator)
                # (s itself stays tainted: the loop may run no trip)
                bound = {**bound, **dict.fromkeys(
                    _stored(insts[i.index + 1:i.target]) - {self.name}, OTHER)}
                continue
            elif i.name == "LOAD_ATTR":
                flag = isinstance(i.arg, tuple) and i.arg[0]
                if not self._pop(stack, 1):
                    return False
                stack += [OTHER] * (1 + bool(flag))
            elif i.name in _SHUFFLES:
                pops, pushes = _SHUFFLES[i.name]
                if not self._pop(stack, pops):
                    return False
                stack += [OTHER] * pushes
            elif i.name == "BUILD_TUPLE":
                items = stack[len(stack) - i.arg:] if i.arg else []
                if not self._pop(stack, i.arg):
                    return False
                stack.append(("ints", len(items)) if all(v == INT for v in items)
                             else OTHER)
            elif i.name == "BINARY_SUBSCR" or \
                    i.name == "BINARY_OP" and getattr(i.arg, "name", None) == "SUBSCR":
                key, obj = stack[-1:], stack[-2:-1]
                if not self._pop(stack, 2):
                    return False
                stack.append(_element(obj[0], key[0]))
            elif i.name == "BINARY_OP":
                if len(stack) < 2:
                    return False
                a, b = stack.pop(-2), stack.pop()
                op = getattr(i.arg, "name", str(i.arg))
                if TAINT in (a, b):
                    return op in _EXACT_OPS and F64 in (a, b) and self._dropped(k + 1)
                stack.append(F64 if op in _EXACT_OPS and F64 in (a, b) and
                             {a, b} <= {F64, INT, NUMBER} else OTHER)
            elif i.name == "STORE_SUBSCR":
                if len(stack) < 3:
                    return False
                value, obj, key = stack[-3:]
                del stack[-3:]
                if value == TAINT:
                    return isinstance(obj, tuple) and obj[0] == "array" and \
                        key != TAINT and self._dropped(k + 1)
                if TAINT in (obj, key):
                    return False
            elif i.name in _FORWARD_JUMPS and i.target is not None and i.target > k:
                k = i.target
                continue
            elif i.name in _CONDITIONAL and i.target is not None and i.target > k:
                if not self._pop(stack, 1) or \
                        not self.path(i.target, list(stack), bound):
                    return False
            else:
                return False
            k += 1
        return False

    def _loop(self, inst, stack: list, bound: dict) -> bool:
        """A ``for`` loop on the way (Gauss-Seidel's second inner loop): where its body
        reads ``s``, the path into its first trip (an int index where it runs over a
        ``range``) must read it exactly too; its exit is walked on by the caller."""
        body = self.tx.info.insts[inst.index + 1:inst.target]
        if not stack or stack[-1] == TAINT:
            return False
        if not any(i.name in pyversion.LOCAL_LOADS and self.name in names(i.arg)
                   for i in body):
            return True
        return self.path(inst.index + 1,
                         stack + [INT if stack[-1] == RANGE_ITER else OTHER], bound)

    def _dropped(self, k: int) -> bool:
        return self.name in dead_after(self.tx, k)

    @staticmethod
    def _pop(stack: list, n: int) -> bool:
        """Pops ``n`` values none of which is ``s``'s."""
        if n > len(stack) or TAINT in stack[len(stack) - n:]:
            return False
        del stack[len(stack) - n:]
        return True

    def _local(self, name: str):
        """The kind of local ``name`` as the code after the loop reads it."""
        if name == self.name:
            return TAINT
        if name in self.stored:
            return OTHER
        var = dict.get(self.tx.locals, name)
        if isinstance(var, ConstantVariable) and (type(var.value) is int or
                                                  isinstance(var.value, SymInt)):
            return INT
        if isinstance(var, ArrayVariable) and var.meta.dtype == np.float64 and \
                var.meta.kind == ops.NUMPY:
            return F64 if var.meta.scalar else ("array", len(var.meta.shape))
        return OTHER


def _builtin_range(tx) -> bool:
    """``range`` in the frame's code is the builtin (no global of that name)."""
    glob = getattr(tx, "fn_globals", None)
    if not isinstance(glob, dict) or "range" in glob:
        return False
    b = glob.get("__builtins__", builtins)
    return (b if isinstance(b, dict) else vars(b)).get("range") is range


def _stored(insts) -> set[str]:
    return {n for i in insts if i.name.startswith("STORE_FAST") for n in names(i.arg)}


def _element(obj, key):
    """``obj[key]``: an ``np.float64`` where ``obj`` is a float64 NumPy array of as many
    dimensions as ``key`` has ints."""
    if isinstance(obj, tuple) and obj[0] == "array":
        ints = 1 if key == INT else key[1] if isinstance(key, tuple) and key[0] == "ints" \
            else None
        if ints == obj[1]:
            return F64
    return OTHER
