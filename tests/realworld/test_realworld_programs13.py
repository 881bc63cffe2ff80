"""The thirteenth benchmark corpus (``scripts/realworld_programs13.py`` with
``realworld_programs13_sci.py``, issue #15): every program, on its small inputs, gives
eager's results on the eager and numpy backends (values, dtypes, shapes, the arguments
afterwards, printed output, warnings), called twice (the second call hits the cache), and
breaks exactly as often as recorded here (eager backend, small sizes).

The corpus was written before any of it ran under dynamo, the way NumPy users write:
image processing (Sobel, separable blur, grayscale morphology, histogram equalization,
non-maximum suppression, Otsu), signal processing (biquad cascades as sample loops,
Welch, Burg, an envelope follower), optimisation (Armijo backtracking, Nelder-Mead,
Newton, coordinate-descent lasso, Adam), Monte Carlo with ``np.random.default_rng``,
geometry (Rodrigues, point in polygon, a monotone-chain hull, Kabsch), graph algorithms
on adjacency matrices (BFS with a deque, Dijkstra, PageRank, union-find), finance
(Black-Scholes, a binomial tree, implied volatility), physics (leapfrog n-body, heat,
Verlet, Lennard-Jones) and ML (logistic regression, k-NN, PCA by power iteration,
k-means++, EM); its benchmark sizes are timed by ``scripts/bench_realworld.py --corpus
13`` (docs/benchmarks.md).
"""

from __future__ import annotations

import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

_corpus = load_script("realworld_programs13")
PROGRAMS = _corpus.programs(small=True)

# (graphs, breaks) where not (1, 0): every break is one a NumPy user would expect
EXPECTED: dict[str, tuple[int, int]] = {
    # a branch on array data (Otsu's `if var > best_var`; Metropolis' accept test, whose
    # drawn Python float then feeds `(x - 2.0) ** 2`; Armijo's `while True: ... if
    # f_new <= ...: break`)
    "Otsu threshold by a level scan": (1, 1),
    "Metropolis on a bimodal density": (1, 1),
    "gradient descent with Armijo backtracking": (1, 1),
    # array data made Python: `float(np.sum(...))` in the objective Nelder-Mead calls,
    # `points.tolist()`, `int(a)` of an edge's end (Kabsch's `math.sqrt` of an array
    # sum is one graph since translator/math_of_arrays.py, task t6)
    "Nelder-Mead on Rosenbrock": (1, 2),
    "monotone chain convex hull": (1, 1),
    "union-find components of an edge list": (0, 1),
    # a size the data decides: the neighbours of a vertex (`np.flatnonzero(adj[u])`)
    # iterated in Python (the deque made in the frame is no break since
    # variables/made_deques.py, task t6)
    "BFS levels with a deque": (1, 1),
    # `np.bincount(..., minlength=y.max() + 1)`: a shape the data decides
    "k-NN by argpartition and bincount votes": (1, 1),
}
# (PageRank's `iterations += 1; if np.abs(r_new - r).sum() < tol: r = r_new; break`,
# read in the copy of `return r, iterations` 3.13+ make at the break, is a loop node on
# every Python since task t6: loop_exits.exit_code_span)


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    graphs, breaks = EXPECTED.get(name, (1, 0))
    check_program(fn, [args], kwargs=kwargs, graphs=graphs, breaks=breaks)


def test_corpus_is_broad_and_new():
    """47 programs, new (``rw_check.check_corpus_is_new``): no function of corpora 1-12."""
    assert set(EXPECTED) <= {p[0] for p in PROGRAMS}
    check_corpus_is_new(_corpus, ('realworld_programs', 'realworld_programs2',
                                  'realworld_programs3', 'realworld_programs4',
                                  'realworld_programs5', 'realworld_programs6',
                                  'realworld_programs7', 'realworld_programs8',
                                  'realworld_programs9', 'realworld_programs10',
                                  'realworld_programs10_sim', 'realworld_programs11',
                                  'realworld_programs11_train', 'realworld_programs11_sci',
                                  'realworld_programs12', 'realworld_programs12_ml'),
                        range(47, 48))
