"""Random programs mixing what the other generators keep apart (issue #17).

``--generator mixed`` of ``scripts/loop_program_search.py``. The state grammar of
``scripts/random_state_programs.py`` (its statements, prelude and comparison), plus:

- ``try/except/finally`` inside loops around ops that raise for some trips: ``a[i + k]``,
  ``np.take``, ``np.linalg.inv``/``cholesky``/``solve`` of a singular or indefinite
  matrix, ``np.errstate(divide=/over=/invalid="raise")``, ``1 / (i - 3)`` (read, and
  unread: ``h = 1 / (i - 3)``), ``int(np.int8(...))`` out of range; ``continue``/``break``;
- generators and generator expressions over arrays (``sum(float(v) for v in a)``,
  ``next(g, 0.0)`` of a half-used one, ``fin_gen`` with a ``finally``, broken out of);
- closures that write the program's ``nonlocal`` locals (``add`` writes ``s``, ``grow``
  rebinds ``a``, so ``a`` is a cell all along);
- ``with`` statements: ``Ctx`` (one that swallows), ``np.errstate``, two at once,
  ``warnings.catch_warnings``;
- early ``return`` from nested loops; ``del`` of locals (read again after: an
  UnboundLocalError in some calls); the walrus, also in a generator expression;
- chained comparisons of arrays' scalars (``a[0] <= a[1] < a[-1] + 1``);
- NumPy scalar types that overflow (``np.float32(3e38) * 2``, ``np.int8`` sums, ``np.uint8``
  differences) and round (float32);
- in-place ops on views (``a[::2] += 1``, ``a[1:] += a[:-1]`` overlapping, ``np.add(...,
  out=a[1:])``, a reshaped view written, ``x[:2] -= 1`` on the input);
- keyword and default arguments that change between calls: ``prog(x, y, k, log, tab, o,
  p, scale=1.5, hist=[], *, mode="sum", n=None)``, each call passing some (``hist``'s
  default list lives across the calls and is compared too);
- threads (a quarter of the seeds, ``threaded(seed)``): the body runs under
  ``LOCK.acquire()`` ... ``finally: LOCK.release()`` and starts with ``ORDER.append(x)``;
  the compiled function is called from one thread per call at once, and the results,
  printed text, warnings and state must equal plain calls made one after another in the
  order ``ORDER`` recorded (a generator left suspended, ``gen_fin``'s, is closed under
  the lock: its ``finally`` would run after the release, in no order the lock fixes).

``inputs(seed)`` gives ``(x, y, k, names, kwargs)`` per call (``kwargs`` values
``"@LOG"`` name a state object). Example::

    >>> print(program(7))                                  # doctest: +SKIP
    def prog(x, y, k, log, tab, o, p, scale=1.5, hist=[], *, mode='sum', n=None):
        ...
    >>> differences(program(7), inputs(7), "numpy")
    []
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import random
import re
import sys
import threading
import warnings

import dynamo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import random_loop_programs as loops  # noqa: E402  (same, _Internal, compiled)
import random_state_programs as base  # noqa: E402

same = loops.same
failure_kind = base.failure_kind
_frozen = base._frozen

PRELUDE = base.PRELUDE + '''
import threading

LOCK = threading.Lock()
ORDER = []


def fin_gen(a):
    try:
        for v in a:
            yield float(v) * 2
    finally:
        LOG.append("fin_gen closed")
'''

SIGNATURE = "def prog(x, y, k, log, tab, o, p, scale=1.5, hist=[], *, mode='sum', n=None):"


def threaded(seed: int) -> bool:
    """Is seed ``seed``'s program called from threads (a quarter of the seeds)?"""
    return random.Random(seed * 31 + 7).random() < 0.25


