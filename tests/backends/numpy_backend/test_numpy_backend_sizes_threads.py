"""The numpy backend's size variants (``sizes.PerSize``) under concurrent callers.

Eight threads call one compiled function on many sizes, more than the variants kept
(``MAX_SIZES``), so that new variants keep evicting old ones while other threads look
variants up, compile and evict at the same time. Every call must equal eager's, none
may raise, the variants kept stay within ``MAX_SIZES``, each under the key of the
shapes it was compiled for, and the count of variants compiled is the count of static
compiles made (two threads that miss one key at once may both compile it: both
results are eager's, the second is kept).
"""

import random
import sys
import threading

import numpy as np
from dynamo.backends.common import python_function
from dynamo.backends.numpy_backend import sizes
from harness import same

import dynamo

THREADS = 8


def scaled_rows(x):
    return x * 2.0 + x.sum(axis=-1, keepdims=True), x.shape[0] * 2


def test_threads_past_the_variant_limit_keep_eagers_results(monkeypatch):
    monkeypatch.setattr(sizes, "MAX_SIZES", 3)
    monkeypatch.setattr(sizes, "GENERIC_AFTER", 10 ** 9)   # static variants only
    monkeypatch.setattr(sizes, "UNREUSED_AFTER", 10 ** 9)  # (shuffled: some run once)
    compiled_for = []   # (the key of the shapes a static variant was compiled for, it)
    runners = []

    def compile_static(static, args):
        fn = python_function(static)
        compiled_for.append((args[0].shape, fn))   # (list.append: atomic)
        return fn

    def backend(graph, inputs, options=None):
        runner = sizes.PerSize(graph, compile_static)
        runners.append(runner)
        return runner
    backend.dynamic_shapes = True

    fast = dynamo.compile(scaled_rows, backend=backend, dynamic=True)
    same(fast(np.ones((5, 3))), scaled_rows(np.ones((5, 3))))   # (traced here, once)
    lengths = list(range(2, 16))
    start = threading.Barrier(THREADS)
    errors = []

    def work(seed):
        order = lengths * 2
        random.Random(seed).shuffle(order)
        start.wait()
        for t in order:
            x = np.arange(t * 3, dtype=np.float64).reshape(t, 3) / (seed + 1)
            try:
                same(fast(x), scaled_rows(x))
            except BaseException as e:  # noqa: BLE001 (reported below, with the others)
                errors.append(e)
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors
    (runner,) = runners
    assert runner.compiled == len(compiled_for), (runner.compiled, len(compiled_for))
    assert len(runner.variants) <= sizes.MAX_SIZES, list(runner.variants)
    made = {id(fn): shape for shape, fn in compiled_for}
    for key, fn in runner.variants.items():
        assert key == (made[id(fn)],), (key, made[id(fn)])
