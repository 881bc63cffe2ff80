"""``lst[-k:]`` of a list that grows between calls (a loss history, a frame list, a
token log): the slice as a list of its own whose held items are read from
``L['self'].losses[-2:]`` (``WindowSource``), not from the whole list (issue #16).

Read item by item, a slice of a growing list guarded the list's length and each item
it took: one entry per call while the list grows. A slice ``[-k:]`` (a negative int
constant, no stop, no step) of a list the trace has not read and whose length changed
between calls (``ListVariable.window``) needs none of that: the items the trace
appended are known Variables, and the rest is the last ``k - appended`` items the
list held when the call started, whatever its length. That part is a list whose
length changes only while the list fills (``min(len, k - appended)``), so it is an
unread list of its own (``WindowVariable``) with everything an unread list of
changing length has: its length a changing int guarded only where read (a
comparison guards its outcome), ``sum``/``max``/``min`` of its floats one float the
call computes (``float_windows``), ``np.stack`` of its arrays one input
(``stacked_lists``), ``np.array`` or ``np.mean`` of its ints or floats one input
(``builder``), then the numbers the trace appended (``appended_data``), and its
items, where the trace reads them, guarded one by one as any list's (the window's
length then, not the list's). ``np.mean(d)`` of a deque of floats is made the same
way from the floats it held that the appends keep (``deque_data``).

The slice is a new list in Python: the window has no source (nothing is written
back to it, it is not the list), and the glue rebuilds it, where it is returned or
stored, as ``[*L['self'].losses[-2:], <appended>]``, read before the glue replays the
list's appends (the values the glue returns are computed before its first write).

Example::

    def step(self, x, loss):
        self.losses.append(loss)
        return x * (sum(self.losses[-3:]) / 3)
    # sum((*L['self'].losses[-2:], L['loss'])): one changing float; guarded on the
    # window's items being floats and ``len(L['self'].losses[-2:]) >= 1``, not on the
    # length of ``self.losses`` nor on its items
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynamo.guards import EXPR, AsArraySource, Guard, ShapeSource, Source

from .. import ops
from ..symbolic import SymInt
from ..symbolic.scalars import SymFloat
from .constant import ConstantVariable
from .deques import DequeVariable, HeldRowsSource
from .graph_numbers import graph_number_of
from .sequences import ListVariable


@dataclass(frozen=True)
class WindowSource(Source):
    """The last ``keep`` items of the list at ``base``, every ``step``-th of them from
    the first, or all of them newest first for a ``step`` of -1 (a new list each time)::

        >>> WindowSource(AttrSource(LocalSource("self"), "losses"), 2).name()
        "L['self'].losses[-2:]"
        >>> WindowSource(AttrSource(LocalSource("self"), "h"), 5, 2).name()
        "L['self'].h[-5::2]"
        >>> WindowSource(AttrSource(LocalSource("self"), "h"), 3, -1).name()
        "L['self'].h[:-4:-1]"
    """

    base: Source
    keep: int
    step: int = 1
    computed = True   # a new list each call: generated code makes it once
    # the list grows under it, so its items move: an item read as a number is a
    # changing one from the first trace (``DynamicPolicy.is_dynamic_number``)
    items_move = True

    def _slice(self) -> str:
        if self.step == -1:         # (``lst[-3:][::-1]``: the last three, newest first)
            return f"[:-{self.keep + 1}:-1]"
        return f"[-{self.keep}:]" if self.step == 1 else f"[-{self.keep}::{self.step}]"

    def name(self) -> str:
        return f"{self.base.name()}{self._slice()}"

    def expr(self) -> str:
        return f"{self.base.expr()}{self._slice()}"


class WindowVariable(ListVariable):
    """The held part of ``lst[-k:]``, then the items the trace appended to ``lst``
    before the slice (``appended``): a new list, read from ``held_source``."""

    held_source: WindowSource | None = None
    # the held items as data of symbolic length from 1 up (``appended_data``: joined
    # to the appended items, so one held item cannot broadcast): the builder's
    held_data = None
    # (keep, step=1) -> a window of the list this one is a window of (``window_of``'s
    # ``make``): ``window[::s]`` is a window of that list too (``_view``)
    of_base = None
    # a reversed view (``lst[-k:][::-1]``, ``_view``): the items the trace appended to
    # ``lst``, newest first, before the held part. Only ``appended_data`` takes them
    # with the held part unread; to anything else the window is read (``is_unread``)
    prepended: tuple | list = ()

    def is_unread(self) -> bool:
        return self._read is not None and not self.prepended

    def held_unread(self) -> bool:
        """Are the held items unread (whatever the trace put before them)?"""
        return self._read is not None

    @property
    def items(self) -> list:
        front = self.prepended
        if front and self._read is not None:
            self.prepended = ()
            ListVariable.items.fset(self, [*front, *ListVariable.items.fget(self)])
        return ListVariable.items.fget(self)

    @items.setter
    def items(self, value: list) -> None:
        self.prepended = ()
        ListVariable.items.fset(self, value)

    def getitem(self, tx, index):
        view = _view(self, tx, index)
        return view if view is not None else super().getitem(tx, index)

    def _set_unread(self, index) -> bool:
        return False      # (an item set: read the items; the slice is a list of the trace)

    def reconstruct(self, cg) -> str:
        if not self.is_unread():
            return super().reconstruct(cg)

        def build(var) -> str:
            parts = [f"*{var.held_source.expr()}", *(cg.value(v) for v in var.appended)]
            return f"[{', '.join(parts)}]"
        return cg.mutable(self, build)


def window_of(make, lst: ListVariable, tx, index) -> ListVariable | None:
    """``lst[index]`` for a slice ``[-k:]`` of an unread list whose length changes (or
    ``[-k:-j]`` where the trace appended j items or more: the previous values; or
    ``[-k::s]``, see ``_stepped``), as the last ``k`` appended items or a
    ``WindowVariable`` (``make(keep)``: the last ``keep`` items held, or None); None
    where it does not apply (the items are read as before). The builder binds
    ``make`` as ``lst.window``, called ``lst.window(lst, tx, index)``."""
    if not lst.is_unread() or lst.edits or \
            tx.output.loop_scope is not None or not index.is_constant():
        return None        # (a loop node's body: its trips are not the call's start)
    key = index.as_python_constant()
    if type(key) is not slice or type(key.start) is not int or key.start >= 0:
        return None        # (a SymInt: not an int)
    if key.step is not None:
        return _stepped(make, lst, -key.start, key.step) if key.stop is None else None
    drop = 0 if key.stop is None else key.stop
    if key.stop is not None and (type(drop) is not int or not key.start < drop < 0 or
                                 len(lst.appended) < -drop):
        return None    # (``[-k:-j]`` cutting into the items held: they are read)
    # ``lst[-k:-j]`` is ``lst[:-j][-(k - j):]``, and ``lst[:-j]`` the list held then
    # the appended items but the last j: a window of ``k - j`` of that
    keep, appended = drop - key.start, list(lst.appended)[:len(lst.appended) + drop]
    if len(appended) >= keep:
        return ListVariable(appended[len(appended) - keep:])
    window = make(keep - len(appended))
    if window is None:
        return None
    window.appended, window.of_base = appended, make
    return window


def _view(window: WindowVariable, tx, index) -> ListVariable | None:
    """``window[::s]`` of an unread window ``lst[-k:]`` (issue #16), as a window of
    ``lst`` itself, so it costs what ``lst[-k:]`` costs (no length guarded where
    ``lst[-k:]`` guards none): a step of 2 or more is ``lst[-k::s]`` (``_stepped``),
    and -1, where the trace appended nothing to ``lst``, the last ``k`` items held
    newest first (``L['self'].tokens[:-4:-1]``), a window of its own. None where it
    does not apply (the items are read, as before)::

        np.mean(self.h[-5:][::2])      # as np.mean(self.h[-5::2])
        EMB[self.tokens[-3:][::-1]]    # EMB[np.asarray(L['self'].tokens[:-4:-1])]
    """
    held = window.held_source
    if window.of_base is None or held is None or held.step != 1 or \
            not window.is_unread() or window.edits or tx.output.loop_scope is not None or \
            not index.is_constant():
        return None
    key = index.as_python_constant()
    if type(key) is not slice or key.start is not None or key.stop is not None or \
            type(key.step) is not int:
        return None
    if key.step >= 2:     # (``_stepped`` reads only ``window.appended``: lst's, kept)
        return _stepped(window.of_base, window, held.keep + len(window.appended), key.step)
    if key.step != -1:
        return None
    view = window.of_base(held.keep, -1)
    if view is not None:    # (the appended items first, newest first: ``prepended``)
        view.prepended = list(window.appended)[::-1]
    return view


def _stepped(make, lst: ListVariable, keep: int, step) -> ListVariable | None:
    """``lst[-keep::step]`` (an int step of 2 or more; 1 is ``[-keep:]``), which is
    ``lst[-keep:][::step]``: every ``step``-th of the last ``keep`` items held (a
    window of its own, ``make(keep - appended, step)``), then those of the appended
    items whose place in the whole window is a multiple of ``step``. That place is the
    held part's length plus the item's index, so where the trace appended items it
    guards the held part's length modulo ``step`` (one entry per remainder while the
    list fills, then one), not the list's length nor its items.

        self.h.append(v)
        np.mean(self.h[-6::2])     # [*L['self'].h[-5::2], L['v']] when len(h[-5:]) is
                                   # odd, else L['self'].h[-5::2] alone
    """
    if type(step) is not int or step < 1:
        return None        # (a negative step reverses: read the items)
    appended = list(lst.appended)
    if len(appended) >= keep:
        return ListVariable(appended[len(appended) - keep:][::step])
    window = make(keep - len(appended), step)
    if window is None:
        return None
    if appended:
        held = make(keep - len(appended))      # (its length: the place of the first)
        if held is None or held.length is None:
            return None
        rest = held.length() % step
        first = next(c for c in range(step) if bool(rest == c))   # (guards the outcome)
        window.appended = [v for j, v in enumerate(appended) if (first + j) % step == 0]
    return window


def appended_data(output, lst: ListVariable):
    """``lst`` as array data (``np.array(self.buf[-w:])``, ``np.mean(hist[-k:])``) where
    the trace appended numbers to it: the held items' input (``lst.data``: an int64
    or float64 array of symbolic length) then the appended numbers, as NumPy makes
    the whole list (``concatenate([np_asarray_held, array([l])])``); None where it
    does not apply. The appended items must be Python numbers of the held array's
    kind (ints to int64, floats to float64: the dtype NumPy gives the whole list),
    constants or changing numbers of the frame."""
    data = getattr(lst, "held_data", None) or lst.data
    front = list(getattr(lst, "prepended", ()))    # (a reversed window: ``_view``)
    unread = lst.held_unread() if front else lst.is_unread()
    if data is None or not unread or lst.edits or not (front or lst.appended) or \
            (front and lst.appended):
        return None
    kind = {np.dtype(np.int64): int, np.dtype(np.float64): float}
    appended = [graph_number_of(output, v) for v in front or lst.appended]   # (float(loss))
    values = [v.value if isinstance(v, ConstantVariable) else None for v in appended]
    held = data(least=1)    # (joined to the appended items: one held is symbolic too)
    if held is None or held.meta.dtype not in kind:
        return None
    want = kind[held.meta.dtype]
    if not all(type(v) is want or (type(v) is SymFloat and want is float) or
               (type(v) is SymInt and want is int) for v in values):
        return None
    if want is int and not all(-2 ** 63 <= int.__int__(v) < 2 ** 63 for v in values):
        return None    # (NumPy types a larger int otherwise)
    new = output.call_op(ops.get("array"), [ListVariable(appended)], {})
    parts = [new, held] if front else [held, new]
    return output.call_op(ops.get("concatenate"), [ListVariable(parts)], {})


def deque_data(output, d):
    """``np.mean(d)`` (``np.array(d)``, ``np.asarray(d)``) of an unread deque of Python
    floats, or of Python ints, whose length changes between calls, the trace having
    only appended numbers of that kind to it: the numbers held that the appends keep
    (all, or ``list(d)[-keep:]`` for a ``maxlen`` deque) as one float64 (int64) input
    of symbolic length, then the appended ones (``concatenate([np_asarray_held,
    array([l])])``); None where it does not apply. NumPy makes that very array of the
    deque (``np.asarray(d)``), so the mean is eager's bit for bit on every Python; no
    length is guarded, and the items held are guarded to be of the one kind (ints and
    floats mixed make a float64 array NumPy converts otherwise; ints past 64 bits an
    object array, which the input's int64 guard refuses).

        d.append(n_tokens)             # a deque(maxlen=4) of ints
        np.mean(d)   # mean(concatenate([np.asarray(list(L['self'].d)[-3:]), array([n])]))
    """
    if not isinstance(d, DequeVariable) or not d.is_unread() or d.live is None or \
            output.loop_scope is not None or any(n not in ("append", "extend") for n, _ in d.ops):
        return None
    new = [graph_number_of(output, v) for _, vs in d.ops for v in vs]
    values = [v.value if isinstance(v, ConstantVariable) else None for v in new]
    want = _kind(values) if values else _kind(list(d.live))
    if want is None:
        return None
    keep = None if d.maxlen is None else d.maxlen - len(new)
    parts = []
    if keep is None or keep > 0:
        held = _held_numbers(output, d, keep, 1 if new else 2, want)
        if held is None:
            return None
        parts.append(held)
    if new:
        kept = new if d.maxlen is None else new[max(len(new) - d.maxlen, 0):]
        parts.append(output.call_op(ops.get("array"), [ListVariable(kept)], {}))
    if len(parts) == 1:
        return parts[0]
    return output.call_op(ops.get("concatenate"), [ListVariable(parts)], {})


def _kind(values: list) -> type | None:
    """``float`` where all ``values`` are Python floats (or changing floats), ``int``
    where all are Python ints in int64's range (or changing ints; a bool is not one:
    NumPy makes a bool array of bools), else None."""
    if values and all(type(v) is float or type(v) is SymFloat for v in values):
        return float
    if values and all(type(v) is int or type(v) is SymInt for v in values) and \
            all(-2 ** 63 <= int.__int__(v) < 2 ** 63 for v in values):
        return int
    return None


def _held_numbers(output, d, keep: int | None, least: int, want: type):
    """The numbers of the deque ``d`` held when the call starts that the appends keep,
    as one float64 (int64 for ``want`` int) input (``np.asarray(list(d)[-keep:])``) of
    symbolic length from ``least`` up; None where there are fewer, a length was
    pinned, or not all of the kind ``want``."""
    value, source = d.live, d.source
    rows_source = source if keep is None else HeldRowsSource(source, keep, "right")
    array_source = AsArraySource(rows_source)
    known = output.input_vars.get(array_source)
    if known is not None:
        return known if known.meta.dtype == _DTYPES[want] else None
    part = list(value) if keep is None else list(value)[-keep:]
    if len(part) < least or ShapeSource(array_source, 0) in output.shape_env.dynamic.static \
            or not all(type(v) is want for v in value):
        return None
    array = np.asarray(part)
    if array.dtype != _DTYPES[want]:
        return None       # (an int past 64 bits)
    output.guards.add(Guard(source, EXPR, f"set(map(type, {source.expr()})) <= "
                                          f"{{___builtins.{want.__name__}}}",
                            note=f"a window of Python {want.__name__}s read whole"))
    var = output.add_input(array, array_source, dynamic_dims=(0,), least=least)
    output.input_vars[array_source] = var
    return var


_DTYPES = {float: np.dtype(np.float64), int: np.dtype(np.int64)}
