"""Run CPython's own language tests with every test method compiled, and report differences.

The modules of the running interpreter's ``test`` package run twice, each time in a
subprocess (one for all the modules, one after another, as CPython's ``regrtest`` runs
them): once plain, once with every ``test*`` method of every ``unittest.TestCase`` in
them wrapped in ``dynamo.compile``. The outcome of each test (pass, fail, error, skip,
expected failure, ...) is compared; a subprocess that dies (a segfault) is reported as
``crash`` for the test that was running, and a new one runs the tests after it. Example::

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
import json, os, sys, time, traceback, types, unittest, importlib, warnings
mode, backend, progress, *modules = sys.argv[1:]
warnings.simplefilter("ignore")
done, finished = set(), set()   # tests that ran; modules done or crashed while imported
with open(progress) as f:
    for line in f:
        test_id, what = json.loads(line)[:2]
        (finished if test_id.endswith(" (whole module)") and what != "started"
         else done).add(test_id)
out = open(progress, "a")

def record(test_id, what, detail=""):
    out.write(json.dumps([test_id, what, detail[-600:], module]) + "\n")
    out.flush()

def cases(s):
    for t in s:
        if isinstance(t, unittest.TestSuite):
            yield from cases(t)
        else:
            yield t

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

if mode == "compiled":
    import dynamo
seen = set()
for module in modules:
    whole = f"{module} (whole module)"
    if whole in finished:
        continue
    start = time.perf_counter()
    record(whole, "started")
    try:
        suite = unittest.defaultTestLoader.loadTestsFromModule(
            importlib.import_module("test." + module))
    except Exception:      # the module does not import here: as a child that died
        record(whole, "crash", traceback.format_exc())
        continue
    tests = [t for t in cases(suite) if t.id() not in done]
    if mode == "compiled":
        for t in tests:
            for klass in type(t).__mro__:
                if klass in seen or not issubclass(klass, unittest.TestCase) \
                        or klass.__module__.startswith("unittest"):
                    continue
                seen.add(klass)
                for name, fn in list(vars(klass).items()):
                    if name.startswith("test") and isinstance(fn, types.FunctionType):
                        setattr(klass, name, dynamo.compile(fn, backend=backend))
    result = Result()
    for t in tests:
        t.run(result)
    record(whole, "done", str(time.perf_counter() - start))
"""

WHOLE = " (whole module)"


def run_modules(python: str, modules: list[str], mode: str, backend: str,
                timeout: float) -> tuple[dict, dict]:
    """``{module: {test_id: [outcome, detail]}}`` of the modules in one mode, and
    ``{module: seconds}``: one child runs them all, one after another, as CPython's
    own ``regrtest`` does (a child per module spent most of its time importing
    ``dynamo``: half a minute of every test run).

    The child appends each outcome to a progress file as it goes; when it dies (a
    segfault) or hangs, the test that was running is recorded as ``crash`` (or
    ``timeout``) and a new child runs the tests that are left. A module that dies or
    fails while it is imported is recorded as one ``crash``, ``MODULE (whole module)``.
    The modules have ``timeout`` seconds each, in all.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".progress", delete=False) as progress:
        path = progress.name
    env = dict(os.environ, PYTHONHASHSEED="0")
    deadline = time.monotonic() + timeout * len(modules)
    outcomes: dict = {}          # test_id -> [outcome, detail, module]
    try:
        while True:
            left = deadline - time.monotonic()
            try:
                proc = subprocess.run([python, "-c", CHILD, mode, backend, path, *modules],
                                      capture_output=True, text=True, env=env,
                                      timeout=max(1.0, left))
            except subprocess.TimeoutExpired:
                proc = None
            with open(path) as f:
                records = [json.loads(line) for line in f if line.endswith("\n")]
            for test_id, what, detail, module in records:
                outcomes[test_id] = [what, detail, module]
            if proc is not None and proc.returncode == 0 and not _running(outcomes):
                break
            running = _running(outcomes)
            if proc is None:   # out of time: what runs and what is left timed out
                for test_id in running:
                    outcomes[test_id][:2] = ["timeout", ""]
                for module in modules:
                    if outcomes.get(module + WHOLE, [""])[0] not in ("done", "crash"):
                        outcomes[f"{module} (rest of the module)"] = ["timeout", "", module]
                break
            if not running:   # died outside a test and an import (at exit): the last one
                outcomes[modules[-1] + WHOLE] = [
                    "crash", f"exit {proc.returncode}: {proc.stderr[-600:]}", modules[-1]]
                break
            with open(path, "a") as f:   # the crashed test counts as done; go on after it
                for test_id in running:
                    outcomes[test_id][:2] = ["crash",
                                             f"exit {proc.returncode}: {proc.stderr[-600:]}"]
                    f.write(json.dumps([test_id, "crash", "", outcomes[test_id][2]]) + "\n")
    finally:
        os.unlink(path)
    by_module: dict = {m: {} for m in modules}
    seconds: dict = dict.fromkeys(modules, 0.0)
    for test_id, (what, detail, module) in outcomes.items():
        if test_id.endswith(WHOLE) and what in ("started", "done"):
            seconds[module] = float(detail) if what == "done" else 0.0
            continue
        by_module[module][test_id] = [what, detail]
    return by_module, seconds


def _running(outcomes: dict) -> list[str]:
    """The tests that started and did not finish; else a module being imported."""
    started = [t for t, (what, _, _) in outcomes.items() if what == "started"]
    tests = [t for t in started if not t.endswith(WHOLE)]
    return tests or started


def compare(modules: list[str], python: str, backend: str,
            timeout: float) -> tuple[dict, dict]:
    """``{module: [the tests whose compiled outcome differs from the plain one]}`` and
    ``{module: seconds, plain and compiled}``."""
    plain, plain_s = run_modules(python, modules, "plain", backend, timeout)
    compiled, compiled_s = run_modules(python, modules, "compiled", backend, timeout)
    diffs: dict = {}
    for module in modules:
        a_run, b_run = plain[module], compiled[module]
        diffs[module] = []
        for test_id in sorted(set(a_run) | set(b_run)):
            a = a_run.get(test_id, ["missing", ""])
            b = b_run.get(test_id, ["missing", ""])
            if a[0] != b[0]:
                diffs[module].append((test_id, a[0], b[0], b[1]))
    return diffs, {m: plain_s[m] + compiled_s[m] for m in modules}


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
    all_diffs, seconds = compare(modules, args.python, args.backend, args.timeout)
    for module in modules:
        diffs = all_diffs[module]
        real = [d for d in diffs if _known(d) is None]
        unexplained += len(real)
        n_known += len(diffs) - len(real)
        known_note = f", {len(diffs) - len(real)} known" if len(diffs) > len(real) else ""
        print(f"{module:28s} {len(real):3d} differences{known_note} "
              f"({seconds[module]:5.1f} s)", flush=True)
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
