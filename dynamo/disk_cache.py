"""The on-disk cache of compiles: warm worker processes skip tracing.

Off by default. ``dynamo.config.disk_cache_dir = "/path"`` (or the environment variable
``DYNAMO_CACHE_DIR``, which worker processes inherit) turns it on. A frame that misses
its in-memory cache is then looked up on disk before it is traced: an entry made by
another process for the same code, versions and settings whose guards hold for this
call is rebuilt from its stored text and runs at once, without tracing (logged on the
``cache`` channel: ``loaded from disk cache: f at app.py:12``). A frame traced here is
stored afterwards when everything it produced can be written down as data.

What an entry holds (one JSON file, never pickled code):

- the guards: the source of the check function and the values it refers to;
- the glue (the function that runs the graph and rebuilds the frame's values): its
  source and the values it refers to;
- the backend's function (the ``eager`` printout, the ``numpy`` backend's fused code):
  its source and the values it refers to, nested where the glue calls it.

Each such value is stored as data (``encode``): numbers, strings, tuples, dtypes,
NumPy scalars; a constant of the function's own code by its index; library objects
(``numpy.ndarray``, ``numpy.tanh``, dynamo's runtime helpers) by their import path;
the program's functions that the trace inlined (and its modules) by module and name,
with a digest of their code and defaults that must match when read; a few runtime
objects of generated code (buffer caches) by the arguments that make them. Anything
else (another object or class of the program, a closure, an array constant, a frame
that breaks: its bytecode and resume functions) is not stored: that compile stays in
memory only, and the ``cache`` channel says why.

Trust model (see docs/distributed.md, "Warm workers"): an entry is code that will run,
so it is read only from a directory owned by this user and not writable by group or
others (else the cache is ignored, with a warning), only from files owned by this
user with that mode, and only when the sha256 of its content matches the one it
carries and it was made by the same Python, NumPy and dynamo (else it is ignored,
with a log line). Reading it never raises: a bad entry is skipped and the frame is
traced as usual.

Example::

    >>> dynamo.config.disk_cache_dir = "/tmp/dynamo-cache"
    >>> f = dynamo.compile(g); f(x)     # traced, stored
    >>> # another process, same directory:
    >>> f = dynamo.compile(g); f(x)     # loaded from disk cache: g at app.py:3
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import importlib
import json
import os
import re
import stat
import sys
import tempfile
import types
import weakref
from pathlib import Path

import numpy as np

from . import convert, hook, logs
from .config import config
from .convert import FrameRecord
from .ops.registry import ImplTable, impl_table
from .source import compile_source

log = logs.get("cache")

FORMAT = 1
"""The layout of an entry; a change makes every older entry stale."""

# Modules whose objects an entry may name by import path. Only libraries: a user
# class or function is guarded by identity, and another process's copy is not it.
_LIBRARIES = frozenset({"builtins", "types", "numpy", "math", "cmath", "operator", "dynamo"})

# Runtime objects of generated code, stored as the arguments that make a fresh one
# (their state is per process: buffers to reuse): class path -> attribute names.
_RECIPES = {
    "dynamo.backends.numpy_backend.runtime.ScratchCache": ("spec",),
    "dynamo.backends.numpy_backend.runtime.Recycler": ("shape", "dtype", "keep"),
}
_RERUN = "dynamo.backends.numpy_backend.backend._Rerun"

# Names that compiling a source puts into its globals; made again when it is rebuilt.
_MADE_BY_COMPILE = frozenset({"__builtins__", "__name__", "__warningregistry__"})


class NotStorable(Exception):
    """What a compile produced cannot be written down as data (the reason says what)."""


# --------------------------------------------------------------------------- the hook

def convert_frame(fn: types.FunctionType, args: tuple, closure, ctx, previous=()):
    """``convert.convert_frame`` with the disk cache around it (the compile context's
    ``convert_frame``, injected by :mod:`dynamo.api`). With the cache off it only
    calls through: nothing changes, and a cache hit never comes here."""
    directory = config.disk_cache_dir
    if directory is None:
        return convert.convert_frame(fn, args, closure, ctx, previous)
    store = _trusted(directory)
    try:
        key = _key(fn.__code__, ctx) if store is not None else None
    except Exception as e:  # noqa: BLE001 (the cache is optional: compile as usual)
        log.warning("dynamo: the disk cache is not used for %s: %s: %s",
                    _where(fn.__code__), type(e).__name__, e)
        key = None
    if key is not None:
        entry = _load(store, key, fn, args, closure)
        if entry is not None:
            return entry
    entry = convert.convert_frame(fn, args, closure, ctx, previous)
    if key is not None:
        _store(store, key, fn, entry)
    return entry


def _where(code: types.CodeType) -> str:
    return f"{code.co_qualname} at {code.co_filename}:{code.co_firstlineno}"


# --------------------------------------------------------------------------- the directory

_warned: set = set()


def _trusted(directory: str) -> Path | None:
    """The cache directory, made (mode 0700) if missing; None, with a warning once,
    when it is not a directory owned by this user and closed to group and others."""
    path = Path(directory)
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        problem = _unsafe(path.stat(), dir=True)
    except OSError as e:
        problem = f"cannot be used ({e})"
    if problem is None:
        return path
    if directory not in _warned:
        _warned.add(directory)
        log.warning("dynamo: the disk cache %s is ignored: it %s", directory, problem)
    return None


def _unsafe(st: os.stat_result, dir: bool = False) -> str | None:
    """Why a file or directory with this status must not be trusted (None: it may)."""
    if dir and not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if not dir and not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return "is owned by another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is writable by group or others"
    return None


# --------------------------------------------------------------------------- keys

@functools.lru_cache(maxsize=1)
def versions() -> dict:
    """What an entry must have been made by: this format, Python, NumPy and dynamo
    (its version and a digest of its sources, so an edited checkout never reads the
    entries of an older one)."""
    try:
        from importlib.metadata import version
        dynamo_version = version("arraydynamo")
    except Exception:  # noqa: BLE001 (not installed as a distribution)
        dynamo_version = "unknown"
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for folder in ("dynamo", "guards", "backends"):
        for file in sorted((root / folder).rglob("*.py")):
            digest.update(str(file.relative_to(root)).encode())
            digest.update(file.read_bytes())
    return {"format": FORMAT, "python": sys.version, "implementation": sys.implementation.name,
            "numpy": np.__version__, "dynamo": dynamo_version,
            "dynamo_sources": digest.hexdigest()}


def _key(code: types.CodeType, ctx) -> str | None:
    """The directory name of ``code``'s entries under ``ctx``'s settings, or None when
    the settings cannot be written down (a backend given as a callable, options that
    are not plain data)."""
    from dynamo.backends import is_builtin
    if not isinstance(ctx.backend_name, str) or not is_builtin(ctx.backend):
        log.debug("not stored in the disk cache: the backend %r is not a built-in one",
                  ctx.backend_name)
        return None
    settings = {f: getattr(config, f) for f in config.__dataclass_fields__
                if f not in ("disk_cache_dir", "verbose")}
    try:
        # (the entry carries every version and is checked against them when read: an
        # edited dynamo finds its older entries, says they are stale, and stores anew)
        coarse = {k: versions()[k] for k in ("format", "python", "numpy")}
        text = json.dumps({"versions": coarse, "code": _code_data(code),
                           "backend": ctx.backend_name, "options": ctx.options,
                           "fullgraph": ctx.fullgraph, "dynamic": ctx.dynamic,
                           "config": settings}, sort_keys=True)
    except (TypeError, ValueError) as e:
        log.debug("not stored in the disk cache: %s: options are not plain data (%s)",
                  _where(code), e)
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def _code_data(code: types.CodeType) -> dict:
    """Everything that makes ``code`` what it is, as data (nested code objects too:
    their ``repr`` holds an address, which differs between processes)."""
    return {"co_code": code.co_code.hex(), "co_consts": [_const_data(c) for c in code.co_consts],
            "co_names": code.co_names, "co_varnames": code.co_varnames,
            "co_freevars": code.co_freevars, "co_cellvars": code.co_cellvars,
            "co_argcount": code.co_argcount, "co_posonlyargcount": code.co_posonlyargcount,
            "co_kwonlyargcount": code.co_kwonlyargcount, "co_flags": code.co_flags,
            "co_filename": code.co_filename, "co_qualname": code.co_qualname,
            "co_firstlineno": code.co_firstlineno,
            "co_linetable": code.co_linetable.hex(),
            "co_exceptiontable": code.co_exceptiontable.hex()}


def _const_data(value):
    if isinstance(value, types.CodeType):
        return _code_data(value)
    if isinstance(value, tuple):
        return ["tuple", [_const_data(v) for v in value]]
    if isinstance(value, frozenset):   # (in an order that does not depend on str hashes)
        return ["frozenset", sorted((_const_data(v) for v in value), key=json.dumps)]
    return [type(value).__name__, repr(value)]


# --------------------------------------------------------------------------- storing

def _store(directory: Path, key: str, fn: types.FunctionType, entry) -> None:
    """Write ``entry`` under ``key`` when it can be written down as data; else log why."""
    code = fn.__code__
    try:
        data = {"versions": versions(), "where": _where(code),
                "check": _encode_check(entry.check, fn),
                "run": _encode_run(entry.run, fn)}
    except NotStorable as e:
        log.debug("not stored in the disk cache: %s: %s", _where(code), e)
        return
    except Exception as e:  # noqa: BLE001 (the compile is made: storing it is optional)
        log.debug("not stored in the disk cache: %s: internal error %s: %s", _where(code),
                  type(e).__name__, e)
        return
    body = _canonical(data)
    text = json.dumps({"sha256": hashlib.sha256(body.encode()).hexdigest(), "entry": data})
    folder = directory / key
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        name = hashlib.sha256(body.encode()).hexdigest()[:32] + ".json"
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")   # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(text)
            os.replace(tmp, folder / name)   # readers see the whole file or none
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:
        log.debug("not stored in the disk cache: %s: %s", _where(code), e)
        return
    log.debug("stored in the disk cache: %s (%s)", _where(code), folder / name)


def _canonical(data) -> str:
    """The text an entry's hash is taken over."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# The prefix and indent the inline form of a check is stored with; LoadedCheck.inline