class _MixedWriter(base._Writer):
    """The base grammar; about half of the statements are one of the new kinds."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.loop_vars: list[str] = []     # (the enclosing loops' variables)

    # ------------------------------------------------------------------ raising ops

    def raising(self, pad: str) -> str:
        if self.r.random() < 0.5:
            return super().raising(pad)
        inner = pad + "    "
        i = self.loop_vars[-1] if self.loop_vars else "c"
        kind = self.r.randrange(11)
        if kind == 0:
            self.lines.append(f"{pad}a = a + np.linalg.cholesky(np.eye(2) * ({i} - k)).sum()")
            return "np.linalg.LinAlgError"
        if kind == 1:
            self.lines.append(f"{pad}a = a + np.linalg.solve(np.diag(a[:2]) if a.size > 1 "
                              "else np.zeros((2, 2)), np.ones(2)).sum()")
            return "np.linalg.LinAlgError"
        if kind == 2:
            self.lines.append(f"{pad}s += float(np.take(a, {i} + k - 2))")
            return "IndexError"
        if kind == 3:
            self.lines.append(f"{pad}s += float(a[np.array([{i} - 1])].sum())")
            return "IndexError"
        if kind == 4:
            self.lines += [f"{pad}with np.errstate(over='raise'):",
                           f"{inner}f = np.float32(3e38) * np.float32({i} + 0.5)",
                           f"{pad}s += float(f)"]
            return "FloatingPointError"
        if kind == 5:
            self.lines += [f"{pad}with np.errstate(invalid='raise'):",
                           f"{inner}a = np.sqrt(a - {i})"]
            return "FloatingPointError"
        if kind == 6:
            self.lines.append(f"{pad}c += int(np.int8({i} * 30))")
            return "OverflowError"
        if kind == 7:
            self.lines.append(f"{pad}s += {self.pick('1', '1.0', 's')} / ({i} - 3)")
            return "ZeroDivisionError"
        if kind == 8:
            self.lines.append(f"{pad}h = 1 / ({i} - 3)")     # (unread: issue #17's open item)
            return "ZeroDivisionError"
        if kind == 9:
            self.lines += [f"{pad}with np.errstate(divide='raise', invalid='raise'):",
                           f"{inner}a = a / ({i} - 2)"]
            return "FloatingPointError"
        self.lines.append(f"{pad}c += int(np.float64(s) * {i}) if {i} else int(s)")
        return "ValueError"

    # ------------------------------------------------------------------ new statements

    def statement(self, pad: str, depth: int) -> None:
        if self.r.random() < 0.45:
            super().statement(pad, depth)
            return
        kinds = [self.generators, self.closures, self.dels, self.walrus, self.chained,
                 self.scalars, self.views, self.keywords, self.withs]
        if depth < 2:
            kinds += [self.loop_try, self.loop_try, self.nested_return]
        self.r.choice(kinds)(pad, depth)

    def loop_try(self, pad: str, depth: int) -> None:
        """A loop whose body is a ``try`` around an op that raises for some trips."""
        i = "i" if "i" not in self.loop_vars else "j"
        self.lines.append(f"{pad}for {i} in range({self.pick('k', 'k + 2', '5', 'a.size')}):")
        self.loop_vars.append(i)
        was, self.in_loop = self.in_loop, True
        self.trying(pad + "    ", depth + 1)
        if self.r.random() < 0.4:
            self.statement(pad + "    ", depth + 1)
        self.in_loop = was
        self.loop_vars.pop()

    def nested_return(self, pad: str, depth: int) -> None:
        """Two nested loops, with an early ``return`` in the inner one."""
        inner, deeper = pad + "    ", pad + "        "
        test = self.pick("a.size > i and a[i] > j", "i * j == k - 1", "c > 3", "s > i + j",
                         "len(log) > 4", "o.n % 3 == j")
        self.lines += [f"{pad}for i in range({self.pick('k', '3', 'a.size')}):",
                       f"{inner}for j in range({self.pick('2', 'i', 'k')}):",
                       f"{deeper}if {test}:",
                       f"{deeper}    return ('early', i, j, c, {self.pick('a', 's', 'len(log)')})"]
        self.loop_vars += ["i", "j"]
        was, self.in_loop = self.in_loop, True
        self.block(deeper, depth + 2)
        self.in_loop = was
        self.loop_vars = self.loop_vars[:-2]

    def generators(self, pad: str, depth: int) -> None:
        inner = pad + "    "
        self.lines.append(pad + self.pick(
            "s += sum(float(v) * 2 for v in a)",
            "c += sum(1 for v in a if v > 0)",
            "s += max((float(v) for v in a), default=-1.0)",
            "a = np.array([v * k for v in a], dtype=a.dtype)",
            "c += any(v < 0 for v in a)",
            f"for j, v in enumerate(fin_gen(a)):\n{inner}if j > 1:\n{inner}    break\n"
            f"{inner}s += v",
            "g = (v + 1 for v in a)\n" + pad + "s += float(next(g, 0.0))",
            "s += sum(float(u) * float(w) for u, w in zip(a, y))",
            "log.append(list(v > 0 for v in a[:3]))",
            "g = fin_gen(a)\n" + pad + "s += next(g, 0.5)\n" + pad + "del g"))

    def closures(self, pad: str, depth: int) -> None:
        self.lines.append(pad + self.pick(
            "add(float(a.sum()))", "s = s + add(k)", "grow(2)", "grow(-1)",
            "c += bump(len(log))", "log.append(add(0.5))",
            "fs = [lambda v, m=m: v * m for m in range(3)]\n" + pad + "s += fs[-1](k)",
            "t = lambda: a.sum() + c\n" + pad + "s += float(t())"))

    def dels(self, pad: str, depth: int) -> None:
        inner = pad + "    "
        self.lines.append(pad + self.pick(
            "t = a * 2\n" + pad + "del t",
            f"tmp = c\n{pad}if k > 2:\n{inner}del tmp\n{pad}c += tmp",
            "u = a[:1]\n" + pad + "del a\n" + pad + "a = u * 1 if u.size else x * 1",
            f"w = s\n{pad}del s\n{pad}s = w + 1",
            f"try:\n{inner}del h\n{pad}except NameError as e:\n{inner}log.append(str(e))"))

    def walrus(self, pad: str, depth: int) -> None:
        inner = pad + "    "
        self.lines.append(pad + self.pick(
            f"if (m := (float(a.sum()) if a.size else 0.0)) > 1:\n{inner}s += m",
            "c += (w := len(log)) * 2 + w",
            f"s += sum((z := float(v)) for v in a)\n{pad}if a.size:\n{inner}s += z",
            f"while (q := c % 4) and c < 9:\n{inner}c += q",
            f"if a.size and (b := a[0]) > 0:\n{inner}a = a - b"))

    def chained(self, pad: str, depth: int) -> None:
        inner = pad + "    "
        self.lines.append(pad + self.pick(
            f"if a.size > 1 and a[0] <= a[1] < a[-1] + 1:\n{inner}c += 1",
            f"if 0 < s < k + a.size:\n{inner}s = s * 2",
            "c += int(a.min() < 0.5 <= a.max()) if a.size else 0",
            "log.append(0 <= k < a.size and a[k] > -1)",
            f"if a.size and -1 < a[-1] == a[0] != 2:\n{inner}c -= 1"))

    def scalars(self, pad: str, depth: int) -> None:
        self.lines.append(pad + self.pick(
            "f = np.float32(s) * np.float32(1e38)\n" + pad + "s = s + float(f)",
            "b = np.int8(c % 128) * np.int8(3)\n" + pad + "c += int(b)",
            "c += int(np.uint8(k) - np.uint8(3))",
            "a = a.astype(np.float32) * np.float32(3e38)",
            "s = s + float(np.float32(0.1) + np.float32(s))",
            "b = np.int8(k) - np.int8(120) - np.int8(10)\n" + pad + "log.append(b)",
            "e = np.float32(s)\n" + pad + "e += np.float32(1e-8)\n" + pad + "s = float(e)",
            "a = a.astype(np.int8) * np.int8(100)"))

    def views(self, pad: str, depth: int) -> None:
        self.lines.append(pad + self.pick(
            "v = a[::2]\n" + pad + "v += 1",
            "a[1:] += a[:-1]",
            "np.add(a[:-1], 1, out=a[1:])",
            "a[::-1] *= 2",
            "v = a.reshape(-1)\n" + pad + "v[:1] = 7",
            "x[:2] -= 1",
            "v = a.T\n" + pad + "v *= 0.5",
            "w = a[a > 0]\n" + pad + "w += 1",
            "np.negative(a, out=a)",
            "a[...] = a[::-1]"))

    def keywords(self, pad: str, depth: int) -> None:
        inner = pad + "    "
        self.lines.append(pad + self.pick(
            "a = a * scale", "s = s + scale",
            f"if mode == 'max':\n{inner}s = max(s, float(a.max()) if a.size else s)",
            f"if mode == 'cnt':\n{inner}c += len(hist)",
            f"if n is not None:\n{inner}a = a[:n]",
            "hist.append(k)", "hist.append(round(s, 4))",
            f"if len(hist) > 3:\n{inner}hist.clear()"))

    def withs(self, pad: str, depth: int) -> None:
        inner = pad + "    "
        self.lines.append(pad + self.pick(
            f"with Ctx({self.lst()}, True):",
            "with np.errstate(over='ignore', invalid='ignore'):",
            f"with Ctx({self.lst()}), np.errstate(divide='ignore'):",
            "with warnings.catch_warnings():\n" + inner + "warnings.simplefilter('ignore')"))
        if self.r.random() < 0.5:
            self.raising(inner)
        self.block(inner, depth + 1, 1)

    def program(self, lock: bool = False) -> str:
        start = self.pick("a = x * 1.0", "a = x + y", "a = x.copy()", "a = x")
        pad = "        " if lock else "    "
        self.lines = ["    global G"]
        if lock:
            self.lines += ["    LOCK.acquire()", "    try:", f"{pad}ORDER.append(x)"]
        self.lines += [f"{pad}{start}", f"{pad}s = 0.0", f"{pad}c = 0",
                       f"{pad}def bump(v):", f"{pad}    nonlocal c", f"{pad}    c += v",
                       f"{pad}    return c",
                       f"{pad}def add(v):", f"{pad}    nonlocal s", f"{pad}    s += v",
                       f"{pad}    return s",
                       f"{pad}def grow(m):", f"{pad}    nonlocal a", f"{pad}    a = a * m"]
        self.block(pad, 0, self.r.randint(2, 6))
        self.lines.append(pad + "return " + self.pick(
            "a, s, c, len(log)", "(a, s, c, G)", "[a.sum(), s, c]", "s + c",
            "a, s, c, len(hist)"))
        body = "\n".join(self.lines)
        if lock:   # (a generator left suspended runs its ``finally`` when its frame is
            # freed, after ``LOCK.release()``: closed under the lock, its effect keeps
            # the order the threads took the lock in)
            body = re.sub(r"\n( *)(g = gen_fin\(k \+ 1\)\n\1c \+= next\(g\))",
                          r"\n\1\2\n\1g.close()", body)
            body += "\n    finally:\n        LOCK.release()"
        return SIGNATURE + "\n" + body + "\n"


def program(seed: int) -> str:
    """The source of a random ``prog`` of this grammar (its body under ``LOCK`` when
    ``threaded(seed)``)."""
    return _MixedWriter(seed).program(lock=threaded(seed))


_KWARGS = [{}, {}, {"scale": 2}, {"scale": 0.5, "mode": "max"}, {"mode": "cnt"},
           {"n": 2}, {"n": 0, "scale": -1.0}, {"hist": "@LOG2"}, {"mode": "max", "n": 1},
           {"scale": True}]


def inputs(seed: int) -> list[tuple]:
    """The base's calls with the keyword arguments of each: ``(x, y, k, names,
    kwargs)``; 5-6 calls for a threaded seed (one thread each)."""
    r = random.Random(seed * 7919 + 11)
    calls = base.inputs(seed)
    if threaded(seed):
        calls = calls + base.inputs(seed + 100_000)[:6 - len(calls)]
    return [c + (dict(r.choice(_KWARGS)),) for c in calls]


# ------------------------------------------------------------------------ running

def compile_plain(source: str):
    """``prog`` of ``source`` in a fresh namespace holding ``PRELUDE``'s state."""
    scope: dict = {"__name__": "state_program"}
    exec(compile(PRELUDE, "<mixed prelude>", "exec"), scope)
    exec(compile(source, "<random mixed program>", "exec"), scope)
    return scope["prog"]


