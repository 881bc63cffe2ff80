#!/usr/bin/env bash
# GPU check of the cudagraphs backend, on a machine with an NVIDIA GPU.
#
#   bash scripts/gpu_check_cudagraphs.sh            # tests, then the benchmark
#   CG_BENCH=0 bash scripts/gpu_check_cudagraphs.sh # tests only
#   CG_BENCH_ARGS=--no-torch ...                    # benchmark without torch.compile rows
#
# Runs the gpu-marked tests of tests/backends/cudagraphs/test_cudagraphs_gpu.py (real stream
# capture, GEMMs inside it, the graph audit, replay, memory freed), then
# scripts/bench_cudagraphs.py (per-call times and their breakdown, side by side with
# CuPy eager and torch.compile). Logs and JSON go to $OUT (the device tool's folder),
# or ./out when it is unset. Budget: about 2 min of tests (CuPy compiles each kernel
# once), about 3 min of benchmark (torch.compile dominates; CG_BENCH_ARGS=--no-torch
# makes it under a minute).
#
# The machine's image has numpy, cupy, torch, pytest, hypothesis and networkx; carry
# the project's own wheel (it installs dynamo, dynamo.guards and dynamo.backends) and
# `bytecode` in .whl/ (see scripts/gpu_check.sh):
#   python3 -m pip download --no-deps --only-binary=:all: -d .whl bytecode==0.19.1
#   .venv/bin/pip wheel . --no-deps -w .whl
# Every command runs from an empty folder, so the checkout's dynamo/ is never imported
# in place of the installed package. Called from scripts/gpu_check.sh, or alone.
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"

REPO=$PWD
RUN=$(mktemp -d)
if ! (cd "$RUN" && $PY -c "import bytecode, dynamo.guards, dynamo.backends") 2>/dev/null; then
    if ls .whl/bytecode-*.whl .whl/arraydynamo-*.whl >/dev/null 2>&1; then
        $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target /tmp/cg_site .whl/bytecode-*.whl .whl/arraydynamo-*.whl || exit 2
        export PYTHONPATH=/tmp/cg_site${PYTHONPATH:+:$PYTHONPATH}
    else
        echo "gpu_check_cudagraphs: carry the wheels of the project and of 'bytecode' in .whl/"
        exit 2
    fi
fi
cd "$RUN"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,memory.used,memory.total --format=csv
$PY - <<'EOF' || { echo "gpu_check_cudagraphs: CuPy sees no usable GPU: the gpu tests would all skip"; exit 3; }
import cupy, numpy, sys
props = cupy.cuda.runtime.getDeviceProperties(0)
print(f"python {sys.version.split()[0]}, numpy {numpy.__version__}, cupy {cupy.__version__}, "
      f"CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, {props['name'].decode()}")
EOF

status=0
timeout 600 $PY -m pytest --rootdir "$REPO" "$REPO/tests/backends/cudagraphs/test_cudagraphs_gpu.py" \
    -m gpu -q -rfEs \
    -p no:cacheprovider --junitxml "$OUT/cudagraphs_gpu_tests.xml" \
    2>&1 | tee "$OUT/cudagraphs_gpu_tests.log" | tail -40
status=${PIPESTATUS[0]}

if [ "${CG_BENCH:-1}" != "0" ]; then
    DYNAMO_LOGS=cudagraphs timeout 600 $PY "$REPO/scripts/bench_cudagraphs.py" --repeat 7 \
        --json "$OUT/bench_cudagraphs.json" ${CG_BENCH_ARGS:-} \
        2> "$OUT/bench_cudagraphs.stderr" | tee "$OUT/bench_cudagraphs.txt"
    tail -5 "$OUT/bench_cudagraphs.stderr"
fi
exit "$status"
