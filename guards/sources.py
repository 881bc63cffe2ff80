"""Sources: where a value that came from outside the trace lives.

A source can name itself for people (``L['self'].w1``) and read itself in generated
code (``self.w1``). Generated functions (guard checks, the glue that calls a graph)
take the frame's arguments as parameters, ``___G`` (the function's globals) and
``___closure`` (its closure cells), so every source renders as a plain expression.

Example::

    >>> s = ItemSource(AttrSource(LocalSource("self"), "params"), "w")
    >>> s.name(), s.expr()
    ("L['self'].params['w']", "self.params['w']")
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass


def param_name(local: str) -> str:
    """A local variable's name as a parameter of generated code ('.0' -> '___dot0')."""
    if local.isidentifier() and not keyword.iskeyword(local) and not local.startswith("___"):
        return local
    return "___" + "".join(c if c.isalnum() else "_" for c in local.replace(".", "dot"))


class Source:
    """Base class. Subclasses are frozen dataclasses, so sources compare by value."""

    def name(self) -> str:
        raise NotImplementedError

    def expr(self) -> str:
        raise NotImplementedError

    def root(self) -> Source:
        base = getattr(self, "base", None)
        return self if base is None else base.root()

    def depth(self) -> int:
        """How many reads from a root (``L['self'].w`` is 1): a guard on a source is
        checked only after the guards on its bases, so a check never reads an
        attribute of an object whose type it has not confirmed yet."""
        base = getattr(self, "base", None)
        return 0 if base is None else base.depth() + 1

    def __str__(self) -> str:
        return self.name()

    # Its expression computes a new object each time it runs (``np.asarray(ids)``, some
    # microseconds): generated code evaluates it once and reuses it (``computed_reads``).
    computed = False


def computed_reads(sources) -> list[Source]:
    """The computed sources (``Source.computed``) among ``sources`` and their bases, in
    first-seen order: what generated code that reads ``sources`` should evaluate once."""
    found: list[Source] = []
    for source in sources:
        while source is not None:
            if source.computed and source not in found:
                found.append(source)
            source = getattr(source, "base", None)
    return found


def shared_reads(exprs: list[str], sources, prefix: str) -> tuple[list[str], dict]:
    """``exprs`` with each computed source among ``sources`` read through a name
    (``___a0`` for ``np.asarray(ids)``), and ``{source: name}`` for those they read: the
    generated function binds each name once before it evaluates ``exprs``."""
    exprs, names = list(exprs), {}
    for i, source in enumerate(computed_reads(sources)):
        text, name = source.expr(), f"{prefix}a{i}"
        if any(text in e for e in exprs):
            exprs = [e.replace(text, name) for e in exprs]
            names[source] = name
    return exprs, names


# The parameters of a resume function that carry the stack over a break are
# ``___stack0``, ``___stack1``... (dynamo/bytecode/resume.py): not names a user wrote.
STACK_PARAM = "___stack"


@dataclass(frozen=True)
class LocalSource(Source):
    local: str

    def name(self) -> str:
        if self.local.startswith(STACK_PARAM) and self.local[len(STACK_PARAM):].isdigit():
            # a resume function's parameter: a value the break hands over
            return f"<value {self.local[len(STACK_PARAM):]} carried over the graph break>"
        return f"L[{self.local!r}]"

    def expr(self) -> str:
        return param_name(self.local)


@dataclass(frozen=True)
class GlobalSource(Source):
    """A global of the compiled function's module, or of ``module`` when given
    (functions inlined from other modules read their own globals)."""

    global_name: str
    module: str | None = None

    def name(self) -> str:
        prefix = "G" if self.module is None else f"{self.module}."
        return f"{prefix}[{self.global_name!r}]" if self.module is None else \
            f"{prefix}{self.global_name}"

    def expr(self) -> str:
        if self.module is None:
            return f"___G[{self.global_name!r}]"
        return f"___modules[{self.module!r}].__dict__[{self.global_name!r}]"


@dataclass(frozen=True)
class BuiltinSource(Source):
    builtin: str

    def name(self) -> str:
        return f"builtins.{self.builtin}"

    def expr(self) -> str:
        return f"___builtins.{self.builtin}"


@dataclass(frozen=True)
class ClosureSource(Source):
    """A free variable of the traced function: the contents of one closure cell."""

    var: str
    index: int

    def name(self) -> str:
        return f"closure[{self.var!r}]"

    def expr(self) -> str:
        return f"___closure[{self.index}].cell_contents"

    def cell_expr(self) -> str:
        return f"___closure[{self.index}]"


@dataclass(frozen=True)
class PassedCellSource(Source):
    """The contents of a cell the frame got as argument ``local``: a resume function
    takes the original's cells as cells (dynamo/bytecode/cells.py)."""

    local: str

    def name(self) -> str:
        return f"L[{self.local!r}].cell_contents"

    def expr(self) -> str:
        return f"{param_name(self.local)}.cell_contents"

    def cell_expr(self) -> str:
        return param_name(self.local)


@dataclass(frozen=True)
class AttrSource(Source):
    base: Source
    attr: str

    def name(self) -> str:
        return f"{self.base.name()}.{self.attr}"

    def expr(self) -> str:
        if self.attr.isidentifier() and not keyword.iskeyword(self.attr):
            return f"{self.base.expr()}.{self.attr}"
        return f"___builtins.getattr({self.base.expr()}, {self.attr!r})"


