"""``--split-runs`` (tests/split_runs.py, scripts/run.sh): the shares of a split are every
Python-independent test exactly once (a compiled backend's run of a real-world program
too), and every other test (a program's eager run too) is in each share."""

import json
import os
import subprocess
import sys

import pytest
import split_runs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# a split folder's file, a file of it kept on every Python, a frontend folder, a static
# check of the tree, and programs parametrized by backend
TARGETS = ["tests/ops/test_ops_registry.py", "tests/backends/passes",
           "tests/backends/numpy_backend/test_numpy_backend_program_hooks.py",
           "tests/guards", "tests/test_import_graph.py",
           "tests/realworld/test_stateful_corpus2.py", "tests/realworld/test_heldout_corpus13.py"]


# One child collects with each set of options in turn (pytest.main again in the same
# process: each call reads the options and runs tests/conftest.py's hook anew), not a
# child per set: most of a child's time is starting Python and importing dynamo.
_CHILD = """
import json, sys
import pytest
for options in json.loads(sys.argv[1]):
    print("=== collecting with", options, flush=True)
    code = pytest.main(["-o", "addopts=", "-p", "no:cacheprovider", "--collect-only",
                        "-q", *options, *json.loads(sys.argv[2])])
    print("=== exit code", int(code), flush=True)
"""


def _collected(*option_sets: list[str]) -> list[set[str]]:
    """The node ids collected from ``TARGETS`` with each list of options."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(option_sets), json.dumps(TARGETS)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    parts = out.stdout.split("=== collecting with ")[1:]
    assert len(parts) == len(option_sets), out.stdout[-3000:] + out.stderr[-3000:]
    for part in parts:
        assert part.rstrip().endswith("=== exit code 0"), part[-3000:] + out.stderr[-3000:]
    return [{line for line in part.splitlines() if "::" in line} for part in parts]


def _eager_twin(nodeid: str) -> str | None:
    """``...::test_p[numpy]`` -> ``...::test_p[eager]``: the same test on eager."""
    name, _, params = nodeid.partition("[")
    return f"{name}[{params.replace('numpy', 'eager')}" if "numpy" in params else None


def test_the_three_shares_are_the_whole_suite_once():
    everything, *shares = _collected([], *([f"--split-runs={k}/3"] for k in (1, 2, 3)))
    programs = {t for t in everything if t.startswith("tests/realworld/")}
    # (a numpy-only corpus, no eager item: its items stay; check_program shares the runs)
    numpy_only = {t for t in programs if "heldout_corpus13" in t}
    # a compiled backend's run with an eager twin, in a folder of whole programs or of
    # frontend tests (tests/guards here): in one share; the eager twin in every share
    shared = {t for t in everything - numpy_only
              if t.startswith(split_runs.BACKEND_RUN_FOLDERS) and _eager_twin(t) in everything}
    compiled = shared & programs
    assert shared - programs and all(t.endswith("-numpy]") for t in compiled)
    split = {t for t in everything if split_runs.is_split(t)} | shared
    others = everything - split
    # the example's targets hold both kinds, and the split ones fall in several shares
    assert others and len(split) > 10
    assert all(share >= others for share in shares)
    assert sorted(t for share in shares for t in share - others) == sorted(split)
    assert sum(bool(share & split) for share in shares) >= 2
    assert all(t in others for t in everything if "program_hooks" in t)
    # a program's eager run on every Python, its numpy run on one, spread over all three
    assert len(compiled) >= 30 and len(programs - compiled) > len(compiled)
    assert all(sum(t in share for share in shares) == 1 for t in compiled)
    assert all(share & compiled for share in shares)
    assert len(numpy_only) >= 60 and all(share >= numpy_only for share in shares)
    # a static check of the tree runs on one Python
    assert any(t.startswith("tests/test_import_graph.py") for t in split)


def test_a_program_s_compiled_runs_are_shared_and_its_eager_run_is_not():
    test = "tests/realworld/test_realworld_programs14.py::test_program_equals_eager[p]"
    frontend = "tests/dynamo/test_api.py::test_compile[numpy]"
    assert [split_runs.takes_backend_run((k, k, 3), frontend, "numpy")
            for k in (1, 2, 3)].count(True) == 1
    for backend in ("numpy", "auto"):
        assert [split_runs.takes_backend_run((k, k, 3), test, backend)
                for k in (1, 2, 3)].count(True) == 1
        assert split_runs.takes_backend_run((1, 3, 3), test, backend)
    for k in (1, 2, 3):
        assert split_runs.takes_backend_run((k, k, 3), test, "eager")
        # outside the shared folders, and the entry trial's numpy runs: every Python
        assert split_runs.takes_backend_run(
            (k, k, 3), "tests/report/test_api.py::test_compile[numpy]", "numpy")
        assert split_runs.takes_backend_run(
            (k, k, 3), "tests/realworld/test_entry_trial_corpora.py::test_x[p]", "numpy")


def test_a_range_is_the_union_of_its_shares():
    tests = [f"tests/backends/test_x.py::test_{i}[{p}]" for i in range(60) for p in "ab"]
    for test in tests:
        one = [k for k in (1, 2, 3) if split_runs.takes((k, k, 3), test)]
        assert len(one) == 1
        assert split_runs.takes((2, 3, 3), test) == (one[0] in (2, 3))
        # the parameters of one function share its share
        assert split_runs.share_of(test, 3) == split_runs.share_of(
            test.replace("[a]", "[b]"), 3)


def test_a_file_whose_last_test_checks_the_others_stays_in_one_share():
    # test_cupy_reference.py's last test compiles the CUDA that the tests above it made
    for path in split_runs.WHOLE_FILES:
        shares = {split_runs.share_of(f"{path}::test_{name}[p]", 3)
                  for name in ("a", "b", "c", "d", "e", "f", "every_module_compiles")}
        assert len(shares) == 1, path


@pytest.mark.parametrize("bad", ["0/3", "4/3", "2-1/3", "x/3", "1", "1/0"])
def test_a_bad_split_is_a_usage_error(bad):
    with pytest.raises(pytest.UsageError, match="--split-runs"):
        split_runs.parse(bad)
