"""A loop body's choices on a carried value, written the way the program wrote them.

``select_code`` writes a ``branch_select`` of a loop body as an ``if``; where the
choice is the carried value's next trip and one way keeps it (``if r[i] > t: count
+= 1``), that still cost every trip a second assignment, and each choice on one flag
tested it again (a running argmin: two ``if scalar_less:``, issue #19)::

    if ((r[(trip)]) > 0.5):                         if ((r[(trip)]) > 0.5):
        branch_select = (count + 1)         ->          count = (count + 1)
    else:
        branch_select = count
    count = branch_select

    if scalar_less:                                 if scalar_less:
        branch_select = d[(trip)]                       best = d[(trip)]
    else:                                   ->          arg = (trip)
        branch_select = best
    if scalar_less:
        branch_select_1 = (trip)
    else:
        branch_select_1 = arg
    best = branch_select
    arg = branch_select_1

Exact, where (``kept_carries``) the choice ``v`` is the next trip's value of the slot
``p`` and nothing else's (statements after the ``if`` that read ``v`` read ``p``'s
name, which holds it then: ``carried_names``), one of its operands is
``p`` itself (that way binds nothing), no hand-over reads ``p`` (``A, B = B, A``), and
every other reader of ``p`` runs before the ``if`` (a statement earlier in program
order, not moved into any branch) or inside the branch that rebinds it, before the
rebinding (a value moved into that branch: ``count + 1``). So every read of ``p``
sees the trip's old value, as the graph's do, and after the trip ``p`` holds ``v``.

``merge_selects`` joins consecutive ``if`` statements of choices on one flag, tested
by name, into one: each way runs its statements in the order they had, and no
statement runs between them; the flag is not rebound in the first.
"""

from __future__ import annotations

from dynamo.graph import OUTPUT, Graph, Node


def kept_carries(graph: Graph, choices: dict, sunk: dict) -> dict[Node, Node]:
    """Choice node -> the carried slot it is written into (module docstring)."""
    slots = [p for p in graph.placeholders if p.meta.get("carried")]
    outputs = list(graph.outputs)
    position = {n: i for i, n in enumerate(graph.nodes)}
    kept: dict[Node, Node] = {}
    for p, v in zip(slots, outputs):
        c = choices.get(v) if isinstance(v, Node) else None
        # (a statement after the ``if`` that reads ``v`` reads ``p``'s name, which
        # then holds it: carried_names, ``out[i] = m`` after ``if x[i] < m: m = x[i]``)
        if c is None or c.store or outputs.count(v) != 1 or \
                sum(x is p for x in c.values) != 1:
            continue
        rebinds = c.values[1] is p   # (the truth of the way that rebinds ``p``)
        if any(w == (v, not rebinds) for w in sunk.values()):
            continue   # (nothing moves into the way that keeps ``p``)
        if all(u is v or u.op != OUTPUT and
               (sunk.get(u) == (v, rebinds) or u not in sunk and position[u] < position[v])
               for u in p.users):
            kept[v] = p
    return kept


def merge_selects(statements: list, group_of: list, choices: dict, position) -> None:
    """Consecutive ``if`` statements of choices on one flag as one (module docstring)."""
    i = 0
    while i + 1 < len(statements):
        a, b = (_select_parts(st, choices) for st in statements[i:i + 2])
        if a is None or b is None or a[1] != b[1] or \
                any(line.lstrip().startswith(a[1] + " = ") for line in a[2] + a[3]):
            i += 1
            continue
        head, cond = a[0] + [ln for ln in b[0] if ln not in a[0][-1:]], a[1]
        yes, no = a[2] + b[2], a[3] + b[3]
        lines = head + ([f"if {cond}:"] + yes + (["else:"] + no if no else [])
                        if yes else [f"if not {cond}:"] + no)
        first, second = statements[i], statements[i + 1]
        statements[i] = ("\n".join(lines), list(dict.fromkeys([*first[1], *second[1]])),
                         tuple(sorted((*first[2], *second[2]), key=position)), ())
        del statements[i + 1], group_of[i + 1]
        if i and flag_into_if(statements, i, choices, position):
            del group_of[i]
            i -= 1


def flag_into_if(statements: list, i: int, choices: dict, position) -> bool:
    """The flag's own statement, right before the merged ``if`` at ``i`` and read by
    nothing else (``scalar_less = ((d[(trip)]) < best)``: two choices read it, so it
    has a name), written into the ``if``: ``if ((d[(trip)]) < best):``. It runs where
    it ran, and nothing reads its name."""
    text, reads, made, handed = statements[i - 1]
    # (the ``where`` of a gated store has no statement: the ``if`` stands for it)
    skipped = {k for n in statements[i][2] if (c := choices.get(n)) for k in c.skip}
    if handed or len(made) != 1 or made[0].users.keys() - set(statements[i][2]) - skipped:
        return False
    flag = made[0]
    lines = text.split("\n")
    k = len(lines) - 1
    if any(not ln.startswith("#") for ln in lines[:k]) or \
            not lines[k].startswith(flag.name + " = ") or \
            any(c.flag is not flag or flag in c.values
                for n in statements[i][2] if (c := choices.get(n))):
        return False   # (another flag; or the flag is a chosen value: it keeps its name)
    expr = lines[k].partition(" = ")[2]
    expr = expr if expr.startswith("(") else f"({expr})"
    body = statements[i][0].split("\n")
    at = next(j for j, ln in enumerate(body) if not ln.startswith("#"))
    if not (body[at].startswith("if ") and body[at].endswith(f" {flag.name}:")):
        return False   # (the ``if`` is not the statement's first line)
    body[at] = body[at].replace(f" {flag.name}:", f" {expr}:", 1)
    head = lines[:k] + [ln for ln in body[:at] if ln not in lines[k - 1:k]]
    statements[i - 1] = ("\n".join(head + body[at:]),
                         list(dict.fromkeys([*reads, *(r for r in statements[i][1]
                                                        if r is not flag)])),
                         tuple(sorted((flag, *statements[i][2]), key=position)), ())
    del statements[i]
    return True


def _select_parts(statement, choices: dict):
    """``(head, flag, lines if true, lines if false)`` of a choice's ``if`` statement on
    a flag tested by name (``conditional``): its comments before the ``if``, the
    branches' lines as they are; None for any other statement."""
    text, _, made, handed = statement
    if handed or not made or made[-1] not in choices or choices[made[-1]].store:
        return None
    lines = text.split("\n")
    k = next((j for j, ln in enumerate(lines) if not ln.startswith("#")), len(lines))
    if k == len(lines) or not lines[k].startswith("if ") or not lines[k].endswith(":"):
        return None
    cond = lines[k][3:-1]
    negated = cond.startswith("not ")
    cond = cond[4:] if negated else cond
    if not cond.isidentifier():
        return None
    ways, at = [[], []], k + 1
    for way in (0, 1):
        while at < len(lines) and lines[at].startswith("    "):
            ways[way].append(lines[at])
            at += 1
        if way == 0 and at < len(lines) and lines[at] == "else:":
            at += 1
        else:
            break
    if at != len(lines):
        return None
    yes, no = ways if not negated else ways[::-1]
    return lines[:k], cond, yes, no
