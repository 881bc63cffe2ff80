#!/usr/bin/env bash
# One entry point for a fresh machine: sets up .venv (and Pythons 3.13 and 3.14 for the tests),
# then runs the demo or the test suite.
#
#   bash scripts/run.sh demo     # set up, then run the demo on the default backend
#   bash scripts/run.sh test     # set up, then lint and run the tests on 3.11, 3.13 and 3.14
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PYTHON:-python3}

setup_venv() {  # setup_venv DIR PYTHON EXTRAS
  local dir=$1 python=$2 extras=$3
  if [[ ! -x $dir/bin/python ]]; then
    "$python" -m venv "$dir"
  fi
  "$dir/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  "$dir/bin/python" -m pip install -q -e ".[$extras]"
}

gpu_extras() {
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "test,cuda13"
  else
    echo "test"
  fi
}

run_suites() {  # run_suites PYTEST ARGS: one pytest per Python in PYTHONS, all at once,
  # each with its own SHARES[i] added (the part of the hostile suite it runs)
  local logs=() pids=() failed=0 i dir
  dir=$(mktemp -d)
  for i in "${!PYTHONS[@]}"; do
    logs+=("$dir/suite$i.log")
    # each its own pytest cache (-p no:cacheprovider): the runs share this folder
    # shellcheck disable=SC2086  # SHARES[i] is a list of options
    "${PYTHONS[$i]}" -m pytest -p no:cacheprovider "$@" ${SHARES[$i]} >"${logs[$i]}" 2>&1 &
    pids+=($!)
  done
  for i in "${!PYTHONS[@]}"; do
    local rc=0
    wait "${pids[$i]}" || rc=$?
    echo "== Python $("${PYTHONS[$i]}" -c 'import platform; print(platform.python_version())')" \
         "${SHARES[$i]}"
    cat "${logs[$i]}"
    # exit code 5 = no tests collected: not a failure
    if [[ $rc -ne 0 && $rc -ne 5 ]]; then
      echo "== that suite failed (exit code $rc)"
      failed=1
    fi
  done
  rm -rf "$dir"
  return $failed
}

other_python() {  # other_python 3.13: a venv python of that version, set up on first use
  local version=$1 tool=$ROOT/../shared/tools/get-python.sh
  if [[ -x $tool || -f $tool ]]; then
    bash "$tool" "$version" "$ROOT/.py${version/./}/" numpy networkx bytecode pytest hypothesis \
      cloudpickle "dask[array]" "distributed>=2024.1" numba | tail -n 1  # numba: test_native.py; floor: pyproject.toml
    # CPython's own `test` package (Debian ships it apart): tests/test_cpython_suite.py
    bash scripts/get-testsuite.sh "$ROOT/.py${version/./}/" "$version" >&2 || true
  elif "python$version" -c "" >/dev/null 2>&1; then   # runs (a pyenv shim may not)
    command -v "python$version"
  fi
}

# The property-based tests draw the same examples on every run of this command, so a
# landing is judged on the code, not on luck; plain `pytest tests` draws new ones each
# time (that is how new bugs are found). HYPOTHESIS_SEED=random restores that here.
SEED=--hypothesis-seed=${HYPOTHESIS_SEED:-0}
[[ $SEED == *=random ]] && SEED=""

case ${1:-} in
  demo)
    setup_venv .venv "$PY" "$(gpu_extras)"
    .venv/bin/python scripts/demo.py "${@:2}"
    ;;
  test)
    setup_venv .venv "$PY" "$(gpu_extras)"
    .venv/bin/ruff check .
    if [[ -f scripts/ensure_chromium.sh ]]; then
      bash scripts/ensure_chromium.sh || echo "(browser tests will report why they skip)"
    fi
    # Set up every Python first, then run their suites side by side (run_suites): each
    # suite is one process, so on CI's 2-core machine the three take about one and a half
    # suites' time instead of three. The hostile suite is a third of a suite; its
    # programs exercise the frontend, where the Pythons differ, and each backend, whose
    # code does not depend on the Python. So the three share its (program, backend)
    # pairs (--hostile-runs, tests/conftest.py): 3.11, whose other tests run slowest
    # (its suite ended 8 minutes after the others when it ran two thirds of the programs
    # on numpy), a third of the programs on the numpy backend; 3.13 and 3.14 half the
    # programs each on eager and a third on numpy. The tests of tests/backends and
    # tests/ops (less the few that depend on the Python: tests/split_runs.py) check a
    # backend's code, which is the same on every Python: the three share them too
    # (--split-runs), a third each by a hash of the test's name; 3.11's suite, now the
    # fastest, takes the third with the slowest native (Numba) tests (2/3). The same
    # split shares the static checks of the source tree (tests/test_no_runtime_patching.py,
    # test_import_graph.py: ast, no code run; and test_split_runs.py) and the
    # runs on compiled backends (numpy, auto) of the real-world programs and of the
    # frontend's tests parametrized by backend (translator, breaks, symbolic, variables,
    # dynamo, guards): a third each by the test and backend; their eager runs, the
    # frontend's work, stay on all three, as the hostile suite shares its numpy runs
    # (docs/benchmarks.md, "CI time: shared backend runs and static checks"). Every
    # other test runs complete on all three.
    # --durations=30: every log ends with its slowest tests (where the time goes).
    PYTHONS=(".venv/bin/python")
    SHARES=("--hostile-runs=numpy:1-2/6 --split-runs=2/3")
    share=1
    for version in 3.13 3.14; do
      py=$(other_python "$version" || true)
      if [[ -z $py || ! -x $py ]]; then   # say so loudly; the other results still stand
        echo "== Python $version: NOT RUN: ../shared/tools/get-python.sh could not set it up" \
             "and no python$version runs here"
        continue
      fi
      "$py" -m pip install -q -e . >/dev/null
      PYTHONS+=("$py")
      hostile="eager:$share/2,numpy:$((2 * share + 1))-$((2 * share + 2))/6"
      SHARES+=("--hostile-runs=$hostile --split-runs=$((2 * share - 1))/3")   # 1/3, 3/3
      share=$((share + 1))
    done
    case ${#PYTHONS[@]} in   # fewer Pythons: the ones there run the rest
      1) SHARES[0]="" ;;
      2) SHARES[0]="--hostile-runs=numpy:1-2/6 --split-runs=1-2/3"
         SHARES[1]="--hostile-runs=eager,numpy:3-6/6 --split-runs=3/3" ;;
    esac
    run_suites tests $SEED --durations=30 "${@:2}"
    ;;
  *)
    echo "usage: bash scripts/run.sh demo|test [extra args]" >&2
    exit 2
    ;;
esac
