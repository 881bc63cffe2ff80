#!/usr/bin/env bash
# The ONE check to run on the GPU machine (an H200), for the cupy backend and the
# cudagraphs backend. Under 6 minutes:
#
#   run(command="bash scripts/gpu_check.sh", carry=[".whl"], timeout_s=400)
#
# 1. installs the carried wheels (.whl/) into /tmp/site: the project's own wheel (it is
#    installed as the one package dynamo, with dynamo.guards and dynamo.backends built
#    from the folders guards/ and backends/), and bytecode, which the GPU image (Python
#    3.12, numpy, cupy-cuda13x, networkx, pytest, pytest-xdist, hypothesis, torch) lacks;
# 2. reports the device and the library versions;
# 3. runs the GPU tests (marker gpu) of the cupy backend (tests/backends/cupy_backend/test_cupy_gpu.py),
#    the ops on CuPy arrays (tests/ops/test_ops_cupy.py), cupy graphs on the eager backend
#    (tests/dynamo/test_graph.py), the annotate report (tests/report) and the cudagraphs
#    backend (tests/backends/cudagraphs/test_cudagraphs_gpu.py), over 8 processes;
# 4. runs scripts/bench_cupy_backend.py: CuPy eager, cupy.fuse, torch.compile, our fused
#    kernels and the memory roofline side by side, first-call times (cold and warm kernel
#    cache, new processes), and a small sweep of tuning options;
# 5. runs scripts/bench_cudagraphs.py: CuPy eager, our CUDA Graphs replay (and the cupy
#    backend recorded), torch.compile default and reduce-overhead, per call split up;
# 6. prints a short table last (the device tool returns the end of the output).
# Full logs and JSON are written to $OUT (brought back by the device tool).
#
# Filling .whl/ here, on the development machine (pure-Python or cp312 wheels); the
# project's wheel again after every change (the script refuses a stale one):
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#       --implementation cp --platform manylinux2014_x86_64 -d .whl bytecode
#   .venv/bin/pip wheel . --no-deps -w .whl
# and on the GPU machine this script does:
#   pip install --no-index --no-deps --target /tmp/site .whl/*.whl
#   export PYTHONPATH=/tmp/site
# and runs everything from an empty folder, so that the checkout's dynamo/ (which has
# no guards/ or backends/ inside) is never imported in place of the installed one.
#
# GPU_CHECK_PARTS=tests,bench,cgbench (default: all) picks the parts to run; each part
# has its own timeout (T_TESTS=150, T_BENCH=100, T_CG=90 seconds), so the whole script
# stays under 6 minutes: the session's device time (15 minutes, starts included) must
# leave room for a second run. CUPY_BENCH_ARGS / CG_BENCH_ARGS (e.g. --no-torch) pass on.
# $OUT gets six files: setup.log, gpu_tests.log, bench_{cupy_backend,cudagraphs}.{txt,json}.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${OUT:-$PWD/out}
PARTS=${GPU_CHECK_PARTS:-tests,bench,cgbench}
mkdir -p "$OUT"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }

REPO=$PWD
if ! compgen -G ".whl/arraydynamo-*.whl" > /dev/null; then
    echo "no project wheel in .whl/: run '.venv/bin/pip wheel . --no-deps -w .whl' first"
    exit 2
fi
stale=$(find dynamo guards backends -name "*.py" -newer .whl/arraydynamo-*.whl | head -3)
if [[ -n $stale ]]; then
    echo "the project wheel in .whl/ is older than $stale ...: build it again"
    exit 2
