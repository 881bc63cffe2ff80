"""What a graph value is while it is lowered: a whole array in a kernel variable
(``Arr``), a view of one at shifted indices (``View``), a scalar variable (``Scal``), a
constant, an elementwise node inlined where it is read (``Lazy``), a tuple."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dynamo.graph import Node

from .ops import Unsupported


@dataclass(eq=False)
class Arr:
    """A whole array in a kernel variable; ``key`` names its memory (aliases share it)."""

    name: str
    shape: tuple
    dtype: np.dtype
    key: str
    fresh: bool = False            # allocated by this kernel (else an input's memory)
    input: int | None = None       # the graph input it is, when it is one
    save: Any = None               # saves.Saver: where its writes save the old contents
                                   # (None: a new array, or an input saved whole already)

    def read(self, idx: list[str]) -> str:
        return f"{self.name}[{', '.join(idx)}]"


@dataclass(eq=False)
class View:
    """``base[index]`` with integers and constant slices: per base dimension either
    ``("int", expr)`` or ``("slice", start, step)`` (one view dimension each; ``start``
    an int, or a kernel variable's name for a slice with run-time bounds), and
    ``("new",)`` for a new axis of length 1 (a view dimension, no base dimension)."""

    base: Arr
    parts: list
    shape: tuple
    dtype: np.dtype

    @property
    def key(self) -> str:
        return self.base.key

    def read(self, idx: list[str]) -> str:
        return self.base.read(self.subscript(idx))

    def subscript(self, idx: list[str]) -> list[str]:
        out, k = [], 0
        for part in self.parts:
            if part[0] == "int":
                out.append(part[1])
            elif part[0] == "new":
                k += 1   # its index (0, or a broadcast one) reads nothing
            else:
                _, start, step = part
                i = idx[k]
                k += 1
                # (an index may be an expression: ``8 * j + 3`` of a reduction's lane)
                term = i if step == 1 else f"{step} * {i}" if i.isidentifier() \
                    or i.isdigit() else f"{step} * ({i})"
                out.append(term if start == 0 else f"{start} + {term}")
        return out


@dataclass(eq=False)
class Scal:
    name: str
    dtype: np.dtype


@dataclass(eq=False)
class Const:
    value: Any


@dataclass(eq=False)
class Lazy:
    """An elementwise node inlined where it is read; ``keys``: the memory it reads."""

    node: Node
    keys: frozenset
    shape: tuple
    dtype: np.dtype


@dataclass(eq=False)
class Dead:
    """A loop's temporary that nothing reads after the loop (it is not kept)."""


@dataclass(eq=False)
class Tup:
    items: list


@dataclass(eq=False)
class Obj:
    """A graph input that is no array (a ``np.random.Generator``): the kernel only
    passes it to NumPy's calls (draws.py)."""

    name: str


def _compose(view: View, parts: list, shape: tuple) -> View:
    """``view[index]`` as a view of ``view.base``. ``parts`` (``index_parts`` of the
    view's shape) has one part per axis of the view, in order, and a ``("new",)``
    wherever the index adds an axis (``v[None, :, :] - v[:, None, :]`` of a view ``v =
    s[:, :2]``): a new axis stays where it stands among the view's axes."""
    if any(part[0] == "new" for part in view.parts):
        raise Unsupported("an index into a view with a new axis")
    out, k = [], 0
    subs = iter(parts)
    for part in view.parts:
        if part[0] == "int":
            out.append(part)
            continue
        _, start, step = part
        sub = next(subs)
        while sub[0] == "new":   # new axes before the view's axis k
            out.append(sub)
            sub = next(subs)
        count = view.shape[k]
        k += 1
        if sub[0] == "int":
            i = sub[1]
            if not i.isdigit():   # a loop-index expression may be negative: NumPy wraps
                i = f"(({i}) % {count})"   # it around the view, not the base
            out.append(("int", f"{start} + {step} * {i}" if step != 1 or start else i))
        elif isinstance(start, str):   # a run-time start (sym_slices.py)
            off = step * sub[1]
            out.append(("slice", f"({start} + {off})" if off else start, step * sub[2]))
        else:
            out.append(("slice", start + step * sub[1], step * sub[2]))
    out.extend(subs)     # new axes after the view's last axis
    return View(view.base, out, shape, view.dtype)
