"""Code after a loop's ``if <0-d array test>: break``: ``for k in range(maxit): A;
if c: break; B`` as one ``while_loop`` node, and a second one for ``B`` alone.

With the loop's state ``s``, Python runs ``s = A(s); if c(s): exit; s = B(s); next
item or exit; s = A(s); ...``. The first ``A`` is traced as ordinary code (the trace
reaches the test with it), so the rest is the loop ``while not c(s) and trips left:
s = A(B(s))``: one ``while_loop`` node whose body is ``B``, the next item, then ``A``
(``WhileScope`` traces it from ``B``'s start, ``go_on``, to the test again). The two
ways out leave different states: a ``break`` leaves ``s`` (after ``A``), the range
running out leaves ``B(s)`` (the test still said "go on": ``B`` ran, then no item
was left). So the body also hands out its last test (a carried 0-d value), and a
second ``while_loop`` node of at most one trip runs ``B`` on the loop's result where
that test still says "go on" (``tail_graph``: the body graph's ops up to the next
item, over the same inputs). Where ``B`` makes no op and stores only locals dead
after the loop (``power_iteration_tol``'s ``lam_old = lam``) there is no second node.
``while True: A; if c: break; B`` (``while_true_break``) ends at the ``break`` only:
one node over ``B; A``, no second.

Example::

    for _ in range(maxit):                 # first trip: A traced, then the test
        dx = (x * x - a) / (2.0 * x)
        if np.abs(dx).max() < tol:         # -> while_loop(body: x = x - dx; A; test)
            break
        x = x - dx                         # -> while_loop(tail: x = x - dx), 1 trip,
    return x                               #    where the range ran out
"""

from __future__ import annotations

from ..graph import CALL, PLACEHOLDER, Graph, map_nodes
from ..variables import ArrayVariable
from .loop_facts import NotALoopNode, memory_base
from .while_counters import counter_test

# jumps back to a loop's head; instructions that do nothing on the way
JUMPS_BACK = ("JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP")
PASSING = ("NOT_TAKEN", "NOP")
_STORES = ("STORE_FAST", "DELETE_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST",
           "STORE_DEREF", "DELETE_DEREF")


def _names(arg) -> tuple:
    return arg if isinstance(arg, tuple) else (arg,)


def jump_back_after(insts, go_on: int, is_back, end: int) -> int | None:
    """The index of the loop's jump back (``is_back(inst)``) that ends the code from
    ``go_on`` (the code after the ``break``'s test, ``B``): the first such jump
    before ``end`` where no jump before it, from ``go_on`` on, leaves ``go_on..jump``
    (a ``continue``, another ``break``, a ``return``: no such shape). ``go_on``
    itself (after ``NOT_TAKEN``s) where ``B`` is empty. None where there is none.

    >>> # 3.11: 192 LOAD_FAST x ... 200 STORE_FAST x; 202 JUMP_BACKWARD (to 72)
    >>> # jump_back_after(insts, index of 192, back to FOR_ITER at 72, ...) -> 202
    """
    i = go_on
    while i < len(insts) and insts[i].name in PASSING:
        i += 1
    for j in range(i, min(end, len(insts))):
        inst = insts[j]
        if inst.name in ("RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"):
            return None
        if inst.target is None:
            continue
        if inst.name in JUMPS_BACK and is_back(inst):
            return j
        if not go_on <= inst.target <= j or inst.name == "FOR_ITER":
            return None
    return None


def while_true_break(insts, inst, leaves) -> tuple | None:
    """``(start, exit, head, negate, back, leave)`` where the conditional jump ``inst``
    is ``if <test>: break`` followed by more code ``B`` in a loop with no test of its
    own (``while True: A; if c: break; B``): one way runs ``B`` up to the jump back to
    the loop's start (``head``, before the test, no ``for`` loop's ``FOR_ITER``), the
    other (``leave``) leaves the loop for good (``leaves(at, back)``). The loop is
    ``while not c: B; A`` from ``B``'s start: it ends only at the ``break``, so its
    state after is the body's (no ``B`` to run again). None for other jumps."""
    fall = inst.index + 1
    while insts[fall].name in PASSING:
        fall += 1
    for negate, go_on, leave in ((False, inst.target, fall), (True, fall, inst.target)):
        back = jump_back_after(insts, go_on, lambda j: j.target is not None and
                               j.target < inst.index and
                               insts[j.target].name != "FOR_ITER", len(insts))
        if back is None or back == go_on or not leaves(leave, insts[back]):
            continue
        return go_on, back + 1, insts[back].target, negate, back, leave
    return None


