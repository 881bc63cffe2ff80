"""Block-wise groups free their members' own arrays at the last reader (``groups``).

A member that writes into no scratch buffer (``x ** 3`` after strength reduction, say)
makes a new block-sized array; bound to a local name of ``_block`` and never deleted,
it lived until the block ended. An unrolled time stepper then held one such array per
step: the Duffing ensemble of ``scripts/realworld_programs5.py`` peaked at 1.43x plain
NumPy's tracemalloc peak (issue #15). Checked against plain NumPy: the peak, and the
results bit for bit (``agree``).
"""

import tracemalloc

import numpy as np
from test_numpy_never_wrong import agree

import dynamo

# Blocks of a fixed size whatever this machine's L2 cache: 4 blocks of 12,500 float64
# for 50,000 elements (each unfreed member of a block: 100 KB, a quarter of an array).
OPTIONS = {"cache_bytes": 1 << 20, "min_block_elements": 1 << 14, "threads": 1}


def cubic_stepper(x, v, dt=0.01, steps=40):
    # a forced damped cubic oscillator per element: one ``x ** 3`` (no ``out=``) per
    # step; the float time ``t`` unrolls the loop into one block-wise group
    t = 0.0
    for _ in range(steps):
        v = v + dt * (np.cos(t) - 0.2 * v - x ** 3)
        x = x + dt * v
        t += dt
    return x, v


def _peak(fn, *args) -> int:
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _inputs():
    rng = np.random.default_rng(3)
    return rng.standard_normal(50_000), rng.standard_normal(50_000)


def test_a_block_frees_a_fresh_member_at_its_last_reader():
    x, v = _inputs()
    compiled = dynamo.compile(cubic_stepper, backend="numpy", options=OPTIONS)
    compiled(x, v)
    # plain NumPy holds about five arrays at its peak (x, v and the force's
    # temporaries); unfreed, the 40 cubes of each block add ten more (2.5x here;
    # freed, 0.56x: the two outputs and one block's cube)
    ratio = _peak(compiled, x, v) / _peak(cubic_stepper, x, v)
    assert ratio < 1.0, ratio
    # the same results as plain NumPy, bit for bit, on one thread and on two
    for options in (OPTIONS, {**OPTIONS, "threads": 2, "min_threaded_elements": 0}):
        for errstate in (None, {"all": "raise"}):
            agree(cubic_stepper, x, v, options=options, errstate=errstate)
