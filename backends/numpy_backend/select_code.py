"""A choice an ``if`` on the data made, as a Python ``if`` in a loop body's code.

The translator keeps an ``if`` on array data in the graph by computing both ways and
choosing (issue #19): a write one way holds back becomes ``x[i] = where(flag, v,
x[i])`` (``translator/select_writes.py``), a NumPy scalar the ways rebind becomes
``branch_select(flag, a, b)`` (``translator/branch_selects.py``). In a loop node's
body, run once per trip as Python, that costs every trip both ways' values, a read of
the element being overwritten, a call and a write, where the program computed and
wrote only the taken way's (a clamp ran 0.5x the plain loop, issue #15). So the
numpy backend writes the choice back as the ``if`` it was::

    scalar_greater = ((x[trip]) > 0.4)              if ((x[trip]) > 0.4):
    getitem = x[trip]                           ->      x[trip] = _float64_0_4
    x[trip] = _pick(scalar_greater, _float64_0_4, getitem)

    scalar_add = (s + (x[trip]))                    if ((x[trip]) > 0.2):
    s_1 = _branch_select(scalar_greater,        ->      s_1 = (s + (x[trip]))
                         scalar_add, s)             else:
                                                        s_1 = s

Exact, where:

- **a store** (``store_gates``): the ``where`` is ``select_writes``' own (its node is
  marked ``store_select``), read by nothing but the ``setitem``; one operand is a
  read of the very element written (the same array node, the same index) with no
  effect between that read and the write, so storing it stores the element's own
  value again, bits and all: the write is skipped instead, and the read with it. The
  other operand already has the ``where``'s dtype (a graph value of shape ``()``, or
  a Python number that dtype holds exactly, as ``scalar_select`` requires), so it
  stores what the ``where`` would have. The flag is a boolean of shape ``()``: its
  truth is what ``where`` reads.
- **a rebinding** (``branch_select``): ``if flag: r = a else: r = b`` is what
  ``branch_select`` itself runs (the object itself, no cast).
- **a value computed inside a way** (``sunk``): the operand is the last value computed
  before the choice (pending in ``inline.Inliner``: read once, no effect, not kept),
  a NumPy scalar or array (``h = h + np.outer(s, s) / sy`` of a quasi-Newton step),
  computed by a way of the choice's own ``if`` (``SELECT_WAYS``, the mark
  ``translator/select_writes.py mark_ways`` leaves: after the flag is not enough, a
  value between the flag and the ``if`` runs on every trip), and its statement moves
  into the branch that reads it; the arrays only the way read are deleted at the branch's end. The
  program computed it only on that way: an untaken way's ``np.log`` of a negative
  (which made the graph rerun as eager, ``raising.raising_nodes``) is now not
  computed at all, as in the program.

An inner ``elif`` that writes (``x[i] = where(f2, v2, x[i])``, the outer choice's
value) becomes an inner ``if`` inside the outer one's branch (``_nested_store``).

The flag is written into the ``if`` where it is the value computed just before (and
comes from the same line of the program, for warnings). Only in a loop node's body
(its stretches are guarded one by one), and not in a stretch under the floating-point
guard (its fallback reruns the stretch's ops by name): where the values moved into a
branch would put ops that may signal out of program order (the stretch would then
need the guard), the body is generated without choices (``codegen._choice_guarded``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dynamo import ops
from dynamo.graph import CALL, Graph, Node, location_comment
from dynamo.ops.indexing import getitem
from dynamo.ops.node_facts import array_meta, has_effect

from .carried_choices import flag_into_if
from .scalar_select import boolean_flag, operand_of

# the mark ``translator/select_writes.py`` leaves on the ``where`` of a held-back write
STORE_SELECT = "store_select"
# the numbers of the ``if`` statements whose ways (or join) made a node, innermost
# first (``translator/branch_selects.py``, ``mark_ways``)
SELECT_WAYS = "select_ways"


@dataclass
class Choice:
    """A node written as an ``if``: a gated store (``store`` True: ``if flag:
    x[i] = value``, ``when`` the flag's truth for which it stores) or a
    ``branch_select`` (``values``: the operands for a true and a false flag)."""

    flag: Node
    values: tuple
    when: bool = True
    store: bool = False
    skip: tuple = ()      # nodes that get no statement (the where, the element's read)


def choices(m, graph: Graph, steps: list) -> dict[Node, Choice]:
    """The nodes of ``graph``'s plain-path ``steps`` written as an ``if`` (module
    docstring): ``setitem`` nodes of a held-back write, ``branch_select`` nodes."""
    position = {n: i for i, n in enumerate(graph.nodes)}
    alone = {node for _, node in steps if node is not None}
    found: dict[Node, Choice] = {}
    for node in alone:
        if node.target == "branch_select" and len(node.args) == 3 and not node.kwargs \
                and isinstance(node.args[0], Node):
            found[node] = Choice(node.args[0], tuple(node.args[1:]))
            continue
        gate = _store_gate(m, node, alone, graph, position)
        if gate is not None:
            found[node] = gate
    return found


def _store_gate(m, node: Node, alone: set, graph: Graph, position: dict) -> Choice | None:
    """``x[i] = where(flag, v, x[i])`` as ``if flag: x[i] = v`` (module docstring)."""
    if node.target != "setitem" or len(node.args) != 3 or node.kwargs:
        return None
    array, index, chosen = node.args
    if not isinstance(chosen, Node) or chosen not in alone or \
            not chosen.meta.get(STORE_SELECT) or chosen.target != "where" or \
            len(chosen.args) != 3 or chosen.kwargs or list(chosen.users) != [node] or \
            ops.get("where").impl is not np.where:
        return None
    meta, target = array_meta(chosen), array_meta(array)
    if meta is None or meta.shape != () or meta.kind != "numpy" or target is None or \
            target.dtype != meta.dtype or not boolean_flag(chosen.args[0]):
        return None
    flag, a, b = chosen.args
    plain = (lambda n: n.name)
    for when, old, value in ((True, b, a), (False, a, b)):
        if _reads_element(m, old, array, index, plain) and \
                not _reads_element(m, value, array, index, plain) and \
                not any(has_effect(n) for n in
                        graph.nodes[position[old] + 1:position[node]]) and \
                stored_operand(m, value, meta.dtype, plain) is not None:
            skip = (chosen,) + ((old,) if list(old.users) == [chosen] and old in alone
                                else ())
            return Choice(flag, (value,), when, store=True, skip=skip)
    return None


def _reads_element(m, value, array: Node, index, plain) -> bool:
    """``value`` is ``array[index]``, read by a node of its own."""
    return isinstance(value, Node) and value.op == CALL and \
        ops.get(value.target).impl is getitem and len(value.args) == 2 and \
        not value.kwargs and value.args[0] is array and \
        m.subscript(value.args[1], plain) == m.subscript(index, plain)


def sunk_values(graph: Graph, found: dict, steps: list, busy: set) -> dict:
    """The values computed inside a way that move into the branch of the choice that
    reads them: node -> ``(choice node, truth of the flag on that branch)``.

    A value moves with everything only it needs (``D``, the nodes whose readers are all
    in ``D`` or the choice): each a NumPy value (scalar or array), with no effect,
    after the flag in program order (so computed by the way, not before the ``if``),
    a plain-path step of its own, not ``busy`` (the caller's: a buffer lent or
    borrowed across the move, ``codegen._sunk_with_buffers``). Between
    the first of them and the choice every other node has no effect, or is a store
    of another choice on the same flag that runs only where this branch does not
    (``if flag: x[i] = a`` then ``if not flag: x[i] = b``: the second way's values
    read what they read before the first store)."""
    position = {n: i for i, n in enumerate(graph.nodes)}
    alone = {node for _, node in steps if node is not None}
    skipped = {k for c in found.values() for k in c.skip}
    out: dict = {}
    for node, c in found.items():
        branches = [(c.values[0], c.when)] if c.store else \
            [(c.values[0], True), (c.values[1], False)]
        if not c.store and c.values[0] is c.values[1]:
            continue
        for value, truth in branches:
            moved = _closure(value, c, node, position, alone, busy | set(found) | skipped)
            if not moved:
                continue
            first = min(position[n] for n in moved)
            between = [n for n in graph.nodes[first + 1:position[node]]
                       if n not in moved and has_effect(n)]
            if all(n in found and found[n].store and found[n].flag is c.flag
                   and found[n].when != truth for n in between):
                out.update((n, (node, truth)) for n in moved)
    return out


def _closure(value, c: Choice, node: Node, position: dict, alone: set, busy: set) -> set:
    """``value`` and the nodes only it (through each other) reads, which may move:
    each made by a way of the choice's own ``if`` (``SELECT_WAYS``). After the flag
    is not enough: ``f = x[i] > 0; w = np.sqrt(x[i]); if f: y[i] = w`` computes ``w``
    on every trip, warning for each negative, whatever the flag."""
    readers = {node, *c.skip}
    start = position[c.flag] if c.flag in position else len(position)
    ways = (c.skip[0] if c.store and c.skip else node).meta.get(SELECT_WAYS)
    found, todo = set(), [value]
    while todo:
        n = todo.pop()
        meta = array_meta(n) if isinstance(n, Node) else None
        if n in found or meta is None or meta.kind != "numpy" or n.op != CALL or \
                n not in alone or n in busy or has_effect(n) or position[n] <= start or \
                not ways or ways[0] not in n.meta.get(SELECT_WAYS, ()):
            continue
        found.add(n)
        todo.extend(n.inputs())
    changed = True
    while changed:   # (a value some node outside reads stays: so do those it reads)
        changed = False
        for n in list(found):
            if any(u not in found and u not in readers for u in n.users):
                found.discard(n)
                changed = True
    return found if value in found else set()


def conditional(m, node: Node, choice: Choice, moved: dict, flag, name_of,
                written_back, slot: Node | None = None) -> tuple[str, list, tuple]:
    """The ``if`` statement for ``node``: ``(text, reads, made)``. ``moved``: per
    truth of the flag, the statements ``(text, reads, made)`` of the values that
    branch computes (``sunk_values``), in program order; ``flag``: the flag's pending
    value (``inline.Pending``) to write into the ``if`` (or None: by name). ``slot``:
    the carried value one way keeps, which the other way rebinds itself
    (``carried_choices.kept_carries``): ``if f: count = (count + 1)``."""
    inside = {n for stmts in moved.values() for _, _, made in stmts for n in made}
    operands = [v for v in choice.values if isinstance(v, Node)]
    reads = [r for r in (*node.inputs(), choice.flag, *operands)
             if r not in inside and r not in choice.skip]
    cond = name_of(choice.flag)
    if flag is not None:
        cond = flag.expr if flag.expr.startswith("(") else f"({flag.expr})"
        reads = [r for r in reads if r is not choice.flag] + list(flag.reads)
    for stmts in moved.values():
        reads += [r for _, rs, _ in stmts for r in rs if r not in inside]
    reads = list(dict.fromkeys(reads))

    def branch(value, truth: bool, assign: str) -> list[str]:
        stmts = list(moved.get(truth, ()))
        last = None
        if stmts and stmts[-1][2] == (value,):   # (assigned where it is computed)
            *text, last = stmts.pop()[0].split("\n")
            last = text + [assign + last.partition(" = ")[2]]
        lines = [line for text, _, _ in stmts for line in text.split("\n")]
        # (the way's arrays die with it: only the way read them)
        dead = [n for _, _, made in stmts for n in made if not array_meta(n).scalar]
        return lines + (last or [f"{assign}{_source(m, value, name_of, choice)}"]) + \
            ([f"del {', '.join(n.name for n in dead)}"] if dead else [])

    indent = "    "
    if choice.store:
        array, index, _ = node.args
        x = m.fmt(array, name_of)
        store = f"{x}[{m.subscript(index, name_of)}] = "
        lines = [f"if {cond if choice.when else 'not ' + cond}:"]
        # (a value computed in it: the store is at its line, the way's, as in eager)
        stmts = list(moved.get(choice.when, ()))
        nested = _nested_store(m, node, choice.values[0], stmts, name_of)
        lines += [indent + line for line in
                  (nested if nested is not None else
                   branch(choice.values[0], choice.when, store))]
        loc = location_comment(node)
        if node not in written_back:
            lines += ([loc] if loc is not None else []) + [f"{node.name} = {x}"]
    elif slot is not None:
        truth = choice.values[1] is slot
        lines = [f"if {cond if truth else 'not ' + cond}:"]
        lines += [indent + line for line in
                  branch(choice.values[0 if truth else 1], truth, f"{slot.name} = ")]
    elif not inside:
        a, b = (_source(m, v, name_of, choice) for v in choice.values)
        lines = [f"{node.name} = ({a} if {cond} else {b})"]
    else:
        lines = [f"if {cond}:"]
        lines += [indent + line for line in branch(choice.values[0], True, f"{node.name} = ")]
        lines += ["else:"]
        lines += [indent + line for line in branch(choice.values[1], False, f"{node.name} = ")]
    made = tuple(n for truth in (True, False) for _, _, ms in moved.get(truth, ())
                 for n in ms)
    return "\n".join(lines), reads, (*made, node)


def _nested_store(m, node: Node, value, stmts: list, name_of) -> list[str] | None:
    """The lines of a branch that stores ``value``, itself the choice of an inner
    held-back write (an ``elif`` that writes: ``x[i] = where(f2, v2, x[i])`` inside
    ``if not f1:``), as an inner ``if``: ``if f2: x[i] = v2``. Where the inner
    choice and its read of the element are statements moved into this branch
    (``stmts``, after the outer stores the branch skips), that read is of the same
    memory (the same array, through the ``setitem`` results that are that array)
    and index, with only the branch's own statements, which have no effect, after
    it: storing it stores the element's own value. The values only ``v2`` needs move
    into the inner ``if``. None where it is not such a choice."""
    array, index, _ = node.args
    if not stmts or stmts[-1][2] != (value,):
        return None
    plain = (lambda n: n.name)
    inner = _store_gate_parts(m, value, array, index, plain)
    if inner is None:
        return None
    flag, when, old, v = inner
    made = {n for _, _, ms in stmts[:-1] for n in ms}
    if old not in made or list(old.users) != [value]:
        return None
    rest = [st for st in stmts[:-1] if st[2] != (old,)]
    need = _closure(v, Choice(flag, (v,), skip=(value,)), value,
                    {n: i for i, n in enumerate(node.graph.nodes)},
                    {n for st in rest for n in st[2]}, set()) if isinstance(v, Node) else set()
    mine = [st for st in rest if set(st[2]) <= need]
    outside = [st for st in rest if not set(st[2]) <= need]
    x = m.fmt(array, name_of)
    store = f"{x}[{m.subscript(index, name_of)}] = "
    dtype = array_meta(value).dtype
    body = [line for text, _, _ in mine[:-1] for line in text.split("\n")]
    if mine and mine[-1][2] == (v,):
        *text, last = mine[-1][0].split("\n")
        body += text + [store + last.partition(" = ")[2]]
    else:
        body += [line for text, _, _ in mine for line in text.split("\n")]
        body.append(store + stored_operand(m, v, dtype, name_of))
    cond = name_of(flag)
    if outside and outside[-1][2] == (flag,) and set(flag.users) <= {value}:
        # (the flag's own statement right before, read by nothing else: written into
        # the ``if``, after its location comment: ``if ((x[(trip)]) < -1.0):``)
        *head, own = outside[-1][0].split("\n")
        if own.startswith(flag.name + " = ") and all(ln.startswith("#") for ln in head):
            expr = own.partition(" = ")[2]
            cond = expr if expr.startswith("(") else f"({expr})"
            outside = outside[:-1] + [("\n".join(head), (), ())] if head else outside[:-1]
    lines = [line for text, _, _ in outside for line in text.split("\n") if text]
    return lines + [f"if {cond if when else 'not ' + cond}:"] + ["    " + ln for ln in body]


def _store_gate_parts(m, chosen, array, index, plain):
    """``(flag, when, old, value)`` of a held-back write's ``where`` whose old operand
    reads ``array[index]`` (the same memory: ``setitem`` results are their array)."""
    meta, target = array_meta(chosen), array_meta(array)
    if not isinstance(chosen, Node) or not chosen.meta.get(STORE_SELECT) or \
            chosen.target != "where" or len(chosen.args) != 3 or chosen.kwargs or \
            meta is None or meta.shape != () or meta.kind != "numpy" or \
            target is None or target.dtype != meta.dtype or \
            not boolean_flag(chosen.args[0]):
        return None
    flag, a, b = chosen.args
    root = _root(array)
    for when, old, value in ((True, b, a), (False, a, b)):
        if isinstance(old, Node) and old.op == CALL and \
                ops.get(old.target).impl is getitem and len(old.args) == 2 and \
                not old.kwargs and _root(old.args[0]) is root and \
                m.subscript(old.args[1], plain) == m.subscript(index, plain) and \
                stored_operand(m, value, meta.dtype, plain) is not None:
            return flag, when, old, value
    return None


def _root(array):
    """The array a chain of ``setitem`` results is (each returns its first argument)."""
    while isinstance(array, Node) and array.op == CALL and array.target == "setitem":
        array = array.args[0]
    return array


def _source(m, value, name_of, choice: Choice) -> str:
    if choice.store:
        meta = array_meta(choice.skip[0])
        return stored_operand(m, value, meta.dtype, name_of)
    return m.fmt(value, name_of)


def stored_operand(m, value, dtype: np.dtype, name_of) -> str | None:
    """Source for the value a gated store writes into an array of ``dtype`` where the
    ``where`` would have written its result (of ``dtype``): ``scalar_select``'s
    operands, and a Python float into a float array, a Python int into an integer
    array, within range. The store converts it as ``where`` converts such a "weak"
    number (NEP 50: to ``dtype``, rounded to nearest), and as the program's own
    ``x[i] = 0.4`` does: ``0.4`` into a float32 array."""
    if type(value) is float and dtype.kind == "f" and \
            (not math.isfinite(value) or abs(value) <= float(np.finfo(dtype).max)):
        return m.fmt(value, name_of)
    if type(value) is int and dtype.kind in "iu" and \
            np.iinfo(dtype).min <= value <= np.iinfo(dtype).max:
        return m.fmt(value, name_of)
    return operand_of(m, value, dtype, name_of)


def merge_complements(statements: list, group_of: list, choices: dict, position) -> None:
    """Two stores of one flag's two ways in a row, ``if f: ...`` then ``if not f:
    ...`` (an ``if``/``else`` that writes on both ways, a ``elif``), as one ``if f:
    ... else: ...``: the flag (a name) is tested once. The first's ``G = x`` (its
    result is the array itself) goes before the ``if``, where the second's branch
    may read it. The nodes it makes are listed in program order (each way runs a part
    of that order, the guard's check sees no op out of it: ``statements.needs_guard``)."""
    i = 0
    while i + 1 < len(statements):
        first, second = statements[i], statements[i + 1]
        a, b = (_gate_parts(st, choices) for st in (first, second))
        if a is None or b is None or a[1] != b[1] or a[2] == b[2] or \
                not a[1].isidentifier():
            i += 1
            continue
        (head, cond, when, body, tail), (_, _, _, body2, tail2) = a, b
        lines = head + tail + [f"if {cond if when else 'not ' + cond}:"] + body + \
            ["else:"] + body2 + tail2
        statements[i] = ("\n".join(lines), list(dict.fromkeys([*first[1], *second[1]])),
                         tuple(sorted((*first[2], *second[2]), key=position)), ())
        del statements[i + 1], group_of[i + 1]
        if i and flag_into_if(statements, i, choices, position):   # (tested once: inline)
            del group_of[i]
            i -= 1


def _gate_parts(statement, choices: dict):
    """``(head, cond, when, body, tail)`` of a gated store's statement (``conditional``):
    the comments before its ``if``, the flag, its truth, the branch's lines, the
    lines after; None for any other statement."""
    text, _, made, handed = statement
    if handed or not made or made[-1] not in choices or not choices[made[-1]].store:
        return None
    lines = text.split("\n")
    k = next((j for j, ln in enumerate(lines) if ln.startswith("if ")), None)
    if k is None or any(not ln.startswith("#") for ln in lines[:k]):
        return None
    end = k + 1
    while end < len(lines) and lines[end].startswith("    "):
        end += 1
    cond = lines[k][3:-1]
    when = not cond.startswith("not ")
    return lines[:k], cond if when else cond[4:], when, lines[k + 1:end], lines[end:]