def while_counter_break(insts, inst) -> tuple | None:
    """``(start, exit, head, negate, back, counter_at, test, leave, exits)`` where the conditional
    jump ``inst`` is ``if <test>: break`` in a ``while it < maxit:`` loop, followed by
    more code ``B`` (which steps the counter) up to the loop's counter test again::

        while it < maxit:             # the counter test: 3.11-3.13 copy it to the bottom
            g = grad(x)               # A
            if np.abs(g).max() < tol:
                break
            x = x - 0.25 * g          # B
            it += 1

    The loop is ``for_break_shape``'s with a counter in place of a range: one node
    over ``B``, the counter test, ``A`` (its bound: the counter tests that hold after
    the first), and ``B`` once more where the counter ended it. ``counter_at``: where
    ``B`` ends (the counter test after it), ``back``: the jump back, ``test``: the
    counter test (``while_counters.CounterTest``); the ``break`` goes to the loop's
    exit (3.11 jumps there; 3.12+ copy the code after the loop, ``code_tail``, there: its
    instructions are ``leave``, which may read the counter). ``exits``: None, or where
    the ``break``'s branch runs code of its own (``while_exit_code``: ``if c: return
    E``, ``if c: done = True; break``), ``(at, end, join)``: ``E``'s start, the loop's
    end and where the ways meet, for ``loop_returns``. None for other jumps."""
    if inst.target is None or inst.target <= inst.index:
        return None
    fall = inst.index + 1
    while insts[fall].name in PASSING:
        fall += 1
    for negate, go_on, leave in ((False, inst.target, fall), (True, fall, inst.target)):
        found = _counter_after(insts, go_on, inst.index)
        if found is None:
            continue
        counter_at, test, back, head, exit_ = found
        if insts[head].name == "FOR_ITER":
            continue
        while insts[leave].name in PASSING:
            leave += 1
        out = insts[leave]
        if out.name in ("JUMP_FORWARD", "JUMP") and out.target == exit_:
            return go_on, exit_, head, negate, back, counter_at, test, frozenset(), None
        if code_tail(insts, leave) == code_tail(insts, exit_) is not None:
            end = next(i.index for i in insts[leave:] if i.name in ("RETURN_VALUE",
                                                                     "RETURN_CONST"))
            return go_on, exit_, head, negate, back, counter_at, test, \
                frozenset(range(leave, end + 1)), None
        exits = while_exit_code(insts, leave, exit_)
        if exits is not None:
            return go_on, exit_, head, negate, back, counter_at, test, \
                frozenset(range(leave, exits[1] + 1)), (leave, exit_, exits[0])
    return None


def while_exit_code(insts, leave: int, exit_: int) -> tuple | None:
    """``(join, last)`` where the ``break``'s branch of a ``while`` loop (from ``leave``,
    the loop's exit at ``exit_``) runs code of its own, ``E``, straight code to
    ``last``: a ``return`` where the code after the loop is straight code to a
    ``return`` too (``join`` None; 3.12+ copy a short tail after ``E; break`` so),
    or a jump to ``exit_`` (``join`` ``exit_``: 3.11's ``done = True; break``).
    None for other code (``loop_returns`` joins the two ways).

    >>> # 3.11: 182 LOAD_FAST x_new ... BUILD_TUPLE; RETURN_VALUE (E)
    >>> #       222 LOAD_FAST x; LOAD_FAST maxit; BUILD_TUPLE; RETURN_VALUE (T)
    >>> while_exit_code(insts, index of 182, index of 222) -> (None, index of 194)
    """
    for j in range(leave, min(len(insts), leave + _MAX_EXIT)):
        inst = insts[j]
        if inst.name in _RETURNS:
            return (None, j) if code_tail(insts, exit_) is not None else None
        if inst.name in ("JUMP_FORWARD", "JUMP") and inst.target == exit_ and j > leave:
            return exit_, j
        if inst.target is not None or inst.name.startswith(("RAISE", "RERAISE")):
            return None
    return None


# (the instructions the code before a ``break`` may have, at most: it is traced on
# every call, for both ways, as ``loop_returns``' ``_MAX_EXIT``)
_MAX_EXIT = 200