# puts the dispatcher's own in their place.
_PREFIX = "___dynamo_disk_"


def _encode_check(check, fn) -> dict:
    """A guard check as data: its function's source and the values its names stand for,
    and the same guards as the expression the hook inlines into its dispatcher."""
    source, names = getattr(check, "source", None), getattr(check, "names", None)
    if not isinstance(source, str) or not isinstance(names, dict):
        raise NotStorable(f"the guard check is a {type(check).__name__}, not generated source")
    ctx = _Context(fn)
    expr, inline_names = check.inline(_PREFIX, check.params, "")
    used, empty = _used_names(source, names)
    inline_used, inline_empty = _used_names(expr, inline_names)
    return {"source": source, "name": check.name,
            "names": {k: encode(v, ctx, f"guard value {k}") for k, v in used.items()},
            "empty": empty,
            "inline": {"params": check.params, "expr": expr, "empty": inline_empty,
                       "names": {k: encode(v, ctx, f"guard value {k}")
                                 for k, v in inline_used.items()}}}


def _used_names(text: str, names: dict) -> tuple[dict, list]:
    """``names`` split into the values to store and the names of empty dicts that
    generated ``text`` does not use: data for the hook (the values a check binds for
    the glue to reuse), made again as they were (an empty dict is all it can be)."""
    mentioned = set(re.findall(r"\w+", text))
    empty = sorted(k for k, v in names.items()
                   if k not in mentioned and type(v) is dict and not v)
    return {k: v for k, v in names.items() if k not in empty}, empty


