"""The twelfth benchmark corpus (``scripts/realworld_programs12.py`` with
``realworld_programs12_ml.py``, issues #15/#19): every program, on its small inputs,
gives eager's results on the eager and numpy backends (values, dtypes, shapes, the
arguments afterwards, printed output, warnings), called twice (the second call hits the
cache), and breaks exactly as often as recorded here (eager backend, small sizes).

The corpus was written before any of it ran under dynamo, in the style of public NumPy
repositories: FIR/IIR filters as loops, STFT, autocorrelation, image processing from
scratch (convolution by slices, morphology, histogram equalization from a list
histogram, connected components by BFS), statistics (bootstrap, Welford, list
histograms, KDE), finance loops, ML pieces (logistic regression, naive Bayes, k-NN with
a list vote, a decision stump, the perceptron, an RNN cell, attention with padding
masks), numerical methods and graph algorithms on adjacency matrices; its benchmark
sizes are timed by ``scripts/bench_realworld.py --corpus 12`` (docs/benchmarks.md), its
breaks and compiles counted by ``scripts/corpus_breaks_compiles.py --corpus 12``
(docs/realworld.md).
"""

from __future__ import annotations

import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

_corpus = load_script("realworld_programs12")
PROGRAMS = _corpus.programs(small=True)

# (graphs, breaks) where not (1, 0): every break is one a NumPy user would expect
EXPECTED: dict[str, tuple[int, int]] = {
    # a branch on array data (`if x[i] > threshold ...: peaks.append(i)`; BFS's
    # `if mask[i, j] and labels[i, j] == 0`; the perceptron's and Pegasos' update
    # `if y[i] * (X[i] @ w + b) <= 0`)
    "peak picking with minimum distance": (0, 1),
    "connected components by BFS": (1, 1),
    "perceptron epochs, updates on mistakes": (1, 1),
    "Pegasos linear SVM": (1, 1),
    # a list histogram: `img.ravel().tolist()` is array data made Python
    "histogram equalization, list histogram": (2, 1),
    # plain Python on a Python list of floats: no array op, nothing to compile
    "maximum drawdown by a running peak": (0, 0),
    # a list whose length the data decides (`[0] * (int(y.max()) + 1)`), then a list
    # histogram into it at indices the data decides
    "k-NN with a list vote": (1, 1),
    "degree histogram in a list": (1, 2),
    # a size the data decides used as a Python value (`len(np.unique(...)) // 16` as a
    # slice step)
    "weighted decision stump": (0, 1),
    # a while loop on a number the data decides (`while b - a > tol` after `a = m`)
    "bisection roots of polynomials": (0, 1),
    # the exit test reads `u = int(np.argmin(...))` made before it in the same trip:
    # a while node would carry the int from one trip to the next
    "Dijkstra on a dense matrix": (1, 1),
}


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    graphs, breaks = EXPECTED.get(name, (1, 0))
    check_program(fn, [args], kwargs=kwargs, graphs=graphs, breaks=breaks)


def test_corpus_is_broad_and_new():
    """51 programs, new (``rw_check.check_corpus_is_new``): no function of corpora 1-11."""
    assert set(EXPECTED) <= {p[0] for p in PROGRAMS}
    check_corpus_is_new(_corpus, ('realworld_programs', 'realworld_programs2',
                                  'realworld_programs3', 'realworld_programs4',
                                  'realworld_programs5', 'realworld_programs6',
                                  'realworld_programs7', 'realworld_programs8',
                                  'realworld_programs9', 'realworld_programs10',
                                  'realworld_programs10_sim', 'realworld_programs11',
                                  'realworld_programs11_train', 'realworld_programs11_sci'),
                        range(51, 52))
