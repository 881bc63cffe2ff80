"""Random state programs with more of what a stateful NumPy program does (issue #17).

``scripts/random_state_programs.py``'s grammar, plus statements it never writes (its
seeds keep their programs: this is a grammar of its own, ``--generator state_more`` of
``scripts/loop_program_search.py``):

- class attributes against instance attributes: ``Obj.count += 1``, ``type(o).count``,
  ``o.count = o.count + k`` (the first write makes an instance attribute that shadows
  the class's), ``del o.count`` (the class's shows again), ``o.scale * a``;
- ``enumerate`` over a state list (``for j, v in enumerate(log):``), writing a dict;
- ``list.sort(key=...)`` and ``sorted(tab, key=repr)`` of the mixed state;
- ``del`` of list items and slices, of dict keys and of attributes;
- augmented assignment on subscripts and attributes of containers: ``tab['cnt'] += k``,
  ``lst[-1] += c``, ``tab['h'] += [s]`` (``tab['h']`` may be ``O.hist``: one list),
  ``o.hist[-1:] = ...``.

Everything else (inputs, the prelude's state, the comparison) is the base module's.
Example::

    >>> print(program(3))                                  # doctest: +SKIP
    def prog(x, y, k, log, tab, o, p):
        ...
        for j, v in enumerate(log):
            c += j if not isinstance(v, tuple) else len(v)
    >>> differences(program(3), inputs(3), "eager")
    []
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import random_state_programs as base  # noqa: E402

compile_plain = base.compile_plain
differences = base.differences
failure_kind = base.failure_kind
inputs = base.inputs
loop_nodes = base.loop_nodes
observe = base.observe


class _MoreWriter(base._Writer):
    """The base grammar; a third of its state updates are one of the new kinds."""

    def state(self, pad: str) -> None:
        if self.r.random() < 0.35:
            self.more(pad)
        else:
            super().state(pad)

    def more(self, pad: str) -> None:
        lst, dct, ob = self.lst(), self.dct(), self.obj()
        inner = pad + "    "
        line = self.pick(
            # class attributes against instance attributes
            "Obj.count += 1", f"type({ob}).count += c", f"{ob}.count = {ob}.count + k",
            f"c += {ob}.count", f"if 'count' in vars({ob}):\n{inner}del {ob}.count",
            f"s = s + {ob}.scale * len({lst})", f"a = a * {ob}.scale",
            f"Obj.scale = {ob}.scale + 0.5",
            # enumerate over a state list
            f"for j, v in enumerate({lst}):\n{inner}c += j if not isinstance(v, tuple) "
            "else len(v)",
            f"for j, v in enumerate({lst}[:3]):\n{inner}{dct}[j] = v",
            # sort with a key
            f"{lst}.sort(key=lambda v: isinstance(v, tuple))",
            f"{lst}.sort(key=lambda v: (type(v).__name__, isinstance(v, (int, float)) "
            "and not isinstance(v, bool) and v == v and v))",
            f"{lst}.append(sorted({dct}, key=repr)[:2])", f"c += len(sorted({dct}, key=str))",
            # del of items, slices, keys, attributes
            f"if {lst}:\n{inner}del {lst}[0]", f"del {lst}[-2:]",
            f"if hasattr({ob}, 'tag'):\n{inner}del {ob}.tag",
            f"if {dct}:\n{inner}del {dct}[next(iter({dct}))]",
            # augmented assignment on subscripts
            f"{dct}['cnt'] = {dct}.get('cnt', 0)\n{pad}{dct}['cnt'] += k",
            f"if {lst} and type({lst}[-1]) in (int, float):\n{inner}{lst}[-1] += c",
            f"if 'h' in {dct} and type({dct}['h']) is list:\n{inner}{dct}['h'] += [round(s, 4)]",
            f"{dct}.setdefault('acc', [])\n{pad}if type({dct}['acc']) is list:\n"
            f"{inner}{dct}['acc'] += [{self.item()}]",
            f"{ob}.hist[-1:] = [{self.item()}]", f"{ob}.n += len({lst})")
        self.lines.append(pad + line)


def program(seed: int) -> str:
    """The source of a random ``def prog(x, y, k, log, tab, o, p)`` of this grammar."""
    return _MoreWriter(seed).program()