def _encode_run(run, fn) -> dict:
    """What an entry runs: the glue (a generated function), as data."""
    if isinstance(run, convert.FrameRunner):
        raise NotStorable("the frame has a graph break: its new bytecode and resume "
                          "functions are not stored (the resume functions' own frames are)")
    if type(run) is not types.FunctionType or not hasattr(run, "__dynamo_source__"):
        raise NotStorable(f"the entry runs a {type(run).__name__}, not generated source")
    return encode(run, _Context(fn))


class _Context:
    """What the values of one frame's generated code are relative to: the function's
    globals and the constants of its code."""

    def __init__(self, fn: types.FunctionType):
        self.fn_globals = fn.__globals__
        self.consts = fn.__code__.co_consts


def encode(value, ctx: _Context, what: str = "value"):
    """``value`` as JSON data that ``decode`` makes into an equal value (the same
    object for library objects, the function's globals and its code's constants);
    ``NotStorable`` when it cannot be."""
    if value is None or type(value) is bool:
        return value
    if type(value) in (int, float, complex, str, bytes, tuple):
        for i, const in enumerate(ctx.consts):   # the code's own constant: the same object
            if const is value and not (type(value) is int and -5 <= value <= 256):
                return {"co_const": i}
    if type(value) in (int, str):
        return value
    if type(value) is float:
        return {"float": value.hex()}
    if type(value) is complex:
        return {"complex": [value.real.hex(), value.imag.hex()]}
    if type(value) is bytes:
        return {"bytes": value.hex()}
    if type(value) is tuple:
        return {"tuple": [encode(v, ctx, what) for v in value]}
    if type(value) is slice:
        return {"slice": [encode(v, ctx, what) for v in (value.start, value.stop, value.step)]}
    if value is ctx.fn_globals:
        return {"globals": True}
    if value is sys.modules:
        return {"sys.modules": True}
    if type(value) is np.dtype or isinstance(value, np.dtype):
        return _checked_roundtrip({"dtype": value.str}, value, ctx, what)
    if isinstance(value, np.generic):
        return _checked_roundtrip({"scalar": [value.dtype.str, value.tobytes().hex()]}, value,
                                  ctx, what)
    if isinstance(value, ImplTable):
        return {"ops": value._kind}
    if isinstance(value, types.SimpleNamespace):
        return {"namespace": {k: encode(v, ctx, what) for k, v in vars(value).items()}}
    if isinstance(value, weakref.ref):   # how guards hold the program's own objects
        target = value()
        if type(target) is types.FunctionType and not hasattr(target, "__dynamo_source__"):
            return {"weakref": _encode_program_function(target, what)}
        raise NotStorable(f"the {what} is the program's {type(target).__name__} "
                          f"{getattr(target, '__qualname__', '')}, guarded by identity "
                          f"(another process's copy is another object)".replace("  ", " "))
    if isinstance(value, types.CodeType):   # (a guard that an inlined function's code
        return {"program_code": _encode_program_code(value, what)}   # is still its own)
    if isinstance(value, types.ModuleType):
        if value.__name__.split(".")[0] in _LIBRARIES:
            return {"module": value.__name__}
        if sys.modules.get(value.__name__) is value:   # a module of the program, by name
            return {"program_module": value.__name__}
        raise NotStorable(f"the {what} is the module {value.__name__}, which is not "
                          f"sys.modules[{value.__name__!r}]")
    if type(value) is dict and isinstance(value.get("__name__"), str) and \
            sys.modules.get(value["__name__"]) is not None and \
            vars(sys.modules[value["__name__"]]) is value:
        return {"module_dict": _library_module(value["__name__"], what)}
    if type(value) is types.FunctionType and hasattr(value, "__dynamo_source__"):
        return {"function": _encode_function(value, ctx)}
    path = _class_path(type(value))
    if path in _RECIPES:
        return {"make": [path, [encode(_plain(getattr(value, a)), ctx, what)
                                for a in _RECIPES[path]]]}
    if path == _RERUN:
        from dynamo.backends.common import python_function
        if value.graph is None:
            raise NotStorable("the numpy backend's rerun has no graph")
        return {"rerun": {"function": _encode_function(
            python_function(value.graph, name="rerun"), ctx)}}
    if isinstance(value, (types.BuiltinMethodType, types.MethodType)) and \
            not isinstance(value.__self__, types.ModuleType) and value.__self__ is not None:
        data = {"method": [encode(value.__self__, ctx, what), value.__name__]}
        return _checked_roundtrip(data, value, ctx, what)
    return _encode_reference(value, ctx, what)


