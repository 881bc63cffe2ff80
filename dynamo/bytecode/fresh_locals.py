"""Locals that only ever hold a fresh list, dict or set: every store of them in the
code stores what the instruction just before it built (``k = []``).

An island (code that runs as Python after a break) routes each method call through
``intercept`` unless the local's type is known to be a C type for the whole island
(``break_entry._fixed_local_types``, ``break_calls._c_code_now``). A local the island
stores every trip is not fixed, but where every store is of a new ``[]``/``{}``/
``set()`` display its type is: ``k.append(...)`` then stays a plain C call, not a
call of ``intercept`` (RK45's ``k = []`` then seven ``k.append`` a step, issue #15).

Example::

    >>> def f(n):
    ...     for _ in range(n):
    ...         k = []
    ...         k.append(1)
    ...     return k
    >>> fresh_container_locals(CodeInfo.of(f.__code__))
    {'k': <class 'list'>}
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from .instructions import CodeInfo

# the instruction that builds a new object of exactly this type (a display: ``[]``,
# ``[a, b]``, ``{}``, ``{a: b}``, ``{a, b}``; no call, so no name can rebind it)
_BUILDS = {"BUILD_LIST": list, "BUILD_MAP": dict, "BUILD_SET": set}


def fresh_container_locals(info: CodeInfo, fn_globals: dict | None = None) -> dict:
    """``{name: type}`` of the locals whose every store in the code stores the new
    list, dict or set built by the instruction right before it, which nothing jumps
    to (a jump to the store would bring another value). A local stored any other way
    anywhere in the code (an unpacking, ``except E as k``, a comprehension's restore,
    a 3.13 store pair) is left out: the scan is of the whole code, so it also covers
    every store reachable from any break.

    With ``fn_globals``, a store of what a call of NumPy's ``np.array``, ``np.zeros``,
    ``np.empty``, ``np.arange``, ``np.ones`` or ``np.full`` returned (positional
    arguments only, the function found through the globals now: ``_array_maker``) is
    of an ``ndarray`` (Gillespie's ``rates = np.array([...]); rates.sum()``). A guess
    only steers speed: the island's calls keep their method loads as written, so a
    name rebound later still calls what Python finds (uncompiled)."""
    insts = list(info.insts)
    targets = {i.target for i in insts if i.target is not None}
    targets.update(h[2] for h in info.handlers)
    out: dict = {}
    spoiled: set = set()
    for pos, inst in enumerate(insts):
        if not inst.name.startswith("STORE_FAST"):
            continue
        args = inst.arg if isinstance(inst.arg, tuple) else (inst.arg,)
        if inst.name == "STORE_FAST_LOAD_FAST":   # (3.13: ``d = {}; d.update(...)``)
            args = args[:1]
        elif inst.name != "STORE_FAST":   # (a pair: stores what two pushes made)
            spoiled.update(getattr(a, "name", a) for a in args)
            continue
        name = getattr(args[0], "name", args[0])
        prev = insts[pos - 1] if pos > 0 else None
        kind = None if prev is None or pos in targets else _BUILDS.get(prev.name)
        if kind is None and fn_globals is not None and pos not in targets:
            kind = _array_maker(insts, pos - 1, targets, fn_globals)
        if kind is None or out.get(name, kind) is not kind:
            spoiled.add(name)
        else:
            out[name] = kind
    return {name: kind for name, kind in out.items() if name not in spoiled}


_LOADS_ATTR = ("LOAD_ATTR", "LOAD_METHOD")


def _array_maker(insts: list, call: int, targets: set, fn_globals: dict):
    """``np.ndarray`` where ``insts[call]`` is a ``CALL`` of ``np.array`` (or another
    of ``_MAKERS``) with positional arguments only, else None. The arguments are the
    straight-line instructions before it whose stack effects add up to their count
    (no jump in or out); before them, ``LOAD_GLOBAL np`` and its ``LOAD_ATTR``s."""
    if call < 1 or insts[call].name != "CALL" or call in targets:
        return None
    n = insts[call].arg
    j = call - 1
    if insts[j].name == "PRECALL":   # (3.11)
        j -= 1
    pushed = 0
    while j >= 0 and pushed != n:
        inst = insts[j]
        if inst.target is not None or j in targets or inst.name == "KW_NAMES":
            return None
        try:
            pushed += inst.instr.stack_effect(jump=False)
        except Exception:  # noqa: BLE001 (an instruction the library cannot size)
            return None
        j -= 1
        if pushed > n:   # (the arguments never sum past their count, walked back)
            return None
    if j >= 0 and insts[j].name == "PUSH_NULL" and j + 1 not in targets:
        j -= 1   # (3.13+: the NULL after the callable)
    chain = []
    while j >= 0 and insts[j].name in _LOADS_ATTR and j + 1 not in targets:
        arg = insts[j].arg
        chain.append(arg[1] if isinstance(arg, tuple) else arg)
        j -= 1
    if pushed != n or j < 0 or insts[j].name != "LOAD_GLOBAL" or j + 1 in targets:
        return None
    arg = insts[j].arg
    value = fn_globals.get(arg[1] if isinstance(arg, tuple) else arg, _NONE)
    for name in reversed(chain):
        if type(value) is not ModuleType:
            return None
        value = vars(value).get(name, _NONE)
    return np.ndarray if any(value is m for m in _MAKERS) else None


_NONE = object()
# NumPy functions that return a new base-class ndarray for positional arguments (not
# ``np.asarray``, which returns a subclass as it is; ``like=`` is a keyword)
_MAKERS = (np.array, np.zeros, np.empty, np.arange, np.ones, np.full)
