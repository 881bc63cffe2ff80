"""The Python state a trace changes outside itself, which the glue replays after the
graph, in order: mutated lists, dicts, objects and cells, stored globals, and
deferred ``print`` calls (``OutputGraph.side_effects``).

Example::

    >>> effects = SideEffects()
    >>> effects.mutate(log_var)          # log.append("a") in the traced code
    >>> effects.pending()                # how many changes a node's raise must keep
    1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variables import Variable


# the option of a deferred print that holds its condition (``print_only_if``)
WHEN = "___when"


class SideEffects:
    """Mutations of objects that exist outside the trace, in first-mutation order.

    ``mutated`` holds lists, dicts, objects (attribute writes) and closure cells with a
    source; ``globals`` maps global names to their new Variables.
    """

    def __init__(self, on_first_mutation=None) -> None:
        self.mutated: dict[int, Variable] = {}
        self.globals: dict[str, Variable] = {}
        # print() calls the glue replays, in order: (texts, sep/end/flush) each
        # (translator/deferred_prints.py)
        self.prints: list[tuple[list, dict]] = []
        self.version = 0
        # while a loop body is traced: every Variable mutated (and every global name
        # stored), for the loop to check that its body changes no Python state
        self.log: list | None = None
        # called with a sourced Variable when it is first mutated (OutputGraph uses it
        # to guard that no other input is the same object, see ``register_input``)
        self.on_first_mutation = on_first_mutation

    def mutate(self, var: Variable) -> None:
        self.version += 1
        if self.log is not None:
            self.log.append(var)
        if getattr(var, "source", None) is not None and id(var) not in self.mutated:
            self.mutated[id(var)] = var
            if self.on_first_mutation is not None:
                self.on_first_mutation(var)

    def pending(self) -> int:
        """How many objects and globals outside the trace have changed so far, and
        prints made: a node's ``PYTHON_EFFECTS`` (if the graph raises at that node,
        these changes must have happened, see ``dynamo.raising.on_raise``)."""
        return len(self.mutated) + len(self.globals) + len(self.prints)

    def print(self, texts: list, options: dict) -> None:
        """A ``print(*texts, **options)`` for the glue to replay (deferred_prints.py)."""
        self.version += 1   # (never while a loop body is traced: ``log`` is None)
        self.prints.append((texts, options))

    def print_only_if(self, start: int, stop: int, when) -> None:
        """The prints ``start:stop`` happen only where ``when`` (a bool the
        glue makes after the graph) is true: a loop exit's ``print("converged")``,
        whose way the loop's last test chooses (translator/exit_prints.py). The glue
        replays them as ``if <when>: print(...)`` (``WHEN`` among their options)."""
        for k in range(start, stop):
            texts, options = self.prints[k]
            self.prints[k] = (texts, {**options, WHEN: when})

    def store_global(self, name: str, value: Variable) -> None:
        self.version += 1
        if self.log is not None:
            self.log.append(name)
        self.globals[name] = value

    def __bool__(self) -> bool:
        return bool(self.mutated or self.globals or self.prints)
