"""Python int counters of a ``while_loop`` node: ``while err > tol and it < maxit:``.

A solver to a tolerance counts its trips in a Python int and stops at a maximum::

    while np.linalg.norm(r) / nb > tol and it < maxit:
        x = x + omega * r
        r = b - A @ x
        it += 1

The counter changes on every trip, so it is no value of the body graph; it needs none.
Where the body touches it only to step it (``it += 1``, ``it = it - c``: ``only_stepped``,
read from the bytecode, so no other use can bake one trip's value into the graph), its
value before the ``t``-th test is ``it0 + step * t``, and a test of it against an int
the loop does not change (``counter_test``: the second operand of the ``and``) holds for
the first ``trips_bound(...)`` tests only. So the loop is the ``while_loop`` node of the
array test with at most that many trips, and the counter after it is
``it0 + step * taken``, ``taken`` the trips the node ran (a size the data decides, read
off the node when the graph runs, as a ``for ... break`` loop's variable is).

Python evaluates ``err > tol`` first, then ``it < maxit`` only where it held; the node
asks its test first, then the bound (``ops.while_loop``): the same order. The other
order (``while it < maxit and err > tol``, ``counter_before``) is the same node where
the array test only compares values (``plain_test``): the body graph computes it on
the trip the counter ends too, which Python does not, and a comparison shows that
nowhere; an array test that computes (``np.linalg.norm(r) > tol``: a warning, or an
error, Python never raises there) breaks as before.

Example::

    >>> trips_bound((0, 1), (500, 0), "LT")        # it = 0, 1, ...; it < 500
    500
    >>> trips_bound((9, 0), (1, 2), "GE")          # 9 >= k for k = 1, 3, ..., 9
    5
    >>> trips_bound((0, -1), (3, 0), "LT") is None  # never false: the test alone ends it
    True
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from .. import pyversion
from ..variables import ConstantVariable

COMPARES = {"LT": operator.lt, "LE": operator.le, "GT": operator.gt,
            "GE": operator.ge, "EQ": operator.eq, "NE": operator.ne}
_LOADS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW")
_DOUBLE_LOADS = ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW")
_CONSTANTS = ("LOAD_CONST", "LOAD_SMALL_INT")
_STEPS = ("ADD", "INPLACE_ADD", "SUBTRACT", "INPLACE_SUBTRACT")
# a float clock's steps may scale it too (``step *= 0.5``, ``lr = lr / 2``: while_clocks)
_FLOAT_STEPS = _STEPS + ("MULTIPLY", "INPLACE_MULTIPLY", "TRUE_DIVIDE",
                         "INPLACE_TRUE_DIVIDE")
# instructions that name a local in their argument (reads, stores, deletes)
_TOUCH = _LOADS + _DOUBLE_LOADS + (
    "LOAD_FAST_AND_CLEAR", "STORE_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST",
    "DELETE_FAST", "LOAD_CLOSURE", "LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF")


@dataclass(frozen=True)
class CounterTest:
    """``a <compare> b`` of two locals, or a local and an int constant, that feeds the
    conditional jump at ``jump`` (``operands``: ("local", name) or ("const", value);
    ``indices``: its instructions, the jump's included)."""
    operands: tuple
    compare: str
    jump: int
    indices: frozenset
    # in front of the array test (``while it < maxit and err > tol``: ``counter_before``)
    first: bool = False
    # after the array test in an ``or`` (``while err > tol or it < miniter``: the
    # loop goes on where either holds; ``or_counter_tests``)
    either: bool = False

    def same_test(self, other: CounterTest | None) -> bool:
        return other is not None and (self.operands, self.compare, self.either) == \
            (other.operands, other.compare, other.either)


def _names(arg) -> tuple:
    return arg if isinstance(arg, tuple) else (arg,)


def counter_test(insts, at: int, floats: bool = False) -> CounterTest | None:
    """The comparison of ints that starts at ``at`` (after ``NOT_TAKEN``s) and ends in a
    conditional jump, as ``it < maxit`` compiles (``LOAD_FAST it; LOAD_FAST maxit;
    COMPARE_OP <; POP_JUMP_IF_FALSE``; 3.13 loads both with one instruction); None for
    other code. Whether the jump is one of the loop's is the caller's question.
    ``floats``: a float constant may be an operand too (a clock's ``t < 1.0``:
    ``while_clocks``; ``CounterBounds._sides`` refuses it for an int counter)."""
    i = at
    while i < len(insts) and insts[i].name == "NOT_TAKEN":
        i += 1
    operands: list = []
    while i < len(insts) and len(operands) < 2:
        inst = insts[i]
        if inst.name in _LOADS or inst.name in _DOUBLE_LOADS:
            operands += [("local", n) for n in _names(inst.arg)]
        elif inst.name in _CONSTANTS and (type(inst.arg) is int or
                                          floats and type(inst.arg) is float):
            operands.append(("const", inst.arg))
        else:
            break
        i += 1
    if len(operands) != 2 or i + 1 >= len(insts) or insts[i].name != "COMPARE_OP" or \
            all(kind == "const" for kind, _ in operands):
        return None
    compare, _ = pyversion.compare_op(insts[i].arg)
    if compare not in COMPARES:
        return None
    j = i + 1
    if insts[j].name == "TO_BOOL":
        j += 1
    return CounterTest(tuple(operands), compare, j, frozenset(range(at, j + 1)))


def counter_before(insts, inst, start: int, exit_: int) -> CounterTest | None:
    """The counter test in front of the array test whose conditional jump is ``inst``
    (``while it < maxit and err > tol:``, in front or at the bottom), where its own
    jump leaves the loop (to ``exit_``) where it fails; the array test's code between
    the two has no jump and stores nothing (an expression), and is not the loop's body
    (from ``start``: a plain ``while err > tol:`` tested at the bottom). None for other
    code.

    >>> # 3.11: 116 LOAD_FAST it; 118 LOAD_FAST maxit; 120 COMPARE_OP <;
    >>> # 126 POP_JUMP_FORWARD_IF_FALSE (to 140); 128 LOAD_FAST err; 130 LOAD_FAST tol;
    >>> # 132 COMPARE_OP >; 138 POP_JUMP_BACKWARD_IF_TRUE (to 30): the test at 116-126
    """
    j = inst.index - 1
    while j >= 0 and insts[j].target is None:
        if insts[j].name.startswith(("STORE_", "DELETE_", "POP_TOP", "RETURN")):
            return None
        j -= 1
    if j < 0 or insts[j].name not in ("POP_JUMP_IF_FALSE", "POP_JUMP_FORWARD_IF_FALSE") \
            or insts[j].target != exit_ or j < start <= inst.index:
        return None
    for at in range(max(0, j - 5), j):
        test = counter_test(insts, at, floats=True)
        if test is not None and test.jump == j:
            return CounterTest(test.operands, test.compare, j, test.indices, first=True)
    return None


# the instructions of a test that makes no op but one comparison of the values it
# loads (``err > tol``, ``not done``): a comparison warns and raises on no value
_PLAIN = _LOADS + _DOUBLE_LOADS + _CONSTANTS + (
    "COMPARE_OP", "TO_BOOL", "UNARY_NOT", "NOT_TAKEN", "NOP")


def plain_test(insts, lo: int, hi: int) -> bool:
    """Whether the array test ``insts[lo:hi]`` (after the counter test's jump, up to
    its own) only loads locals and constants and compares them: then computing it
    once more than Python does (where the counter ends the loop: the node asks its
    test before its bound) shows nowhere, no warning, no error, no other value."""
    return all(i.name in _PLAIN for i in insts[lo:hi]) and \
        sum(i.name == "COMPARE_OP" for i in insts[lo:hi]) <= 1


def only_stepped(insts, lo: int, hi: int, name: str, skip: frozenset) -> bool:
    """Whether every instruction in ``lo:hi`` (the loop's code) that touches the local
    ``name``, outside ``skip`` (its tests), is part of a step ``name += c``,
    ``name -= c``, ``name = name + c`` or ``name = name - c`` (``c`` an int constant or
    another local): then no trip reads the counter's value, and the trace's one trip
    steps it as every trip does."""
    return steps_of(insts, lo, hi, name, skip) is not None


def steps_of(insts, lo: int, hi: int, name: str, skip: frozenset,
             floats: bool = False, reads: bool = False) -> list | None:
    """Where ``only_stepped``'s steps of ``name`` start (``floats``: a float constant
    may be ``c`` too, a float clock's ``t += 0.1``: ``while_clocks``); None where an
    instruction touches it otherwise (``reads``: other than by a plain load, a clock
    the body reads: ``while_clocks.read_clock_of``)."""
    i, found = lo, []
    while i < hi:
        if i in skip or insts[i].name not in _TOUCH or name not in _names(insts[i].arg):
            i += 1
            continue
        end = _step_at(insts, i, name, floats)
        if end is None and reads and insts[i].name in _LOADS + _DOUBLE_LOADS:
            i += 1
            continue
        if end is None:
            return None
        found.append(i)
        i = end
    return found


def step_operand(insts, i: int) -> tuple[str, object, str]:
    """Of the step that starts at ``i`` (``steps_of``): ``("const", c)`` or
    ``("local", name)``, and its operator's name (``"SUBTRACT"``, ``"INPLACE_ADD"``)."""
    first = insts[i]
    if first.name in _DOUBLE_LOADS:
        operand, op = ("local", first.arg[1]), insts[i + 1]
    else:
        load = insts[i + 1]
        operand = ("local" if load.name in _LOADS else "const", load.arg)
        op = insts[i + 2]
    return (*operand, op.arg.name)


def _step_at(insts, i: int, name: str, floats: bool = False) -> int | None:
    """The index after the step of ``name`` that starts at ``i``; None where the code
    at ``i`` is no such step."""
    first = insts[i]
    if first.name in _LOADS and first.arg == name and i + 1 < len(insts):
        operand = insts[i + 1]
        if not (operand.name in _CONSTANTS and (type(operand.arg) is int or
                                                floats and type(operand.arg) is float) or
                operand.name in _LOADS and operand.arg != name):
            return None
        op = i + 2
    elif first.name in _DOUBLE_LOADS and first.arg[0] == name and first.arg[1] != name:
        op = i + 1
    else:
        return None
    if op + 1 >= len(insts) or insts[op].name != "BINARY_OP" or \
            getattr(insts[op].arg, "name", None) not in (_FLOAT_STEPS if floats else _STEPS):
        return None
    store = insts[op + 1]
    if store.name == "STORE_FAST" and store.arg == name or \
            store.name == "STORE_FAST_LOAD_FAST" and store.arg[0] == name and \
            store.arg[1] != name:
        return op + 2     # (STORE_FAST_LOAD_FAST's load is of another local)
    return None


def trips_bound(left: tuple, right: tuple, compare: str) -> int | None:
    """How many tests of ``a <compare> b`` hold before the first that fails, where the
    ``t``-th test compares ``a0 + da * t`` with ``b0 + db * t`` (``left = (a0, da)``,
    ``right = (b0, db)``, Python ints); None where none fails. Each test is a linear
    function of ``t``, so the answer is arithmetic; it is checked with Python's own
    comparison at the trips around it.

    >>> trips_bound((3, 3), (0, 0), "NE")      # 3, 6, 9, ... never 0
    >>> trips_bound((9, -3), (0, 0), "NE")     # 9, 6, 3, 0
    3
    """
    (a0, da), (b0, db) = left, right
    holds = COMPARES[compare]

    def at(t: int) -> bool:
        return holds(a0 + da * t, b0 + db * t)

    if not at(0):
        return 0
    d0, dd = a0 - b0, da - db         # the test holds where d0 + dd * t <compare> 0
    if dd == 0:
        return None
    if compare in ("LT", "LE", "GT", "GE"):
        # as e0 + ed * t < 0 (ints: d <= 0 is d - 1 < 0; d > 0 is -d < 0)
        e0, ed = {"LT": (d0, dd), "LE": (d0 - 1, dd),
                  "GT": (-d0, -dd), "GE": (-d0 - 1, -dd)}[compare]
        if ed < 0:
            return None
        bound = -(e0 // ed)           # the first t with e0 + ed * t >= 0 (e0 < 0 here)
    elif compare == "EQ":
        bound = 1
    elif -d0 % dd == 0 and -d0 // dd > 0:
        bound = -d0 // dd             # NE: false where d0 + dd * t == 0
    else:
        return None
    if not (at(bound - 1) and not at(bound)):
        raise AssertionError(f"trips_bound: {left} {compare} {right} at {bound}")
    return bound


# what ``carried_shape`` says, and ``while_shape_hint`` finds again in the reason
_COUNTER_READ = ": a counter read in the body"
# why such a counter is no node where the body also leaves the loop on it (``while
# <array test>: ...; it += 1; if it > maxit: return x, -1``, or ``break``: a cap of
# another shape than ``while_caps``'; ``WhileScope._check_index_uses``, issue #19)
RETURNS = (" and leaves the loop on it (if it > maxit: return ... or break): a cap on a "
           "counter is a node only as the body's one branch, after or before the steps "
           "of the counter (not both), against an int the loop does not change")
_FLOAT_CARRIED = ": a Python float carried across trips"
# why a capped loop over 0-d arrays only stays a break (``while_caps.cap_bound``)
SCALAR_CAP = ("the loop carries 0-d arrays only, which Python's own loop runs as fast as a "
              "while_loop node runs them (a capped bisection: 0.92x plain as a node, 0.98x "
              "as a break)")
# why a ``while <array test>:`` loop with a second exit on data is no node
# (``while res > tol: A; if res > 1e12: return x, np.inf``: ``while_caps.data_exit``)
DATA_EXIT = ("the body leaves the loop on array data too (if <array test>: return ... "
             "or break): a while_loop node has one exit test, the loop's own")


def carried_shape(step, var, old=None) -> str:
    """What a local the body changes is, for the message of a loop that stays a break:
    a counter read in the body (``x = x + h * it``, ``omega = 1 / (1 + it)``; or
    tested in a way that is no bound), or a Python float carried across trips
    (``t += dt``, ``t = rho * t``; a clock the body only steps is a node:
    ``while_clocks``), or one the first trip makes a NumPy value (``old`` the float).

    >>> carried_shape(None, ConstantVariable(0.1))[:34]
    ': a Python float carried across tr'
    """
    if isinstance(old, ConstantVariable) and type(old.value) is float and \
            not isinstance(var, ConstantVariable):
        return (_FLOAT_CARRIED + " that the first trip makes a NumPy value (t += "
                "np.float32(dt), t = t + x.sum(): NumPy's type, by NEP 50), which is no "
                "value of the graph")
    if step is not None:
        return (_COUNTER_READ + " (x = x + h * it, omega = 1 / (1 + it)), a different "
                "Python int on every trip, or tested in a way that bounds no trips "
                "(against another counter); only `it += 1`-style steps, `and it < maxit` "
                "and `or it < miniter` tests are nodes")
    value = var.value if isinstance(var, ConstantVariable) else None
    if type(value) is float:
        return (_FLOAT_CARRIED + " (t += dt, t = rho * t), which is no value of the "
                "graph; a clock is one only where the body steps it once by a number the "
                "loop leaves as it was (t += dt, t *= 0.5), and where the body reads it "
                "a test bounds the trips (while err > tol and t < t_end)")
    if isinstance(value, np.generic):
        return (": a NumPy scalar made from constants, carried across trips "
                "(t = np.float64(1.0); t = t * 0.5), which is no value of the graph")
    return ""


def while_shape_hint(why: str) -> str:
    """The rewrite that makes a ``while`` loop refused for ``why`` (``carried_shape``'s
    reasons) one node; "" for other reasons. The rewrites carry the value as a 0-d
    array, which the node computes with the same float operations in the same order
    (``kf += 1.0``, ``t += dt``: the values Python's ints and floats have), but
    typed as NumPy types a 0-d float64 array, not as a Python float (NEP 50: with a
    float32 array it gives float64).

    >>> while_shape_hint("the local 't' is ...: a Python float carried across trips")[:22]
    'carry the time as a 0-'
    """
    if RETURNS in why:   # (``if it > maxit: return x, -1`` in a ``while <array test>:``)
        return ("step the counter and test it once, as the body's one branch "
                "(<body>; it += 1; if it > maxit: return x, -1 or break), or put the "
                "bound in the loop's own test (while err > tol and it < maxit:), or "
                "write for it in range(maxit): <body>; if <converged>: return x, it + 1 "
                "with return x, -1 after the loop: then the loop is one while_loop node "
                "(docs/loops.md); else accept the graph break (the loop runs as Python)")
    if SCALAR_CAP in why:
        return ("nothing to change: the loop runs as Python, as fast as it would as a "
                "node, and the code before and after it is compiled; accept the graph "
                "break")
    if DATA_EXIT in why:
        return ("test both in the loop's own test, as one array (while (res > tol) & "
                "(res <= 1e12):), and choose the result after the loop from its state "
                "(np.where(res > 1e12, np.inf, res)); or write for it in range(maxit): "
                "<body>; if <test>: return ... (one exit on data: a node, docs/loops.md); "
                "else accept the graph break (the loop runs as Python)")
    if _COUNTER_READ in why:
        return ("carry the count as a 0-d array for the update (kf = np.zeros(()) "
                "before the loop, kf += 1.0 in it, in place: it stays a 0-d array; "
                "omega = 1.0 / (1.0 + kf)) and keep the int counter for `it += 1` and "
                "`and it < maxit` only: then the loop is one while_loop node "
                "(docs/loops.md); a 0-d float64 array makes a float32 array float64 "
                "where a Python float does not; else accept the graph break (the loop "
                "runs as Python)")
    if _FLOAT_CARRIED in why:
        return ("carry the time as a 0-d array (t = np.zeros(()) before the loop, "
                "t += dt in it, in place: the same float additions) and test it with the "
                "array test as one array, while (t < T) & (err > tol): then the loop is "
                "one while_loop node (docs/loops.md); t is a 0-d array after it "
                "(float(t) where Python needs a float); else accept the graph break")
    return ""
