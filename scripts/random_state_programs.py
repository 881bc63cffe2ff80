"""Random programs of Python state, graph breaks and exceptions, run plainly and compiled
(issue #17).

The other half of ``scripts/random_loop_programs.py`` (arrays and loops): ``program(seed)``
writes ``def prog(x, y, k, log, tab, o, p)`` whose statements update Python state, the
same object reached through two names, around graph breaks and exceptions:

- lists (``append``/``extend``/``pop``/index set/``+=``), dicts (string, int and tuple
  keys; ``get``/``setdefault``/``update``/``pop``), attributes (``o.n += 1``,
  ``o.hist.append(...)``, a new attribute), a ``global`` counter, a closure's
  ``nonlocal`` counter (``bump``); the globals ``LOG``, ``TAB``, ``O`` are also passed
  as the arguments ``log``, ``tab``, ``o``/``p`` in some calls (``p is o`` in some);
- graph breaks: ``print`` (stdout compared), ``opaque``/``opaque_push`` (they call
  ``copy.deepcopy``, library code the translator never follows), ``if`` on data,
  ``float(a.sum())``;
- ``try/except/else/finally`` around ops that raise (``a[k + 3]``, ``np.linalg.inv`` of a
  singular matrix, ``1.0 / a`` under ``np.errstate(divide="raise")``, ``log.pop()`` of an
  empty list, ``tab["miss"]``, ``int(s)`` of a NaN, ``raise MyError(...)``), with
  handlers that match or not, recording what ``except`` saw;
- generators (``gen``, ``gen_fin`` with a ``finally``), ``with Ctx(log)`` (one that
  swallows the exception too), and one loop of 0-5 trips mixing the above with array math.

``PRELUDE`` (``Obj``, ``MyError``, ``Ctx``, ``gen``, ``opaque``, the state ``G``,
``LOG``, ``LOG2``, ``TAB``, ``TAB2``, ``O``, ``O2``; ``O2.hist`` is ``LOG2``,
``TAB2["h"]`` is ``O.hist``; ``Obj``'s class attributes ``count`` and ``scale``, which
``scripts/random_state_programs_more.py`` writes) is run into a fresh namespace for
each run, plain and compiled, so the two runs start from equal state that then lives
across the program's 3-4 calls. ``inputs(seed)`` draws the calls: ``(x, y, k, names)``,
``names`` saying which objects are passed as ``log, tab, o, p`` (``"LOG"`` or ``"LOG2"``
...), ``y`` the string ``"x"`` for ``y is x``. ``differences(source, calls, backend)``
compares each compiled call with the plain one: the result bit for bit (Python types,
dtypes), the exception's type and message, the printed text, the warnings, the inputs
and every state object after the call. Example::

    >>> print(program(5))                                  # doctest: +SKIP
    def prog(x, y, k, log, tab, o, p):
        global G
        ...
    >>> differences(program(5), inputs(5), "numpy")
    []

``scripts/loop_program_search.py --generator state`` searches and shrinks.
"""

from __future__ import annotations

import contextlib
import io
import logging
import math
import os
import random
import re
import sys
import warnings

import numpy as np

import dynamo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import random_loop_programs as loops  # noqa: E402  (same, _Internal, compiled)

same = loops.same
compiled = loops.compiled

PRELUDE = '''
import copy
import warnings

import numpy as np

G = 0
LOG = []
LOG2 = []
TAB = {}
TAB2 = {}


class Obj:
    count = 0            # (class attributes: Obj.count += 1, or o.count = ... shadowing)
    scale = 1.5

    def __init__(self):
        self.n = 0
        self.hist = []
        self.reads = 0

    @property
    def peek(self):
        self.reads += 1
        return self.n * 2


O = Obj()
O2 = Obj()
O2.hist = LOG2          # (one list reached as LOG2, O2.hist, and log or o.hist)
TAB2["h"] = O.hist      # (and O.hist as TAB2["h"]: tab.setdefault("h", [])...)


class MyError(Exception):
    pass


class Ctx:
    def __init__(self, log, swallow=False):
        self.log, self.swallow = log, swallow

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, tb):
        self.log.append(("exit", kind.__name__ if kind else None))
        return self.swallow


def gen(n):
    for i in range(n):
        LOG.append(("gen", i))
        yield i * 2


def gen_fin(n):
    try:
        for i in range(n):
            yield i + 1
    finally:
        LOG.append("gen closed")


def opaque(v):
    return copy.deepcopy(v) * 2


def opaque_push(lst, v):
    lst.append(copy.deepcopy(v))


def opaque_call(f, v):
    copy.deepcopy(v)
    return f(v)


def opaque_global(v):
    global G
    copy.deepcopy(v)
    G += 10
    return G
'''

