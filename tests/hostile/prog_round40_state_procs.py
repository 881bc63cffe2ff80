"""Round 40, state across processes (the category of ``prog_round40_state_hash.py``): one
disk cache directory shared by processes run one after another, each with its own
``PYTHONHASHSEED`` (1, 2, then 1 again: the third finds the first's entries), and
between processes a global, a helper's code or an input's dtype changed (the
``VARIANT`` the script reads). Each process runs every function plainly, then compiled
(``dynamo.compile(fn, backend=...)``, ``DYNAMO_CACHE_DIR``), and reports the results
whose ``repr`` differ and dynamo's internal errors: none may. One program, three
processes per backend (each imports NumPy and dynamo anew: seconds, not the 0.3 s of
a program; the plain run starts none).

    >>> # process 1 (seed 1) stores list({"alpha", ...}) in its order; process 2
    >>> # (seed 2) must not run it: its own order differs
"""

import functools
import json
import os
import subprocess
import sys
import tempfile
import textwrap

from hostile_check import Programs

reg = Programs("round40_state")

_HEAD = '''
import json, logging, os, sys
import numpy as np
import dynamo
MODE, VARIANT = sys.argv[1], sys.argv[2]
errors = []
class _Errors(logging.Handler):
    def emit(self, record):
        errors.append(record.getMessage()[:200])
logging.getLogger("dynamo.internal").addHandler(_Errors(logging.WARNING))
X = np.array([0.5, -1.0, 2.0, 3.5, 4.0, -2.5])
'''

_TAIL = '''
def outputs(wrap):
    out = []
    for fn, args in CALLS:
        f = wrap(fn)
        for a in args:
            try:
                out.append(repr(f(*a)))
            except Exception as e:
                out.append(f"raised {type(e).__name__}: {e}")
    return out

plain = outputs(lambda fn: fn)
got = outputs(lambda fn: dynamo.compile(fn, backend=MODE))
differ = [f"{i}: {p} != {g}" for i, (p, g) in enumerate(zip(plain, got)) if p != g]
print(json.dumps({"differ": differ, "errors": errors, "ran": len(got) > 20}))
'''

_ORDERS = '''
WORDS = ["alpha", "beta", "gamma", "delta", "eps", "zeta"]

def listed(x):
    s = set(WORDS)
    return x * 0 + len(s), list(s)

def joined(x):
    return x - 1.0, ",".join(frozenset(WORDS))

def from_set(x):
    d = {k: i for i, k in enumerate({"u", "v", "w", "z"})}
    return x + d["w"], list(d)

def popped(x):
    s = set(WORDS)
    return x * len(s.pop()), len(s)

def hashed(x):
    return x[hash("alpha") % len(x)]

def as_text(x):
    return x * 2.0, str(frozenset(WORDS[:4]))

def pairs(x):
    return [x[:2] * n for _, n in {("a", 1), ("b", 2), ("c", 3)}]

def written(x):
    out = x.copy()
    for i, k in enumerate({"aa", "bbb", "c", "dddd"}):
        out[i] = out[i] * len(k)
    return out

def given(x, words):
    return x * 0 + 1, list(set(words))

def numbers(x):
    return x * 2.0, list({40, 3, 17, 1, 9})

GLOBAL_SET = set(WORDS)
GLOBAL_FS = frozenset(WORDS)

def global_listed(x):
    return x + 1.0, list(GLOBAL_SET), [k for k in GLOBAL_FS]

def keyed_sorts(x):
    s = set(WORDS + ["ab", "cd", "ef"])
    return x * 0, sorted(s, key=len), max(s, key=len), min(s, key=len)

def counted(x):
    import collections
    return x * 2, collections.Counter(set(WORDS)).most_common(3)

def mapped(x):
    s = frozenset(WORDS)
    return x - 1, list(map(str.upper, s)), dict(zip(s, range(9))), tuple(s), [*s]

def formatted(x):
    s = frozenset(WORDS[:3])
    return x + 2, "{}".format(s), "%s" % (s,), f"{s!r}", hash(s) % 1000

def popped_loop(x):
    s = set(WORDS)
    out = []
    for v in x:
        if s:
            out.append(s.pop() + str(float(v)))
    return out

def arg_set(x, s):
    return [x[:1] * len(k) for k in s], list(s)

CALLS = [(global_listed, [(X,)]), (keyed_sorts, [(X,)]), (counted, [(X,)]),
         (mapped, [(X,)]), (formatted, [(X,)]), (popped_loop, [(X,)]),
         (arg_set, [(X, set(WORDS)), (X, frozenset(WORDS[:3]))])]
CALLS += [(listed, [(X,)]), (joined, [(X,)]), (from_set, [(X,)]), (popped, [(X,)]),
         (hashed, [(X,)]), (as_text, [(X,)]), (pairs, [(X,)]), (written, [(X,)]),
         (given, [(X, WORDS), (X, ("q", "r", "s"))]), (numbers, [(X,)])]
'''

