"""``--split-runs``: the tests whose outcome does not depend on the Python, shared out
among CI's three Pythons (scripts/run.sh) the way ``--hostile-runs`` shares the hostile
suite, so each such test runs once per CI run instead of three times.

Which tests: the files under ``SPLIT_FOLDERS`` (the backends' code generation and
lowering, the ops catalog: what they check is the backend's code, which is the same on
every Python; the functions they trace are a few plain lines, the frontend's own tests
run on every Python), less the files in ``EVERY_PYTHON`` (they check behaviour that
differs between Pythons: grep for ``version_info``, ``sys.monitoring``, ``dis`` when
adding a file there). Every other test runs on every Python.

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
})
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
    return path.startswith(SPLIT_FOLDERS) and path not in EVERY_PYTHON


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