def _plain(value):
    """A recipe argument: lists (of shapes and dtypes) as tuples."""
    return tuple(_plain(v) for v in value) if type(value) is list else value


def _encode_reference(value, ctx, what: str) -> dict:
    """A library object by import path, checked to lead back to this very object."""
    module = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if not isinstance(module, str) or not isinstance(name, str) or "<locals>" in name:
        module, name = _module_global(value)
    if module is None or "<locals>" in name:
        raise NotStorable(f"the {what} {_short(value)} is neither plain data nor a "
                          f"library object found by its name")
    _library_module(module, what, value)
    alias = next((k for k, v in vars(types).items() if v is value), None)
    if alias is not None:   # types.MethodType is builtins.method, which has no such name
        module, name = "types", alias
    data = {"ref": [module, name, _class_path(type(value)), _own_name(value)]}
    return _checked_roundtrip(data, value, ctx, what)


def _own_name(value) -> str | None:
    """The name an object gives itself (``np.tanh.__name__``), if any."""
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    return name if isinstance(name, str) else None


def _module_global(value) -> tuple:
    """(module, name) of a global of dynamo's own modules that is ``value`` (a
    ``ContextVar`` of the runtime, say: it has no name of its own), or (None, None)."""
    for module_name, module in list(sys.modules.items()):
        if module_name.split(".")[0] == "dynamo" and module is not None:
            for name, known in list(vars(module).items()):
                if known is value:
                    return module_name, name
    return None, None


