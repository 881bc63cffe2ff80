"""scripts/run_in_tree.py imports dynamo, dynamo.backends and dynamo.guards all from the
tree it is given (PYTHONPATH alone would give the working tree's backends and guards)."""

import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "run_in_tree.py"


def test_all_three_packages_come_from_the_given_tree(tmp_path):
    for folder in ("dynamo", "backends", "guards"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text(f"TREE = {folder!r}\n")
    (tmp_path / "backends" / "options.py").write_text("X = 1\n")
    probe = tmp_path / "probe.py"
    probe.write_text("import dynamo, dynamo.backends.options, dynamo.guards, sys\n"
                     "print(dynamo.__file__, dynamo.backends.options.__file__,\n"
                     "      dynamo.guards.__file__, sys.argv[1:])\n")
    out = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), str(probe), "--k", "1"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[:3] == [str(tmp_path / "dynamo" / "__init__.py"),
                       str(tmp_path / "backends" / "options.py"),
                       str(tmp_path / "guards" / "__init__.py")]
    assert out[3:] == ["['--k',", "'1']"]


def test_a_folder_that_is_no_checkout_is_refused(tmp_path):
    run = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "x.py"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "not a checkout" in run.stderr
