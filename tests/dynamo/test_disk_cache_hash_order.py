"""The disk cache between processes with different string hash secrets (issue #17): a
trace that iterates a set of strings is used only by processes that hash strings as
the one that stored it did; a trace that iterates a set of ints by every process
(dynamo/hash_order.py; in one process: tests/dynamo/test_hash_order.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

PROGRAM = '''
import json, logging, sys
import numpy as np
import dynamo
from dynamo import listeners


def names(x):
    s = {"alpha", "beta", "gamma", "delta", "eps"}   # its order follows str hashes
    return x + 1, [k for k in s]


def numbers(x):
    s = {3, 17, 1, 9, 40, 33}   # its order is the same in every process
    return x + 1, list(s)


class Messages(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def run(fn):
    """fn's compiled result, the plain one, and how many frames were traced."""
    frames = []
    starts = type("Starts", (), {"on_frame_start": lambda self, f, ctx: frames.append(f)})
    with listeners.listening(starts()):
        got = dynamo.compile(fn, backend="eager")(np.ones(2))[1]
    return {"got": got, "plain": fn(np.ones(2))[1], "traced": len(frames)}


if __name__ == "__main__":
    messages = Messages()
    logger = logging.getLogger("dynamo.cache")
    logger.addHandler(messages)
    logger.setLevel(logging.DEBUG)
    out = {"names": run(names), "numbers": run(numbers), "log": messages.lines}
    print(json.dumps(out))
'''


def run_process(tmp_path: Path, seed: int) -> dict:
    program = tmp_path / "program.py"
    if not program.exists():
        program.write_text(textwrap.dedent(PROGRAM))
    environ = {k: v for k, v in os.environ.items() if k != "DYNAMO_LOGS"}
    environ.update(DYNAMO_CACHE_DIR=str(tmp_path / "cache"), PYTHONHASHSEED=str(seed))
    out = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                         cwd=tmp_path, env=environ, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_set_of_strings_is_iterated_in_each_process_own_order(tmp_path):
    first = run_process(tmp_path, 1)
    second = run_process(tmp_path, 2)
    # (the two secrets order these strings differently: else this tests nothing)
    assert first["names"]["plain"] != second["names"]["plain"]
    for result in (first, second):
        assert result["names"]["got"] == result["names"]["plain"]
        assert result["numbers"]["got"] == result["numbers"]["plain"]
    assert first["names"]["traced"] == first["numbers"]["traced"] == 1
    # the entry of the strings is the first process's only; the ints' is everyone's
    assert second["names"]["traced"] == 1
    assert any("skipped 1 entry file(s)" in line and "another string hash secret" in line
               for line in second["log"])
    assert second["numbers"]["traced"] == 0
    stored = sorted(p.name for p in (tmp_path / "cache").glob("*/*.json"))
    assert len(stored) == 3 and sum("-" in name for name in stored) == 2