fi
$PY -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site \
    .whl/*.whl > "$OUT/setup.log" 2>&1 || echo "wheel install failed: see $OUT/setup.log"
export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
RUN=$(mktemp -d)   # the working folder of every command below (see the header)
cd "$RUN"

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.used,memory.total \
    --format=csv,noheader
$PY - <<'EOF' 2>&1 | tee -a "$OUT/setup.log"
import sys
import numpy
try:
    import cupy
    print(f"python {sys.version.split()[0]}, numpy {numpy.__version__}, cupy {cupy.__version__}, "
          f"CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, "
          f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
except Exception as e:
    print("CuPy cannot use the GPU:", type(e).__name__, e)
for mod in ("bytecode", "hypothesis", "networkx", "torch"):
    try:
        print(mod, __import__(mod).__version__)
    except Exception as e:
        print(mod, "MISSING:", e)
EOF

# The GPU tests of both backends in one pytest, spread over 8 processes when pytest-xdist
# is there (CuPy compiles each kernel once per process; 16 cores compile them side by
# side). The one test that reads the device's free memory runs alone afterwards: other
# processes' allocations would move that number.
MEMTEST=tests/backends/cudagraphs/test_cudagraphs_gpu.py::test_recordings_are_freed_on_reset_and_with_the_function
tests_rc=skipped
if [[ $PARTS == *tests* ]]; then
    echo "== GPU tests: cupy backend, ops on CuPy, cupy graphs, annotate, cudagraphs ($(elapsed)s)"
    par=""
    $PY -c "import xdist" 2>/dev/null && par="-n 8"
    tmo=""
    $PY -c "import pytest_timeout" 2>/dev/null && tmo="--timeout 90"
    timeout "${T_TESTS:-150}" $PY -m pytest --rootdir "$REPO" \
        "$REPO/tests/backends/cupy_backend/test_cupy_gpu.py" "$REPO/tests/ops/test_ops_cupy.py" \
        "$REPO/tests/dynamo/test_graph.py" "$REPO/tests/report/test_annotate_gpu.py" \
        "$REPO/tests/backends/cudagraphs/test_cudagraphs_gpu.py" --deselect "$MEMTEST" \
        -m gpu -q -rfEs --tb=short -p no:cacheprovider --durations=8 $par $tmo \
        > "$OUT/gpu_tests.log" 2>&1
    tests_rc=$?
    timeout 60 $PY -m pytest --rootdir "$REPO" "$REPO/$MEMTEST" -m gpu -q -rfE --tb=short \
        -p no:cacheprovider >> "$OUT/gpu_tests.log" 2>&1 || tests_rc="$tests_rc+memtest-failed"
    grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/gpu_tests.log" | tail -40
fi

# Benchmarks one at a time (nothing else on the GPU). Each prints its rows to stderr as
# each model finishes, so a run cut off by its timeout still reports what it measured.
if [[ $PARTS == *bench* ]]; then
    echo "== cupy backend benchmark ($(elapsed)s)"
    PYTHONUNBUFFERED=1 timeout "${T_BENCH:-100}" $PY "$REPO/scripts/bench_cupy_backend.py" \
        --sweep --repeat 5 ${CUPY_BENCH_ARGS:-} --json "$OUT/bench_cupy_backend.json" \
        > "$OUT/bench_cupy_backend.txt" 2>&1
    echo "bench exit $?"
    grep -v '^\[' "$OUT/bench_cupy_backend.txt" | tail -12
fi

if [[ $PARTS == *cgbench* ]]; then
    echo "== cudagraphs benchmark ($(elapsed)s)"
    PYTHONUNBUFFERED=1 timeout "${T_CG:-90}" $PY "$REPO/scripts/bench_cudagraphs.py" --repeat 5 \
        ${CG_BENCH_ARGS:-} --json "$OUT/bench_cudagraphs.json" > "$OUT/bench_cudagraphs.txt" 2>&1
    echo "cudagraphs bench exit $?"
    grep -v '^\[' "$OUT/bench_cudagraphs.txt" | tail -12
fi

echo "== summary ($(elapsed)s): cupy GPU tests exit $tests_rc"
grep -E "passed|failed|error" "$OUT/gpu_tests.log" 2>/dev/null | tail -2
$PY - "$OUT/bench_cupy_backend.json" <<'EOF'
import json, sys
try:
    data = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit("no benchmark table (see bench_cupy_backend.txt)")
print(data["machine"])
cols = [("model", "model", "{}"), ("eager", "cupy_eager_us", "{:.0f}"),
        ("fuse", "cupy_fuse_us", "{:.0f}"), ("torch.c", "torch_compile_us", "{:.0f}"),
        ("ours", "compiled_us", "{:.0f}"), ("roof", "roofline_us", "{:.0f}"),
        ("x_roof", "x_roofline", "{:.2f}"), ("x_torch", "x_torch", "{:.2f}"),
        ("err", "max_rel_err", "{:.1e}"), ("cold_s", "first_call_cold_s", "{:.2f}"),
        ("warm_s", "first_call_warm_s", "{:.2f}")]
rows = [[fmt.format(r[key]) if r.get(key) is not None else "-" for _, key, fmt in cols]
        for r in data["rows"]]
widths = [max(len(h), *(len(row[i]) for row in rows)) for i, (h, _, _) in enumerate(cols)]
print("  ".join(h.ljust(w) for (h, _, _), w in zip(cols, widths)) + "   (us per call)")
for row in rows:
    print("  ".join(v.ljust(w) for v, w in zip(row, widths)))
EOF