STATE = ("G", "LOG", "LOG2", "TAB", "TAB2", "O", "O2")


class _Writer:
    """The grammar: one random program, a statement at a time."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.lines: list[str] = []
        self.loops = 0
        self.in_loop = False

    def pick(self, *options):
        return self.r.choice(options)

    # ------------------------------------------------------------------ expressions

    def item(self) -> str:
        """A value to store in a container or an attribute."""
        return self.pick("c", "k", "'t'", "round(s, 4)", "a.shape[0]", "len(tab)",
                         "(k, c)", "a.copy()", "a", "len(log)", "G", "o.n", "o.peek",
                         "p.peek + o.peek", "log", "o.hist")

    def obj(self) -> str:
        return self.pick("o", "o", "p", "O")

    def lst(self) -> str:
        return self.pick("log", "log", "log", "LOG", "o.hist")

    def dct(self) -> str:
        return self.pick("tab", "tab", "TAB")

    def key(self) -> str:
        return self.pick("'n'", "'h'", "k", "(k, c % 2)", "c")

    # ------------------------------------------------------------------ statements

    def array(self, pad: str) -> None:
        self.lines.append(pad + self.pick(
            "a = a * 0.5 + y", "a = np.tanh(a) + c", "a = a + k", "a = np.where(a > 0, a, -a)",
            "s = s + float(a.sum())", "s = s * 0.5 + k", "a = a - a.mean() if a.size else a",
            "a = np.cumsum(a)", "a[...] = a * 2", "a += 1", "a = a + len(log)",
            "a = a * o.n + tab.get('n', 0)", "a = a + G", "a = np.zeros(len(log)) + c",
            "x[...] = a[::-1] if a.shape == x.shape else x"))

    def state(self, pad: str) -> None:
        """One update of a list, a dict, an attribute, the global or the closure."""
        kind = self.r.randrange(22)
        lst, dct, ob = self.lst(), self.dct(), self.obj()
        line = [
            f"{lst}.append({self.item()})", f"{lst}.extend([{self.item()}, {self.item()}])",
            f"{lst} += [{self.item()}]", f"if {lst}:\n{pad}    {lst}[-1] = {self.item()}",
            f"if {lst}:\n{pad}    c += len({lst}.pop()) if isinstance({lst}[-1], tuple) else 1",
            f"{dct}[{self.key()}] = {self.item()}",
            f"{dct}['n'] = {dct}.get('n', 0) + 1",
            f"{dct}.setdefault('h', []).append({self.item()})",
            f"{dct}.update(m={self.item()})", f"c += 1 if {dct}.pop('n', None) else 0",
            f"{ob}.n += 1", f"{ob}.hist.append({self.item()})", f"{ob}.tag = {self.item()}",
            "G += 1", "c += G", self.pick("bump(k)", "s += bump(1)", "c = c + bump(0)"),
            f"{lst}.extend(a.tolist()[:2])", f"{ob}.hist = {ob}.hist + [{self.item()}]",
            f"if {self.key()} in {dct}:\n{pad}    del {dct}[{self.key()}]",
            f"{lst}.insert(0, {self.item()})", f"{lst}.clear()",
            f"push = lambda v: {lst}.append(v)\n{pad}push({self.item()})",
        ][kind]
        self.lines.append(pad + line)

    def breaking(self, pad: str) -> None:
        """A graph break: a print, an opaque call, a conversion of data."""
        self.lines.append(pad + self.pick(
            "print('p', c, k, len(log), o.n)", "print(a)", "print(tab)",
            "print(G, round(s, 6), log[-1:] if log else None)",
            "a = opaque(a)", "c = c + opaque(1)", f"opaque_push({self.lst()}, {self.item()})",
            "s += float(a.sum())", "c += int(a.size and a.argmax())",
            "warnings.warn(f'w {c}')", "log.append(bool(a.any()))",
            "c += opaque_call(bump, k)", "s += opaque_global(c)",
            f"opaque_call({self.lst()}.append, {self.item()})", "a = a * opaque_global(1)"))

    def raising(self, pad: str) -> str:
        """A statement that may raise; the exception it raises."""
        kind = self.r.randrange(8)
        if kind == 0:
            self.lines.append(f"{pad}s += float(a[k + {self.pick(0, 1, 3, -7)}])")
            return "IndexError"
        if kind == 1:
            self.lines.append(f"{pad}a = a + np.linalg.inv(np.diag(a[:2])).sum()")
            return "np.linalg.LinAlgError"
        if kind == 2:
            self.lines += [f"{pad}with np.errstate(divide='raise'):",
                           f"{pad}    a = {self.pick('1.0 / a', 'a / c', 'np.log(np.abs(a))')}"]
            return "FloatingPointError"
        if kind == 3:
            self.lines.append(f"{pad}c += len({self.lst()}.pop())")
            return "IndexError"
        if kind == 4:
            self.lines.append(f"{pad}s += tab['miss']")
            return "KeyError"
        if kind == 5:
            self.lines.append(f"{pad}c += int(s)")
            return "ValueError"
        if kind == 6:
            self.lines.append(f"{pad}s = s + 1 / (c - k)")
            return "ZeroDivisionError"
        test = self.pick("c > k", "a.sum() > 1", "len(log) > 3", "o.n % 2 == 1")
        self.lines += [f"{pad}if {test}:", f"{pad}    raise MyError(f'bad {{c}} {{k}}')"]
        return "MyError"

    def statement(self, pad: str, depth: int) -> None:
        kind = self.r.randrange(14 if depth < 2 else 8)
        if kind <= 1:
            self.array(pad)
        elif kind <= 4:
            self.state(pad)
        elif kind <= 6:
            self.breaking(pad)
        elif kind == 7 and self.r.random() < 0.3:     # (most raise inside a ``try``:
            self.raising(pad)                          # the rest of the program runs)
        elif kind == 7:
            self.trying(pad, depth)
        elif kind <= 9:
            self.trying(pad, depth)
        elif kind == 10:
            test = self.pick("a.sum() > 0", "c > k", "len(log) > 2", "a.size and a[0] > 0",
                             "o is p", "log is LOG", "'n' in tab")
            self.lines.append(f"{pad}if {test}:")
            self.block(pad + "    ", depth + 1)
            if self.r.random() < 0.5:
                self.lines.append(f"{pad}else:")
                self.block(pad + "    ", depth + 1)
        elif kind == 11:
            self.lines.append(pad + self.pick(
                "for v in gen(k):\n" + pad + "    c += v",
                "g = gen(k)\n" + pad + "c += next(g, -1)",
                "s += sum(gen_fin(k))", "g = gen_fin(k + 1)\n" + pad + "c += next(g)",
                "for v in gen_fin(k):\n" + pad + "    log.append(v)"))
        elif kind == 12:
            self.lines.append(f"{pad}with Ctx({self.lst()}, {self.pick('False', 'True')}):")
            self.block(pad + "    ", depth + 1)
        elif self.loops == 0:
            self.loops += 1
            self.lines.append(f"{pad}for i in range({self.pick('k', 'k', 'k + 7')}):")
            self.in_loop = True
            self.block(pad + "    ", depth + 1, self.r.randint(1, 3))
            self.in_loop = False
        else:
            self.state(pad)

    def block(self, pad: str, depth: int, count: int | None = None) -> None:
        for _ in range(count or self.r.randint(1, 2)):
            self.statement(pad, depth)

    def trying(self, pad: str, depth: int) -> None:
        """``try`` around one op that may raise, with handlers that match it or not."""
        self.lines.append(f"{pad}try:")
        if self.r.random() < 0.5:
            self.statement(pad + "    ", depth + 1)
        raised = self.raising(pad + "    ")
        handlers = self.r.randrange(4)
        if handlers:
            caught = self.pick(raised, raised, "Exception", "(IndexError, KeyError)",
                               "ArithmeticError", "LookupError", "KeyError", "MyError")
            self.lines += [f"{pad}except {caught} as e:",
                           f"{pad}    log.append((type(e).__name__, str(e)))"]
            if self.in_loop and self.r.random() < 0.3:
                self.lines.append(f"{pad}    {self.pick('continue', 'break')}")
            elif self.r.random() < 0.1:
                self.lines.append(f"{pad}    raise MyError('again') from e")
            elif self.r.random() < 0.1:
                self.lines.append(f"{pad}    return ('caught', c, len(log))")
            if self.r.random() < 0.3:
                self.statement(pad + "    ", depth + 1)
            if self.r.random() < 0.2:
                self.lines.append(f"{pad}    raise")
        if handlers and self.r.random() < 0.3:
            self.lines.append(f"{pad}else:")
            self.statement(pad + "    ", depth + 1)
        if not handlers or self.r.random() < 0.5:
            self.lines.append(f"{pad}finally:")
            self.statement(pad + "    ", 2)
            if self.r.random() < 0.05:
                self.lines.append(f"{pad}    return ('finally', c)")

    def program(self) -> str:
        start = self.pick("a = x * 1.0", "a = x + y", "a = x.copy()", "a = x")
        self.lines = ["    global G", f"    {start}", "    s = 0.0", "    c = 0",
                      "    def bump(v):", "        nonlocal c", "        c += v",
                      "        return c"]
        self.block("    ", 0, self.r.randint(2, 6))
        self.lines.append("    return " + self.pick("a, s, c, len(log)", "(a, s, c, G)",
                                                     "[a.sum(), s, c]", "s + c"))
        return "def prog(x, y, k, log, tab, o, p):\n" + "\n".join(self.lines) + "\n"


def program(seed: int) -> str:
    """The source of a random ``def prog(x, y, k, log, tab, o, p)``."""
    return _Writer(seed).program()


def _array(r: random.Random, dtype: str, n: int) -> np.ndarray:
    if dtype == "int64":
        return np.array(r.choices([0, 1, -1, 2, 3, -5], k=n), dtype=dtype)
    pool = [0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 0.25, -0.0, math.nan, math.inf]
    return np.array(r.choices(pool, [4, 4, 3, 3, 3, 3, 2, 1, 1, 1], k=n), dtype=dtype)


def inputs(seed: int) -> list[tuple]:
    """3-4 calls' ``(x, y, k, names)``: sizes 0-6 changing, ``k`` 0-5, ``names`` the
    state passed as ``log, tab, o, p`` (the globals themselves in some calls)."""
    r = random.Random(seed * 7919 + 3)
    dtype = r.choice(["float64", "float64", "float64", "float32", "int64"])
    calls = []
    for _ in range(r.choice([3, 4])):
        n = r.choice([0, 1, 2, 3, 3, 4, 6])
        o = r.choice(["O", "O2"])
        names = (r.choice(["LOG", "LOG2"]), r.choice(["TAB", "TAB2"]), o,
                 r.choice([o, "O", "O2"]))
        y = "x" if r.random() < 0.1 else _array(r, dtype, n)
        calls.append((_array(r, dtype, n), y, r.randrange(6), names))
    return calls


# ------------------------------------------------------------------------ running

def compile_plain(source: str):
    """``prog`` of ``source`` in a fresh namespace holding ``PRELUDE``'s state."""
    scope: dict = {"__name__": "state_program"}   # (else the classes' __module__ is
    #                                                 "builtins": dynamo takes them for C)
    exec(compile(PRELUDE, "<state prelude>", "exec"), scope)
    exec(compile(source, "<random state program>", "exec"), scope)
    return scope["prog"]