def _encode_program_function(fn: types.FunctionType, what: str) -> dict:
    """A function of the program (a helper the trace inlined, guarded by identity) as
    its module, name and what the trace relied on: its code, defaults, and globals.

    In another process the same module's function of that name is another object, but
    when its code (compared in full, as the key compares the frame's), defaults and
    globals are the same, the trace of it is the same; ``decode`` checks all of that
    and otherwise the entry is not used. A closure, or a function that is not its
    module's global of that name, is not stored."""
    module, name = fn.__module__, fn.__qualname__
    if not isinstance(module, str) or "<locals>" in name or fn.__closure__:
        raise NotStorable(f"the {what} is the program's function {name}, made inside "
                          f"another function (a closure), guarded by identity")
    try:
        found = _resolve_loaded(module, name)
    except (KeyError, AttributeError):
        found = None
    if found is not fn or fn.__globals__ is not vars(sys.modules[module]):
        raise NotStorable(f"the {what} is the program's function {name}, which is not "
                          f"{module}.{name}")
    return {"program_function": [module, name, _function_facts(fn)]}


def _encode_program_code(code: types.CodeType, what: str) -> list:
    """The code of a function of the program as (module, name, digest of the code): the
    function is its module's global of the code's qualified name."""
    for module_name, module in list(sys.modules.items()):
        if getattr(module, "__file__", None) == code.co_filename:
            try:
                fn = _resolve_loaded(module_name, code.co_qualname)
            except (KeyError, AttributeError):
                continue
            if getattr(fn, "__code__", None) is code:
                return [module_name, code.co_qualname, _code_digest(code)]
    raise NotStorable(f"the {what} is the code of {code.co_qualname}, which is no "
                      f"module's function of that name")


def _code_digest(code: types.CodeType) -> str:
    return hashlib.sha256(_canonical(_code_data(code)).encode()).hexdigest()