def _counter_after(insts, go_on: int, before: int) -> tuple | None:
    """``(counter_at, test, back, head, exit)`` where the straight code from ``go_on``
    ends in the loop's counter test and jump back to before ``before``: 3.11 tests at
    the bottom and jumps back where it holds, 3.12-3.13 jump out where it fails, then
    back; 3.14 jumps back to the test in front. None for other code."""
    j = go_on
    while j < len(insts) and insts[j].target is None:
        if insts[j].name in ("RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"):
            return None
        j += 1
    if j >= len(insts):
        return None
    jump = insts[j]
    if jump.name in JUMPS_BACK and jump.target < before:            # 3.14
        test = counter_test(insts, jump.target)
        if test is None or insts[test.jump].name not in _FALSE or \
                insts[test.jump].target <= before:
            return None
        return jump.target, test, j, jump.target, insts[test.jump].target
    test = next((t for t in map(lambda at: counter_test(insts, at), range(max(go_on, j - 5), j))
                 if t is not None and t.jump == j), None)
    if test is None:
        return None
    at = min(test.indices)
    if jump.name == "POP_JUMP_BACKWARD_IF_TRUE" and jump.target < before:   # 3.11
        return at, test, j, jump.target, j + 1
    after = insts[j + 1] if j + 1 < len(insts) else None
    if jump.name in _FALSE and after is not None and after.name in JUMPS_BACK and \
            after.target < before and jump.target == j + 2:            # 3.12-3.13
        return at, test, j + 1, after.target, jump.target
    return None


_FALSE = ("POP_JUMP_IF_FALSE", "POP_JUMP_FORWARD_IF_FALSE")


def stored_in(insts, lo: int, hi: int) -> set[str]:
    """The locals (and cells) the instructions ``lo:hi`` store or delete."""
    out: set[str] = set()
    for inst in insts[lo:hi]:
        if inst.name in _STORES:
            names = _names(inst.arg)
            # (STORE_FAST_LOAD_FAST stores its first name and loads its second)
            out.update(names[:1] if inst.name == "STORE_FAST_LOAD_FAST" else names)
    return out


def needs_tail(scope, dead: frozenset) -> bool:
    """Whether ``B`` (the code after the test, traced first in the body;
    ``scope.at_item`` is what the trace saw when it got to the next item) must run
    again where the range runs out: it made graph ops, or stored a local that is read
    after the loop. A ``B`` that changes Python state is no node."""
    item = scope.at_item
    if item.effects:
        raise NotALoopNode("the code after the loop's exit test changes Python state")
    live = stored_in(scope.tx.info.insts, scope.start, scope.back) - dead
    return bool(item.calls or live)


class AtItem:
    """The trace when it got to the next item (``B`` done): how many ops the body
    graph had (``calls``, ``size``: its nodes), Python state changes (``effects``),
    and each local's and stack entry's value, an array's node as it was then."""

    def __init__(self, body: Graph, log: list, frame_locals: dict, stack: list):
        self.calls, self.size, self.effects = calls_in(body), len(body.nodes), len(log)
        # (dict's own methods: a ``WatchedLocals`` would note reads)
        self.locals = dict(zip(dict.keys(frame_locals), dict.values(frame_locals)))
        self.stack = list(stack)
        self.nodes = {id(v): v.node for v in (*self.locals.values(), *self.stack)
                      if isinstance(v, ArrayVariable)}


def tail_outputs(scope, holders: dict, dead: frozenset) -> list:
    """Per carried slot, what ``B`` leaves in it: ("same",), ("written", node) for an
    in-place write into it, ("new", node) for a new array of its shape and dtype,
    ("shift", j) for slot ``j``'s array where every name that holds slot ``j`` is
    dead after the loop (``x = x_new``: after ``B`` both names hold one array, which
    nothing can tell from two). Anything else (a swap, a view of a carried array, a
    changed type) is no node."""
    item, out = scope.at_item, []
    index = {id(v): j for j, v in enumerate(scope.slots)}
    placeholders = set(scope.placeholders.values()) | set(scope.free.values())
    for k, places in holders.items():
        ends = {id(v): v for v in (item.locals.get(key) if kind == "local"
                                   else item.stack[key] for kind, key in places)}
        if len(ends) != 1:
            raise NotALoopNode("one array held under two names is split by the code "
                               "after the loop's exit test")
        end, slot = next(iter(ends.values())), scope.slots[k]
        if not isinstance(end, ArrayVariable) or end.meta != slot.meta:
            raise NotALoopNode("the code after the loop's exit test changes a carried "
                               "array's type, shape or dtype")
        node = item.nodes[id(end)]
        if end is slot:
            out.append(("same",) if node is scope.placeholders[id(slot)]
                       else ("written", node))
        elif id(end) in index and node is scope.placeholders[id(end)] and all(
                kind == "local" and key in dead for kind, key in holders[index[id(end)]]):
            out.append(("shift", index[id(end)]))
        elif node.graph is scope.body and memory_base(node) not in placeholders and \
                memory_base(node).op != PLACEHOLDER:
            out.append(("new", node))
        else:
            raise NotALoopNode("the code after the loop's exit test rebinds a carried "
                               "array to another one, or to a view")
    return out


