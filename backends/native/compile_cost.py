"""Whether a kernel is too big to compile: Numba's compile of a long kernel takes tens of
seconds of CPU in the background thread, holding the GIL for most of it, and tier 1's
calls in the program's thread wait for it all that time (issues #15, #23).

Measured (2026-12-05, the shared 2-core container, load 3-11; CPU time of the compile,
Numba's import and setup included, the kernel's source lines and its NumPy calls in
object mode):

==================================  =====  ===========  ==================
graph                               lines  NumPy calls  compile, CPU
==================================  =====  ===========  ==================
conjugate residual                    234           10  2.5 s (12 s wall)
planar three-body RK4                 798            8  6.8 s (17 s wall)
PCG matrix-free Poisson 2-D          1225            0  32 s (75 s wall)
factorization machine                1881           30  42 s (82 s wall)
Nesterov on least squares            2682          110  88 s (186 s wall)
==================================  =====  ===========  ==================

Tier-1 calls of Nesterov ran 3-5 times slower while its compile ran (4.3 ms a call
alone, 20-70 ms a call beside it: ``scripts/bench_native_first_calls.py``), and the
compile was not done after 400 calls. Such a kernel stays in tier 1 unless the disk
cache already holds its machine code (a load costs milliseconds): the source lines are
the estimate (the compile time grows faster than the lines), ``max_kernel_lines`` the
limit (default 1500, ``dynamo.config.native_max_kernel_lines``; 0: none). A trade:
PCG's kernel (1225 lines, 32 s of CPU) won its race (auto 1.27x plain NumPy, the numpy
backend 1.11x), so the limit is above it; of the kernels over it whose outcome the
benchmark recorded (docs/benchmarks.md), none won: factorization machine and Nesterov
lost their races, CGNR, AdamW, weighted Jacobi, the arm's IK, the multigrid V-cycles
had not decided theirs after 180 s of calls.

Example::

    >>> too_big(module_source(kernel), 1500, cache_dir)   # Nesterov's, not in the cache
    "its kernel has 2682 lines, over max_kernel_lines=1500 (Numba's compile would ..."
    >>> too_big(module_source(kernel), 0, cache_dir) is None                 # no limit
    True
"""

from __future__ import annotations

from .kernel_files import has_machine_code


def kernel_lines(source: str) -> int:
    """The kernel module's lines that are not blank (its size, for the limit)."""
    return sum(1 for line in source.splitlines() if line.strip())


def too_big(source: str, max_lines: int, cache_dir: str | None) -> str | None:
    """Why the kernel of ``source`` is not compiled (None: it is): more than
    ``max_lines`` lines (0: no limit) and no machine code for it in ``cache_dir``."""
    if max_lines <= 0:
        return None
    lines = kernel_lines(source)
    if lines <= max_lines:
        return None
    if cache_dir is not None and has_machine_code(source, cache_dir):
        return None   # compiled before (a load costs milliseconds): no compile to wait for
    return (f"its kernel has {lines} lines, over max_kernel_lines={max_lines} (Numba's "
            f"compile would take tens of seconds of CPU and hold the GIL while tier 1 runs)")