def _frozen(v, path: tuple = ()):
    """A copy of ``v`` that ``same`` compares: dicts as their items, objects as their
    class name and attributes, arrays copied; a container met again inside itself
    (``log.append(log)``) as ``("cycle", how many levels up)``."""
    if isinstance(v, np.ndarray):
        return v.copy()
    if not isinstance(v, (list, tuple, dict)) and not (
            hasattr(v, "__dict__") and not isinstance(v, type)):
        return v
    if id(v) in path:
        return ("cycle", len(path) - path.index(id(v)))
    inner = path + (id(v),)
    if isinstance(v, (list, tuple)):
        return type(v)(_frozen(e, inner) for e in v)
    if isinstance(v, dict):
        return ("dict", [(_frozen(kk, inner), _frozen(e, inner)) for kk, e in v.items()])
    return ("obj", type(v).__name__, _frozen(vars(v), inner))


def observe(fn, args, scope: dict | None = None) -> tuple:
    """(result or ("raised", type name, message); the printed text; the warnings; the
    inputs after the call; the state after it) of one call. ``args`` are copied, their
    ``names`` resolved in ``scope`` (``fn``'s globals by default)."""
    scope = fn.__globals__ if scope is None else scope
    x, y, k, names = args
    x = x.copy()
    y = x if isinstance(y, str) else y.copy()
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        try:
            result = _frozen(fn(x, y, k, *(scope[n] for n in names)))
        except Exception as e:  # noqa: BLE001 (plain Python's exception is the one expected)
            result = ("raised", type(e).__name__, str(e))
    return (result, out.getvalue(), [(w.category.__name__, str(w.message)) for w in caught],
            [x, y], [_frozen(scope[n]) for n in STATE] + [_identities(scope),
                                                          _class_state(scope)])


