"""Differential checks for hostile programs: a *scenario* runs once plainly and once per
backend compiled, and every observable fact must be the same.

A scenario is a function of a ``Recorder`` ``r``. It builds its own fresh state (arrays,
lists, objects, module globals), compiles what it wants with ``r.compile(fn)`` (the
plain function in the reference run, ``dynamo.compile(fn, backend=...)`` otherwise),
calls it through ``r.call(f, *args)`` as often as it likes, changes things between calls
(an attribute set after the first call, a global rebound, a helper's ``__defaults__``
replaced) and shows other state with ``r.see(label, value)``::

    def shadow_method(r):
        o = Scaled()
        f = r.compile(apply)
        r.call(f, o, X)
        o.scale = lambda x: x * 100      # an instance attribute now shadows the method
        r.call(f, o, X)

Each ``r.call`` records, for the reference and the compiled run alike:

- the result (type, dtype, shape, values bit for bit: ``-0.0`` is not ``0.0``, NaN is
  NaN; C/F contiguity and writeability of arrays) or the raised exception (type,
  message, ``args``, ``__cause__``, ``__context__``, ``__suppress_context__``);
- the arguments afterwards (mutations), printed output, warnings (category, text, with
  the ``"always"`` filter), NumPy's error state afterwards;
- identity: which of the arguments and results are the same object (``f(x) is x``) and
  which arrays share memory (a view of the argument vs a copy).

At the end every earlier result is recorded again (a later call must not write into an
array an earlier call returned). The two records must be equal, and the compiled run
must not fall back to eager after an internal error (a ``dynamo.internal`` warning).

Most programs are simpler: ``Programs.case(fn, inputs...)`` makes the scenario "call
``fn`` with each input set ``calls`` times, then the first set once more". An input set
is a tuple of arguments (deep-copied for every call, so aliasing *inside* the tuple is
kept: ``(o, o)`` stays one object twice), an ``Args(*args, **kwargs)``, or a callable
returning either (for arguments that must be module globals or fresh views).

``python tests/hostile/hostile_check.py [substring]`` runs every program (whose id
contains the substring) outside pytest and prints the ones that differ, with every
difference (for triage; ``compare`` gives the test its first five).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import inspect
import io
import logging
import math
import re
import sys
import types
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import dynamo

BACKENDS = ("eager", "numpy")
# where a program that names its own backend runs (``Program.own_backend``): on "eager"
# too it would run the very same thing a second time
ONE_BACKEND = "numpy"
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def without_addresses(text: str) -> str:
    """``text`` with the objects' addresses taken out: two runs make equal objects at
    different addresses, and a message or repr that names one differs only there.

        >>> without_addresses("Can't pickle local object <function f at 0x7fd6c1629170>")
        "Can't pickle local object <function f>"
    """
    return _ADDRESS.sub("", text)


# ----------------------------------------------------------------------------- snapshots

def snap(value: Any, _path: tuple = (), _depth: int = 0) -> Any:
    """A plain, comparable description of ``value`` (it keeps no reference to it)."""
    if _depth > 10:
        return ("deep",)
    if id(value) in _path:
        return ("cycle",)
    path = _path + (id(value),)
    d = _depth + 1
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            items = [snap(v, path, d) for v in value.ravel(order="C").tolist()]
        elif value.size > 1000:
            items = _digest(value)
        else:
            items = _leaves(value.tolist()) if value.ndim else _leaves([value.item()])
        return ("ndarray", type(value).__name__, value.dtype.str, value.shape,
                bool(value.flags.c_contiguous), bool(value.flags.f_contiguous),
                bool(value.flags.num & 1024), items)   # (.writeable of a broadcast view warns)
    if isinstance(value, np.generic):
        return ("numpy scalar", type(value).__name__, value.dtype.str,
                _leaves([value.item()]))
    if isinstance(value, BaseException):
        return ("exception", type(value).__qualname__, without_addresses(str(value)),
                snap(value.args, path, d),
                snap(value.__cause__, path, d) if value.__cause__ is not None else None,
                snap(value.__context__, path, d) if value.__context__ is not None else None,
                value.__suppress_context__)
    if isinstance(value, float):
        return ("float", value)
    if isinstance(value, (bool, int, str, bytes, complex, type(None), range, slice)):
        return (type(value).__name__, value)
    if isinstance(value, np.dtype):
        return ("dtype", value.str)
    if isinstance(value, (list, tuple)):
        return (type(value).__qualname__, [snap(v, path, d) for v in value])
    if isinstance(value, dict):
        return (type(value).__qualname__,
                [(snap(k, path, d), snap(v, path, d)) for k, v in value.items()])
    if isinstance(value, (set, frozenset)):
        return (type(value).__qualname__, sorted(repr(snap(v, path, d)) for v in value))
    if isinstance(value, types.GeneratorType):
        return ("generator", value.__qualname__, inspect.getgeneratorstate(value))
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type,
                          types.ModuleType, np.ufunc)):
        return (type(value).__name__, getattr(value, "__qualname__",
                                              getattr(value, "__name__", "?")))
    if isinstance(value, types.MethodType):
        return ("method", value.__func__.__qualname__, snap(value.__self__, path, d))
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return ("object", type(value).__qualname__, snap(vars(value), path, d))
    if hasattr(type(value), "__slots__"):
        return ("slots", type(value).__qualname__,
                [(s, snap(getattr(value, s, "<unset>"), path, d))
                 for s in type(value).__slots__])
    return ("other", type(value).__qualname__, without_addresses(repr(value)))


def _digest(a: np.ndarray) -> tuple:
    """A large array's elements as one digest of its bytes in C order (every NaN made
    the same NaN first; -0.0 keeps its sign bit).

    A C-contiguous array without NaN is hashed in place, through its buffer: copying it
    and making a ``bytes`` of it cost twice the hash (a third of the CPU time of the
    programs that keep 1.2 MB results, ``round41_buffers``)."""
    nans = a.dtype.kind in "fc" and bool(np.isnan(a).any())
    if nans or not a.flags.c_contiguous:
        a = np.array(a, order="C", copy=True)
        if nans:
            a[np.isnan(a)] = np.nan
    try:
        data = memoryview(a).cast("B")
    except (TypeError, ValueError, BufferError):   # (a dtype no buffer can show)
        data = a.tobytes()
    return ("sha1", hashlib.sha1(data).hexdigest())


def _leaves(items):
    """Array elements as plain Python values (floats keep -0.0 and NaN). A record of a
    structured dtype is a tuple, whose sub-array fields are arrays."""
    if isinstance(items, list):
        return [_leaves(v) for v in items]
    if isinstance(items, tuple):
        return ("record", [_leaves(v) for v in items])
    if isinstance(items, np.ndarray):
        return snap(items)
    return (type(items).__name__, items)


def _identity_leaves(value, path: str, out: list, seen: set, depth: int = 0) -> None:
    """(path, object) for every object inside ``value`` whose identity a program could
    observe: arrays, lists, dicts, sets, user objects. Tuples are looked into but not
    recorded: Python itself may share or rebuild them (a constant ``(1, 2)``)."""
    if depth > 6 or id(value) in seen:
        if id(value) in seen:
            out.append((path, value))
        return
    if isinstance(value, np.ndarray):
        out.append((path, value))
        return
    if isinstance(value, (list, tuple, dict, set)):
        if not isinstance(value, tuple):
            out.append((path, value))
        seen = seen | {id(value)}
        items = value.items() if isinstance(value, dict) else enumerate(value) \
            if not isinstance(value, set) else ()
        for k, v in items:
            _identity_leaves(v, f"{path}[{k!r}]", out, seen, depth + 1)
        return
    if hasattr(value, "__dict__") and not isinstance(
            value, (type, types.FunctionType, types.ModuleType, types.MethodType,
                    BaseException, types.GeneratorType)):
        out.append((path, value))
        seen = seen | {id(value)}
        for k, v in vars(value).items():
            _identity_leaves(v, f"{path}.{k}", out, seen, depth + 1)


def identity_pattern(named: list[tuple[str, Any]]) -> list[str]:
    """For each observable object: which earlier one it *is*, and (arrays) which
    earlier array it shares memory with. Paths name them (``arg0``, ``result[1]``)."""
    leaves: list = []
    for name, value in named:
        _identity_leaves(value, name, leaves, set())
    pattern = []
    for i, (path, obj) in enumerate(leaves):
        same = next((p for p, o in leaves[:i] if o is obj), None)
        if same is not None:
            pattern.append(f"{path} is {same}")
            continue
        if isinstance(obj, np.ndarray) and obj.size:
            shared = next((p for p, o in leaves[:i] if isinstance(o, np.ndarray) and o.size
                           and o is not obj and np.shares_memory(o, obj)), None)
            if shared is not None:
                pattern.append(f"{path} shares memory with {shared}")
    return pattern


def first_difference(want: Any, got: Any, path: str = "") -> str | None:
    """Where two snapshots differ (None: nowhere). Floats compare bit for bit."""
    if type(want) is not type(got):
        return f"{path}: {_short(want)} != {_short(got)}"
    if isinstance(want, complex):
        if first_difference(want.real, got.real) or first_difference(want.imag, got.imag):
            return f"{path}: {want!r} != {got!r}"
        return None
    if isinstance(want, float):
        if math.isnan(want) and math.isnan(got):
            return None
        if want == got and math.copysign(1, want) == math.copysign(1, got):
            return None
        return f"{path}: {want!r} != {got!r}"
    if isinstance(want, (list, tuple)):
        if len(want) != len(got):
            return f"{path}: {_short(want)} != {_short(got)}"
        if isinstance(want, tuple) and want and isinstance(want[0], str):
            path = f"{path}<{want[0]}>"
        for i, (a, b) in enumerate(zip(want, got)):
            diff = first_difference(a, b, f"{path}.{i}")
            if diff:
                return diff
        return None
    if want != got:
        return f"{path}: {_short(want)} != {_short(got)}"
    return None


def _short(v: Any, n: int = 300) -> str:
    text = repr(v)
    return text if len(text) <= n else text[:n] + "..."


# ----------------------------------------------------------------------------- recorder

class Recorder:
    """What a scenario sees: ``compile``, ``call``, ``see``, ``patch`` (see the module
    docstring)."""

    def __init__(self, compile_fn: Callable):
        self._compile_fn = compile_fn
        self.log: list[tuple[str, Any]] = []
        self._kept: list[tuple[str, Any]] = []
        self._undo: list[Callable] = []
        self.compiled = compile_fn is not _plain

    def compile(self, fn, **kwargs):
        """``fn`` compiled (plain ``fn`` in the reference run)."""
        return self._compile_fn(fn, **kwargs)

    def compile_on(self, fn, backend: str, **kwargs):
        """``fn`` compiled on ``backend`` whatever backend the run is for (plain ``fn``
        in the reference run): ``Programs.tiers``."""
        return dynamo.compile(fn, backend=backend, **kwargs) if self.compiled else fn

    def call(self, f, /, *args, **kwargs):
        """Call ``f`` and record everything observable about the call; return its
        result (None when it raised)."""
        n = len(self.log)
        out = io.StringIO()
        err_before = np.geterr()
        with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                result, raised = f(*args, **kwargs), None
            except Exception as e:  # noqa: BLE001
                result, raised = None, e
        errstate = np.geterr()
        np.seterr(**err_before)
        record = {
            "outcome": snap(raised) if raised is not None else snap(result),
            "stdout": out.getvalue(),
            "warnings": [(w.category.__name__, str(w.message)) for w in seen],
            "arguments after": snap(args),
            "keyword arguments after": snap(kwargs),
            "np.geterr() after": sorted(errstate.items()),
            "identity": identity_pattern(
                [(f"arg{i}", a) for i, a in enumerate(args)]
                + [(f"kw[{k}]", v) for k, v in kwargs.items()]
                + [("result", result)]),
        }
        self.log.append((f"call {n}", record))
        if raised is None:
            self._kept.append((f"result of call {n}", result))
        return result

    def see(self, label: str, value: Any) -> None:
        """Record ``value`` (a global, an object, a flag) at this point."""
        self.log.append((f"see {label!r}", snap(value)))

    def patch(self, obj, name: str, value) -> None:
        """``setattr(obj, name, value)``, undone when the scenario ends."""
        missing = object()
        old = getattr(obj, name, missing) if not isinstance(obj, dict) else \
            obj.get(name, missing)

        def undo():
            if isinstance(obj, dict):
                if old is missing:
                    obj.pop(name, None)
                else:
                    obj[name] = old
            elif old is missing:
                delattr(obj, name)
            else:
                setattr(obj, name, old)
        self._undo.append(undo)
        if isinstance(obj, dict):
            obj[name] = value
        else:
            setattr(obj, name, value)

    def finish(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()
        self.log.append(("earlier results at the end", snap([v for _, v in self._kept])))
        self.log.append(("identity of the results at the end",
                         identity_pattern(self._kept)))


@contextlib.contextmanager
def logs_on():
    """dynamo's recompiles, guards and graph_breaks logs on, into a handler that
    formats every record (formatting runs whatever a message shows), then off again."""
    class Keep(logging.Handler):
        def emit(self, record):
            self.format(record)
    handler = Keep(logging.DEBUG)
    root = logging.getLogger("dynamo")
    root.addHandler(handler)
    dynamo.set_logs("recompiles", "guards", "graph_breaks")
    try:
        yield
    finally:
        dynamo.set_logs()
        root.removeHandler(handler)


def _plain(fn, **kwargs):
    return fn


def observe(scenario: Callable, compile_fn: Callable = _plain) -> list:
    """The record of one run of ``scenario``."""
    r = Recorder(compile_fn)
    try:
        scenario(r)
    finally:
        r.finish()
    return r.log


class _InternalErrors(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def differences(scenario: Callable, backend: str) -> list[str]:
    """Every way the compiled runs of ``scenario`` on ``backend`` differ from the plain
    run (empty: none), one line each, first the first.

    Both runs start from NumPy's print options as they were on entry, and those are put
    back at the end: a program may leave them changed on purpose
    (``round27_globals/set_inside_kept``), and that must reach neither its own compiled
    run nor the next program (whose plain run would print with them, its compiled run,
    after the plain run's own restore, without)."""
    printing = np.get_printoptions()
    try:
        want = observe(scenario)
    finally:
        np.set_printoptions(**printing)
    dynamo.reset()
    catcher = _InternalErrors()
    logger = logging.getLogger("dynamo.internal")
    logger.addHandler(catcher)
    try:
        got = observe(scenario, lambda fn, **kw: dynamo.compile(fn, backend=backend, **kw))
    except Exception as e:  # noqa: BLE001 (the scenario itself failed outside r.call)
        return [f"the compiled scenario raised outside a call: {type(e).__name__}: {e}"]
    finally:
        logger.removeHandler(catcher)
        np.set_printoptions(**printing)
    found = []
    if len(want) != len(got):
        found.append(f"{len(want)} observations plainly, {len(got)} compiled")
    for (label, a), (label_b, b) in zip(want, got):
        if label != label_b:
            found.append(f"observation {label!r} plainly, {label_b!r} compiled")
            break
        if isinstance(a, dict):
            for key in a:
                diff = first_difference(a[key], b[key], key)
                if diff:
                    found.append(f"{label}: {diff}\n    plain:    {_short(a[key], 600)}\n"
                                 f"    compiled: {_short(b[key], 600)}")
        else:
            diff = first_difference(a, b, "")
            if diff:
                found.append(f"{label}: {diff}")
    found += [f"internal error (fell back to eager): {m[:400]}" for m in catcher.messages]
    return found


def compare(scenario: Callable, backend: str) -> str | None:
    """None when the compiled runs of ``scenario`` on ``backend`` match the plain run,
    else the differences (at most five)."""
    found = differences(scenario, backend)
    if not found:
        return None
    more = f"\n... and {len(found) - 5} more" if len(found) > 5 else ""
    return "\n".join(found[:5]) + more


# ----------------------------------------------------------------------------- programs

class Args:
    """One input set with keyword arguments: ``Args(x, o, scale=2.0)``."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class Program:
    """One hostile program: a name, its category and its scenario. ``own_backend``: the
    scenario names its backend itself (``Programs.tiers``), so it runs the same whatever
    backend the test is for, and runs under one of them only (``ONE_BACKEND``)."""

    def __init__(self, category: str, name: str, scenario: Callable, doc: str = "",
                 own_backend: bool = False):
        self.category, self.name, self.scenario, self.doc = category, name, scenario, doc
        self.own_backend = own_backend

    @property
    def id(self) -> str:
        return f"{self.category}/{self.name}"

    def __repr__(self) -> str:
        return self.id


# The native tier from the second call, compiled before that call returns, whatever the
# race would choose (``Programs.tiers``)
TIER2 = {"after_calls": 1, "background": False, "prefer": "native"}


class Programs:
    """The programs of one category (one ``prog_*.py`` module)."""

    def __init__(self, category: str):
        self.category = category
        self.programs: list[Program] = []

    def _add(self, name: str, scenario: Callable, doc: str, own_backend: bool = False) -> None:
        if any(p.name == name for p in self.programs):
            raise ValueError(f"two programs named {self.category}/{name}")
        self.programs.append(Program(self.category, name, scenario, doc, own_backend))

    def scenario(self, fn: Callable) -> Callable:
        """Decorator: ``fn(r)`` is a scenario, named after the function."""
        self._add(fn.__name__.removeprefix("s_"), fn, (fn.__doc__ or "").strip())
        return fn

    def case(self, fn: Callable, *inputs, calls: int = 2, name: str | None = None,
             setup: Callable | None = None, watch: Callable | None = None,
             between: Callable | None = None, compile_kwargs: dict | None = None) -> None:
        """``fn`` called with each input set ``calls`` times, then with the first set once
        more. ``setup()`` runs first (reset module globals); ``watch()`` is recorded
        after every call (globals, objects); ``between(k)`` runs before call ``k > 0``."""
        inputs = inputs or ((),)

        def scenario(r):
            if setup is not None:
                setup()
            f = r.compile(fn, **(compile_kwargs or {}))
            schedule = [i for i in range(len(inputs)) for _ in range(calls)]
            if len(inputs) > 1:
                schedule.append(0)
            for k, i in enumerate(schedule):
                if k and between is not None:
                    between(k)
                args, kwargs = _materialize(inputs[i])
                r.call(f, *args, **kwargs)
                if watch is not None:
                    r.see("watched state", watch())

        self._add(name or fn.__name__.removeprefix("_"), scenario,
                  (fn.__doc__ or "").strip())


    def tiers(self, name: str, fn: Callable, make: Callable, *hostile: Callable) -> None:
        """Two programs, ``fn`` on backend "native" and on "auto" with tier 2 forced
        (``TIER2``): two calls on ``make()`` (tier 1, then tier 2), then one on each of
        ``hostile`` (input makers), then ``make()`` again. They name their backend, so
        they run under ``ONE_BACKEND`` only (``Program.own_backend``)."""
        for backend in ("native", "auto"):
            def scenario(r, backend=backend):
                f = r.compile_on(fn, backend, options=TIER2)
                r.call(f, *make())
                r.call(f, *make())
                for h in hostile:
                    r.call(f, *h())
                r.call(f, *make())
            self._add(f"{name}_{backend}", scenario, (fn.__doc__ or "").strip(),
                      own_backend=True)


def _materialize(spec):
    """(args, kwargs) for one call: a deep copy of a tuple or ``Args``; what a callable
    returns is used as it is (it makes fresh objects, or passes globals on purpose)."""
    fresh = callable(spec) and not isinstance(spec, (tuple, Args))
    if fresh:
        spec = spec()
    if isinstance(spec, Args):
        args, kwargs = spec.args, spec.kwargs
    elif isinstance(spec, tuple):
        args, kwargs = spec, {}
    else:
        raise TypeError(f"an input set is a tuple, an Args or a callable, got {spec!r}")
    return (args, kwargs) if fresh else copy.deepcopy((args, kwargs))


# ----------------------------------------------------------------------------- triage

def all_programs() -> list[Program]:
    import importlib
    import pathlib

    here = pathlib.Path(__file__).parent
    sys.path.insert(0, str(here))
    programs = []
    for path in sorted(here.glob("prog_*.py")):
        programs += importlib.import_module(path.stem).reg.programs
    return programs


def main(argv: list[str]) -> int:
    """Run every program (whose id contains argv[0]) on both backends; print the ones
    that differ, with every difference."""
    pattern = argv[0] if argv else ""
    failing = 0
    for p in all_programs():
        if pattern not in p.id:
            continue
        for backend in BACKENDS:
            found = differences(p.scenario, backend)
            if found:
                failing += 1
                lines = "\n  ".join(f.replace("\n", "\n  ") for f in found)
                print(f"FAIL {p.id} [{backend}]\n  {lines}\n", flush=True)
    print(f"{failing} failing (program, backend) pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
