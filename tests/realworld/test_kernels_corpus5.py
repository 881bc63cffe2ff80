"""The fifth corpus, scientific kernels (``kernels_corpus5.py``, issue #19): every
program gives eager's results on the eager and numpy backends (values, dtypes, printed
output, the arguments afterwards, warnings) and breaks exactly as often as recorded here
(docs/realworld.md, "A fifth corpus: scientific kernels").

The counts are what the corpus measures now: a change that adds a break fails here, and
one that removes a break must lower its count.
"""

from __future__ import annotations

import numpy as np
import pytest
from kernels_corpus5 import PROGRAMS
from rw_check import check_program

BACKENDS = ("eager", "numpy")

# Breaks that remain, each with its cause. (Measured before any fix: the first 67
# programs, written before any was run, 57 without a break and 15 breaks; the 14 after
# `pad_and_stencil_periodic`'s section header were added after that count, and had 6
# more breaks. Since then one graph each: jacobi_solve_checked's np.diagflat is an op
# (one break left); flags_contiguous_copy, x.flags of an input (layout_flags.py);
# dominant_frequency, report_stats, qr_least_squares and format_table_rows, f-strings,
# str.format, % and str.join of traced values made by the glue (formatted.py,
# formatted_calls.py); ndindex_neighbour_sum, np.ndindex of a static shape (ndindex.py);
# linspace_step_integral, np.linspace(retstep=True) of constant endpoints (linspace_step.py).
# See docs/realworld.md, "A fifth corpus: scientific kernels".)
EXPECTED_BREAKS: dict[str, int] = {
    # data-dependent control flow: a check that raises, or an `if` whose arms return
    # different things (`-np.inf` or an array scalar)
    # (dtype_dispatch_norm's `x / n if n > 0 else x` is one graph: both ways and a
    # branch_select, tests/breaks/test_branch_selects.py)
    # (`assert np.allclose(A, A.T)` in eigen_decompose_sym, jacobi_solve_checked's `if
    # np.any(d == 0): raise` after np.diagflat and histogram_density_check's `assert
    # np.isclose(...)` after np.histogram are data_check ops of the graph:
    # tests/breaks/test_data_checks.py, test_quiet_ops.py)
    # (determinant_sign_log's `if sign <= 0: return -np.inf` returns a choice the glue
    # makes: tests/breaks/test_branch_choice_values.py)
    # (safe_solve, np.linalg.solve inside try/except LinAlgError, is one graph: a
    # singular matrix reruns the frame eagerly, whose handler sees the error)
    # `if peaks.size == 0`: np.where's length (data-dependent) as a Python value
    "running_extrema_indices": 1,
    # the result's dtype depends on the data (real or complex eigenvalues and roots),
    # then an `if` on the stability test
    "eig_stability": 2,
    "polynomial_roots_real": 1,
}
if int(np.__version__.split(".")[0]) < 2:   # (ops/quiet_ops.py: QUIET_IN_NUMPY2)
    EXPECTED_BREAKS.update(jacobi_solve_checked=1, histogram_density_check=1)


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 50
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)
    assert set(EXPECTED_BREAKS) <= {name for name, _, _ in PROGRAMS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_kernel_program(name, fn, args, backend):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check_program(fn, [args], backends=(backend,), breaks=breaks,
                  **({"graphs": 1} if not breaks else {}))
