"""Computed split points (issue #23, ``index_splits.py``): a comparison of loop indices
whose own index's coefficient divides nothing else (``if 2 * j < i``, ``if 3 * j + 1
>= i``, ``if j <= i // 2``) splits its loop at a point that is no affine expression of
the enclosing trips but the floor of one, ``q = floor(N / d)``::

    for i in range(n):              # i = 1 + trip_1 (its first trip unrolled)
        for j in range(n):          # 2 * j < i  <=>  j < ceil(i / 2) = -floor(-i / 2)
            if 2 * j < i: ...       # -> trip + q < 0, q = floor((-trip_1 - 1) / 2), an
            else: ...               #    int the i body computes (a ``sym_int`` node)

``b * trip + R + a op 0`` with ``b > 1`` (a negative ``b`` flips the comparison) is, in
exact integer arithmetic, ``trip + q < 0`` / ``trip + q >= 0`` with ``q = floor((R +
a) / b)`` for ``<`` / ``>=`` (``t < -(R + a) / b`` is ``t < ceil(-(R + a) / b)``), and
``trip - q <= 0`` / ``trip - q > 0`` with ``q = floor(-(R + a) / b)`` for ``<=`` / ``>``
(``quotient_condition``); ``==`` and ``!=`` have no such point (unrolled, as before).

Why the corner proofs stay exact: a comparison of ``c * q + L`` (``L`` affine, ``c`` 1
or -1) with 0 is an affine comparison at every trip (``sign_form``: ``q + L >= 0``
exactly where ``N + d * L >= 0``, ``-q + L >= 0`` exactly where ``d * L + d - 1 - N >=
0``), so a sign it has at every corner it has everywhere, as for any affine bound; an
expression of two quotients, or of ``2 * q``, is no split (``NotALoopNode``). A segment
whose bounds read ``q`` checks its body at the enclosing trips of the first and last
``d`` of each enclosing interval (``TriangularScope._corners`` takes ``d`` as a
stepped loop's step: an index ``q + trip`` is affine up to a term of period ``d``).

``i // 2`` of a loop index compared next (``if j <= i // 2``) is such a quotient too
(``index_quotient``), instead of pinning ``i``: ``decide`` turns the comparison into
the affine one it is (``affine_compare``), which splits as above.
"""

from __future__ import annotations

import operator

from ..symbolic import Sym, SymInt
from ..variables import ConstantVariable
from ..variables.size_values import graph_int
from .loop_facts import NotALoopNode
from .nested_loops import enclosing_symbols

_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def definitions(output) -> dict:
    """The trace's floor quotients: symbol -> ``(N, d)``, ``q = floor(N / d)``, ``N``
    a ``Sym`` of loop trips, ``d > 0``."""
    return output.__dict__.setdefault("floor_quotients", {})


