#!/usr/bin/env bash
# GPU check of the cudagraphs backend (issue 8), on the lent GPU machine.
#
#   bash scripts/gpu_check_cudagraphs.sh            # tests, then the benchmark
#   CG_BENCH=0 bash scripts/gpu_check_cudagraphs.sh # tests only
#   CG_BENCH_ARGS=--no-torch ...                    # benchmark without torch.compile rows
#
# Runs the gpu-marked tests of tests/backends/test_cudagraphs_gpu.py (real stream
# capture, GEMMs inside it, the graph audit, replay, memory freed), then
# scripts/bench_cudagraphs.py (per-call times and their breakdown, side by side with
# CuPy eager and torch.compile). Logs and JSON go to $OUT (the device tool's folder),
# or ./out when it is unset. Budget: about 2 min of tests (CuPy compiles each kernel
# once), about 3 min of benchmark (torch.compile dominates; CG_BENCH_ARGS=--no-torch
# makes it under a minute).
#
# The machine's image has numpy, cupy, torch, pytest, hypothesis and networkx; the
# project also needs `bytecode`: carry its wheel in .whl/ (see the device README):
#   python3 -m pip download --no-deps --only-binary=:all: -d .whl bytecode==0.19.1
# Called from scripts/gpu_check.sh, or alone.
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"

if ! $PY -c "import bytecode" 2>/dev/null; then
    if ls .whl/bytecode-*.whl >/dev/null 2>&1; then
        $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target /tmp/cg_site .whl/bytecode-*.whl || exit 2
        export PYTHONPATH=/tmp/cg_site${PYTHONPATH:+:$PYTHONPATH}
    else
        echo "gpu_check_cudagraphs: the package 'bytecode' is missing; carry its wheel in .whl/"
        exit 2
    fi
fi
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,memory.used,memory.total --format=csv
$PY - <<'EOF' || { echo "gpu_check_cudagraphs: CuPy sees no usable GPU: the gpu tests would all skip"; exit 3; }
import cupy, numpy, sys
props = cupy.cuda.runtime.getDeviceProperties(0)
print(f"python {sys.version.split()[0]}, numpy {numpy.__version__}, cupy {cupy.__version__}, "
      f"CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, {props['name'].decode()}")
EOF

status=0
timeout 600 $PY -m pytest tests/backends/test_cudagraphs_gpu.py -m gpu -q -rfEs \
    -p no:cacheprovider --junitxml "$OUT/cudagraphs_gpu_tests.xml" \
    2>&1 | tee "$OUT/cudagraphs_gpu_tests.log" | tail -40
status=${PIPESTATUS[0]}

if [ "${CG_BENCH:-1}" != "0" ]; then
    DYNAMO_LOGS=cudagraphs timeout 600 $PY scripts/bench_cudagraphs.py --repeat 7 \
        --json "$OUT/bench_cudagraphs.json" ${CG_BENCH_ARGS:-} \
        2> "$OUT/bench_cudagraphs.stderr" | tee "$OUT/bench_cudagraphs.txt"
    tail -5 "$OUT/bench_cudagraphs.stderr"
fi
exit "$status"
