"""Count graph breaks on the everyday-NumPy corpora, for docs/realworld.md (issue #19).

The corpora: the programs of ``tests/realworld`` (their first argument set), the
everyday functions of ``tests/realworld/everyday_programs.py`` (data cleaning, scaling,
histograms, top-k, rolling windows, fits, ML steps, images, finance, id sets), the
scientific kernels of ``tests/realworld/kernel_programs.py`` (stencils, PDE time
steppers, solvers, integrators, n-body, Monte Carlo, automata, FFT, linear algebra), the
functions of ``tests/realworld/repository_programs.py`` (layers, losses, optimizers,
clustering, PCA, classifiers, metrics, preprocessing, simulations, signal), the
programs of ``tests/realworld/heldout_programs3.py`` and ``heldout_programs4.py``
(the same kinds and estimators, optimizers, graph algorithms, written before any was
run, standing in for held-out suites), the scientific kernels of
``tests/realworld/kernels_corpus5.py`` (a fifth corpus: stencils, ODE steppers, solvers,
FFT, n-body, fractals, histograms, Monte Carlo, image filters), the functions of
``tests/realworld/repo_functions_corpus.py`` (a sixth corpus: numpy-ml-style layers,
optimizers and objectives with classes, dicts and ``**kwargs``, clustering, HMMs,
preprocessing, metrics, simulations), the functions of
``tests/realworld/everyday_corpus7.py`` (a seventh corpus: preprocessing, metrics,
signal processing, geometry, statistics, with the input checks such code makes), the
functions of ``tests/realworld/segments_corpus8.py`` (an eighth corpus: CSR rows and
segments sliced by bounds read from arrays, ``np.finfo``/``np.iinfo`` objects from
outside, unhashable objects and ``np.poly1d``), the functions of
``tests/realworld/everyday_corpus9.py`` (a ninth corpus: notebook-style cleaning,
scaling, small statistics, images, signals, small models and reports), the functions of
``tests/realworld/heldout_corpus10.py`` (a tenth corpus, written before it was run: ODE
steps, stencils, particles, spectral filters, root finders, Monte Carlo; metrics,
losses, scalers as classes, one-hot, splits, windows, ranks, optimizers), the functions
of ``tests/realworld/heldout_corpus11.py`` (an eleventh corpus, written before it was
run: sizes the data decides, run lengths, group-by, k-means, CSR by hand, peaks, top-k,
histogram equalization), the functions of ``tests/realworld/heldout_corpus12.py`` (a
twelfth corpus, written before it was run: run starts and ends, segment sums, peaks,
interval merging, sparse COO, ``np.r_``/``np.c_`` padding, conditional comprehensions),
the functions of ``tests/realworld/heldout_corpus13.py`` (a thirteenth corpus, written
before it was run: NaN cleaning, scaling, one-hot, confusion matrices, moving averages,
interpolation, image slicing, optimizers over lists of arrays, texts around arrays),
the functions of ``tests/realworld/heldout_corpus14.py`` (a fourteenth corpus, written
before it was run: cleaning, metrics, feature engineering, small simulations, text-ish
arrays, utility helpers), the functions of ``tests/realworld/heldout_corpus15.py`` and
``heldout_corpus15_signal.py`` (a fifteenth corpus, written before it was run:
scientific kernels, stencils, ODE integrators, solvers, particles, Monte Carlo,
signals, small linear algebra, histograms), the programs of
``scripts/bench_realworld.py`` (``realworld_programs.py``, at benchmark sizes) and the
Python-feature
corpus of ``tests/translator`` (``corpus_*.py``), the everyday loops of
``tests/breaks/everyday_loop_programs.py`` (running bests, picks over triangular inner
loops, ``while <array test>:`` with returns, histograms by hand), and the programs of
``tests/breaks`` written to break (every cause, for comparison). Each program is run once under
``dynamo.explain`` (eager backend); the table says how many have no break, how many
breaks there are in all, and how many of each cause (``Unsupported.cause``).

    .venv/bin/python scripts/break_counts.py              # the markdown table
    .venv/bin/python scripts/break_counts.py --reasons    # and every break's reason
    .venv/bin/python scripts/break_counts.py --corpus repository   # one corpus only

The modules are loaded from their files by ``realworld_programs.load_module``, as
bench_realworld loads its corpus: ``tests/`` is not put on ``sys.path``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import copy
import io
import os
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import realworld_programs  # noqa: E402  (a sibling: scripts/ is on sys.path)
from realworld_programs import ROOT, load_module  # noqa: E402

import dynamo  # noqa: E402


def corpora() -> dict[str, list[tuple]]:
    """Corpus name -> [(program name, fn, args, kwargs)]."""
    realworld = [(p.name, p.fn, p.arg_sets[0], p.kwargs or {})
                 for mod in realworld_programs.realworld_modules() for p in mod.PROGRAMS]
    everyday = load_module("everyday_programs",
                           ROOT / "tests" / "realworld" / "everyday_programs.py")
    kernels = load_module("kernel_programs",
                          ROOT / "tests" / "realworld" / "kernel_programs.py")
    repository = load_module("repository_programs",
                             ROOT / "tests" / "realworld" / "repository_programs.py")
    heldout3 = load_module("heldout_programs3",
                           ROOT / "tests" / "realworld" / "heldout_programs3.py")
    heldout4 = load_module("heldout_programs4",
                           ROOT / "tests" / "realworld" / "heldout_programs4.py")
    kernels5 = load_module("kernels_corpus5",
                           ROOT / "tests" / "realworld" / "kernels_corpus5.py")
    repo_functions = load_module("repo_functions_corpus",
                                 ROOT / "tests" / "realworld" / "repo_functions_corpus.py")
    everyday7 = load_module("everyday_corpus7",
                            ROOT / "tests" / "realworld" / "everyday_corpus7.py")
    segments8 = load_module("segments_corpus8",
                            ROOT / "tests" / "realworld" / "segments_corpus8.py")
    everyday9 = load_module("everyday_corpus9",
                            ROOT / "tests" / "realworld" / "everyday_corpus9.py")
    heldout10 = load_module("heldout_corpus10",
                            ROOT / "tests" / "realworld" / "heldout_corpus10.py")
    heldout11 = load_module("heldout_corpus11",
                            ROOT / "tests" / "realworld" / "heldout_corpus11.py")
    heldout12 = load_module("heldout_corpus12",
                            ROOT / "tests" / "realworld" / "heldout_corpus12.py")
    heldout13 = load_module("heldout_corpus13",
                            ROOT / "tests" / "realworld" / "heldout_corpus13.py")
    heldout14 = load_module("heldout_corpus14",
                            ROOT / "tests" / "realworld" / "heldout_corpus14.py")
    heldout15 = [load_module(stem, ROOT / "tests" / "realworld" / f"{stem}.py")
                 for stem in ("heldout_corpus15", "heldout_corpus15_signal")]
    translator = []
    for stem in ("functions", "control", "containers", "objects", "more"):
        mod = load_module(f"corpus_{stem}",
                          ROOT / "tests" / "translator" / f"corpus_{stem}.py")
        translator += [(f"{stem}-{name}", fn, args, {}) for name, fn, args, *_ in mod.PROGRAMS]
    everyday_loops = load_module("everyday_loop_programs",
                                 ROOT / "tests" / "breaks" / "everyday_loop_programs.py")
    written_to_break = []
    for stem in ("corpus_breaks", "corpus_breaks_more"):
        mod = load_module(stem, ROOT / "tests" / "breaks" / f"{stem}.py")
        written_to_break += [(name, fn, args, {}) for name, fn, args, *_ in mod.PROGRAMS]
    return {"tests/realworld": realworld,
            "tests/realworld/everyday_programs.py": [
                (name, fn, args, {}) for name, fn, args in everyday.PROGRAMS],
            "tests/realworld/kernel_programs.py": [
                (name, fn, args, {}) for name, fn, args in kernels.PROGRAMS],
            "tests/realworld/repository_programs.py": [
                (name, fn, args, {}) for name, fn, args in repository.PROGRAMS],
            "tests/realworld/heldout_programs3.py": [
                (name, fn, args, {}) for name, fn, args in heldout3.PROGRAMS],
            "tests/realworld/heldout_programs4.py": [
                (name, fn, args, {}) for name, fn, args in heldout4.PROGRAMS],
            "tests/realworld/kernels_corpus5.py": [
                (name, fn, args, {}) for name, fn, args in kernels5.PROGRAMS],
            "tests/realworld/repo_functions_corpus.py": [
                (name, fn, args, {}) for name, fn, args in repo_functions.PROGRAMS],
            "tests/realworld/everyday_corpus7.py": [
                (name, fn, args, {}) for name, fn, args in everyday7.PROGRAMS],
            "tests/realworld/segments_corpus8.py": [
                (name, fn, args, {}) for name, fn, args in segments8.PROGRAMS],
            "tests/realworld/everyday_corpus9.py": [
                (name, fn, args, {}) for name, fn, args in everyday9.PROGRAMS],
            "tests/realworld/heldout_corpus10.py": [
                (name, fn, args, {}) for name, fn, args in heldout10.PROGRAMS],
            "tests/realworld/heldout_corpus11.py": [
                (name, fn, args, {}) for name, fn, args in heldout11.PROGRAMS],
            "tests/realworld/heldout_corpus12.py": [
                (name, fn, args, {}) for name, fn, args in heldout12.PROGRAMS],
            "tests/realworld/heldout_corpus13.py": [
                (name, fn, args, {}) for name, fn, args in heldout13.PROGRAMS],
            "tests/realworld/heldout_corpus14.py": [
                (name, fn, args, {}) for name, fn, args in heldout14.PROGRAMS],
            "tests/realworld/heldout_corpus15.py": [
                (name, fn, args, {}) for mod in heldout15 for name, fn, args in mod.PROGRAMS],
            "scripts/bench_realworld.py": [tuple(p) for p in realworld_programs.programs()],
            "tests/translator corpus": translator,
            "tests/breaks everyday loops": [
                (name, fn, args, {}) for name, fn, args in everyday_loops.PROGRAMS],
            "tests/breaks corpus (written to break)": written_to_break}


def count(programs) -> tuple[int, int, collections.Counter, list]:
    """(programs with no break, breaks in all, breaks by cause, [(program, reason)])."""
    clean, total, causes, reasons = 0, 0, collections.Counter(), []
    for name, fn, args, kwargs in programs:
        dynamo.reset()
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            report = dynamo.explain(fn,
                                    backend="eager")(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        breaks = report.graph_break_count
        clean += breaks == 0
        total += breaks
        for b in report.break_reasons:
            causes[b.cause or "other"] += 1
            reasons.append((name, b.reason.splitlines()[0]))
    return clean, total, causes, reasons


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reasons", action="store_true", help="list every break")
    parser.add_argument("--corpus", default="",
                        help="count only the corpora whose name contains this text")
    opts = parser.parse_args()
    print("| corpus | programs with 0 breaks / total | breaks in all | by cause |")
    print("|---|---|---|---|")
    listed = []
    for corpus, programs in corpora().items():
        if opts.corpus not in corpus:
            continue
        clean, total, causes, reasons = count(programs)
        by_cause = ", ".join(f"{c} {n}" for c, n in causes.most_common()) or "-"
        print(f"| {corpus} | {clean} / {len(programs)} | {total} | {by_cause} |")
        listed += [(corpus, *r) for r in reasons]
    if opts.reasons:
        print()
        for corpus, name, reason in listed:
            print(f"- {corpus}: `{name}`: {reason}")


if __name__ == "__main__":
    main()