def _function_facts(fn: types.FunctionType) -> str:
    """A digest of what a trace of ``fn`` relies on besides its identity."""
    ctx = _Context(fn)
    ctx.consts = ()   # (defaults by value, not as constants of the code)
    facts = {"code": _code_data(fn.__code__),
             "defaults": encode(fn.__defaults__, ctx, f"default of {fn.__qualname__}"),
             "kwdefaults": {k: encode(v, ctx, f"default of {fn.__qualname__}")
                            for k, v in (fn.__kwdefaults__ or {}).items()}}
    return hashlib.sha256(_canonical(facts).encode()).hexdigest()


def _resolve_loaded(module: str, qualname: str):
    """``module.qualname`` from a module already imported (the program's modules are
    never imported by the cache: that would run their code at an unexpected time)."""
    value = sys.modules[module]
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


def _library_module(name: str, what: str, value=None) -> str:
    if name.split(".")[0] not in _LIBRARIES:
        shown = _short(value) if value is not None else f"module {name}"
        raise NotStorable(f"the {what} {shown} belongs to {name}, not to a library "
                          f"(a user's object is guarded by identity)")
    return name


def _checked_roundtrip(data: dict, value, ctx, what: str) -> dict:
    """``data``, after checking that it decodes to ``value`` (the same object, or for
    dtypes, scalars and methods an equal one of the same type and bytes)."""
    try:
        back = decode(data, _Rebuild(ctx.fn_globals, ctx.consts))
    except Exception as e:  # noqa: BLE001
        raise NotStorable(f"the {what} {_short(value)} cannot be found again by its "
                          f"name ({type(e).__name__}: {e})") from None
    if back is value:
        return data
    same = type(back) is type(value)
    if same and isinstance(value, np.generic):
        same = back.tobytes() == value.tobytes()
    elif same:
        try:
            same = bool(back == value)
        except Exception:  # noqa: BLE001
            same = False
    if not same:
        raise NotStorable(f"the {what} {_short(value)} is not what its name gives back")
    return data


def _encode_function(fn: types.FunctionType, ctx: _Context) -> dict:
    """A generated function (glue, graph code) as its source and its globals."""
    if fn.__closure__:   # (its defaults are in its source)
        raise NotStorable(f"the generated function {fn.__name__} has a closure")
    scope = {}
    mentioned = set(re.findall(r"\w+", fn.__dynamo_source__))
    for name, value in fn.__globals__.items():
        if name in _MADE_BY_COMPILE or name not in mentioned:
            # (what the source does not name it does not use, or compiling it makes
            # again: dynamo.source splits lines of other files into helpers of their own)
            continue
        if value is fn.__globals__:
            raise NotStorable(f"{fn.__name__}'s globals refer to themselves")
        if type(value) is types.FunctionType and value.__globals__ is fn.__globals__:
            continue   # defined by the same source (a helper of the numpy backend's code)
        scope[name] = encode(value, ctx, f"value {name} of {fn.__name__}")
    user_lines = not fn.__code__.co_filename.startswith("<")
    return {"source": fn.__dynamo_source__, "name": fn.__name__, "user_lines": user_lines,
            "scope": scope}


