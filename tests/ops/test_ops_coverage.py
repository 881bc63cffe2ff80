"""Coverage: every function ``coverage.ISSUE_FUNCTIONS`` (and the real-world audit) lists is a registered op,
and every listed array, Generator and ufunc method; every op has a rule and a kind;
docs/ops.md is the table the registry generates."""

import os

import numpy as np
import pytest

import dynamo
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
    """The registry's table always; the NumPy section when the page was generated with
    the installed NumPy (other NumPy versions have other functions: the section names
    the version it lists)."""
    with open(DOC) as f:
        text = f.read()
    assert text.startswith(coverage.HEADER + coverage.table()), \
        "docs/ops.md is stale: python scripts/ops_coverage.py"
    section = text[text.index(coverage.COVERAGE_BEGIN):]
    if f"Generated with NumPy {np.__version__} " in section:
        assert text == coverage.page(), "docs/ops.md is stale: python scripts/ops_coverage.py"
    else:
        assert "Generated with NumPy 2." in section


def test_issue_19_functions_are_captured():
    for name in coverage.ISSUE_FUNCTIONS["missing_ops"].split():
        fn = np
        for part in name.split("."):
            fn = getattr(fn, part)
        assert coverage.classify(fn)[0] == coverage.CAPTURED, name
    assert ops.lookup_ufunc_method(np.add, "reduceat") is not None


@pytest.mark.parametrize("name", ["geomspace", "cumulative_sum", "unique", "bincount",
                                  "allclose", "fft.fft", "linalg.eig", "kron", "cov",
                                  "trapezoid", "shape", "result_type", "linalg.multi_dot"])
def test_classification_is_what_the_translator_does(name):
    """A call of the function on a traced array: no break when the page says captured or
    folded, one break when it says breaks."""
    fn = np
    for part in name.split("."):
        fn = getattr(fn, part)
    status, _ = coverage.classify(fn)
    x = np.linspace(1.0, 2.0, 9).reshape(3, 3)
    calls = {"geomspace": lambda x: np.geomspace(x, 2 * x, 3),
             "result_type": lambda x: np.result_type(x, 1.0),
             "linalg.multi_dot": lambda x: fn([x, x, x]), "kron": lambda x: np.kron(x, x),
             "bincount": lambda x: fn(x.ravel().astype(np.int64)),
             "allclose": lambda x: fn(x, x.T)}
    call = calls.get(name, lambda x: fn(x))
    report = dynamo.explain(call, backend="eager")(x)
    breaks = 1 if status == coverage.BREAKS else 0
    assert report.graph_break_count == breaks, (name, status, str(report))


def test_numpy_coverage_lists_every_public_function():
    cov = coverage.numpy_coverage()
    names = {name for name, _, _ in cov["np"]}
    assert {"cov", "kron", "unique", "save", "fft"} - {"fft"} <= names
    assert "ndarray" not in names and "float32" not in names    # classes are not listed
    statuses = {status for rows in cov.values() for _, status, _ in rows}
    assert statuses == {coverage.CAPTURED, coverage.FOLDED, coverage.BREAKS,
                        coverage.NOT_APPLICABLE}
    assert dict((n, s) for n, s, _ in cov["np"])["save"] == coverage.NOT_APPLICABLE
    assert all(why for rows in cov.values() for _, _, why in rows)
