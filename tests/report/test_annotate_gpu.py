"""The report of a graph compiled by the ``cupy`` backend (needs CuPy and a GPU).

Skipped on machines without a GPU: no GPU was available when the annotate tool was
written, so this test has never run on a device yet.
"""

from __future__ import annotations

import annotate_programs as P
import numpy as np
import pytest
from annotate_programs import X

from dynamo import annotate


@pytest.mark.gpu
def test_cupy_backend_kernels_and_timing(tmp_path):
    cupy = pytest.importorskip("cupy")
    x = cupy.asarray(X.astype(np.float32))
    ann = annotate(P.no_break, output=tmp_path / "r.html", backend="cupy", measure=10)
    out = ann(x)
    cupy.testing.assert_allclose(out, P.no_break(x), rtol=1e-6)
    r = ann.report
    assert r.calls[0].args == ["cupy:float32[3, 4]"]
    g = r.graphs[0]
    assert g.fused and "kernel" in {k.kind for k in g.groups}
    assert sum(len(k.nodes) for k in g.groups) >= g.op_count - 1
    assert any(title == "CUDA kernels" for title, _ in g.backend_code)
    assert r.timing is not None and r.timing.compiled > 0
    assert "CUDA kernels" in (tmp_path / "r.html").read_text()
