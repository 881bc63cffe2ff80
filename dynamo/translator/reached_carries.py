"""Arrays a loop body writes in place that the frame holds only inside its lists,
tuples, dicts and objects, carried by the loop node all the same (a mixin of
``LoopScope``, ``loops.py``).

A slot of a loop node is an array a local or the stack holds at the loop
(``LoopScope._enter``). A training loop holds its parameters one level down::

    model = MLP(20, 8)                 # model.params: a list of three arrays
    opt = SGD(model.params, 0.05)
    for _ in range(iters):
        ...
        opt.step([gW1, gb1, gW2])      # p -= lr * g for each p of opt.params

The body reads those arrays as free inputs, and writing one used to make the loop no
node ("the body writes an array it does not carry"): the loop then ran as Python, each
trip calling the compiled ``forward`` and ``step`` through the hook (0.88x plain
NumPy). The arrays the frame reaches through its containers at the loop
(``reach_arrays``) are known by their node; a free input of the body that the body
writes in place and that is one of them becomes a slot after the body's trace
(``carry_written``): its placeholder moves among the carried ones, and the array is its
own next value. Nothing else can have rebound it: a change to a list, a dict or an
object from before the loop is a change the body may not make (``_check_effects``).

Example::

    >>> scope.reached = reach_arrays(tx)    # at the loop: {node: ArrayVariable}
    >>> scope.carry_written()               # after the body: p0, p1, p2 carried
"""

from __future__ import annotations

from .. import ops
from ..graph import CALL
from ..variables import ArrayVariable, DictVariable, ObjectVariable, SequenceVariable
from .loop_facts import NotALoopNode, memory_base

# how many values the walk looks at, at most (a frame holding a long list of arrays
# keeps its loop as before, with the arrays free)
REACH_LIMIT = 512


def reach_arrays(tx) -> dict:
    """The arrays the frame ``tx`` (and the frames it was inlined from) holds inside
    lists, tuples, dicts and objects, by their node: ``{node: ArrayVariable}``."""
    found: dict = {}
    seen: set[int] = set()
    todo = []
    frame = tx
    while frame is not None:
        todo.extend(frame.locals.values())
        todo.extend(frame.stack)
        frame = frame.parent
    while todo and len(seen) < REACH_LIMIT:
        var = todo.pop()
        if id(var) in seen:
            continue
        seen.add(id(var))
        if isinstance(var, ArrayVariable):
            found.setdefault(var.node, var)
        elif isinstance(var, SequenceVariable):
            # (an unread list of numbers holds no array; reading it would guard each
            # item, and ``offs[m]`` in the body then pinned ``m``: ``builder._item_at``)
            if not (getattr(var, "numbers_only", False) and var.is_unread()):
                todo.extend(var.items)
        elif isinstance(var, DictVariable):
            todo.extend(var.items.values())
        elif isinstance(var, ObjectVariable):
            todo.extend(var.cache.values())
            todo.extend(var.pending.values())
    return found


class ReachedCarries:
    """``carry_written``: free inputs the body writes in place, made slots."""

    reached: dict = {}   # the outer node -> its ArrayVariable at the loop (``reach_arrays``)

    def carry_written(self) -> None:
        if self.parent is not None or not self.reached:   # (nested: as before)
            return
        free = {p: outer for outer, p in self.free.items()}
        written = []
        for node in self.body.nodes:
            if node.op == CALL and (node.meta.get("kind") == ops.MUTATION or
                                    "out" in node.kwargs):
                p = memory_base(node)
                if p in free and p not in written:
                    written.append(p)
        for p in written:
            var = self.reached.get(free[p])
            if var is None or var.may_be is not None or memory_base(var.node) is not p:
                continue   # (the write check says why it is no node)
            self._carry(var, free[p], p)

    def _carry(self, var: ArrayVariable, outer, p) -> None:
        """``var`` (its node before the loop ``outer``, its body placeholder ``p``) as the
        last slot: ``p`` moves after the carried placeholders, as the body's signature
        has them (``fori_loop_body(trips, *carried, *free)``)."""
        base = memory_base(outer)
        if any(memory_base(self.before[id(v)]) is base for v in self.slots):
            raise NotALoopNode("two carried arrays share memory")
        del self.free[outer]
        p.meta["carried"] = True
        nodes = self.body.nodes
        nodes.remove(p)
        carried = [i for i, n in enumerate(nodes) if n.op == "placeholder" and
                   n.meta.get("carried")]
        # (after the trip's placeholder where no other array is carried: the body's
        # first input is the trip, ``fori_loop_body(trips, trip, *carried, *free)``)
        nodes.insert(carried[-1] + 1 if carried else nodes.index(self.index) + 1, p)
        self.slots.append(var)
        self.placeholders[id(var)] = p
        self.before[id(var)] = outer
        self.reached_slots.add(len(self.slots) - 1)
