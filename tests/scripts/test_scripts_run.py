"""The scripts run as a user runs them: ``python scripts/X.py`` from any folder.

A script puts ``tests/shared`` (the model suite) on ``sys.path``, never ``tests/``,
whose ``dynamo/`` test folder would otherwise shadow the installed package (an import
of ``dynamo`` then finds a namespace package with nothing in it).
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(script: str, *args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / script), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_the_demo_runs_from_another_folder(tmp_path):
    done = run("demo.py", "--backend", "eager", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "compiled result equals eager: True" in done.stdout


def test_bench_partition_runs_from_another_folder(tmp_path):
    done = run("bench_partition.py", "--sizes", "30", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "'statements': 30" in done.stdout


def test_no_script_puts_the_tests_folder_itself_on_the_path():
    for script in (ROOT / "scripts").glob("*.py"):
        text = script.read_text()
        assert '/ "tests"))' not in text and '/ "tests")' + "\n" not in text, script.name
