"""Two data-dependent sizes that are equal in fact, checked when the graph runs (issue #19,
docs/unbacked.md, "Sizes equal in fact").

``ends - starts`` of ``starts = np.flatnonzero(d == 1)`` and ``ends = np.flatnonzero(d ==
-1)`` (run-length encoding: every run that starts ends) has two unbacked sizes ``u0`` and
``u1`` that nothing the trace knows proves equal; so does ``np.zeros(n) +
np.bincount(k, minlength=n)`` (``max(n, k.max() + 1)`` counts: ``n`` only where ``k.max()
< n``). Where an op's rule rejects such arguments (``unbacked_results
.rejected_for_some_counts``), ``unify`` looks for an equation between two of the
dimensions, ``e_a == e_b``, that names one unbacked symbol of ``e_b`` (coefficient 1 or
-1) in terms of the rest, and whose substitution makes the rule take the call. The op
is then traced as if the equation held, and the graph checks it first
(``OutputGraph.size_checker``, injected by the translator: an ``equal`` of the two sizes
and a ``data_check``, ``translator/raising_checks.equal_sizes_check``). Where the check
fails when the graph runs (the counts differ, or one is 1 and NumPy broadcasts it), the
frame's original code runs instead, which gives eager's result or raises eager's error:
nothing is guessed. Where a rerun would not be exact (the graph writes an input, draws
random numbers...), the op breaks as before.

Example::

    >>> # starts: int64[u0], ends: int64[u1]; np.subtract's rule refuses (4197,) - (4099,)
    >>> call, equations = unify(shape_env, op, ((ends_meta, starts_meta), {}), ["u0", "u1"])
    >>> equations                         # checked in the graph: u1 == u0
    [(SymInt(4197, u1), SymInt(4099, u0))]
"""

from __future__ import annotations

from .ops import ArrayMeta
from .symbolic import SymInt, substitute, symbols_in
from .symbolic.sizes import Sym
from .tree import tree_leaves, tree_map

_MAX_EQUATIONS = 3   # (an op of more unproven sizes than that keeps breaking)


def checked_equal(output, op, meta_args, meta_kwargs, refused):
    """``(meta_args, meta_kwargs, meta)`` of a call whose rule refused unbacked sizes
    (``refused``: the break it is), traced as if they were equal where ``unify`` finds
    the equations and the translator's ``output.size_checker`` adds their checks to the
    graph; else ``refused`` is raised."""
    names = sorted(symbols_in((meta_args, meta_kwargs)) & output.shape_env.unbacked.keys(),
                   key=_age)
    check = output.size_checker() if output.size_checker is not None else None
    found = unify(output.shape_env, op, (meta_args, meta_kwargs), names) \
        if len(names) >= 2 and check is not None else None
    if found is None or not check(found[1], refused):
        raise refused
    meta_args, meta_kwargs = found[0]
    return meta_args, meta_kwargs, op.meta(op, *substitute(found[0], output.shape_env.hints))


def unify(shape_env, op, meta_call, names: list):
    """``(meta_call, [(e_b, e_a), ...])``: the call with unbacked symbols replaced so
    that ``op``'s rule takes it, and the equations that make it so (each the two sizes
    as ``SymInt``s of the original symbols); None where no such substitution is found.
    ``names`` are the unbacked symbols of the call."""
    unbacked = set(names)
    equations: list = []
    call = meta_call
    for _ in range(_MAX_EQUATIONS):
        found = _one_equation(shape_env, op, call, unbacked)
        if found is None:
            return None
        (name, value), equation, call, accepted = found
        equations.append(equation)
        if accepted:
            return call, equations
    return None


def _one_equation(shape_env, op, call, unbacked: set):
    """The first substitution ``name -> value`` (an affine ``Sym``) read off two
    dimensions of the call's arrays, newest symbol first, after which the rule takes
    the call or fewer unbacked symbols are left; with the equation and the new call, and
    whether the rule took it."""
    dims = []
    for leaf in tree_leaves(call):
        for d in leaf.shape if isinstance(leaf, ArrayMeta) else ():
            if isinstance(d, SymInt) and d.sym.symbols & unbacked and \
                    all(d.sym != e.sym for e in dims):
                dims.append(d)
    candidates = []
    for b in dims:
        for name, coeff in b.sym.terms:
            if name not in unbacked or coeff not in (1, -1):
                continue
            for a in dims:
                if a is b or name in a.sym.symbols:
                    continue
                # b == a  <=>  name == (a - (b - coeff * name)) / coeff
                rest = b.sym - Sym(((name, coeff),), 0)
                value = (a.sym - rest).scale(coeff)
                candidates.append((_age(name), name, value, (b, a)))
    candidates.sort(key=lambda c: -c[0])   # the newest symbol in terms of older ones
    fallback = None
    for _, name, value, equation in candidates:
        new_call = _replaced(call, name, value, shape_env.hints)
        try:
            op.meta(op, *substitute(new_call, shape_env.hints))
        except Exception:  # noqa: BLE001 (the rule still refuses: another equation)
            if fallback is None:
                fallback = ((name, value), equation, new_call, False)
            continue
        return (name, value), equation, new_call, True
    return fallback


def _age(name: str) -> int:
    digits = "".join(ch for ch in name if ch.isdigit())
    return int(digits) if digits else -1


def _replaced(call, name: str, value: Sym, hints: dict):
    """``call`` with the symbol ``name`` replaced by ``value`` in every SymInt (array
    shapes included)."""
    def sym_of(v: SymInt):
        if name not in v.sym.symbols:
            return v
        coeff = dict(v.sym.terms)[name]
        sym = (v.sym - Sym(((name, coeff),), 0)) + value.scale(coeff)
        srcs = dict(v.sym.sources)
        srcs.update(value.sources)
        srcs.pop(name, None)
        sym = Sym(sym.terms, sym.const, tuple(sorted(srcs.items())))
        return SymInt(sym.evaluate(hints), sym)

    def leaf(v):
        if isinstance(v, SymInt):
            return sym_of(v)
        if isinstance(v, ArrayMeta) and any(isinstance(d, SymInt) for d in v.shape):
            return v.with_(shape=tuple(sym_of(d) if isinstance(d, SymInt) else d
                                       for d in v.shape))
        return v
    return tree_map(leaf, call)
