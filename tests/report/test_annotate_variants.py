"""A backend's size variants are not recompiles of the frame.

The numpy backend (and so the default, ``auto``) traces a function whose sizes change
once more with symbolic sizes, then compiles one static variant per new size and logs
each on the ``recompiles`` channel (``dynamo.logs.log_size_variant``). The report counts
the frame's own recompiles (the ones ``dynamo.explain`` counts) and lists the variants
apart, with their sizes and the graph they belong to.
"""

from __future__ import annotations

import annotate_programs as P
import numpy as np
import pytest
from annotate_programs import X
from test_annotate_page import Tags

import dynamo
from dynamo import annotate
from dynamo.logs import SizeVariant, log_size_variant

SIZES = (3, 4, 5)     # rows of x: a recompile at 4 (symbolic), variants for 4 and 5


@pytest.mark.parametrize("backend", ["numpy", None], ids=["numpy", "default"])
def test_size_variants_are_not_recompiles(tmp_path, backend):
    kw = {} if backend is None else {"backend": backend}
    ann = annotate(P.no_break, output=tmp_path / "r.html", calls=len(SIZES), **kw)
    xs = [np.ones((n, 4)) for n in SIZES]
    for x in xs:
        np.testing.assert_array_equal(ann(x), P.no_break(x))
    r = ann.report
    ex = dynamo.explain(P.no_break, **kw).calls([(x,) for x in xs])
    assert len(r.recompiles) == len(ex.recompiles) == 1           # the frame's own
    [rc] = r.recompiles
    assert (rc.call, rc.qualname) == (1, "no_break")
    assert rc.failures == ["x shape[0]: expected 3, got 4"]
    symbolic = [f.graph for f in r.frames if f.recompile == 0]
    assert len(symbolic) == 1
    variants = r.size_variants
    assert len(variants) == len(ex.size_variants) == 2
    assert [(v.call, v.graph, v.sizes, v.number, v.generic) for v in variants] == \
        [(1, symbolic[0], {"s0": 4}, 1, False), (2, symbolic[0], {"s0": 5}, 2, False)]
    assert [v.shapes for v in variants] == [["L['x']: (4, 4)"], ["L['x']: (5, 4)"]]
    page = (tmp_path / "r.html").read_text()
    assert "Recompiles (1)" in page and "Size variants (2)" in page
    assert '<div class="v">2</div><div class="k">size variants (backend)</div>' in page
    assert "<code>s0 = 5</code><br><code>L[&#x27;x&#x27;]: (5, 4)</code>" in page
    tags = Tags()
    tags.feed(page)
    assert not tags.errors and tags.stack == []


def test_any_backend_that_logs_a_size_variant(tmp_path):
    """Told apart by the record's ``SizeVariant``, not by the backend's words."""
    def per_rows(graph, example_inputs):
        from dynamo.backends.eager import eager
        fn = eager(graph, example_inputs)

        def run(*args):
            n = args[0].shape[0]
            log_size_variant(SizeVariant(id(graph), {"rows": n}, n),
                             "my backend: %d rows", n)
            return fn(*args)
        return run

    ann = annotate(P.no_break, output=tmp_path / "r.html", calls=2, backend=per_rows)
    ann(X)
    ann(X)
    r = ann.report
    assert r.recompiles == []
    assert [(v.call, v.graph, v.sizes, v.message) for v in r.size_variants] == \
        [(c, 0, {"rows": 3}, "my backend: 3 rows") for c in (0, 1)]
    page = (tmp_path / "r.html").read_text()
    assert "Recompiles (0)" in page and "No recompiles" in page
    assert "Size variants (2)" in page and "rows = 3" in page


def test_a_variant_of_a_graph_that_takes_no_symbol_input_names_its_sizes(tmp_path):
    """``x * 2.0 + x.sum()`` takes ``x`` of shape ``(s0,)`` and no symbol as an input:
    its variants' sizes are read off ``x`` (issue #17, round 40: they were ``{}``, and
    the report showed every variant at the trace's example size, ``SymInt(7, s0)``)."""
    def scaled(x):
        return x * 2.0 + x.sum()

    ann = annotate(scaled, output=tmp_path / "r.html", calls=7, backend="numpy")
    # (7 twice: sizes that recur, not a growing size, which goes size-generic after
    # two variants that ran once: sizes.UNREUSED_AFTER)
    for n in (5, 7, 7, 5, 9, 7, 5):
        x = np.arange(float(n))
        np.testing.assert_array_equal(ann(x), scaled(x))
    assert [(v.call, v.sizes, v.shapes) for v in ann.report.size_variants] == [
        (1, {"s0": 7}, ["L['x']: (7)"]), (3, {"s0": 5}, ["L['x']: (5)"]),
        (4, {"s0": 9}, ["L['x']: (9)"])]
    assert all(repr(v.sizes) in v.message for v in ann.report.size_variants)


def test_explain_counts_the_static_variants_the_page_counts(tmp_path):
    """Past ``GENERIC_AFTER`` static variants the numpy backend logs its switch to
    size-generic code: no variant, so neither the page nor ``explain`` counts it
    (round 40: explain said 5 variants where the page said 4)."""
    from dynamo.backends.numpy_backend.sizes import GENERIC_AFTER

    def scaled(x):
        return x * 2.0 + x.sum()

    # each size twice: recurring sizes (one call of each is a growing size, which goes
    # size-generic after sizes.UNREUSED_AFTER variants)
    calls = [(np.arange(float(n)),) for n in range(3, 5 + GENERIC_AFTER) for _ in "ab"]
    ann = annotate(scaled, output=tmp_path / "r.html", calls=len(calls), backend="numpy")
    for args in calls:
        ann(*args)
    ex = dynamo.explain(scaled, backend="numpy").calls(calls)
    static = [v for v in ann.report.size_variants if not v.generic]
    assert len(static) == GENERIC_AFTER and len(ann.report.size_variants) == GENERIC_AFTER + 1
    assert f"Size variants ({GENERIC_AFTER})" in (tmp_path / "r.html").read_text()
    assert len(ex.size_variants) == GENERIC_AFTER and len(ex.size_generic) == 1
    assert f"numpy size variants: {GENERIC_AFTER}\n" in str(ex)
    assert "Size-generic code: call" in str(ex)