def _arguments(args: tuple, scope: dict) -> tuple[tuple, dict, list]:
    """The positional and keyword arguments of one call (arrays copied, names looked
    up in ``scope``) and the inputs to compare after it."""
    x, y, k, names, kwargs = args
    x = x.copy()
    y = x if isinstance(y, str) else y.copy()
    kw = {kk: scope[v[1:]] if isinstance(v, str) and v.startswith("@") else v
          for kk, v in kwargs.items()}
    return (x, y, k) + tuple(scope[nm] for nm in names), kw, [x, y]


def _call(fn, pos: tuple, kw: dict):
    try:
        return fn(*pos, **kw)
    except Exception as e:  # noqa: BLE001 (plain Python's exception is the one expected)
        return ("raised", type(e).__name__, str(e))


def _state(scope: dict, orig) -> list:
    """Every state object, the identities between them, the class attributes and the
    function's defaults (``hist=[]`` lives across calls)."""
    return ([_frozen(scope[nm]) for nm in base.STATE] + [base._identities(scope),
            base._class_state(scope), _frozen([list(orig.__defaults__ or ()),
                                               orig.__kwdefaults__ or {}])])


def observe(fn, args, scope: dict | None = None, orig=None) -> tuple:
    """(result or ("raised", type name, message); the printed text; the warnings; the
    inputs after the call; the state after it) of one call, as ``base.observe``."""
    orig = fn if orig is None else orig
    scope = orig.__globals__ if scope is None else scope
    pos, kw, seen = _arguments(args, scope)
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        result = _frozen(_call(fn, pos, kw))
    return (result, out.getvalue(), [(w.category.__name__, str(w.message)) for w in caught],
            seen, _state(scope, orig))


