"""`import dynamo` stays small: no networkx, no HTML report, no backend until it is used.

Each check runs in a fresh interpreter (this process has long since imported all of it)
and prints what it finds in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def modules_after(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; what ``sys.modules`` then holds, as
    {"modules": [...], "backends": the backends package's name}."""
    script = (f"import sys, json\n{code}\n"
              "import dynamo\n"
              "pkg = dynamo.list_backends.__module__.rpartition('.')[0]\n"
              "print(json.dumps({'modules': sorted(sys.modules), 'backends': pkg}))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def loaded_under(found: dict, package: str) -> list[str]:
    return [m for m in found["modules"] if m == package or m.startswith(package + ".")]


def test_import_dynamo_loads_neither_networkx_nor_the_report():
    found = modules_after("import dynamo")
    assert loaded_under(found, "networkx") == []
    assert loaded_under(found, "dynamo.report") == []


def test_import_dynamo_imports_no_backend():
    found = modules_after("import dynamo; dynamo.list_backends()")
    pkg = found["backends"]
    assert loaded_under(found, pkg) == [pkg, f"{pkg}.registry"]


def test_a_backend_is_imported_when_first_looked_up():
    found = modules_after("import dynamo\n"
                          "registry = sys.modules[dynamo.list_backends.__module__]\n"
                          "registry.lookup_backend('eager')")
    pkg = found["backends"]
    assert loaded_under(found, pkg) == [pkg, f"{pkg}.common", f"{pkg}.eager",
                                        f"{pkg}.registry"]


@pytest.mark.parametrize("code", [
    "import dynamo, numpy as np\n"
    "dynamo.compile(lambda x: np.exp(x) + 1, backend='eager')(np.ones(3))",
    "import dynamo, numpy as np\n"
    "dynamo.explain(lambda x: np.exp(x) + 1, backend='eager')(np.ones(3))",
])
def test_compiling_with_eager_loads_no_networkx(code):
    assert loaded_under(modules_after(code), "networkx") == []


def test_the_report_loads_when_used(tmp_path):
    code = ("import dynamo, numpy as np\n"
            f"dynamo.annotate(lambda x: np.exp(x) + 1, output={str(tmp_path / 'r.html')!r})"
            "(np.ones(3))")
    found = modules_after(code)
    assert "dynamo.report.page" in found["modules"] and "networkx" in found["modules"]
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
