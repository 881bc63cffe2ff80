"""The fourteenth benchmark corpus (``scripts/realworld_programs14.py`` with
``realworld_programs14_sci.py`` and ``realworld_programs14_num.py``, issues #15/#19):
every program, on its small inputs, gives eager's results on the eager, numpy and auto
backends (values, dtypes, shapes, the arguments afterwards, printed output, warnings),
called twice (the second call hits the cache), and breaks exactly as often as recorded
here (eager backend, small sizes).

The corpus was written before any of it ran under dynamo, the way NumPy users write, of
kinds the earlier corpora have little of: bioinformatics (alignment scores by double
loops and by rows, k-mer counts, GC skew, PWM scans, Jukes-Cantor distances, genotype
statistics, Wright-Fisher drift), geoscience (slope/aspect and hillshade of a DEM, IDW,
bilinear sampling, D8 flow directions, a variogram, NMO correction), audio (ADSR
synthesis, autocorrelation pitch, a feedback comb, Karplus-Strong, a noise gate, a mel
filterbank, a soft clipper), astronomy and robotics (a Kepler orbit, radiative transfer,
PDM and Lomb-Scargle periodograms, Lane-Emden, forward kinematics, DH chains, a particle
filter, odometry, a PID loop, potential fields), economics (value iteration, Tauchen)
and ML pieces and numerical methods (one-vs-rest, naive Bayes, a Gini split, mini-batch
k-means, LDA, k-fold ridge, Newton with an FD Jacobian, splines, Gauss-Legendre,
Clenshaw, Romberg, QR iterations, Halton, Levenberg-Marquardt). Its benchmark sizes are
timed by ``scripts/bench_realworld.py --corpus 14`` (docs/benchmarks.md).
"""

from __future__ import annotations

import sys

import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

_corpus = load_script("realworld_programs14")
PROGRAMS = _corpus.programs(small=True)
BACKENDS = ("eager", "numpy", "auto")

# (graphs, breaks) where not (1, 0): every break is one a NumPy user would expect
EXPECTED: dict[str, tuple[int, int]] = {
    # a branch on array data: `if p >= 0.75` of a mean, the pitch tracker's quiet-frame
    # test `if energy < 1e-3`, the particle filter's effective-size test, `if
    # near.any()` near obstacles, the split search's `if gini[i] < best[0]`
    "Jukes-Cantor distance matrix": (1, 1),
    "autocorrelation pitch per frame": (0, 1),
    "particle filter with systematic resampling": (1, 1),
    "potential-field path planning": (1, 1),
    "best Gini split of a tree node": (1, 1),
    # a loop's exit test on array data: Newton's residual norm, Romberg's agreement,
    # QR's off-diagonal norm, Halton's `while np.any(i > 0)`
    "Bratu by Newton with an FD Jacobian": (1, 1),
    "Romberg table with an early exit": (1, 1),
    "eigenvalues by unshifted QR iterations": (1, 1),
    "Halton quasi-Monte Carlo integral": (1, 1),
    # array data made Python: `range(left, center)` of mel bin edges read from an
    # array, `math.erf` of an array element, `alphas[int(np.argmin(scores))]`, a list
    # built per class of `np.unique(y)` (a count only the data knows)
    "log mel filterbank energies": (1, 1),
    "Tauchen chain and a simulated path": (1, 1),
    "ridge alpha by k-fold cross-validation": (2, 1),
    "LDA fit and predict": (2, 1),
    # Python floats only: nothing to capture
    "Lane-Emden radius in Python floats": (0, 0),
}
if sys.version_info >= (3, 13):
    # the noise gate's nested `if quiet > hold_frames:` under `if db < threshold_db:`: on
    # 3.11 both ways join as selects, on 3.13+ the outer `if` on array data breaks
    EXPECTED["noise gate with hold"] = (1, 1)


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    graphs, breaks = EXPECTED.get(name, (1, 0))
    check_program(fn, [args], kwargs=kwargs, graphs=graphs, breaks=breaks, backends=BACKENDS)


def test_corpus_is_broad_and_new():
    """50 programs, new (``rw_check.check_corpus_is_new``): no function of corpora 1-13."""
    assert set(EXPECTED) <= {p[0] for p in PROGRAMS}
    check_corpus_is_new(_corpus, ('realworld_programs', 'realworld_programs2',
                                  'realworld_programs3', 'realworld_programs4',
                                  'realworld_programs5', 'realworld_programs6',
                                  'realworld_programs7', 'realworld_programs8',
                                  'realworld_programs9', 'realworld_programs10',
                                  'realworld_programs10_sim', 'realworld_programs11',
                                  'realworld_programs11_train', 'realworld_programs11_sci',
                                  'realworld_programs12', 'realworld_programs12_ml',
                                  'realworld_programs13', 'realworld_programs13_sci'),
                        range(45, 51))
