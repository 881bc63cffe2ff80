"""Handlers for calls and for making functions.

Every call sequence, whatever the version, leaves two slots under the arguments:
(NULL, callable) or (callable, NULL) for a plain call, (method, self) for a method
call. ``pop_callable`` reads either layout without asking which version made it.
"""

from __future__ import annotations

from .. import pyversion
from ..exc import Unsupported
from ..variables import (
    NULL,
    BaseFunctionVariable,
    ConstantVariable,
    NestedFunctionVariable,
    UserMethodVariable,
)
from ..variables.errstate import ErrstateVariable
from .exceptions import SymbolicRaise


class Calls:
    def pop_callable(self, args):
        second = self.pop()
        first = self.pop()
        if first is NULL:
            return second, args
        if second is NULL:
            return first, args
        return first, [second, *args]

    def do_call(self, argc: int, kw_names: tuple[str, ...]):
        values = self.popn(argc)
        nkw = len(kw_names)
        args, kwargs = values[:argc - nkw], dict(zip(kw_names, values[argc - nkw:]))
        fn, args = self.pop_callable(args)
        self.push(self.call_user_code(fn, args, kwargs))

    def call_user_code(self, fn, args, kwargs):
        """``fn(*args, **kwargs)`` of a call instruction. An exception the callee raises
        and does not catch comes out here as ``SymbolicRaise`` (translator/exceptions):
        marked as this frame's to unwind when ``fn`` is a function of the program
        (inlined frame by frame, so its state is Python's at the raise)."""
        try:
            return self.call_function(fn, args, kwargs)
        except SymbolicRaise as e:
            if isinstance(fn, (BaseFunctionVariable, UserMethodVariable)):
                e.caught_by = self
            raise

    def KW_NAMES(self, inst):  # 3.11, 3.12
        self.kw_names = inst.arg

    def CALL(self, inst):
        kw_names, self.kw_names = self.kw_names, ()
        self.do_call(inst.arg, kw_names)

    def CALL_KW(self, inst):  # 3.13
        names = self.pop().as_python_constant()
        self.do_call(inst.arg, names)

    def CALL_FUNCTION_EX(self, inst):
        """``f(*args, **kwargs)``. As in CPython, ``**kwargs`` becomes a dict first (only a
        dict is read while tracing: a mapping's keys() is user code, a non-mapping raises
        TypeError), then ``*args`` a tuple (it may consume an iterator)."""
        flags = inst.arg if isinstance(inst.arg, int) else 0
        kwargs = self.pop() if flags & 1 or pyversion.CALL_EX_KWARGS_SLOT else NULL
        kw = {} if kwargs is NULL else self.mapping_items(kwargs)  # NULL: no `**`
        args = self.unpack_iterable(self.pop())
        fn, args = self.pop_callable(list(args))
        for key in kw:
            if not isinstance(key, str):
                raise Unsupported("keywords must be strings (TypeError)")
        self.push(self.call_user_code(fn, args, kw))

    def MAKE_FUNCTION(self, inst):
        code = self.pop().as_python_constant()
        flags = inst.arg if isinstance(inst.arg, int) else 0
        fn = NestedFunctionVariable(code, code.co_qualname, self.fn_globals)
        # 3.11/3.12 pop the optional parts in reverse order of their flag bits.
        if flags & 0x08:
            fn.closure = list(self.pop().items)
        if flags & 0x04:
            fn.annotations = self.pop()   # the glue gives them to the function it rebuilds
        if flags & 0x02:
            fn._kwdefaults = self.pop()
        if flags & 0x01:
            fn._defaults = self.pop()
        self.push(fn)

    def SET_FUNCTION_ATTRIBUTE(self, inst):  # 3.13
        fn = self.pop()
        value = self.pop()
        flag = inst.arg
        if flag == 0x08:
            fn.closure = list(value.items)
        elif flag == 0x02:
            fn._kwdefaults = value
        elif flag == 0x01:
            fn._defaults = value
        elif flag == 0x04:
            fn.annotations = value
        elif flag == 0x10:   # 3.14: the __annotate__ function
            fn.annotate = value
        else:
            raise Unsupported(f"function attribute flag {flag}")
        self.push(fn)

    def BEFORE_WITH(self, inst):  # 3.11-3.13: pushes __exit__, then __enter__()'s result
        manager = self.pop()
        if not isinstance(manager, ErrstateVariable):
            raise Unsupported("with block", "Context managers other than np.errstate run "
                              "eagerly.", cause="with")
        self.push(manager.getattr(self, "__exit__"))
        self.push(manager.enter(self))

    def LOAD_SPECIAL(self, inst):  # 3.14: `with` looks up __exit__ and __enter__ itself
        manager = self.pop()
        name = pyversion.SPECIAL_METHODS[int(inst.arg)]
        if not isinstance(manager, ErrstateVariable) or name not in ("__enter__", "__exit__"):
            raise Unsupported("with block", "Context managers other than np.errstate run "
                              "eagerly.", cause="with")
        self.push(manager.getattr(self, name))   # a method and its self, as CPython does
        self.push(manager)

    def RETURN_GENERATOR(self, inst):
        self.push(ConstantVariable(None))  # what the first next() sends in

    def YIELD_VALUE(self, inst):
        self.yielded = self.pop()
        self.suspended = True

    def LOAD_BUILD_CLASS(self, inst):
        raise Unsupported("class definition inside the traced function")