def _class_path(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _short(value) -> str:
    text = f"{type(value).__name__} {value!r}"
    return text if len(text) <= 80 else text[:77] + "..."


# --------------------------------------------------------------------------- loading

class _Rebuild:
    """What decoding needs: the loading function's globals and code constants."""

    def __init__(self, fn_globals: dict, consts: tuple):
        self.fn_globals, self.consts = fn_globals, consts


def decode(data, rb: _Rebuild):
    """The value ``encode`` wrote as ``data`` (raises on anything unexpected)."""
    if data is None or type(data) in (bool, str, int):
        return data
    if type(data) is not dict or len(data) != 1:
        raise ValueError(f"not an encoded value: {str(data)[:60]}")
    (tag, arg), = data.items()
    if tag == "float":
        return float.fromhex(arg)
    if tag == "complex":
        return complex(float.fromhex(arg[0]), float.fromhex(arg[1]))
    if tag == "bytes":
        return bytes.fromhex(arg)
    if tag == "tuple":
        return tuple(decode(v, rb) for v in arg)
    if tag == "slice":
        return slice(*(decode(v, rb) for v in arg))
    if tag == "co_const":
        return rb.consts[arg]
    if tag == "globals":
        return rb.fn_globals
    if tag == "sys.modules":
        return sys.modules
    if tag == "dtype":
        return np.dtype(arg)
    if tag == "scalar":
        dtype = np.dtype(arg[0])
        return np.frombuffer(bytes.fromhex(arg[1]), dtype)[0].copy()
    if tag == "ops":
        return impl_table(arg)
    if tag == "namespace":
        return types.SimpleNamespace(**{k: decode(v, rb) for k, v in arg.items()})
    if tag == "module":
        return importlib.import_module(_library_module(arg, "module"))
    if tag == "program_module":   # never imported here: that would run the program's code
        if arg not in sys.modules:
            raise ValueError(f"the program's module {arg} is not imported in this process")
        return sys.modules[arg]
    if tag == "module_dict":
        return vars(importlib.import_module(_library_module(arg, "module")))
    if tag == "function":
        return _build_function(arg, rb)
    if tag == "make":
        path, args = arg
        if path not in _RECIPES:
            raise ValueError(f"no recipe for {path}")
        return _resolve(*path.rsplit(".", 1))(*(decode(a, rb) for a in args))
    if tag == "rerun":
        cls = _resolve(*_RERUN.rsplit(".", 1))
        return cls(None, fn=_build_function(arg["function"], rb))
    if tag == "weakref":
        return weakref.ref(decode(arg, rb))
    if tag == "program_function":
        module, name, facts = arg
        fn = _resolve_loaded(module, name)
        if type(fn) is not types.FunctionType or fn.__closure__ is not None or \
                fn.__globals__ is not vars(sys.modules[module]) or _function_facts(fn) != facts:
            raise ValueError(f"the program's function {module}.{name} is not the one the "
                             f"entry was made with (its code, defaults or globals differ)")
        return fn
    if tag == "program_code":
        module, name, digest = arg
        code = getattr(_resolve_loaded(module, name), "__code__", None)
        if type(code) is not types.CodeType or _code_digest(code) != digest:
            raise ValueError(f"the code of the program's {module}.{name} is not the one "
                             f"the entry was made with")
        return code
    if tag == "method":
        owner, name = arg
        return getattr(decode(owner, rb), name)
    if tag == "ref":
        module, name, kind, own_name = arg
        value = _resolve(_library_module(module, "reference"), name)
        # replaced since (a patched library: np.tanh = np.sin)? then not this entry
        if _class_path(type(value)) != kind or _own_name(value) != own_name:
            raise ValueError(f"{module}.{name} is {_short(value)} now, not the "
                             f"{kind} {own_name} the entry was made with")
        return value
    raise ValueError(f"unknown tag {tag!r}")


def _resolve(module: str, qualname: str):
    value = importlib.import_module(module)
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


def _build_function(data: dict, rb: _Rebuild) -> types.FunctionType:
    scope = {k: decode(v, rb) for k, v in data["scope"].items()}
    name = data["name"]
    if not name.isidentifier():
        raise ValueError(f"bad function name {name!r}")
    compile_source(data["source"], f"<dynamo loaded {name}>", scope,
                   user_lines=bool(data["user_lines"]))
    fn = scope.pop(name)
    fn.__dynamo_source__ = data["source"]
    return fn


class LoadedCheck:
    """The guard check of an entry read from disk: its generated function and source,
    and, like ``guards.CheckFunction``, its expression for the hook to inline into the
    dispatcher (so a hit costs what it costs for an entry traced here)."""

    def __init__(self, source: str, fn, params: list, expr: str, names: dict):
        self.source, self.fn = source, fn
        self.params, self._expr, self._names = list(params), expr, names

    def __call__(self, *args) -> bool:
        return self.fn(*args)

    def inline(self, prefix: str, params=None, indent: str = "") -> tuple[str, dict]:
        """(expression, names) with the names starting with ``prefix``, as
        ``CheckFunction.inline`` gives them."""
        if params is not None and list(params) != self.params:
            # (the dispatcher of this code has these very parameters; just in case)
            return f"{prefix}check({', '.join(params)})", {f"{prefix}check": self}
        expr = re.sub(rf"(?<!\w){_PREFIX}", prefix, self._expr).replace("\n", "\n" + indent)
        names = {(prefix + k[len(_PREFIX):] if k.startswith(_PREFIX) else k): v
                 for k, v in self._names.items()}
        return expr, names


def _load(directory: Path, key: str, fn: types.FunctionType, args: tuple, closure):
    """A stored entry for ``fn``'s code whose guards hold for ``args``, or None.
    Every file that cannot be trusted or read is skipped with a log line."""
    folder = directory / key
    try:
        problem = _unsafe(folder.stat(), dir=True)
        if problem is not None:
            log.debug("disk cache entries %s ignored: the folder %s", folder, problem)
            return None
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:   # no entry for this code yet
        return None
    for path in files[:max(config.cache_size_limit, 1)]:
        try:
            entry = _read(path, fn, args, closure)
        except _Ignored as e:
            log.debug("disk cache entry %s ignored: %s", path, e)
            continue
        except Exception as e:  # noqa: BLE001 (a bad entry is never fatal)
            log.debug("disk cache entry %s ignored: it cannot be read (%s: %s)", path,
                      type(e).__name__, e)
            continue
        if entry is not None:
            log.debug("loaded from disk cache: %s", _where(fn.__code__))
            return entry
    return None


class _Ignored(Exception):
    """An entry that must not be used (the message says why)."""


def _read(path: Path, fn, args: tuple, closure):
    """The entry in ``path`` if it is trusted and its guards hold, else None (or raises)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))   # not a symlink
    with os.fdopen(fd, "rb") as f:
        problem = _unsafe(os.fstat(f.fileno()))
        if problem is not None:
            raise _Ignored(f"the file {problem}")
        raw = f.read()
    data = json.loads(raw)
    entry = data["entry"]
    digest = hashlib.sha256(_canonical(entry).encode()).hexdigest()
    if digest != data["sha256"]:
        raise _Ignored("its content does not match its sha256 (corrupt or changed)")
    if entry["versions"] != versions():
        raise _Ignored("stale: made by another version of Python, NumPy or dynamo "
                       f"({_version_difference(entry['versions'])})")
    rb = _Rebuild(fn.__globals__, fn.__code__.co_consts)
    check = _build_check(entry["check"], rb)
    if not check(*args, closure):
        return None
    run = decode(entry["run"], rb)
    if not callable(run):
        raise _Ignored("its code is not a function")
    record = FrameRecord(fn.__code__, check_source=check.source,
                         glue_source=getattr(run, "__dynamo_source__", ""))
    return hook.CacheEntry(check, run, record)


def _build_check(data: dict, rb: _Rebuild) -> LoadedCheck:
    name = data["name"]
    if not re.fullmatch(r"___check_\w+", name):
        raise _Ignored(f"bad check name {name!r}")
    scope = {k: decode(v, rb) for k, v in data["names"].items()}
    scope.update((k, {}) for k in data["empty"])
    scope.setdefault("__builtins__", builtins)
    compile_source(data["source"], f"<dynamo guards {name}>", scope)
    inline = data["inline"]
    compile(f"({inline['expr']})", "<dynamo loaded guards>", "eval")   # (a syntax check)
    names = {k: decode(v, rb) for k, v in inline["names"].items()}
    names.update((k, {}) for k in inline["empty"])
    return LoadedCheck(data["source"], scope.pop(name), inline["params"], inline["expr"],
                       names)


def _version_difference(stored: dict) -> str:
    now = versions()
    diff = [f"{k} {stored.get(k)!r:.40} here {now[k]!r:.40}" for k in now
            if stored.get(k) != now[k]]
    return "; ".join(diff) or "unknown"
