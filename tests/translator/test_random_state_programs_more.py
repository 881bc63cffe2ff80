"""The state programs' second grammar (``scripts/random_state_programs_more.py``, #17):
class against instance attributes, ``enumerate`` over a state list, ``sort(key=...)``,
``del`` of items, keys and attributes, augmented assignment on subscripts; against plain
Python on the eager and numpy backends. Also: the class attributes are part of the state
compared, and the search skips a seed whose plain calls are too slow to compare.
"""

from script_modules import load_script

M = load_script("random_state_programs_more")
S = load_script("random_state_programs")


def test_random_state_programs_more():
    """A band of seeds (about 4 s); every difference listed with its program."""
    bad = []
    for seed in range(40, 48):
        src, calls = M.program(seed), M.inputs(seed)
        for backend in ("eager", "numpy"):
            found = M.differences(src, calls, backend)
            if found:
                bad.append(f"seed {seed}:\n{src}{found[:3]}")
    assert not bad, "\n".join(bad)


def test_the_grammar_writes_the_new_statements():
    """Each new kind shows up in a few hundred programs, the base grammar's seeds keep
    their programs (the cited seeds, 20392, still reproduce)."""
    text = "\n".join(M.program(seed) for seed in range(300))
    for piece in ("Obj.count += 1", ".count = ", "del ", "enumerate(", ".sort(key=",
                  "sorted(", "['cnt'] += k", "+= [round(s, 4)]", ".hist[-1:] = ["):
        assert piece in text, piece
    assert "o.hist.append(o.hist)" in S.program(20392)
    assert M.program(20392) != S.program(20392)


def test_class_attributes_are_compared():
    """A program that steps ``Obj.count`` (a class attribute: ``vars(o)`` does not show
    it) differs when the compiled namespace starts from another count."""
    src = "def prog(x, y, k, log, tab, o, p):\n    type(o).count += 1\n    return x\n"
    calls = S.inputs(1)
    want = S.observe(S.compile_plain(src), calls[0])
    other = S.compile_plain(src)
    other.__globals__["Obj"].count = 5
    got = S.observe(other, calls[0])
    assert S.same(want[4], got[4]) is not None and S.same(want[0], got[0]) is None


def test_the_search_skips_a_slow_seed(capsys):
    """``--slow``: a seed whose plain calls take longer is listed, not compared (its
    state doubles per loop trip: ``opaque_push(log, log)``)."""
    search = load_script("loop_program_search")
    assert search.main(["--generator", "state", "--start", "300", "--count", "2",
                        "--backends", "eager", "--slow", "0"]) == 0
    out = capsys.readouterr().out
    assert "skipped as slow (plain calls over 0.0 s): [300, 301]" in out
    assert "eager: 0 programs" in out
