"""``==`` of two containers that each hold themselves (#17, the walks of random state
program 20392).

``a = [1]; a.append(a); b = [1]; b.append(b); a == b``: Python compares the items,
meets ``a == b`` again inside, and recurses until it raises RecursionError. The
translator's own comparison of the items (``compare._compare_sequences``,
``_compare_dicts``) did the same in the translator: an internal error the frame fell
back from. Now a comparison met again inside itself is a graph break: the comparison
runs when the program runs, and raises there, where the program's ``except`` sees it.
A container compared with itself (``a == a``: each item ``is`` itself) still folds.
"""

import numpy as np
import pytest

import dynamo


def _lists(x, a, b):
    return x + 1, a == b


def _lists_caught(x, a, b):
    try:
        r = a < b
    except RecursionError:
        r = "recursion"
    return x * 2, r


def _dicts(x, a, b):
    try:
        r = a != b
    except RecursionError:
        r = "recursion"
    return x - 1, r


def _made_here(x, a, b):
    p = [1.0]
    p.append(p)
    q = [1.0]
    q.append(q)
    try:
        return x + 2, p == q
    except RecursionError:
        return x + 2, "recursion"


def _itself(x, a, b):
    return x + 3, a == a, [a] == [a]


def _self_holding(kind):
    if kind == "dict":
        d = {"n": 1}
        d["me"] = d
        return d
    lst = [1.0]
    lst.append(lst)
    return lst


def _outcome(fn, *args):
    try:
        out = fn(*args)
    except Exception as e:  # noqa: BLE001 (plain Python's exception is the one expected)
        return ("raised", type(e).__name__)
    return tuple(v.tolist() if isinstance(v, np.ndarray) else v for v in out)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn, kind", [(_lists, "list"), (_lists_caught, "list"),
                                      (_dicts, "dict"), (_made_here, "list"),
                                      (_itself, "list")], ids=lambda v: getattr(v, "__name__", v))
def test_comparing_containers_that_hold_themselves(fn, kind, backend, caplog):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    with caplog.at_level("WARNING", logger="dynamo.internal"):
        for n in (2, 3):
            a, b = _self_holding(kind), _self_holding(kind)
            assert _outcome(compiled, np.ones(n), a, b) == _outcome(fn, np.ones(n), a, b)
    internal = [r.getMessage() for r in caplog.records if r.name == "dynamo.internal"]
    assert not internal, internal[0]


def test_the_break_says_why_and_itself_folds():
    dynamo.reset()
    a, b = _self_holding("list"), _self_holding("list")
    report = dynamo.explain(_lists_caught, backend="eager")(np.ones(2), a, b)
    assert not report.skipped and report.result[1] == "recursion"
    assert "comparing containers that hold themselves (RecursionError)" in \
        [r.reason for r in report.break_reasons]
    report = dynamo.explain(_itself, backend="eager")(np.ones(2), a, b)
    assert not report.skipped and report.graph_break_count == 0
