"""Coverage: every function ``coverage.ISSUE_FUNCTIONS`` (and the real-world audit) lists is a registered op,
and every listed array, Generator and ufunc method; every op has a rule and a kind;
docs/ops.md is the table the registry generates."""

import os

import numpy as np

from dynamo import ops
from dynamo.ops import coverage

KINDS = {ops.ELEMENTWISE, ops.REDUCTION, ops.VIEW, ops.MATMUL, ops.CREATION, ops.MUTATION,
         ops.OPAQUE}
DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "ops.md")


def test_every_issue_function_is_registered():
    missing = []
    for names in coverage.ISSUE_FUNCTIONS.values():
        for name in names.split():
            fn = np
            for part in name.split("."):
                fn = getattr(fn, part)
            if ops.lookup_function(fn) is None:
                missing.append(name)
    assert not missing
    assert not [m for m in coverage.ISSUE_METHODS if ops.lookup_method(m) is None]
    assert all(ops.lookup_property(p) is not None for p in ("T", "real", "imag"))
    rng = np.random.default_rng(0)
    assert not [m for m in coverage.ISSUE_GENERATOR_METHODS
                if ops.lookup_random_method(rng, m) is None]
    assert not [m for m in coverage.ISSUE_UFUNC_METHODS
                if ops.lookup_ufunc_method(np.maximum, m) is None]


def test_every_op_is_well_formed():
    for name, op in ops.REGISTRY.items():
        assert op.name == name and name.isidentifier()
        assert op.kind in KINDS, name
        assert callable(op.impl) and callable(op.meta), name
        assert getattr(ops.impl_table(ops.NUMPY), name) is op.extras.get("numpy_call",
                                                                        op.impl)


def test_docs_table_is_current():
    with open(DOC) as f:
        text = f.read()
    assert text == coverage.HEADER + coverage.table(), \
        "docs/ops.md is stale: python -m dynamo.ops.coverage > docs/ops.md"
