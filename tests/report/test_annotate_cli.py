"""``python -m dynamo annotate script.py``: the script runs as usual, the report is written."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import sys
    import numpy as np

    def helper(v):
        return v * 10

    def step(x, w):
        h = np.tanh(x @ w)
        print("norm positive:", float(np.abs(h).sum()) > 0)
        return h * 2

    def main():
        x = np.ones((3, 4)); w = np.full((4, 2), 0.1)
        for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 2):
            y = step(x, w)
        print("shape", y.shape, helper(1))

    if __name__ == "__main__":
        main()
''')


def run_cli(tmp_path, *args):
    script = tmp_path / "app.py"
    script.write_text(SCRIPT)
    return subprocess.run([sys.executable, "-m", "dynamo", "annotate", str(script), *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)


def test_annotates_the_named_function(tmp_path):
    out = tmp_path / "step.html"
    done = run_cli(tmp_path, "--function", "step", "-o", str(out), "--", "3")
    assert done.returncode == 0, done.stderr
    # the script behaves as without the tool: its own output, its own arguments
    assert done.stdout == "norm positive: True\n" * 3 + "shape (3, 2) 10\n"
    assert "annotate: wrote" in done.stderr and "step: " in done.stderr
    text = out.read_text()
    assert "dynamo annotate: step" in text and 'class="ln st-break"' in text
    # float(...) > 0 stays in the graph (translator/number_compares.py): the break is
    # the print that writes it
    assert "cause: print" in text


def cli(*args) -> int:
    """The command in this process (the subprocess test above covers ``-m dynamo``)."""
    from dynamo.__main__ import main
    return main(["annotate", *map(str, args)])


def test_default_function_is_the_first_called_from_main(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text(SCRIPT)
    assert cli(tmp_path / "app.py", "--calls", "2") == 0
    assert (tmp_path / "app.annotate.html").is_file()
    assert "(main: " in capsys.readouterr().err


def test_clear_errors(tmp_path, capsys):
    (tmp_path / "app.py").write_text(SCRIPT)
    assert cli(tmp_path / "app.py", "--function", "nope") == 2
    assert "never defined a top-level callable named 'nope'" in capsys.readouterr().err
    assert cli(tmp_path / "app.py", "--function", "helper", "--backend", "nope") == 2
    assert "unknown backend 'nope'" in capsys.readouterr().err
    assert cli(tmp_path / "absent.py") == 2
    assert "no such script" in capsys.readouterr().err
    assert cli(tmp_path / "app.py", "--calls", "0") == 2
    assert "--calls must be >= 1" in capsys.readouterr().err


def test_function_never_called(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "lib.py"
    script.write_text("def f(x):\n    return x\n")
    assert cli(script, "--function", "f") == 2
    assert "never called f()" in capsys.readouterr().err
    assert cli(script) == 2
    assert "pass --function NAME (functions defined: f)" in capsys.readouterr().err


def test_script_exit_code_and_state_are_kept(tmp_path, capsys, monkeypatch):
    import sys
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "exits.py"
    script.write_text("import sys\nimport numpy as np\n\ndef f(x):\n    return x + 1\n\n"
                      "if __name__ == '__main__':\n    f(np.ones(2))\n    sys.exit(3)\n")
    main_module, argv, path = sys.modules["__main__"], list(sys.argv), list(sys.path)
    assert cli(script) == 3
    assert (tmp_path / "exits.annotate.html").is_file()
    assert (sys.modules["__main__"], sys.argv, sys.path) == (main_module, argv, path)
