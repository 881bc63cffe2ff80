"""Random loop programs in tier 2 (forced) against plain Python (issue #17).

The programs are ``scripts/random_loop_programs.py``'s (the grammar of
tests/translator/test_random_loop_programs.py, which runs them on the eager and numpy
backends); here the seeds whose graphs hold loop nodes that tier 2 lowers to ``for``
loops: a triangular ``range(i, n, 2)`` store over bools (seed 15), a backward
accumulation over ``range(n - 1, 0, -1)`` (seed 26). Each call runs twice (the second
in tier 2), values bit for bit, types, inputs after the call, warnings.
``scripts/loop_program_search.py --backends native --loop-nodes-only`` runs many.
Each kernel costs one Numba compile (about a second of CPU): the kernels go to one
disk cache for the module.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from script_modules import load_script  # noqa: E402

R = load_script("random_loop_programs")


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """One disk cache for the module's kernels."""
    return str(tmp_path_factory.mktemp("native-loop-kernels"))


@pytest.mark.parametrize("seed", [15, 26])
def test_random_loop_program_in_tier_two(seed, cache_dir):
    made: list = []
    src = R.program(seed)
    found = R.differences(src, R.inputs(seed), "native", cache_dir, made)
    assert not found, f"seed {seed}:\n{src}{found[:3]}"
    loops = [m for m in made if getattr(m, "native_calls", 0) and
             "for trip" in getattr(m, "__dynamo_native_source__", "")]
    assert loops, f"seed {seed}: no loop kernel ran in tier 2"