def _run_threads(fn, calls: list[tuple], scope: dict, orig) -> tuple:
    """Each call in a thread of its own, started at once; (the results by call, in the
    order the calls took ``LOCK``, that order, the printed text, the warnings, the inputs
    after, the state after). A thread still running after 60 s: ``"hung"``."""
    prepared = [_arguments(a, scope) for a in calls]
    results: list = [("never ran",)] * len(calls)
    start = threading.Barrier(len(calls))

    def work(n):
        start.wait()
        results[n] = _call(fn, *prepared[n][:2])

    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        threads = [threading.Thread(target=work, args=(n,)) for n in range(len(calls))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        hung = any(t.is_alive() for t in threads)
    xs = [p[0][0] for p in prepared]
    order = [next((n for n, x in enumerate(xs) if x is v), -1) for v in scope["ORDER"]]
    return ("hung" if hung else [_frozen(r) for r in results], order, out.getvalue(),
            [(w.category.__name__, str(w.message)) for w in caught],
            [p[2] for p in prepared], _state(scope, orig))


def _run_serial(fn, calls: list[tuple], order: list[int]) -> tuple:
    """The calls one after another in ``order``, as ``_run_threads`` reports them
    (results frozen after the last call, as the threads' are)."""
    scope = fn.__globals__
    prepared = [_arguments(a, scope) for a in calls]
    results: list = [("never ran",)] * len(calls)
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        for n in order:
            results[n] = _call(fn, *prepared[n][:2])
    xs = [p[0][0] for p in prepared]
    taken = [next((n for n, x in enumerate(xs) if x is v), -1) for v in scope["ORDER"]]
    return ([_frozen(r) for r in results], taken, out.getvalue(),
            [(w.category.__name__, str(w.message)) for w in caught],
            [p[2] for p in prepared], _state(scope, fn))


def _threaded_differences(plain, other, comp, calls, backend) -> list[str]:
    got = _run_threads(comp, calls, other.__globals__, other)
    order = got[1]
    if got[0] == "hung" or sorted(order) != list(range(len(calls))):
        return [f"{backend} threads: {'hung' if got[0] == 'hung' else 'order'} {order}"]
    want = _run_serial(plain, calls, order)
    found = []
    for what, w, g in zip(("result", "order", "printed", "warnings", "inputs after the call",
                           "state after the call"), want, got):
        d = same(w, g) if what != "printed" else (None if w == g else f"{g!r} != {w!r}")
        if d:
            found.append(f"{backend} threads (order {order}): {what} {d}"[:900])
    return found


def differences(source: str, calls: list[tuple], backend: str,
                cache_dir: str | None = None, made: list | None = None,
                settings: dict | None = None) -> list[str]:
    """What ``prog`` of ``source`` compiled by ``backend`` does otherwise than plainly:
    call by call with the state carried from call to call, or (a program that takes
    ``LOCK``) all calls at once from threads against plain calls in the order taken."""
    plain, other = compile_plain(source), compile_plain(source)
    dynamo.reset()
    comp = loops.compiled(other, backend, cache_dir, made)
    found: list[str] = []
    internal = loops._Internal()
    logging.getLogger("dynamo.internal").addHandler(internal)
    old = {kk: getattr(dynamo.config, kk) for kk in settings or {}}
    try:
        for kk, v in (settings or {}).items():
            setattr(dynamo.config, kk, v)
        if "LOCK.acquire()" in source:
            found += _threaded_differences(plain, other, comp, calls, backend)
        for n, args in enumerate([] if "LOCK.acquire()" in source else calls):
            want = observe(plain, args)
            got = observe(comp, args, other.__globals__, other)
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