@dataclass(frozen=True)
class ItemSource(Source):
    base: Source
    key: object  # int, str or another hashable constant with a faithful repr

    def name(self) -> str:
        return f"{self.base.name()}[{self.key!r}]"

    def expr(self) -> str:
        return f"{self.base.expr()}[{self.key!r}]"


@dataclass(frozen=True)
class StoredItemSource(ItemSource):
    """An item of a ``collections.defaultdict``, read as stored: ``d.get(key)``, never
    ``d[key]``, which runs the default factory for a missing key and inserts what it
    makes. A check may read an item before it compares the dict's keys (or explain a
    miss by reading every guarded source), and must not change the program's dict;
    a missing key reads as None here, and the keys guard fails.

        >>> StoredItemSource(AttrSource(LocalSource("self"), "metrics"), "loss").expr()
        "self.metrics.get('loss')"
    """

    def expr(self) -> str:
        # (the dict's type is guarded exactly defaultdict, which has no instance
        # attributes: ``.get`` is ``dict.get``)
        return f"{self.base.expr()}.get({self.key!r})"


@dataclass(frozen=True)
class CellSource(Source):
    """A closure cell object itself (not its contents) of a nested function value."""

    base: Source
    index: int

    def name(self) -> str:
        return f"{self.base.name()}.__closure__[{self.index}]"

    def expr(self) -> str:
        return f"{self.base.expr()}.__closure__[{self.index}].cell_contents"

    def cell_expr(self) -> str:
        return f"{self.base.expr()}.__closure__[{self.index}]"


@dataclass(frozen=True)
class ShapeSource(Source):
    """One dimension of an array source: ``x.shape[i]`` (used for symbolic sizes)."""

    base: Source
    dim: int

    def name(self) -> str:
        return f"{self.base.name()}.shape[{self.dim}]"

    def expr(self) -> str:
        return f"{self.base.expr()}.shape[{self.dim}]"


@dataclass(frozen=True)
class FormSource(Source):
    """An int the call computes from ``base`` with Python's own operators: ``form`` is
    the expression with ``{}`` where ``base`` goes. A changing int's remainder or
    quotient by a constant (``(({} + 1) % 16)``: it cannot raise, and negative and
    huge values divide as eagerly) or a list's length (``len({})``)::

        >>> FormSource(AttrSource(LocalSource("self"), "ptr"), "(({} + 1) % 16)").name()
        "((L['self'].ptr + 1) % 16)"
    """

    base: Source
    form: str

    def name(self) -> str:
        return self.form.format(self.base.name())

    def expr(self) -> str:
        return self.form.format(self.base.expr())


@dataclass(frozen=True)
class IndexedItemSource(Source):
    """The item of the list at ``base`` at an index the call computes from other
    sources (a changing int: ``self.lrs[self.i]``): ``index`` is that int's expression
    over the frame's values, ``index_name`` the same for people, ``index_depth`` the
    depth of its deepest source (the item's guards come after the index's own)::

        >>> IndexedItemSource(AttrSource(LocalSource("self"), "lrs"), "self.i",
        ...                   "L['self'].i", 1).name()
        "L['self'].lrs[L['self'].i]"
    """

    base: Source
    index: str
    index_name: str
    index_depth: int

    def name(self) -> str:
        return f"{self.base.name()}[{self.index_name}]"

    def expr(self) -> str:
        return f"{self.base.expr()}[{self.index}]"

    def depth(self) -> int:
        return max(self.base.depth(), self.index_depth) + 1


@dataclass(frozen=True)
class AsArraySource(Source):
    """A list of Python ints as the array NumPy makes of it (``np.asarray(ids)``): how a
    list used as array data (an index, ``np.array(ids)``) enters a graph. Its ARRAY
    guard (int64, one dimension) holds exactly when NumPy reads the list as such an
    array, whatever its length and values."""

    base: Source
    computed = True   # a new array each call: generated code makes it once

    def name(self) -> str:
        return f"np.asarray({self.base.name()})"

    def expr(self) -> str:
        return f"___modules['numpy'].asarray({self.base.expr()})"


@dataclass(frozen=True)
class ModuleAttrSource(Source):
    """``module.attr`` of a library module (``numpy.tanh``, ``math.pi``), as the trace
    read it: the value is baked into the trace (a graph op, a constant), so it is
    guarded by identity.

    The source holds the module object itself, not a path to it: the guard is a fact
    about that module however the function reached it (``np.tanh``, ``self.lib.tanh``,
    ``numpy.linalg`` through ``np.linalg``). Generated checks bind the module's
    ``__dict__`` and read the name there (``guards.render`` batches all names of one
    module); ``read`` does the same for the failure words. ``expr`` is the module as
    ``sys.modules`` names it, for people reading code, not used by the checks.
    Sources compare by (module, name); modules compare by identity.
    """

    module: object   # a types.ModuleType
    attr: str

    def name(self) -> str:
        return f"{self.module.__name__}.{self.attr}"

    def expr(self) -> str:
        return f"___modules[{self.module.__name__!r}].__dict__[{self.attr!r}]"

    def read(self):
        """The current value: the module's namespace entry (KeyError if deleted)."""
        return vars(self.module)[self.attr]
