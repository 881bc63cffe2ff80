"""The mixed random programs (``scripts/random_mixed_programs.py``, issue #17): the state
grammar plus ``try`` inside loops over ops that raise per trip, generator expressions,
closures writing ``nonlocal`` locals, ``with``, early returns from nested loops, ``del``
of locals, the walrus, chained comparisons, NumPy scalar types, in-place ops on views,
keyword and default arguments changing between calls, and a quarter of the seeds called
from threads at once (the body under a lock, compared with plain calls one after
another in the order the threads took it). Against plain Python on the eager and numpy
backends.
"""

import numpy as np
from script_modules import load_script

M = load_script("random_mixed_programs")

# 73: ``x[np.array([i - 1])]`` of an empty ``x`` in a ``try``: the caught IndexError's
# message named index 0 (tests/ops/test_value_worded_errors.py); 3, 5 and 12 are
# threaded
SEEDS = [3, 12, 73, 4, 5]


def test_random_mixed_programs():
    """A band of seeds; every difference listed with its program."""
    bad = []
    for seed in SEEDS:
        src, calls = M.program(seed), M.inputs(seed)
        for backend in ("eager", "numpy"):
            found = M.differences(src, calls, backend)
            if found:
                bad.append(f"seed {seed}:\n{src}{found[:3]}")
    assert not bad, "\n".join(bad)


def test_the_grammar_writes_the_new_statements():
    text = "\n".join(M.program(seed) for seed in range(300))
    for piece in ("for v in a", "nonlocal a", "grow(", "del tmp", ":= ", "a[0] <= a[1] <",
                  "np.int8(", "np.float32(3e38)", "a[1:] += a[:-1]", "out=a[1:]",
                  "return ('early', i, j", "np.linalg.cholesky", "np.take(a,",
                  "h = 1 / (i - 3)", "LOCK.acquire()", "ORDER.append(x)", "scale",
                  "hist.append(", "with Ctx(", "np.errstate(over='raise')", "fin_gen(a)"):
        assert piece in text, piece
    assert M.threaded(3) and M.threaded(12) and not M.threaded(73)
    assert len(M.inputs(3)) >= 5 and all(len(c) == 5 for c in M.inputs(3))


def test_the_threaded_comparison_sees_a_difference():
    """Plain calls from threads against plain calls one after another: no difference
    (the order is the one the threads took the lock in); the same with ``G`` bumped in
    the threads' namespace: the state differs."""
    src, calls = M.program(3), M.inputs(3)
    plain, other = M.compile_plain(src), M.compile_plain(src)
    assert M._threaded_differences(plain, other, other, calls, "plain") == []
    plain, other = M.compile_plain(src), M.compile_plain(src)
    other.__globals__["G"] = 7
    found = M._threaded_differences(plain, other, other, calls, "plain")
    assert any("state after the call" in f for f in found), found


def test_keyword_arguments_and_defaults_are_compared():
    """A call's keyword arguments reach the program (``"@LOG2"`` names the state
    object), and the default list ``hist`` is part of the state compared."""
    src = ("def prog(x, y, k, log, tab, o, p, scale=1.5, hist=[], *, mode='sum', n=None):\n"
           "    hist.append(mode)\n    return x * scale\n")
    call = (np.ones(2), np.ones(2), 1, ("LOG", "TAB", "O", "O"), {"scale": 2, "mode": "m"})
    fn = M.compile_plain(src)
    result, _, _, _, state = M.observe(fn, call)
    assert result.tolist() == [2.0, 2.0] and state[-1][0] == [1.5, ["m"]]
    fn = M.compile_plain(src)
    _, _, _, _, state = M.observe(fn, call[:4] + ({"hist": "@LOG2"},))
    assert state[-1][0][1] == [] and state[2] == ["sum"]     # (LOG2 is STATE's third)
