"""Run CPython's own language tests with every test method compiled, and report differences.

Each module of the running interpreter's ``test`` package runs twice, each time in a
subprocess of its own: once plain, once with every ``test*`` method of every
``unittest.TestCase`` in it wrapped in ``dynamo.compile``. The outcome of each test
(pass, fail, error, skip, expected failure, ...) is compared; a subprocess that dies (a
segfault) is reported as ``crash`` for the test that was running. Example::

    $ python scripts/cpython_tests.py                  # the language modules, 'eager'
    $ python scripts/cpython_tests.py --fast           # the subset the test command runs
    $ python scripts/cpython_tests.py test_grammar test_scope --backend numpy -v

It exits 1 when any outcome differs, except for tests listed in ``KNOWN_FRAME_TESTS``
(tests that inspect reference counts, object sizes or lifetimes that the compiled
function's machinery changes; docs/python_semantics.md gives each reason), which it
reports as known.

Where a Python ships without its ``test`` package (Debian's system Python), install it
with ``apt-get install libpython3.X-testsuite``; pyenv and python.org builds include it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# The language modules: grammar, scoping, exceptions, calls, comprehensions, the
# builtin types' Python-visible behaviour. Modules that test the interpreter's internals
# (test_compile, test_sys_settrace, test_dis) are not about a function's meaning.
LANGUAGE_MODULES = [
    "test_augassign", "test_baseexception", "test_binop", "test_bool", "test_class",
    "test_compare", "test_complex", "test_contains", "test_contextlib", "test_decorators",
    "test_descr", "test_dict", "test_dictcomps", "test_dictviews", "test_enumerate",
    "test_exception_group", "test_exceptions", "test_float", "test_funcattrs",
    "test_generators", "test_global", "test_grammar", "test_int", "test_isinstance",
    "test_iter", "test_keywordonlyarg", "test_list", "test_listcomps", "test_opcodes",
    "test_patma", "test_positional_only_arg", "test_property", "test_raise", "test_range",
    "test_richcmp", "test_scope", "test_set", "test_setcomps", "test_slice", "test_string",
    "test_super", "test_tuple", "test_unary", "test_unpack_ex", "test_with",
]

# The subset in the test command: modules that run in well under a minute each, compiled.
FAST_MODULES = [
    "test_augassign", "test_binop", "test_bool", "test_compare", "test_contains",
    "test_dictcomps", "test_global", "test_grammar", "test_keywordonlyarg",
    "test_opcodes", "test_positional_only_arg", "test_raise", "test_scope",
    "test_setcomps", "test_unary", "test_unpack_ex", "test_with",
]

# Tests that legitimately differ under compile, keyed by test id; the value is the
# reason (docs/python_semantics.md lists them). They inspect what only the compiled
# function's machinery can change: reference counts and object sizes (dynamo holds
# references while it runs a frame), or the lifetime of a value passed to a resume
# function (the call into it holds the value until it returns). They count as known
# only when the compiled test fails or errors (a crash or a timeout never is).
# (None now: test_funcattrs' test_set_cell, test_dict's test_splittable_popitem and
# test_enumerate's test_bug1229429 pass: tests/dynamo/test_cpython_known.py.)
KNOWN_FRAME_TESTS: dict[str, str] = {}

CHILD = r"""
import json, os, sys, types, unittest, importlib, warnings
mod_name, mode, backend, progress = sys.argv[1:5]
warnings.simplefilter("ignore")
module = importlib.import_module("test." + mod_name)
suite = unittest.defaultTestLoader.loadTestsFromModule(module)
done = set()
with open(progress) as f:
    for line in f:
        done.add(json.loads(line)[0])

def cases(s):
    for t in s:
        if isinstance(t, unittest.TestSuite):
            yield from cases(t)
        else:
            yield t

tests = [t for t in cases(suite) if t.id() not in done]
if mode == "compiled":
    import dynamo
    seen = set()
    for t in tests:
        for klass in type(t).__mro__:
            if klass in seen or not issubclass(klass, unittest.TestCase) \
                    or klass.__module__.startswith("unittest"):
                continue
            seen.add(klass)
            for name, fn in list(vars(klass).items()):
                if name.startswith("test") and isinstance(fn, types.FunctionType):
                    setattr(klass, name, dynamo.compile(fn, backend=backend))

out = open(progress, "a")
def record(test_id, what, detail=""):
    out.write(json.dumps([test_id, what, detail[-600:]]) + "\n")
    out.flush()

