"""A ``Tiered`` (tier.py) as data for dynamo's disk cache, and back.

dynamo's disk cache (dynamo/disk_cache/values.py) writes entries as JSON data, never
pickled code. It names this module for the class ``Tiered`` (by its path: dynamo imports
no backend) and hands it its own ``encode`` and ``decode`` for the values inside. What a
``Tiered`` is made of, and so what is stored:

- its tier-1 function (the numpy backend's generated code: ``encode`` stores it as
  source and values, as it does for ``backend="numpy"``);
- its ``Kernel`` (lower.py): the kernel module's source and its plain fields, field by
  field, with the ``ArrayMeta`` of each output and the ``emitter.Buffer`` of each lifted
  allocation rebuilt as equal objects (lists stay lists, tuples tuples);
- its ``Settings``; a ``cache_dir`` that was this process's default
  (``kernel_files.cache_dir_default``, from ``$XDG_CACHE_HOME`` or ``$HOME``) as
  "the default", which the loading process finds in its own environment.

Loaded, it is a new ``Tiered`` of these, named anew and counting from its first call
(``backend.tiered``: tier 1 alone if the kernel is too big to compile here). The native
tier's own disk cache (kernel_files.py) finds the kernel's compiled machine code by its
source: where it holds it, the graph counts as hot from its first call and loads the
kernel, so a warm worker reaches tier 2 within its first calls without tracing or
compiling. Where Numba is not installed, the loaded entry is tier 1 alone (the numpy
backend's code, which is what the ``Tiered`` would run there).

Example::

    >>> data = to_data(tiered, encode)       # encode(value, what): disk_cache's, in a Context
    >>> data["kernel"]["Kernel"]["parallel"]
    {'value': False}
    >>> from_data(data, decode).kernel == tiered.kernel
    True
"""

from __future__ import annotations

import logging
from dataclasses import fields

from dynamo.ops.meta import ArrayMeta

from ..auto import numba_importable
from .emitter import Buffer
from .kernel_files import cache_dir_default, module_source
from .lower import Kernel
from .tier import Settings

log = logging.getLogger("dynamo.backend")

# The classes inside a Kernel, stored field by field (by name: the only tags besides
# "list", "tuple", "dict" and "value", a leaf that dynamo's ``encode`` wrote).
_CLASSES = {cls.__name__: cls for cls in (Kernel, ArrayMeta, Buffer)}


def to_data(tiered, encode) -> dict:
    """``tiered`` as JSON data; ``encode(value, what)`` writes a leaf (a number, string,
    dtype, NumPy scalar, generated function) or raises dynamo's ``NotStorable``."""
    settings = tiered.settings
    default_dir = settings.cache_dir is not None and settings.cache_dir == cache_dir_default()
    return {"tier1": encode(tiered.tier1, "tier 1 of the native tier"),
            "kernel": _data(tiered.kernel, encode),
            "settings": {f.name: encode(getattr(settings, f.name), f"setting {f.name}")
                         for f in fields(Settings)
                         if not (default_dir and f.name == "cache_dir")},
            "default_cache_dir": default_dir}


def from_data(data: dict, decode):
    """The callable ``to_data`` wrote as ``data``: a new ``Tiered`` (or tier 1 alone,
    without Numba or for a kernel too big to compile here); ``decode(data)`` reads a
    leaf. Raises on anything unexpected (the disk cache then ignores the entry)."""
    tier1 = decode(data["tier1"])
    if not numba_importable():
        log.info("native tier: a graph loaded from the disk cache runs in tier 1 (Numba "
                 "is not installed here)")
        return tier1
    from .backend import tiered  # (it raises ImportError where Numba is missing)
    settings = {k: decode(v) for k, v in data["settings"].items()}
    if data["default_cache_dir"] is True:
        settings["cache_dir"] = cache_dir_default()
    settings = Settings(**settings)
    kernel = _value(data["kernel"], decode)
    if type(kernel) is not Kernel:
        raise ValueError(f"not a stored kernel: {type(kernel).__name__}")
    fn = tiered(kernel, tier1, settings, module_source(kernel))
    log.debug("native tier: graph %s loaded from the disk cache",
              getattr(fn, "name", "(tier 1)"))
    return fn


def _data(value, encode):
    """One value inside a Kernel as tagged data (see ``_CLASSES``)."""
    cls = type(value)
    if _CLASSES.get(cls.__name__) is cls:
        return {cls.__name__: {f.name: _data(getattr(value, f.name), encode)
                               for f in fields(cls)}}
    if cls in (list, tuple):
        return {cls.__name__: [_data(v, encode) for v in value]}
    if cls is dict:
        return {"dict": [[_data(k, encode), _data(v, encode)] for k, v in value.items()]}
    return {"value": encode(value, f"{cls.__name__} of the native tier's kernel")}


def _value(data, decode):
    """The value ``_data`` wrote as ``data``."""
    if type(data) is not dict or len(data) != 1:
        raise ValueError(f"not a stored kernel value: {str(data)[:60]}")
    (tag, arg), = data.items()
    if tag in _CLASSES:
        cls = _CLASSES[tag]
        names = {f.name for f in fields(cls)}
        if type(arg) is not dict or set(arg) != names:
            raise ValueError(f"a stored {tag} with the fields {sorted(arg)[:20]}, not "
                             f"{sorted(names)}")
        return cls(**{k: _value(v, decode) for k, v in arg.items()})
    if tag == "list":
        return [_value(v, decode) for v in arg]
    if tag == "tuple":
        return tuple(_value(v, decode) for v in arg)
    if tag == "dict":
        return {_value(k, decode): _value(v, decode) for k, v in arg}
    if tag == "value":
        return decode(arg)
    raise ValueError(f"unknown tag {tag!r} in a stored kernel")
