"""The repository corpus (``repository_programs.py``, issue #19): every function gives
eager's results on the eager and numpy backends (values, dtypes, the arguments
afterwards, Generators by their state, warnings) and breaks no more often than
recorded here (docs/realworld.md, "Functions in the style of public repositories").

The breaks left are ones the data decides: a branch on array values (``if tp + fp >
0``, a perceptron's mistake test, a Metropolis acceptance), a loop over ``np.unique``
or ``np.bincount`` of the data, a shape computed from the data (``labels.max() + 1``),
``np.bincount(minlength=k)`` combined with a size ``k`` array (it is longer when the
data holds ``k``). (``X[rng.choice(n, p=probs)]``, a Python int drawn and used as an
index, needs no break now.) On 3.11 a comprehension is a
function of its own, so a loop over the data in one breaks twice more.

The tests after the corpus check, each on its own, what the corpus found breaking and
the remaining items of #19: objects of the program's classes made inside the function,
``str()`` through the class's ``__str__``, ``float()``/``int()`` of a result handed back,
``np.r_``/``np.c_``, ``np.ix_``, ``np.issubdtype``, ``np.histogram`` with string bins,
0-d boolean masks beside other indices, and ``np.roots`` (a break with its reason).
"""

from __future__ import annotations

import abc

import numpy as np
import pytest
from harness import check
from repository_programs import PROGRAMS
from rw_check import check_program

import dynamo

BACKENDS = ("eager", "numpy")


