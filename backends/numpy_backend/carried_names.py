"""Values of a loop body that are a carried value itself, printed under its name.

A trip of a loop node's body runs as Python once per element (docs/loops.md), so
every statement the code adds to the program's own costs every trip: at 10^3-10^4
trips a name copied, deleted and bound again is 5-10 % of a small body (a reflecting
boundary ran 0.90x the plain loop, a running min 0.83x, issue #15). Two kinds of
value are the very object a carried name already holds:

- **a write in place** (``written_in_place``): ``setitem(x, i, v)`` returns its
  array, so each result of a chain of writes rooted at the carried ``x`` *is* ``x``.
  The code wrote each under a name of its own and handed the last one over::

      setitem = x                                   if scalar_greater:
      if scalar_greater:                                x[(trip)] = ...
          x[(trip)] = ...                  ->       else:
      else:                                             ...
          ...                                               x[(trip)] = ...
              setitem[(trip)] = ...
      setitem_1 = setitem
      del x, setitem
      x = setitem_1

- **a choice written into its slot** (``carried_choices.kept_carries``): after
  ``if x[i] < m: m = x[i]`` the name ``m`` holds the choice, so a statement after
  the ``if`` that reads the choice (``out[i] = m``) reads ``m``, not a name of its own
  (``branch_select = x[i] ... else: branch_select = m ... m = branch_select``).

Exact because a carried name is bound to one object for the whole trip: it is
rebound only by the next trip's assignments at the trip's end (``loop_code.next_trip``),
and deleted before that only where the trip replaces it (``loop_code.rebound``),
which a slot handed over as itself is not. The statements' reads of such a value count
as reads of the carried value (``statements.emit_with_dels``), so its name lives as
long as any of them. ``Module.named_as`` holds the map; ``module.plain_name`` prints
through it.
"""

from __future__ import annotations

from dynamo.graph import CALL, Graph, Node


def written_in_place(graph: Graph, keep_names=frozenset()) -> dict[Node, Node]:
    """``setitem`` result -> the carried placeholder whose array it is (module
    docstring): each write of a chain ``setitem(setitem(x, i, a), j, b)`` rooted at a
    carried ``x``, where no result of the chain is handed over to another slot than
    ``x``'s (``A, B = B, A`` keeps its names: the swap reads both). ``keep_names``:
    nodes whose own name the code needs (a buffer lent by name: ``reuse.donors``)."""
    slots = [p for p in graph.placeholders if p.meta.get("carried")]
    slot_of = {p: k for k, p in enumerate(slots)}
    outputs = list(graph.outputs)
    root: dict[Node, Node] = {}
    for node in graph.nodes:
        if node.op == CALL and node.target == "setitem" and len(node.args) == 3 and \
                not node.kwargs and isinstance(node.args[0], Node):
            array = node.args[0]
            if array in slot_of:
                root[node] = array
            elif array in root:
                root[node] = root[array]
    chains: dict[Node, list[Node]] = {}
    for node, p in root.items():
        chains.setdefault(p, []).append(node)
    found: dict[Node, Node] = {}
    for p, links in chains.items():
        handed = {k for k, v in enumerate(outputs) for s in links if v is s}
        if handed - {slot_of[p]} or any(s in keep_names for s in links):
            continue
        found.update((s, p) for s in links)
    return found
