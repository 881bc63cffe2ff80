"""The fifteenth benchmark corpus (``scripts/realworld_programs15.py`` with
``realworld_programs15_sig.py`` and ``realworld_programs15_phys.py``, issue #15): every
program, on its small inputs, gives eager's results on the eager, numpy and auto
backends (values, dtypes, shapes, the arguments afterwards, printed output, warnings),
called twice (the second call hits the cache), and breaks exactly as often as recorded
here (eager backend, small sizes).

The corpus was written before any of it ran under dynamo, the way NumPy users write, of
fields the earlier corpora have little of: finance (a binomial-tree American put, Asian
calls by Monte Carlo paths, a mean-variance frontier, Black-Scholes Greeks, implied
volatilities by Newton, drawdowns, EWMA volatility, a bond yield by bisection),
statistics (a bootstrap, Gibbs sampling, a kernel density, EM for a mixture,
Kaplan-Meier, Welch's t, OLS, Metropolis, Spearman), signal and image processing (a
biquad as a sample loop, morphology, a Hough transform, Sobel with non-maximum
suppression, equalisation, a median filter, Otsu, a flood fill), graphics and geometry
(ray-sphere rendering, a monotone-chain hull, sphere tracing, point in polygon, a
rasteriser, Catmull-Rom, ICP), physics and chemistry (Verlet, Ising, SPH, Thomas
solves, a decay chain, Gillespie, a leapfrog wave) and text and sequences (edit
distance, Viterbi, CTC decoding and loss, LCS, forward-backward, TF-IDF). Its benchmark
sizes are timed by ``scripts/bench_trial_long_calls.py --corpus 15`` (docs/benchmarks.md,
"Corpus 15 (p64 t8)").
"""

from __future__ import annotations

import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

_corpus = load_script("realworld_programs15")
PROGRAMS = _corpus.programs(small=True)
BACKENDS = ("eager", "numpy", "auto")

# (graphs, breaks) where not (1, 0): every break is one a NumPy user would expect
EXPECTED: dict[str, tuple[int, int]] = {
    # a branch or a loop's exit test on array data: Longstaff-Schwartz's `if itm.sum() <=
    # degree + 1`, risk parity's and ICP's convergence tests, Kaplan-Meier's `while t[j]
    # == t[i]`, the flood fill's tolerance test, the Ising step's `if dE <= 0 or ...`,
    # the bisection's `if pv > price`, Gillespie's `if t > t_end` of a time summed from
    # the uniforms
    "American put by Longstaff-Schwartz": (1, 1),
    "risk parity by coordinate updates": (1, 1),
    "rigid alignment by ICP and Kabsch": (1, 1),
    "Kaplan-Meier survival curve": (1, 1),
    "flood fill with a list as the stack": (1, 1),
    "Ising model by single-spin Metropolis": (0, 1),
    "bond yield by bisection": (1, 1),
    "Gillespie dimerisation": (0, 1),
    # array data made Python: `int(np.argmin(dd))` as a slice bound (then a 300-step
    # loop over the drawdowns, too long to unroll), `math.exp` of an energy difference,
    # `.tolist()` of the sorted points, `math.floor` of a triangle's corners as a
    # bounding box, `int(s)` per frame
    "drawdown report of a price series": (2, 2),
    "Hamiltonian Monte Carlo on a Gaussian": (1, 1),
    "convex hull by the monotone chain": (2, 1),
    "triangle rasteriser with a z-buffer": (1, 1),
    "greedy CTC decoding of a batch": (1, 1),
    # `np.dot(np.arange(256), hist)` where hist's length is bincount's (the data's
    # largest value or minlength), then the threshold loop's `if w0 == 0` on array data
    "Otsu threshold by a loop over levels": (1, 2),
    # the sample loop carries the all-pass states in a Python list: it unrolls, and
    # stops unrolling at the op budget
    "phaser by all-pass stages per sample": (1, 1),
}


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    graphs, breaks = EXPECTED.get(name, (1, 0))
    check_program(fn, [args], kwargs=kwargs, graphs=graphs, breaks=breaks, backends=BACKENDS)


def test_corpus_is_broad_and_new():
    """47 programs, new (``rw_check.check_corpus_is_new``): no function of corpora 1-14."""
    assert set(EXPECTED) <= {p[0] for p in PROGRAMS}
    check_corpus_is_new(_corpus, ('realworld_programs', 'realworld_programs2',
                                  'realworld_programs3', 'realworld_programs4',
                                  'realworld_programs5', 'realworld_programs6',
                                  'realworld_programs7', 'realworld_programs8',
                                  'realworld_programs9', 'realworld_programs10',
                                  'realworld_programs10_sim', 'realworld_programs11',
                                  'realworld_programs11_train', 'realworld_programs11_sci',
                                  'realworld_programs12', 'realworld_programs12_ml',
                                  'realworld_programs13', 'realworld_programs13_sci',
                                  'realworld_programs14', 'realworld_programs14_sci',
                                  'realworld_programs14_num'),
                        range(45, 51))
