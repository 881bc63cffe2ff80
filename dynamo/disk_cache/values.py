"""The values of an entry as JSON data (never pickled code): ``encode`` and ``decode``.

Numbers, strings, tuples, dtypes and NumPy scalars are stored as themselves; a
constant of the function's own code by its index; library objects (``numpy.ndarray``,
``numpy.tanh``, dynamo's runtime helpers) by their import path, checked to lead back
to the same object; the program's functions that the trace inlined (and its modules)
by module and name, with a digest of their code and defaults that must match when
read; a few runtime objects of generated code (buffer caches) by the arguments that
make them; generated functions (glue, graph code) by their source and globals; a
backend's compiled object that the backend writes down itself (the native tier's
``Tiered``: ``_STORED_BY_BACKEND``, backends/native/stored_tier.py) by the data its
module makes of it with this module's ``encode``, and back with ``decode``.
Anything else raises ``NotStorable``: that compile stays in memory only.

Example::

    >>> data = encode(np.tanh, Context(fn))
    >>> data
    {'ref': ['numpy', 'tanh', 'numpy.ufunc', 'tanh']}
    >>> decode(data, Rebuild(fn.__globals__, fn.__code__.co_consts)) is np.tanh
    True
"""

from __future__ import annotations

import importlib
import re
import sys
import types
import weakref

import numpy as np

from dynamo.guards.type_slots import module_of, qualname_of

from ..ops.registry import ImplTable, impl_table
from ..source import compile_source
from .keys import code_data, code_digest, entry_digest

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
# Compiled functions that their backend writes down itself: class path -> the backend's
# module with ``to_data(value, encode)`` and ``from_data(data, decode)`` (named, not
# imported: dynamo imports no backend; a value of the class exists only where its
# backend was imported). The native tier's Tiered: its tier 1, kernel and settings.
_STORED_BY_BACKEND = {
    "dynamo.backends.native.tier.Tiered": "dynamo.backends.native.stored_tier",
}

# Names that compiling a source puts into its globals; made again when it is rebuilt.
_MADE_BY_COMPILE = frozenset({"__builtins__", "__name__", "__warningregistry__"})


class NotStorable(Exception):
    """What a compile produced cannot be written down as data (the reason says what)."""


class Context:
    """What the values of one frame's generated code are relative to: the function's
    globals and the constants of its code."""

    def __init__(self, fn: types.FunctionType):
        self.fn_globals = fn.__globals__
        self.consts = fn.__code__.co_consts


def encode(value, ctx: Context, what: str = "value"):
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
    if isinstance(value, weakref.ref) or _program_class(value):
        # how guards hold the program's own objects (its module-level classes strongly)
        target = value() if isinstance(value, weakref.ref) else value
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
    if path in _STORED_BY_BACKEND:
        module = importlib.import_module(_STORED_BY_BACKEND[path])
        return {"backend_value": [path, module.to_data(
            value, lambda v, about: encode(v, ctx, f"{about} ({what})"))]}
    if path == _RERUN:
        from dynamo.backends.common import python_function
        if value.graph is None:
            raise NotStorable("the numpy backend's rerun has no graph")
        # (the rerun of code returning one output bare returns it bare too)
        return {"rerun": {"function": _encode_function(
            python_function(value.graph, name="rerun", bare=value.bare), ctx)}}
    if isinstance(value, (types.BuiltinMethodType, types.MethodType)) and \
            not isinstance(value.__self__, types.ModuleType) and value.__self__ is not None:
        data = {"method": [encode(value.__self__, ctx, what), value.__name__]}
        return _checked_roundtrip(data, value, ctx, what)
    return _encode_reference(value, ctx, what)


def _program_class(value) -> bool:
    """A class of the program or of a library this module does not name (a guard holds
    one its module holds strongly: ``guards.guards.held_by_its_module``), said as a
    weakly held one is: not the standard library's, nor CuPy's."""
    if not isinstance(value, type):
        return False
    root = module_of(value).split(".")[0]
    return root not in _LIBRARIES and root not in sys.stdlib_module_names and \
        root not in ("cupy", "cupyx")


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
                return [module_name, code.co_qualname, code_digest(code)]
    raise NotStorable(f"the {what} is the code of {code.co_qualname}, which is no "
                      f"module's function of that name")


def _function_facts(fn: types.FunctionType) -> str:
    """A digest of what a trace of ``fn`` relies on besides its identity."""
    ctx = Context(fn)
    ctx.consts = ()   # (defaults by value, not as constants of the code)
    facts = {"code": code_data(fn.__code__),
             "defaults": encode(fn.__defaults__, ctx, f"default of {fn.__qualname__}"),
             "kwdefaults": {k: encode(v, ctx, f"default of {fn.__qualname__}")
                            for k, v in (fn.__kwdefaults__ or {}).items()}}
    return entry_digest(facts)


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
        back = decode(data, Rebuild(ctx.fn_globals, ctx.consts))
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


def _encode_function(fn: types.FunctionType, ctx: Context) -> dict:
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
    return f"{module_of(cls)}.{qualname_of(cls)}"


def _short(value) -> str:
    text = f"{type(value).__name__} {value!r}"
    return text if len(text) <= 80 else text[:77] + "..."

class Rebuild:
    """What decoding needs: the loading function's globals and code constants."""

    def __init__(self, fn_globals: dict, consts: tuple):
        self.fn_globals, self.consts = fn_globals, consts


def decode(data, rb: Rebuild):
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
    if tag == "backend_value":
        path, inner = arg
        if path not in _STORED_BY_BACKEND:
            raise ValueError(f"no backend stores {path}")
        module = importlib.import_module(_STORED_BY_BACKEND[path])
        return module.from_data(inner, lambda d: decode(d, rb))
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
        if type(code) is not types.CodeType or code_digest(code) != digest:
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


def _build_function(data: dict, rb: Rebuild) -> types.FunctionType:
    scope = {k: decode(v, rb) for k, v in data["scope"].items()}
    name = data["name"]
    if not name.isidentifier():
        raise ValueError(f"bad function name {name!r}")
    compile_source(data["source"], f"<dynamo loaded {name}>", scope,
                   user_lines=bool(data["user_lines"]))
    fn = scope.pop(name)
    fn.__dynamo_source__ = data["source"]
    return fn