def tail_graph(scope, outputs: list, test) -> Graph:
    """``B`` alone: the body graph's nodes up to the next item (``scope.at_item``),
    over the same placeholders (the carried arrays, the carried test, the free
    inputs), returning the carried values ``B`` leaves and, as its next test, the
    carried test (the node runs it once: ``trips`` 1)."""
    body, tail, env = scope.body, Graph(), {}
    for p in body.placeholders:
        env[p] = tail.placeholder(p.name, meta=dict(p.meta))
    for node in body.nodes[:scope.at_item.size]:
        if node.op == PLACEHOLDER:
            continue
        env[node] = tail.create_node(node.op, node.target, map_nodes(node.args, env.get),
                                     map_nodes(node.kwargs, env.get), name=node.name,
                                     meta=dict(node.meta))
    values = [scope.placeholders[id(v)] if o[0] == "same" else
              scope.placeholders[id(scope.slots[o[1]])] if o[0] == "shift" else o[1]
              for v, o in zip(scope.slots, outputs)]
    tail.output(tuple(env[n] for n in values) + (env[test], env[test]))
    return tail


def calls_in(graph) -> int:
    return sum(n.op == CALL for n in graph.nodes)


_RETURNS = ("RETURN_VALUE", "RETURN_CONST")
_LOADS = {"LOAD_FAST": 1, "LOAD_FAST_CHECK": 1, "LOAD_FAST_BORROW": 1,
          "LOAD_FAST_LOAD_FAST": 2, "LOAD_FAST_BORROW_LOAD_FAST_BORROW": 2}


def code_tail(insts, start: int) -> list | None:
    """The instructions from ``start`` up to a ``return``, no jump among them, with the
    reads of locals spelled alike (the copy after a ``break`` reads ``x, i`` with one
    ``LOAD_FAST_LOAD_FAST``; the code after the loop's end with ``LOAD_FAST_CHECK i``,
    as ``i`` is unbound where the loop ran no trip: not so after a ``break``)."""
    out = []
    for inst in insts[start:]:
        if inst.target is not None:
            return None
        if inst.name in _LOADS:
            out += [("LOAD_FAST", name) for name in names(inst.arg)]
        else:
            out.append((inst.name, inst.arg))
        if inst.name in _RETURNS:
            return out
    return None


def exit_code_span(insts, start: int) -> frozenset:
    """The indices of the code a ``break``'s branch runs once, from ``start`` up to and
    including its first jump, ``return`` or ``raise`` (``E`` of ``if c: E; break`` or
    ``if c: return E``, ``loop_returns``; 3.12+'s copy of the code after the loop at a
    plain ``break``). It runs after the loop's node, so a read of a counter there
    (``return r, iterations``) reads the counter after the loop, not in a trip
    (``WhileScope._tests``).

    >>> # 3.13's copy of ``return r, iterations`` after ``if ...: r = r_new; break``:
    >>> # 82 LOAD_FAST r_new; STORE_FAST r; POP_TOP; LOAD_FAST_LOAD_FAST; ...; 87 RETURN
    >>> exit_code_span(insts, 82) -> frozenset(range(82, 88))
    """
    for inst in insts[start:]:
        if inst.target is not None or inst.name.startswith(("RETURN", "RAISE", "RERAISE")):
            return frozenset(range(start, inst.index + 1))
    return frozenset()


def names(arg) -> tuple:
    """The locals an instruction's argument names: one, or two for a superinstruction
    (``LOAD_FAST_LOAD_FAST``'s ``("x", "i")``)."""
    return arg if isinstance(arg, tuple) else (arg,)
