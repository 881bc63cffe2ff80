"""``--split-runs``: the tests whose outcome does not depend on the Python, shared out
among CI's three Pythons (scripts/run.sh) the way ``--hostile-runs`` shares the hostile
suite, so each such test runs once per CI run instead of three times.

Which tests: the files under ``SPLIT_FOLDERS`` (the backends' code generation and
lowering, the ops catalog: what they check is the backend's code, which is the same on
every Python; the functions they trace are a few plain lines, the frontend's own tests
run on every Python), less the files in ``EVERY_PYTHON`` (they check behaviour that
differs between Pythons: grep for ``version_info``, ``sys.monitoring``, ``dis`` when
adding a file there), and the files in ``ONE_PYTHON`` (static checks of the source tree:
they read files with ``ast`` and run none of it; and this split's own tests).

Whole programs (``BACKEND_RUN_FOLDERS``: tests/realworld), and the frontend's tests that
run one function on several backends (translator, breaks, symbolic, variables, dynamo,
guards) are checked on the eager
backend, the frontend's work (translation, breaks, guards: where the Pythons differ),
and on compiled backends (numpy, auto), whose code is the same on every Python, as the
hostile suite's numpy runs are. Their eager runs stay on every Python; each other
backend's run of a test is in one share, by a hash of the test's node id (parameters
included) and the backend (``takes_backend_run``): a test parametrized by ``backend``,
``eager`` among them, is deselected in the other shares, and
``tests/realworld/rw_check.check_program`` leaves out the backends a test names itself
(or is parametrized with, eager not among them: its break counts still run) but this
share does not run. Every other test runs on every Python.

A test belongs to one share, chosen from its file and function name (not its parameters:
a parameter list may differ between NumPy versions, and every parameter of a function
then still lands in the same share, so a test that exists on only one Python is not lost
between the shares; the files in ``WHOLE_FILES`` by their path alone). The shares ``1/3``, ``2/3`` and ``3/3`` together are every test once:

    >>> share_of("tests/ops/test_ops_ufuncs.py::test_ufunc[add-float32]", 3)
    1
    >>> share_of("tests/ops/test_ops_ufuncs.py::test_ufunc[sin-int8]", 3)   # same function
    1
    >>> takes(parse("2-3/3"), "tests/ops/test_ops_ufuncs.py::test_ufunc[add-float32]")
    False
    >>> takes(parse("1/3"), "tests/dynamo/test_api.py::test_compile")   # not split: always
    True
    >>> [takes_backend_run(parse(f"{k}/3"), "tests/realworld/test_a.py::test_p[x]", "numpy")
    ...  for k in (1, 2, 3)]                               # a program's numpy run: one share
    [True, False, False]
    >>> takes_backend_run(parse("1/3"), "tests/realworld/test_a.py::test_p[x]", "eager")
    True
"""

import zlib

import pytest

# relative to the repository root, "/"-separated, as in pytest's node ids
SPLIT_FOLDERS = ("tests/backends/", "tests/ops/")
EVERY_PYTHON = frozenset({
    # sys.monitoring (3.12+) and the 3.14 change to signal handlers: differs per Python
    "tests/backends/numpy_backend/test_numpy_backend_program_hooks.py",
    # where CPython checks for a pending signal (calls, returns, backward jumps)
    "tests/backends/numpy_backend/test_numpy_backend_interrupts.py",
    # the specializing interpreter's instructions on the graph's code (3.11 vs 3.12+)
    "tests/backends/test_eager_ops.py",
    # a chain of data (``lo <= x[i] < hi``): on 3.13+ its ``bool()`` is left to the
    # jump (translator/size_chains.py, bytecode/break_code.py's ``TO_BOOL``)
    "tests/backends/numpy_backend/test_numpy_backend_carried_ints.py",
    # the entry trial (dynamo/entry_trial.py, the frontend's) on the numpy backend: its
    # numpy runs are what it tests
    "tests/realworld/test_entry_trial_corpora.py",
})
# static checks of the tree (ast; no code of the project runs), and this split's
# own (its arithmetic and the conftest hook that applies it): the same on every Python,
# split like the folders above
ONE_PYTHON = frozenset({
    "tests/test_no_runtime_patching.py",
    "tests/test_import_graph.py",
    "tests/test_split_runs.py",
})
# whole programs, and the frontend's tests parametrized by backend with eager among them:
# their eager runs on every Python (the translation, where the Pythons differ), each
# other backend's run in one share (it checks that backend's code on the same graphs)
BACKEND_RUN_FOLDERS = ("tests/realworld/", "tests/translator/", "tests/breaks/",
                       "tests/symbolic/", "tests/variables/", "tests/dynamo/",
                       "tests/guards/")
# files whose last test checks what the tests above it made (the CUDA of every plan, in
# module-level lists): their tests stay together, in the share of the file
WHOLE_FILES = frozenset({
    "tests/backends/cupy_backend/test_cupy_reference.py",
    "tests/backends/cupy_backend/test_cupy_sizes.py",
    "tests/backends/cupy_backend/test_cupy_gpu.py",
})


def parse(text: str) -> tuple[int, int, int]:
    """``"2/3"`` -> (2, 2, 3); ``"1-2/3"`` -> (1, 2, 3); ``""`` -> (1, 1, 1) (all)."""
    if not text:
        return 1, 1, 1
    ks, _, n = text.partition("/")
    first, _, last = ks.partition("-")
    last = last or first
    if not (first.isdigit() and last.isdigit() and n.isdigit()
            and 1 <= int(first) <= int(last) <= int(n)):
        raise pytest.UsageError(f"--split-runs: {text!r} is not K/N or K1-K2/N "
                                "with 1 <= K <= N, e.g. 1/3 or 2-3/3")
    return int(first), int(last), int(n)


def is_split(nodeid: str) -> bool:
    path = nodeid.partition("::")[0]
    return (path.startswith(SPLIT_FOLDERS) and path not in EVERY_PYTHON) or \
        path in ONE_PYTHON


def share_of(nodeid: str, shares: int) -> int:
    """The share (1..shares) of the test ``nodeid``: a stable hash of its file and
    function (the same on every Python and every run; ``hash()`` is salted)."""
    function = nodeid.partition("[")[0]
    if function.partition("::")[0] in WHOLE_FILES:
        function = function.partition("::")[0]
    return zlib.crc32(function.encode()) % shares + 1


def takes(split: tuple[int, int, int], nodeid: str) -> bool:
    """Whether a run with ``--split-runs`` = ``split`` runs the test ``nodeid``."""
    first, last, shares = split
    return not is_split(nodeid) or first <= share_of(nodeid, shares) <= last


def takes_backend_run(split: tuple[int, int, int], nodeid: str, backend: str) -> bool:
    """Whether a run with ``--split-runs`` = ``split`` runs the test ``nodeid`` (a
    program's test) on ``backend``: eager always, as every backend outside
    ``BACKEND_RUN_FOLDERS``; another backend in the share of a hash of the node id and the
    backend (one program's numpy and auto runs may land on different Pythons)."""
    first, last, shares = split
    if backend == "eager" or not nodeid.startswith(BACKEND_RUN_FOLDERS) or \
            nodeid.partition("::")[0] in EVERY_PYTHON:
        return True
    return first <= zlib.crc32(f"{nodeid}|{backend}".encode()) % shares + 1 <= last