def unit_coefficient(diff: Sym, name: str, op: str) -> tuple | None:
    """``diff op 0`` as an equivalent comparison whose coefficient of the trip ``name``
    is 1 or -1, in exact integer arithmetic, or None. ``b * trip + b * R + a op 0``
    (every other coefficient a multiple of ``b > 0``) holds where ``trip + R op -a /
    b``, and ``trip + R`` is an int: ``< -a / b`` is ``< ceil(-a / b) = -(a // b)``,
    ``<= -a / b`` is ``<= floor(-a / b) = (-a) // b`` (``>=``, ``>``: their negations);
    ``==`` and ``!=`` where ``b`` divides ``a`` only::

        >>> unit_coefficient(Sym((("t", 2), ("u", -2)), -5), "t", "<")  # 2t - 2u < 5
        (Sym((("t", 1), ("u", -1)), -3), '<')                          # t - u < 3
    """
    b = dict(diff.terms)[name]
    if b in (1, -1):
        return diff, op
    if b < 0:
        diff, op, b = diff.scale(-1), _FLIP[op], -b
    a = diff.const
    if any(c % b for n, c in diff.terms) or op in ("==", "!=") and a % b:
        return None
    const = a // b if op in ("<", ">=", "==", "!=") else -((-a) // b)
    return Sym(tuple((n, c // b) for n, c in diff.terms), const, diff.sources), op


def quotient_condition(b: int, const: int, outer: tuple, op: str) -> dict | None:
    """``b * trip + const + sum(c * outer_k) op 0`` (``outer``: ``(depth, c)`` pairs)
    as a condition ``trip + s * q op 0`` of coefficient 1 on the trip, ``q = floor(N /
    d)``: the condition's fields, or None (``==``, ``!=``)::

        >>> quotient_condition(2, -1, ((1, -1),), "<")    # 2t - 1 - o1 < 0
        {'b': 1, 'const': 0, 'op': '<', 'outer': (), 'quotient': (2, -1, ((1, -1),), 1)}
    """
    if op in ("==", "!="):
        return None
    if b < 0:
        b, const, outer, op = -b, -const, tuple((k, -c) for k, c in outer), _FLIP[op]
    sign = 1 if op in ("<", ">=") else -1
    if sign == -1:
        const, outer = -const, tuple((k, -c) for k, c in outer)
    return {"b": 1, "const": 0, "op": op, "outer": (), "quotient": (b, const, outer, sign)}


def describe_quotient(cond: dict) -> str:
    d, const, outer, sign = cond["quotient"]
    n = " + ".join([str(const), *(f"{c}*outer{k}" for k, c in outer)])
    return f"{sign}*floor(({n}) / {d})"


def make_quotient(tx, cond: dict, chain: list, hints: dict) -> Sym:
    """``q`` of ``cond`` (``quotient_condition``) in the enclosing trips of ``chain``
    (innermost first; a segment's trip is ``offset + trip`` of its loop), computed by
    the enclosing body where it reads a trip (a ``sym_int`` node, recorded in
    ``definitions``), as a ``Sym``; a constant where it reads none."""
    d, const, outer, _ = cond["quotient"]
    n = Sym((), const)
    for depth, c in outer:
        loop = chain[depth - 1]
        n = n + Sym(((loop.symbol, c),), 0, ((loop.symbol, loop.symbol),))
        offset = getattr(loop, "offset", None)
        if offset is not None:
            n = n + offset.scale(c)
    if n.is_constant():
        return Sym((), n.const // d)
    value = SymInt(n.evaluate({k: hints.get(k, 0) for k in n.symbols}), n)
    q = graph_int(tx, operator.floordiv, [value, d], "the split point of a loop").value
    name = next(iter(q.sym.symbols))
    definitions(tx.output)[name] = (n, d)
    return q.sym


def sign_form(e: Sym, defs: dict) -> Sym:
    """An affine ``f`` with ``e >= 0`` exactly where ``f >= 0``, at every trip: ``e``
    itself where it reads no quotient of ``defs``; ``e = c * q + L`` (``c`` 1 or -1)
    through ``q = floor(N / d)``::

        q + L >= 0   <=>  q >= -L      <=>  N >= -d * L        (f = N + d * L)
        -q + L >= 0  <=>  q <= L       <=>  N <= d * L + d - 1 (f = d * L + d - 1 - N)

    Else (two quotients, another coefficient) ``NotALoopNode``."""
    read = [n for n in e.symbols if n in defs]
    if not read:
        return e
    if len(read) > 1:
        raise NotALoopNode("split points of two quotients compared")
    name = read[0]
    c = dict(e.terms)[name]
    if c not in (1, -1):
        raise NotALoopNode("a multiple of a split point's quotient compared")
    n, d = defs[name]
    rest = e - Sym(((name, c),), 0)
    return n + rest.scale(d) if c == 1 else rest.scale(d) + Sym((), d - 1) - n


def nonnegative(e: Sym, region: list[dict], defs: dict) -> bool:
    """``e >= 0`` on every trip, proved at the corners ``region`` (``sign_form``)."""
    f = sign_form(e, defs)
    return all(f.evaluate(t) >= 0 for t in region)


def with_values(region: list[dict], defs: dict) -> list[dict]:
    """``region`` with each quotient's value put in beside the trips it reads."""
    out = []
    for trips in region:
        trips = dict(trips)
        for name, (n, d) in defs.items():
            if n.symbols <= trips.keys():
                trips[name] = n.evaluate(trips) // d
        out.append(trips)
    return out


def affine_compare(diff: Sym, op: str, defs: dict) -> tuple | None:
    """``diff op 0`` as the affine comparison it is where ``diff`` reads one quotient
    of ``defs`` (``sign_form``): ``e < 0`` is ``f(e) < 0``, ``e <= 0`` is ``f(-e) >=
    0``, ``e > 0`` is ``f(-e) < 0``; None for ``==``/``!=`` or where it is no such
    comparison (the caller answers nothing, as before)."""
    try:
        if op in ("<", ">="):
            return sign_form(diff, defs), op
        if op in ("<=", ">"):
            return sign_form(diff.scale(-1), defs), ">=" if op == "<=" else "<"
    except NotALoopNode:
        return None
    return None


def segment_quotient(output, seg) -> tuple | None:
    """The quotient a segment's bounds read, as ``TriangularScope.quotient`` takes it
    (``(symbol, N as a SymInt, d)``: ``_with_quotients`` puts ``N // d`` in at each
    corner), and the segment's span (an affine int that is at least 1 exactly where
    the segment runs a trip); None where they read none."""
    defs = definitions(output)
    count, start = _sym(seg.count), _sym(seg.start)
    read = sorted((count.symbols | start.symbols) & defs.keys())
    if not read:
        return None
    if len(read) > 1:
        raise NotALoopNode("a segment whose bounds read two split quotients")
    name = read[0]
    n, d = defs[name]
    hints = output.shape_env.hints
    span = sign_form(count - Sym((), 1), defs) + Sym((), 1)
    return (name, _int(n, hints), d), _int(span, hints)


def _sym(v) -> Sym:
    return v.sym if isinstance(v, SymInt) else Sym((), int(v))


def _int(sym: Sym, hints: dict):
    if sym.is_constant():
        return sym.const
    return SymInt(sym.evaluate({k: hints.get(k, 0) for k in sym.symbols}), sym)


def index_quotient(tx, op: str, a, b) -> ConstantVariable | None:
    """``i // k`` (``k`` a nonzero int constant) of a loop node's index, compared
    next (``if j <= i // 2``): a quotient the body computes (``graph_int``), recorded
    in ``definitions`` so that ``decide`` reads the comparison as the affine one it is;
    None for anything else (the general path, which pins the index)."""
    if op != "floor_divide" or not isinstance(a, ConstantVariable) or \
            not isinstance(b, ConstantVariable) or not isinstance(a.value, SymInt) or \
            type(b.value) is not int or b.value == 0:
        return None
    scope = tx.output.loop_scope
    if scope is None or not a.value.sym.symbols <= enclosing_symbols(scope):
        return None
    if not _compared_next(tx.info.insts, tx.ip):
        return None   # (an index, a stored int: pinned, as before)
    n, d = a.value.sym, b.value
    if d < 0:
        n, d = n.scale(-1), -d   # floor(N / -d) == floor(-N / d)
    q = graph_int(tx, operator.floordiv, [a.value, b.value], "a loop index's quotient")
    definitions(tx.output)[next(iter(q.value.sym.symbols))] = (n, d)
    return q


def _compared_next(insts, ip: int) -> bool:
    """The quotient at ``ip`` is compared next: ``COMPARE_OP`` (``j <= i // 2``), or
    after one load (``i // 2 > j``), or after adding or subtracting an int constant
    (``j >= i // 3 + 1``)."""
    names = [inst.name for inst in insts[ip:ip + 3]]
    if names[:1] == ["COMPARE_OP"]:
        return True
    if len(names) >= 2 and names[0] in _LOADS and names[1] == "COMPARE_OP":
        return True
    return len(names) == 3 and names[0] in ("LOAD_CONST", "LOAD_SMALL_INT") and \
        type(insts[ip].arg) is int and names[1] == "BINARY_OP" and \
        insts[ip + 1].arg.name in ("ADD", "SUBTRACT") and names[2] == "COMPARE_OP"


# a load of a name or an int (``i // 2 > j``, ``i // 2 >= 1``)
_LOADS = frozenset(("LOAD_FAST", "LOAD_FAST_BORROW", "LOAD_FAST_CHECK", "LOAD_CONST",
                    "LOAD_SMALL_INT", "LOAD_DEREF"))
