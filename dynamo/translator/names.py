"""Handlers that load and store names: locals, globals, builtins, cells, attributes."""

from __future__ import annotations

import builtins
import sys

from bytecode import CellVar, FreeVar

from dynamo.guards import NOT_PRESENT, BuiltinSource, GlobalSource, Guard
from dynamo.guards.type_slots import qualname_of

from .. import pyversion
from ..exc import Unsupported
from ..made_dicts import own_attribute
from ..variables import NULL, CellVariable, wrap
from ..variables.lifetimes import break_at_drop, held_object, visible_ends_held
from ..variables.objects import ClassVariable, ObjectVariable
from .imports import import_value


class Names:
    # ------------------------------------------------------------------ locals
    def load_local(self, name: str):
        var = self.locals.get(name)
        if var is None:
            raise Unsupported(f"local variable {name!r} referenced before assignment "
                              "(UnboundLocalError)")
        return var

    def LOAD_FAST(self, inst):
        name = getattr(inst.arg, "name", inst.arg)
        if isinstance(inst.arg, CellVar | FreeVar) or name in self.code.co_cellvars:
            self.push(self.cell(name))  # 3.13 loads cells for closures with LOAD_FAST
        else:
            self.push(self.load_local(inst.arg))

    LOAD_FAST_CHECK = LOAD_FAST
    LOAD_FAST_BORROW = LOAD_FAST

    def LOAD_FAST_AND_CLEAR(self, inst):
        # 3.12 inlined comprehensions save the outer value of the loop variable; the
        # slot of a cell variable holds the cell itself, which the comprehension
        # replaces by a fresh one (MAKE_CELL) and puts back when it ends (STORE_FAST).
        name = getattr(inst.arg, "name", inst.arg)
        if name in self.cells:
            self.push(self.cells[name])
        else:
            self.push(self.locals.pop(inst.arg, NULL))

    def LOAD_FAST_LOAD_FAST(self, inst):
        first, second = inst.arg
        self.push(self.load_local(first))
        self.push(self.load_local(second))

    LOAD_FAST_BORROW_LOAD_FAST_BORROW = LOAD_FAST_LOAD_FAST

    def drop_local(self, name, keeps=()) -> None:
        """The binding of local ``name`` goes (rebound to ``keeps``, or deleted). Where
        that frees an object whose end the program sees (its ``__del__`` runs, its
        weak references die: ``variables/lifetimes.py``), graph-break: the glue would
        free it only when it returns, after the effects that plain Python makes after
        this point. The break code rebinds or deletes it for real, at this point."""
        # (dict's own methods: a loop body's WatchedLocals must not count this look
        # as the program reading the name, translator/loop_facts.py)
        old = dict.get(self.locals, name)
        if old is None:
            old = getattr(self, "args", {}).get(name)   # an argument not read yet
        if old is None:
            return
        args = getattr(self, "args", {})
        others = [v for n, v in dict.items(self.locals) if n != name]
        others += [v for n, v in args.items()
                   if n != name and not dict.__contains__(self.locals, n)]
        self._break_if_last(old, [*others, *self.stack, *keeps], "")

    def _break_if_last(self, old, held: list, how: str) -> None:
        """Graph-break when dropping ``old`` frees an object whose end the program sees
        (``visible_ends_held``) that none of ``held`` (the frame's other values) holds.
        (A container outside the frame may still hold it: then the break is needless
        but harmless.)"""
        ends = visible_ends_held(old)
        if not ends or any(v is old for v in held):
            return   # (a tuple bound to another name too: nothing is freed here)
        for obj in ends:
            if not any(held_object(v) is obj for v in held):
                raise Unsupported(f"the last reference of a {qualname_of(type(obj))} "
                                  f"object, dropped here{how}")

    def drop_stack_top(self) -> None:
        """``POP_TOP`` of a value whose end the program sees (``d.pop("k")`` as a
        statement, the dict made in the trace): graph-break, so the break code drops it
        for real there; else the resume function's glue would hold it to the return."""
        old = self.stack[-1]
        args = getattr(self, "args", {})
        held = [*dict.values(self.locals), *self.stack[:-1],
                *(v for n, v in args.items() if not dict.__contains__(self.locals, n))]
        self._break_if_last(old, held, " (a value left on the stack)")

    def STORE_FAST(self, inst):
        value = self.pop()
        name = getattr(inst.arg, "name", inst.arg)
        if isinstance(value, CellVariable) and name in self.cells:
            self.cells[name] = value   # a comprehension puts back the cell it saved
        elif value is NULL:
            self.locals.pop(inst.arg, None)
        else:
            self.drop_local(inst.arg, (value,))
            self.locals[inst.arg] = value

    def STORE_FAST_LOAD_FAST(self, inst):
        store, load = inst.arg
        self.drop_local(store, (self.stack[-1],))
        self.locals[store] = self.pop()
        self.push(self.load_local(load))

    def STORE_FAST_STORE_FAST(self, inst):
        first, second = inst.arg
        self.drop_local(first, self.stack[-2:])    # (both before either store: a break
        self.drop_local(second, self.stack[-2:])   # leaves the locals as they were)
        self.locals[first] = self.pop()
        self.locals[second] = self.pop()

    def DELETE_FAST(self, inst):
        self.load_local(inst.arg)
        self.drop_local(inst.arg)
        del self.locals[inst.arg]

    # ------------------------------------------------------------------ globals
    def global_source(self, name: str) -> GlobalSource:
        if self.fn_globals is self.output.fn_globals:
            return GlobalSource(name)
        module = self.fn_globals.get("__name__")
        if sys.modules.get(module) is None or sys.modules[module].__dict__ is not self.fn_globals:
            raise Unsupported(f"global {name!r} of a function with private globals")
        return GlobalSource(name, module)

    def load_global(self, name: str):
        pending = self.output.side_effects.globals
        if self.fn_globals is self.output.fn_globals and name in pending:
            return pending[name]
        if name in self.fn_globals:
            return wrap(self, self.fn_globals[name], self.global_source(name))
        builtin_dict = self.fn_globals.get("__builtins__", builtins.__dict__)
        if not isinstance(builtin_dict, dict):
            builtin_dict = builtin_dict.__dict__
        if name in builtin_dict:
            if self.fn_globals is self.output.fn_globals:
                self.output.guards.add(Guard(BuiltinSource(name), NOT_PRESENT, None))
            return wrap(self, builtin_dict[name], BuiltinSource(name))
        raise Unsupported(f"name {name!r} is not defined (NameError)")

    def LOAD_GLOBAL(self, inst):
        push_null, name = inst.arg if isinstance(inst.arg, tuple) else (False, inst.arg)
        value = self.load_global(name)
        if push_null:
            for v in pyversion.with_null(value, NULL):
                self.push(v)
        else:
            self.push(value)

    def STORE_GLOBAL(self, inst):
        if self.fn_globals is not self.output.fn_globals:
            raise Unsupported("global write from an inlined function of another module")
        self.output.side_effects.store_global(inst.arg, self.pop())

    def LOAD_NAME(self, inst):
        raise Unsupported("LOAD_NAME (module or class body code)")

    # ------------------------------------------------------------------ cells
    def cell(self, name) -> CellVariable:
        name = getattr(name, "name", name)  # bytecode's CellVar/FreeVar
        cell = self.cells.get(name)
        if cell is None:
            raise Unsupported(f"cell {name!r} unknown to the translator")
        return cell

    def LOAD_DEREF(self, inst):
        self.push(self.cell(inst.arg).get(self))

    def STORE_DEREF(self, inst):
        self.cell(inst.arg).set(self, self.pop())

    def LOAD_CLOSURE(self, inst):
        self.push(self.cell(inst.arg))

    def MAKE_CELL(self, inst):
        # The frame's cells are created with it (the trace starts after the prologue's
        # MAKE_CELLs); one in the body gives an inlined comprehension's (3.12+) cell
        # variable a fresh, empty cell, which closures made in its loop capture.
        self.cells[getattr(inst.arg, "name", inst.arg)] = CellVariable()

    def COPY_FREE_VARS(self, inst):
        pass

    def DELETE_DEREF(self, inst):
        raise Unsupported("del of a closure variable")

    # ------------------------------------------------------------------ attributes
    def LOAD_ATTR(self, inst):
        method, name = inst.arg if isinstance(inst.arg, tuple) else (False, inst.arg)
        obj = self.pop()
        value = self.getattr(obj, name)
        if method:
            for v in pyversion.with_null(value, NULL):
                self.push(v)
        else:
            self.push(value)

    def LOAD_METHOD(self, inst):  # 3.11
        obj = self.pop()
        for v in pyversion.with_null(self.getattr(obj, inst.arg), NULL):
            self.push(v)

    def break_at_drop(self, olds, where: str) -> None:
        """``lifetimes.break_at_drop`` for the Variables below the translator (a dict's
        store, delete or ``clear``)."""
        break_at_drop(olds, where)

    def STORE_ATTR(self, inst):
        obj = self.stack[-1]
        if isinstance(obj, ObjectVariable):   # (before the pops: a break keeps the stack)
            self.break_at_drop([obj.pending.get(inst.arg, _instance_attr(obj.obj, inst.arg))],
                               f"attribute {inst.arg!r}")
        elif isinstance(obj, ClassVariable) and obj.source is not None:
            self.break_at_drop([obj.old_value(self, inst.arg)], f"attribute {inst.arg!r}")
        obj = self.pop()
        value = self.pop()
        self.setattr(obj, inst.arg, value)

    def DELETE_ATTR(self, inst):
        raise Unsupported("del of an attribute")

    def LOAD_SUPER_ATTR(self, inst):  # 3.12: super().name
        method, _, name = inst.arg if len(inst.arg) == 3 else (inst.arg[0], None, inst.arg[1])
        self_var = self.pop()
        cls_var = self.pop()
        self.pop()  # the global `super`
        from ..variables import SuperVariable
        value = SuperVariable(cls_var.as_python_constant(), self_var).getattr(self, name)
        if method:
            for v in pyversion.with_null(value, NULL):
                self.push(v)
        else:
            self.push(value)

    def LOAD_ASSERTION_ERROR(self, inst):
        from ..variables import ClassVariable
        self.push(ClassVariable(AssertionError))

    def LOAD_COMMON_CONSTANT(self, inst):  # 3.14
        self.push(wrap(self, pyversion.COMMON_CONSTANTS[int(inst.arg)], None))

    def IMPORT_NAME(self, inst):
        # a module already in sys.modules is a lookup (translator/imports.py)
        fromlist, level = self.stack[-1], self.stack[-2]
        if not (fromlist.is_constant() and level.is_constant()):
            raise Unsupported("import inside the traced function",
                              hint="import at module level", cause="import")
        value = import_value(self, inst.arg, fromlist.as_python_constant(),
                             level.as_python_constant())
        self.pop()
        self.pop()
        self.push(value)

    def IMPORT_FROM(self, inst):
        # the module stays on the stack; a missing name was refused by IMPORT_NAME
        self.push(self.getattr(self.stack[-1], inst.arg))


def _instance_attr(obj, name: str):
    """``obj``'s own attribute ``name`` from its ``__dict__`` (no descriptor, no
    ``__getattr__`` runs), or None (not made for asking: ``made_dicts``)."""
    return own_attribute(obj, name)