class Result(unittest.TestResult):
    def startTest(self, test):
        super().startTest(test)
        record(test.id(), "started")
    def addSuccess(self, test): record(test.id(), "pass")
    def addFailure(self, test, err):
        record(test.id(), "fail", self._exc_info_to_string(err, test))
    def addError(self, test, err):
        record(test.id(), "error", self._exc_info_to_string(err, test))
    def addSkip(self, test, reason): record(test.id(), "skip")
    def addExpectedFailure(self, test, err): record(test.id(), "xfail")
    def addUnexpectedSuccess(self, test): record(test.id(), "xpass")
    def addSubTest(self, test, subtest, err):
        if err is not None:
            what = "fail" if issubclass(err[0], test.failureException) else "error"
            record(subtest.id(), what, self._exc_info_to_string(err, test))

result = Result()
for t in tests:
    t.run(result)
"""


def run_module(python: str, module: str, mode: str, backend: str, timeout: float) -> dict:
    """``{test_id: [outcome, detail]}`` of one module in one mode.

    The child appends each outcome to a progress file as it goes; when it dies (a
    segfault) the test that was running is recorded as ``crash`` and a new child runs
    the tests that are left.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".progress", delete=False) as progress:
        path = progress.name
    env = dict(os.environ, PYTHONHASHSEED="0")
    deadline = time.monotonic() + timeout
    outcomes: dict = {}
    try:
        while True:
            try:
                proc = subprocess.run([python, "-c", CHILD, module, mode, backend, path],
                                      capture_output=True, text=True, env=env,
                                      timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc = None
            with open(path) as f:
                records = [json.loads(line) for line in f if line.endswith("\n")]
            for test_id, what, detail in records:
                outcomes[test_id] = [what, detail]
            running = [t for t, (what, _) in outcomes.items() if what == "started"]
            if proc is None:
                for test_id in running or [f"{module} (rest of the module)"]:
                    outcomes[test_id] = ["timeout", ""]
                return outcomes
            if proc.returncode == 0 and not running:
                return outcomes
            if not running:   # died outside a test (import, collection)
                outcomes[f"{module} (whole module)"] = [
                    "crash", f"exit {proc.returncode}: {proc.stderr[-600:]}"]
                return outcomes
            with open(path, "a") as f:   # the crashed test counts as done; go on after it
                for test_id in running:
                    outcomes[test_id] = ["crash", f"exit {proc.returncode}: {proc.stderr[-600:]}"]
                    f.write(json.dumps([test_id, "crash", ""]) + "\n")
    finally:
        os.unlink(path)


def compare(module: str, python: str, backend: str, timeout: float) -> list[tuple]:
    """The tests of ``module`` whose compiled outcome differs from the plain one."""
    plain = run_module(python, module, "plain", backend, timeout)
    compiled = run_module(python, module, "compiled", backend, timeout)
    diffs = []
    for test_id in sorted(set(plain) | set(compiled)):
        a = plain.get(test_id, ["missing", ""])
        b = compiled.get(test_id, ["missing", ""])
        if a[0] != b[0]:
            diffs.append((test_id, a[0], b[0], b[1]))
    return diffs


def _known(diff: tuple) -> str | None:
    """The reason a difference is known (``KNOWN_FRAME_TESTS``), or None: a listed test
    that fails or errors compiled where it passed plainly."""
    test_id, plain, compiled, _ = diff
    if plain == "pass" and compiled in ("fail", "error"):
        return KNOWN_FRAME_TESTS.get(test_id)
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="test modules (default: the language set)")
    parser.add_argument("--fast", action="store_true", help="only the fast subset")
    parser.add_argument("--backend", default="eager")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("-v", "--verbose", action="store_true", help="print each difference")
    parser.add_argument("--json", help="write the differences to this file")
    args = parser.parse_args(argv)
    modules = args.modules or (FAST_MODULES if args.fast else LANGUAGE_MODULES)

    by_class: dict[str, int] = {}
    all_diffs = {}
    unexplained = n_known = 0
    for module in modules:
        start = time.perf_counter()
        diffs = compare(module, args.python, args.backend, args.timeout)
        all_diffs[module] = diffs
        real = [d for d in diffs if _known(d) is None]
        unexplained += len(real)
        n_known += len(diffs) - len(real)
        known_note = f", {len(diffs) - len(real)} known" if len(diffs) > len(real) else ""
        print(f"{module:28s} {len(real):3d} differences{known_note} "
              f"({time.perf_counter() - start:5.1f} s)", flush=True)
        for diff in diffs:
            test_id, a, b, detail = diff
            known = _known(diff)
            if known is None:
                by_class[f"{a} -> {b}"] = by_class.get(f"{a} -> {b}", 0) + 1
            if args.verbose:
                print(f"    {test_id}: {a} -> {b}" + (f" (known: {known})" if known else ""))
                if detail and not known:
                    print("        " + detail.strip().replace("\n", "\n        ")[-600:])
    print("by class: " + (", ".join(f"{k}: {v}" for k, v in sorted(by_class.items())) or "none"))
    print(f"{unexplained} differences over {len(modules)} modules"
          + (f" ({n_known} known differences, see docs/python_semantics.md)"
             if n_known else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(all_diffs, f, indent=1)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
