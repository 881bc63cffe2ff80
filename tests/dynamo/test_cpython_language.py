"""CPython's own language tests pass with every test method compiled (the fast subset;
``scripts/cpython_tests.py`` runs all of them, see docs/python_semantics.md)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def has_cpython_tests() -> bool:
    try:
        import test.test_grammar  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.slow
def test_fast_language_modules_behave_the_same_compiled():
    assert has_cpython_tests(), (
        f"{sys.executable} has no CPython `test` package: install it "
        f"(Debian: apt-get install libpython{sys.version_info.major}.{sys.version_info.minor}"
        f"-testsuite; a get-python.sh Python: bash scripts/get-testsuite.sh DEST VERSION)")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cpython_tests.py"),
                           "--fast", "-v"], capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-2000:]
    assert "0 differences over" in proc.stdout