_CHANGES = '''
SCALE = 2.0 if VARIANT == "a" else 5.0
NAMES = {"a", "b"} if VARIANT == "a" else {"a", "b", "c"}

if VARIANT == "a":
    def helper(v):
        return v * 3.0
else:
    def helper(v):
        return v - 100.0

DT = np.float64 if VARIANT == "a" else np.float32

def scaled(x):
    return x * SCALE + len(NAMES), sorted(NAMES)

def helped(x):
    return helper(x) + 1.0

def typed(x):
    y = x.astype(DT)
    return y * 0.1 + y.sum(), y.dtype.name

def small(x):
    return (x.astype(np.int8) * 100).sum(), (x.astype(np.uint8) - 3)

CALLS = [(scaled, [(X,)]), (helped, [(X,), (X[:3],)]), (typed, [(X,)]), (small, [(X,)])]
'''


def _processes(name, body, runs):
    """One program: the script of ``body`` run once per (seed, variant) of ``runs``,
    one cache directory for the compiled run's processes. Each process computes the
    plain results, then the compiled ones, and reports where they differ; the plain
    run starts no process (its record is "nothing differs")."""
    source = textwrap.dedent(_HEAD) + textwrap.dedent(body) + textwrap.dedent(_TAIL)

    def s(r):
        probe = r.compile(_noop)
        mode = getattr(getattr(probe, "_settings", None), "backend", None)
        if mode is None:
            for seed, variant in runs:
                r.call(_nothing_differs, seed, variant)
            return
        with tempfile.TemporaryDirectory(prefix="dynamo-r40p-") as d:
            os.chmod(d, 0o700)
            script = os.path.join(d, f"{name}.py")
            with open(script, "w") as fh:
                fh.write(source)
            cache = os.path.join(d, "cache")
            os.mkdir(cache, 0o700)
            run = functools.partial(_run, script, mode, cache)
            for seed, variant in runs:
                r.call(run, seed, variant)
    reg._add(name, s, "")


def _noop():
    return None


def _nothing_differs(seed, variant):
    return {"differ": [], "errors": [], "ran": True}


def _run(script, mode, cache, seed, variant):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DYNAMO_LOGS", "DYNAMO_CACHE_DIR")}
    env.update(PYTHONHASHSEED=str(seed), DYNAMO_CACHE_DIR=cache)
    done = subprocess.run([sys.executable, script, mode, variant], capture_output=True,
                          text=True, env=env, timeout=120, cwd=os.path.dirname(script))
    if done.returncode:
        return f"exit {done.returncode}: {done.stderr[-500:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


# (one program: each process costs an interpreter start, NumPy's and dynamo's imports)
_processes("procs_orders_and_changes", _ORDERS + _CHANGES.replace("CALLS = [", "CALLS += ["),
           ((1, "a"), (2, "b"), (1, "a")))
