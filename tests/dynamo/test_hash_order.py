"""What a trace notes of its dependence on how its process hashes (dynamo/hash_order.py):
every way the translator reads a set's order notes it, the order-free reads do not,
and the disk cache stores such an entry for processes with the same string hash
secret only (the other processes: tests/dynamo/test_disk_cache_hash_order.py)."""

from __future__ import annotations

import json
import logging
import sys

import numpy as np
import pytest
from harness import same

import dynamo
from dynamo import hash_order
from dynamo.config import config
from dynamo.disk_cache.keys import entry_digest

NAMES = ["alpha", "beta", "gamma", "delta"]
X = np.ones(2)


def for_loop(x):
    out = []
    for k in set(NAMES):
        out.append(k)
    return x + 1, out


def listed(x):
    return x + 1, list(set(NAMES))


def unpacked(x):
    a, b, c, d = set(NAMES)
    return x + 1, a


def starred(x):
    return x + 1, [*set(NAMES)]


def comprehension(x):
    return x + 1, {k: len(k) for k in set(NAMES)}


def first(x):
    return x + 1, next(iter(set(NAMES)))


def constant_loop(x):   # (the compiler makes the display a frozenset constant)
    out = []
    for k in {"alpha", "beta", "gamma"}:
        out.append(k)
    return x + 1, out


def joined(x):
    return x + 1, ",".join(frozenset(NAMES))


def text(x):
    return x + 1, str(frozenset(NAMES))


def f_string(x):
    return x + 1, f"{frozenset(NAMES)}"


def hashed(x):
    return x + hash("alpha") % 7


def tuples(x):
    return x + 1, list({("a", 1), ("b", 2)})


@pytest.mark.parametrize("fn", [for_loop, listed, unpacked, starred, comprehension, first,
                                constant_loop, joined, text, f_string, hashed, tuples])
def test_reading_the_order_of_a_set_of_strings_is_noted(fn):
    dynamo.reset()
    with hash_order.watching() as notes:
        same(dynamo.compile(fn, backend="eager")(X), fn(X))
    assert notes and all(kind == hash_order.SECRET for kind, _ in notes), notes


def ints(x):
    return x + 1, list({3, 17, 1, 9}), [k for k in {2.5, 1.0}], hash(12)


def order_free(x):
    s = set(NAMES)
    t, u = set(s), {*s}
    s.update({"eps"})
    return x + len(t | u) + ("beta" in t), sorted(s), s == {"alpha"}, list({"only"})


def membership(x, kind):
    return x + (kind in {"alpha", "beta", "gamma"})


@pytest.mark.parametrize("fn, args", [(ints, (X,)), (order_free, (X,)),
                                      (membership, (X, "beta"))])
def test_orders_every_process_shares_are_not_noted(fn, args):
    dynamo.reset()
    with hash_order.watching() as notes:
        same(dynamo.compile(fn, backend="eager")(*args), fn(*args))
    assert notes == []


def test_hash_kinds():
    assert hash_order.hash_kind((1, 2.5, True, np.int64(3))) == hash_order.SAME
    assert hash_order.hash_kind(("a", 1)) == hash_order.SECRET
    assert hash_order.hash_kind(frozenset({b"a"})) == hash_order.SECRET
    assert hash_order.hash_kind(("a", int)) == hash_order.ADDRESS
    # hash(None) is a constant since 3.12 (before: its address)
    assert hash_order.hash_kind(None) == (hash_order.SAME if sys.version_info >= (3, 12)
                                          else hash_order.ADDRESS)


# --------------------------------------------------------------------------- the disk cache

@pytest.fixture
def cache_dir(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, "dynamo.cache")
    before = config.disk_cache_dir
    config.disk_cache_dir = str(tmp_path / "cache")
    dynamo.reset()
    try:
        yield tmp_path / "cache"
    finally:
        config.disk_cache_dir = before
        dynamo.reset()


def cache_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "dynamo.cache"]


def test_an_entry_made_for_another_hash_secret_is_not_loaded(cache_dir, caplog):
    compiled = dynamo.compile(listed, backend="eager")
    same(compiled(X), listed(X))
    path, = cache_dir.glob("*/*.json")
    assert path.name.startswith(hash_order.probe() + "-")
    assert any("for processes with this string hash secret only" in line and
               "iterating a set of str" in line for line in cache_lines(caplog))
    dynamo.reset()
    same(compiled(X), listed(X))   # loaded: this process's own
    assert "loaded from disk cache" in cache_lines(caplog)[-1]
    # the same entry, made by another secret: the file's content decides, not its name
    data = json.loads(path.read_text())
    data["entry"]["hash_secret"]["probe"] = "0" * 16
    data["sha256"] = entry_digest(data["entry"])
    path.write_text(json.dumps(data))
    dynamo.reset()
    caplog.clear()
    same(compiled(X), listed(X))   # traced again
    assert any("ignored: made for processes with another string hash secret" in line
               for line in cache_lines(caplog))
    assert not any("loaded from disk cache" in line for line in cache_lines(caplog))


def by_address(x):
    return x + 1, [k for k in {None, 1, 2, 3}]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="hash(None) is fixed since 3.12")
def test_an_order_of_addresses_is_not_stored(cache_dir, caplog):
    same(dynamo.compile(by_address, backend="eager")(X), by_address(X))
    assert not list(cache_dir.glob("*/*.json"))
    assert any("not stored in the disk cache" in line and "hashes by address" in line
               for line in cache_lines(caplog))