EXPECTED_BREAKS = {
    "gaussian_naive_bayes": 1,          # [... for c in np.unique(y)]: traced after it
    "perceptron_train": 1,              # if yi * (xi @ w + b) <= 0
    "best_split": 1,                    # for t in np.unique(col)
    # [... for p in np.bincount(y) if p > 0], in entropy() called three times: the
    # loop is traced after the length's break, and its `if p > 0` breaks (measured;
    # 3.11's comprehension frame's repeat of a break is not reported since issue #19)
    "information_gain": 7,
    # `tp / (tp + fp) if tp + fp > 0 else 0.0` (twice) is a choice the glue makes
    # (BranchChoiceVariable); `2 * precision * recall` needs it while tracing
    "precision_recall_f1": 1,
    "ising_metropolis_sweep": 1,        # if dE <= 0 or rng.random() < ...
}


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 60
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)
    assert set(EXPECTED_BREAKS) <= {name for name, _, _ in PROGRAMS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_repository_program(name, fn, args, backend):
    check_program(fn, [args], backends=(backend,), breaks=EXPECTED_BREAKS.get(name, 0))


# ---------------------------------------------------------------- objects made inside


class Layer:
    scale = 2.0

    def __init__(self, n, name="dense"):
        self.name = name
        self.W = np.ones((n, n)) * self.scale
        self.cache = []

    def forward(self, x):
        self.cache.append(x)
        return x @ self.W

    @property
    def n_params(self):
        return self.W.size

    def __str__(self):
        return f"{type(self).__name__}({self.name}, {self.W.shape[0]})"


class Scaled(Layer):
    def __init__(self, n):
        super().__init__(n, name="scaled")
        self.factor = 0.5

    def forward(self, x):
        return super().forward(x) * self.factor


def make_and_use(x):
    a, b = Layer(x.shape[1]), Scaled(x.shape[1])
    y = b.forward(a.forward(x))
    return y, a, b, a.n_params, str(b), isinstance(b, Layer), type(a) is Layer


def identity_and_sharing(x):
    a = Layer(2)
    pair = [a, a]
    same = pair[0] is pair[1]
    other = a is Layer(2)
    a.extra = x.sum()
    return pair, same, other   # harness.same compares vars(a), in order


def absent_attribute(x):
    a = Layer(2)
    try:
        return a.missing
    except AttributeError:
        return hasattr(a, "W"), x * 2


class Slotted:
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


class Finalized:
    def __init__(self, v):
        self.v = v

    def __del__(self):
        pass


class Abstract(abc.ABC):
    @abc.abstractmethod
    def run(self):
        ...


class Concrete(Abstract):
    def __init__(self, x):
        self.x = x

    def run(self):
        return self.x + 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_objects_made_in_the_function(backend):
    x = np.arange(6.0).reshape(3, 2)
    check(make_and_use, x, graphs=1, breaks=0, backend=backend)
    check(identity_and_sharing, x, graphs=1, breaks=0, backend=backend)
    check(absent_attribute, x, backend=backend)
    check(lambda x: Concrete(x).run(), x, graphs=1, breaks=0, backend=backend)
    for cls in (Slotted, Finalized):   # __slots__, __del__: made eagerly, with a reason
        report = check(lambda x, cls=cls: cls(x).v * 2, x, breaks=1, backend=backend)
        assert "creating an instance of" in report.break_reasons[0].reason
    check(lambda x: Abstract(), x, backend=backend)          # TypeError, as eagerly


def test_class_attribute_changed_after_compiling():
    """A class attribute the trace read through the class is guarded there."""
    compiled = dynamo.compile(make_and_use, backend="eager")
    x = np.ones((2, 2))
    first = compiled(x)[0]
    Layer.scale = 3.0
    try:
        np.testing.assert_array_equal(compiled(x)[0], make_and_use(x)[0])
        assert not np.array_equal(first, compiled(x)[0])
    finally:
        Layer.scale = 2.0


# ---------------------------------------------------------------- Python numbers handed back


def loss_history(w, x, y):
    history, state = [], {}
    for _ in range(3):
        err = x @ w - y
        w = w - 0.1 * x.T @ err
        history.append(float((err ** 2).mean()))
    state["best"] = int(np.argmin(w))
    state["loss"] = float(err[0] ** 2)
    return w, history, state


def used_after(x):
    v = float(x.sum())
    x += 1                       # the float is the value at the call, not after
    return v, x


@pytest.mark.parametrize("backend", BACKENDS)
def test_float_and_int_of_results_handed_back(backend):
    rng = np.random.default_rng(0)
    check(loss_history, rng.normal(size=3), rng.normal(size=(5, 3)), rng.normal(size=5),
          graphs=1, breaks=0, backend=backend)
    check(used_after, np.arange(3.0), graphs=1, breaks=0, backend=backend)
    # int() of a float raises for NaN and inf: a graph check that the value is finite
    # (the frame reruns and raises eager's error), then converted after the graph
    check(lambda x: int(x.sum()), np.arange(3.0), graphs=1, breaks=0, backend=backend)
    check(lambda x: int(x.sum()), np.array([np.nan]), backend=backend)
    # arithmetic on the float is a number the graph reads (graph_numbers.py); where
    # Python reads its value (**) the break says so, with the conversion's cause
    check(lambda x: x * float(x.sum()), np.arange(3.0), graphs=1, breaks=0, backend=backend)
    report = check(lambda x: x * float(x.sum()) ** 2, np.arange(3.0), breaks=1,
                   backend=backend)
    assert report.break_reasons[0].cause == "array_to_python"


# ---------------------------------------------------------------- ops the corpus found


def concat_forms(x, y):
    return (np.r_[0, x / x[-1]], np.c_[np.ones(len(x)), x], np.r_[x, y, 1:4],
            np.c_[x, y], np.r_["0,2", x, y], np.r_[-1:1:5j], np.r_[x.astype(np.float32), 1])


def open_mesh(D, r, c):
    a, b = np.ix_(r, c)
    D2 = D.copy()
    D2[np.ix_(r, c)] = 0
    return D[np.ix_(r, c)], a.shape, b.shape, D2, np.ix_(r, c, r)[2].shape


def write_through_open_mesh(r, c):
    a, _ = np.ix_(r, c)
    a[0, 0] = 99                 # a view of r, as eagerly
    return r


def dtype_checks(ids, x):
    if not np.issubdtype(ids.dtype, np.integer):
        raise TypeError("ids must be integers")
    return x[ids] * np.issubdtype(x.dtype, np.floating)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ops_the_corpus_found(backend):
    x, y = np.arange(1.0, 4.0), np.arange(3)
    check(concat_forms, x, y, graphs=1, breaks=0, backend=backend)
    check(lambda x, y: np.c_[x, y], np.ones(3), np.ones(4), backend=backend)   # ValueError
    D = np.arange(30.0).reshape(5, 6)
    check(open_mesh, D, np.array([0, 2, 4]), np.array([1, 5]), graphs=1, breaks=0,
          backend=backend)
    check(write_through_open_mesh, np.array([0, 2, 4]), np.array([1, 5]), graphs=1,
          breaks=0, backend=backend)
    check(open_mesh, D, np.array([True, False, True, False, True]), np.array([1, 5]),
          backend=backend)                                   # a mask: a break
    check(dtype_checks, np.array([0, 2]), x, graphs=1, breaks=0, backend=backend)
    check(dtype_checks, np.array([0.0, 2.0]), x, backend=backend)    # TypeError


# ---------------------------------------------------------------- the rest of #19's list


def histogram_estimators(x):
    out = []
    for rule in ("auto", "fd", "sturges", "doane", "scott", "stone", "rice", "sqrt"):
        counts, edges = np.histogram(x, bins=rule)
        centers = (edges[:-1] + edges[1:]) / 2
        out.append((counts, edges, (counts * centers).sum() / counts.sum(), len(counts)))
    density, edges = np.histogram(x, bins="auto", density=True, range=(-1, 1))
    out.append((density * np.diff(edges), np.histogram_bin_edges(x, bins="fd")))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_histogram_with_string_bins(backend):
    rng = np.random.default_rng(3)
    check(histogram_estimators, rng.normal(size=200), graphs=1, breaks=0, backend=backend)
    check(histogram_estimators, rng.normal(size=200).astype(np.float32), graphs=1, breaks=0,
          backend=backend)
    check(histogram_estimators, np.arange(7), graphs=1, breaks=0, backend=backend)
    check(histogram_estimators, np.ones(5), backend=backend)          # one value: 1 bin
    x = rng.normal(size=50)
    x[3] = np.nan
    check(histogram_estimators, x, backend=backend)                   # ValueError at run
    check(lambda x, w: np.histogram(x, bins="auto", weights=w), x, x, backend=backend)
    check(lambda x: np.histogram(x, bins="nope"), x, backend=backend)   # ValueError


def test_histogram_bins_follow_the_data_in_one_entry():
    """The number of bins is an unbacked size: other data, other counts, one entry."""
    compiled = dynamo.compile(histogram_estimators, backend="numpy")
    rng = np.random.default_rng(4)
    for scale in (0.1, 1.0, 30.0):
        x = rng.standard_cauchy(100) * scale
        got, want = compiled(x), histogram_estimators(x)
        for g, w in zip(got, want):
            for a, b in zip(g, w):
                np.testing.assert_allclose(a, b, rtol=1e-12)


def zero_d_masks(x):
    m0 = x.sum() > 0
    m1 = x.max() > 100
    return (x[True, 0], x[np.bool_(False), :], x[..., True], x[0, True],
            x[m0, 0], x[m1, :], x[..., m0], x[m0, 1:, None], x[0, m1], x[:, m0, 1],
            x[m1, ..., 0], x[m0, []], len(x[m0, 0]))


def zero_d_mask_writes(x):
    y = x.copy()
    m0 = x.sum() > 0
    y[m0, 0] = -1.0
    y[True, 1] = 5.0
    y[..., np.bool_(False)] = 7.0
    return y


def zero_d_mask_with_index_array(x):
    m0 = x.sum() > 0
    return x[m0, [0, 1]]         # only a True mask broadcasts with two indices


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_d_masks_beside_other_indices(backend):
    for x in (np.arange(12.0).reshape(3, 4), -np.arange(12.0).reshape(3, 4)):
        check(zero_d_masks, x, graphs=1, breaks=0, backend=backend)
        check(zero_d_mask_writes, x, graphs=1, breaks=0, backend=backend)
        # False: NumPy's IndexError when the graph runs, as eagerly
        check(zero_d_mask_with_index_array, x, graphs=1, breaks=0, backend=backend)


def roots_of(p):
    return np.roots(p)


@pytest.mark.parametrize("backend", BACKENDS)
def test_roots_break_with_their_reason(backend):
    """np.roots is float64 when every root is real and complex otherwise, and drops
    leading zeros: its dtype is the data's, so it runs eagerly with a reason saying so."""
    for p in ([1.0, -3.0, 2.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0, -1.0], [0.0, 0.0]):
        report = check(roots_of, np.array(p), breaks=1, backend=backend)
        (record,) = report.break_reasons
        assert "real or complex roots" in record.reason
        assert "np.roots before or after" in record.hint
