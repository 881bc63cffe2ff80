"""What every partition of ``backends.fusion`` guarantees, whatever the graph: shared by
the fusion tests and the numpy backend's random programs."""

import numpy as np
from dynamo.backends.fusion import REDUCTION_GROUP, SINGLE, has_effect, reduction_info
from dynamo.backends.fusion.partition import _describe

from dynamo.graph import CALL


def check_invariants(graph, groups, whole_rows):
    """What every partition guarantees, whatever the graph."""
    calls = graph.call_nodes()
    pos = {n: i for i, n in enumerate(calls)}
    seen = [n for g in groups for n in g.nodes]
    assert sorted(seen, key=pos.get) == calls, "each call node in exactly one group"
    done = set()
    last_segment = -1
    for g in groups:
        assert g.segment >= last_segment, "segments run in order"
        last_segment = g.segment
        assert [n for n in g.nodes] == sorted(g.nodes, key=pos.get), "members in program order"
        members = set(g.nodes)
        for n in g.nodes:
            for i in n.inputs():
                if i.op == CALL and i not in members:
                    assert i in done, f"{n} reads {i} before its group ran"
        done |= members
        if any(has_effect(n) for n in g.nodes):
            assert g.kind == SINGLE and len(g.nodes) == 1, "effects are never fused"
        assert g.outputs == [n for n in g.nodes if g.kind == SINGLE or n in graph.outputs
                             or any(u not in members for u in n.users)]
        assert g.inputs == list(dict.fromkeys(i for n in g.nodes for i in n.inputs()
                                              if i not in members))
        if g.kind == SINGLE:
            assert g.domain is None and not g.reductions
            continue
        for n in g.nodes:
            if n not in g.reductions and n not in g.epilogue:
                shape = n.meta["array"].shape
                assert np.broadcast_shapes(shape, g.domain) == g.domain
        for r in g.reductions:
            assert r.args[0].meta["array"].shape == g.domain
            assert reduction_info(r).axes == g.axes
        assert (g.kind == REDUCTION_GROUP) == bool(g.reductions)
        if not whole_rows:
            assert len(g.reductions) <= 1
        else:
            assert not g.epilogue
        if len(g.nodes) > 1:   # the partitioner's summary agrees with a fresh look
            fresh = _describe(g.nodes, whole_rows, {n: reduction_info(n) for n in g.nodes},
                              {n: n.inputs() for n in g.nodes})
            assert fresh is not None, f"{g} is no valid group"
            assert (fresh.domain, fresh.reductions, fresh.axes, fresh.epilogue) == \
                (g.domain, g.reductions, g.axes, g.epilogue)
    effects = [n for n in calls if has_effect(n)]
    order = [n for g in groups for n in g.nodes if has_effect(n)]
    assert order == effects, "effects keep program order"
