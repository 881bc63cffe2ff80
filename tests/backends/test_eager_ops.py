"""``ops`` of a NumPy graph's printout is ``backends/eager_ops.py``: a module holding the
implementation table's functions, read by CPython's specialized module attribute load."""

import dis

import numpy as np
from dynamo.backends import eager_ops

import dynamo
from dynamo.ops import NUMPY, REGISTRY, impl_table


def test_every_op_is_the_tables_own_function():
    table = impl_table(NUMPY)
    for name in REGISTRY:
        assert not name.startswith("_") and name not in ("ops_for", "provide"), name
        assert getattr(eager_ops, name) is getattr(table, name), name
    # what would keep CPython from specializing ``ops.<name>`` (PEP 562's hook)
    assert "__getattr__" not in vars(eager_ops)


def test_a_printout_calling_an_op_the_module_lacks_gets_the_table():
    assert eager_ops.ops_for("    y = ops.tanh(x)\n    z = ops.add(y, 1)\n") is eager_ops
    assert eager_ops.ops_for("    y = ops.no_such_op(x)\n") is impl_table(NUMPY)
    assert eager_ops.ops_for("    y = ops.provide(x)\n") is impl_table(NUMPY)
    assert not hasattr(eager_ops, "no_such_op")


def _graph_function(compiled):
    """The eager graph function a compiled call of one cache entry runs."""
    cache = compiled._ctx.cache_for(compiled._orig_fn.__code__)
    (entry,) = cache.entries
    return entry.run.__globals__["___graph"]


def test_compiled_graph_reads_ops_from_the_module_specialized():
    def f(x, y):
        return np.tanh(x) * y + 1.0

    compiled = dynamo.compile(f, backend="eager")
    x, y = np.linspace(-2, 2, 7), np.arange(7.0)
    for _ in range(20):
        out = compiled(x, y)
    np.testing.assert_array_equal(out, f(x, y))
    graph = _graph_function(compiled)
    assert graph.__globals__["ops"] is eager_ops
    # each ``ops.<name>`` read, specialized to a module read (3.11: LOAD_METHOD_MODULE
    # before a call; 3.12+: LOAD_ATTR_MODULE); on the table it stays LOAD_ATTR/METHOD
    loads = [i.opname for i in dis.get_instructions(graph, adaptive=True)
             if i.opname.startswith(("LOAD_ATTR", "LOAD_METHOD"))]
    assert len(loads) == 3 and all(op.endswith("_MODULE") for op in loads), loads