def _class_state(scope: dict) -> list:
    """``Obj``'s class attributes that are data (``Obj.count``, ``Obj.scale``, one a
    program added), as ``(name, value)``: ``vars(o)`` shows only an instance's own."""
    return [(k, _frozen(v)) for k, v in vars(scope["Obj"]).items()
            if not k.startswith("__") and not callable(v) and not isinstance(v, property)]


def _identities(scope: dict) -> list[int]:
    """Which of the state's mutable parts are one object: for each of ``LOG``,
    ``LOG2``, ``TAB``, ``TAB2``, ``O.hist``, ``O2.hist``, ``TAB["h"]``, ``TAB2["h"]``,
    ``O.tag``, ``O2.tag``, the index of the first one it is (a copy made where Python
    shares an object shows here before any later write shows it)."""
    parts = [scope["LOG"], scope["LOG2"], scope["TAB"], scope["TAB2"]]
    parts += [getattr(scope[n], "hist", None) for n in ("O", "O2")]
    parts += [scope[n].get("h") for n in ("TAB", "TAB2")]
    parts += [getattr(scope[n], "tag", None) for n in ("O", "O2")]
    return [next(j for j, q in enumerate(parts) if q is v) if isinstance(v, (list, dict))
            else -1 for v in parts]


def differences(source: str, calls: list[tuple], backend: str,
                cache_dir: str | None = None, made: list | None = None,
                settings: dict | None = None) -> list[str]:
    """What ``prog`` of ``source`` compiled by ``backend`` does otherwise than plainly,
    call by call, the state carried from call to call in each run (empty: nothing)."""
    plain, other = compile_plain(source), compile_plain(source)
    dynamo.reset()
    comp = compiled(other, backend, cache_dir, made)
    found: list[str] = []
    internal = loops._Internal()
    logging.getLogger("dynamo.internal").addHandler(internal)
    old = {kk: getattr(dynamo.config, kk) for kk in settings or {}}
    try:
        for kk, v in (settings or {}).items():
            setattr(dynamo.config, kk, v)
        for n, args in enumerate(calls):
            want = observe(plain, args)
            got = observe(comp, args, other.__globals__)
            for what, w, g in zip(("result", "printed", "warnings", "inputs after the call",
                                   "state after the call"), want, got):
                d = same(w, g) if what != "printed" else (None if w == g else f"{g!r} != {w!r}")
                if d:
                    found.append(f"{backend} call {n + 1}: {what} {d}"[:900])
            if found:
                break            # (the state differs from here on: one finding is enough)
    finally:
        for kk, v in old.items():
            setattr(dynamo.config, kk, v)
        logging.getLogger("dynamo.internal").removeHandler(internal)
    found += [f"{backend} internal error: {m}" for m in internal.messages]
    return found


def loop_nodes(source: str, calls: list[tuple], settings: dict | None = None) -> int:
    """(For ``--loop-nodes-only``: these programs have no loop node worth tier 2.)"""
    return 0


def failure_kind(found: list[str]) -> str:
    """A difference's kind: ``"<backend> <what>"`` (``result``, ``printed``,
    ``warnings``, ``inputs``, ``state``, ``raised``, ``internal error <word>``)."""
    first = found[0]
    backend = first.split()[0]
    if " internal error: " in first:
        text = first.partition(" internal error: ")[2]
        named = re.findall(r"\b(\w+(?:Error|Exception))\b", text)
        return f"{backend} internal error {named[0] if named else 'other'}"
    if "'raised'" in first:
        return f"{backend} raised"
    for kind in ("printed", "warnings", "inputs", "state", "result"):
        if f": {kind}" in first:
            return f"{backend} {kind}"
    return f"{backend} other"
