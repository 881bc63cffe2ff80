"""Emitting instructions: the pieces of bytecode a graph break is made of.

Each helper returns ``bytecode.Instr`` lists for the version this runs on (calls and
closure loads go through :mod:`dynamo.pyversion`). :mod:`dynamo.bytecode.resume` puts
them together::

    >>> call_glue(glue, code)            # push glue, the frame's arguments and cells; call
    >>> resume_call(resume, 2, ["n"], code, loc)   # return resume(cells, *stack, n)
"""

from __future__ import annotations

from bytecode import Bytecode, CellVar, FreeVar, Instr, Label

from .. import pyversion
from .cells import passed_cells
from .instructions import frame_params
from .signature import STAR_FLAGS


def flatten_signature(bc: Bytecode, code) -> None:
    """Make ``bc`` take every argument positionally, ``*args`` as a tuple and
    ``**kwargs`` as a dict: the frame hook binds arguments once, then passes them on."""
    bc.argcount = len(frame_params(code))
    bc.posonlyargcount = 0
    bc.kwonlyargcount = 0
    bc.flags &= ~STAR_FLAGS


def prologue(bc: Bytecode) -> list:
    """The original instructions before the first line: MAKE_CELL, COPY_FREE_VARS, RESUME."""
    out = []
    for item in bc:
        if isinstance(item, Instr) and item.name in ("MAKE_CELL", "COPY_FREE_VARS", "RESUME",
                                                     "NOP"):
            out.append(item)
        else:
            break
    return out


def load_var(name: str, code) -> Instr:
    if name in code.co_cellvars:
        return Instr("LOAD_DEREF", CellVar(name))
    if name in code.co_freevars:
        return Instr("LOAD_DEREF", FreeVar(name))
    return Instr("LOAD_FAST", name)


def store_var(name: str, code) -> Instr:
    if name in code.co_cellvars:
        return Instr("STORE_DEREF", CellVar(name))
    if name in code.co_freevars:
        return Instr("STORE_DEREF", FreeVar(name))
    return Instr("STORE_FAST", name)


def closure_tuple(code, names) -> list[Instr]:
    """Push a tuple of this frame's cell objects for ``names`` (or None if empty)."""
    if not names:
        return [Instr("LOAD_CONST", None)]
    loads = [Instr(pyversion.LOAD_CLOSURE, CellVar(n) if n in code.co_cellvars else FreeVar(n))
             for n in names]
    return loads + [Instr("BUILD_TUPLE", len(names))]


def call_glue(glue, code) -> list[Instr]:
    """Call the glue with the frame's arguments and closure (as at frame entry): an
    argument that the prologue made a cell as its contents, a cell passed in (a
    resume function's, ``cells.passed_cells``) as the cell."""
    out = pyversion.load_callable_const(glue)
    params = code.co_varnames[:len(frame_params(code))]
    passed = passed_cells(code)
    out += [Instr("LOAD_FAST", p) if p not in code.co_cellvars else
            Instr(pyversion.LOAD_CLOSURE, CellVar(p)) if p in passed else
            Instr("LOAD_DEREF", CellVar(p)) for p in params]
    out += closure_tuple(code, code.co_freevars)
    out += closure_tuple(code, code.co_cellvars)
    out += pyversion.call_instrs(len(params) + 2)
    return out


BOX = "___box"


def unbox(params, location=None, box: str = BOX) -> list[Instr]:
    """Bind the frame's arguments ``params`` from the list ``___box`` (its only
    parameter), then empty the list and unbind ``___box``.

    ``box`` names the list parameter otherwise where a zero-argument ``super()`` reads
    the frame's first local (``box_name``): then the list is the first argument's
    name, in the first slot, which its own item replaces (a copy of the list stays on
    the stack to be emptied).

    This is how a resume function is handed its arguments (``hook.run_boxed``): every
    Python frame of the call into it holds only the list, which is empty once the
    resume function has its locals, so a value it drops dies when it would in plain
    Python. Goes after the prologue. A parameter that is a cell variable is the cell
    itself (a resume function takes its cells as cells, ``cells.py``): it goes into
    the slot as it is, as a call would bind it."""
    out = [Instr("LOAD_FAST", box, location=location)]
    if box != BOX:
        out.append(Instr("COPY", 1, location=location))
    out.append(Instr("UNPACK_SEQUENCE", len(params), location=location))
    # UNPACK_SEQUENCE leaves the first item on top
    out += [Instr("STORE_FAST", p, location=location) for p in params]
    if box == BOX:
        out.append(Instr("LOAD_FAST", BOX, location=location))
    out += [Instr("LOAD_CONST", None, location=location),    # del ___box[:]
            Instr("LOAD_CONST", None, location=location),
            Instr("BUILD_SLICE", 2, location=location),
            Instr("DELETE_SUBSCR", location=location)]
    if box == BOX:
        out.append(Instr("DELETE_FAST", BOX, location=location))
    return out


def box_name(params, first: str | None) -> str:
    """The list parameter's name: ``___box``, or ``first`` (the local a zero-argument
    ``super()`` reads, ``CodeInfo.super_self``) when it is one of ``params``, so that
    it ends up in the frame's first slot, where ``super()`` looks."""
    return first if first is not None and first in params else BOX


def resume_call(resume, stack_count: int, live: list[str], code, location) -> list[Instr]:
    """Call ``resume(closure, *stack, *live locals, *cells)`` with the stack items
    already stored in ``___brk{i}`` temporaries; return its result from this frame.

    The closure is the frame's free variables; its cell variables are passed as the
    cell objects, the resume function's last parameters (``cells.py``)."""
    out = pyversion.load_callable_const(resume, location)
    out += closure_tuple(code, code.co_freevars)
    out += [Instr("LOAD_FAST", f"___brk{i}") for i in range(stack_count)]
    out += [load_var(name, code) for name in live]
    # on the stack now: a frame object of this frame (``sys._getframe()`` at the break)
    # must not show them in its ``f_locals`` once the frame has returned
    out += [Instr("DELETE_FAST", f"___brk{i}") for i in range(stack_count)]
    out += [Instr(pyversion.LOAD_CLOSURE, CellVar(n)) for n in code.co_cellvars]
    out += pyversion.call_instrs(1 + stack_count + len(live) + len(code.co_cellvars),
                                 location=location)
    out.append(Instr("RETURN_VALUE", location=location))
    return out


def new_label() -> Label:
    return Label()


def intercept_calls(body: list, intercept, passes_through=None) -> list:
    """Route the callables that the island's calls load (globals and methods) through
    ``intercept``, so user functions called from eager code are still compiled.

    ``passes_through(("np", "tanh"))`` says that a global (or a module attribute of
    one) is C code now, a builtin or a ufunc: its call is left as it is, since
    ``intercept`` would return it unchanged, and the call of ``intercept`` costs as
    much as the call itself (``abs(i)`` in a loop). Rebound later to a Python
    function, it runs uncompiled: the same result. A method of a local (``rng.random()``,
    ``out.append(x)``) is asked as ``passes_through(("rng", "random"), local=True)``: its
    class's method is C code (a Generator's, a list's), and the call stays as written;
    so is a method of an expression of such locals (``prob[:t].sum()``), asked with
    the instructions so far as ``receiver`` (``receiver_types.receiver_type``)."""
    out = []
    i = 0
    while i < len(body):
        item = body[i]
        i += 1
        if not (isinstance(item, Instr) and is_call_load(item)):
            out.append(item)
            continue
        loc = item.location
        name = item.arg[1] if isinstance(item.arg, tuple) else item.arg
        if item.name != "LOAD_GLOBAL" and passes_through is not None and out and \
                isinstance(out[-1], Instr) and out[-1].name in _PLAIN_LOCAL_LOADS and \
                passes_through((out[-1].arg, name), local=True):
            out.append(item)   # (the method load as the program wrote it)
            continue
        if item.name != "LOAD_GLOBAL" and passes_through is not None and \
                module_chain(out) and passes_through(module_chain(out) + (name,)):
            out.append(item)   # (``np.linalg.norm(x)``: a module's attribute; as written)
            continue
        if item.name != "LOAD_GLOBAL" and passes_through is not None and \
                passes_through((None, name), local=True, receiver=out):
            out.append(item)   # (``prob[:t].sum()``: receiver_types.py; as written)
            continue
        if item.name == "LOAD_GLOBAL":
            start = len(out)
            chain = [name]
            out.append(Instr("LOAD_GLOBAL", (False, name), location=loc))
            # 3.11 calls `np.tanh(x)` as NULL + `np`, then LOAD_ATTR tanh: the callable is
            # the end of the attribute chain, not the module
            while i < len(body) and isinstance(body[i], Instr) and \
                    body[i].name == "LOAD_ATTR" and not isinstance(body[i].arg, tuple):
                out.append(body[i])
                chain.append(body[i].arg)
                loc = body[i].location
                i += 1
            if passes_through is not None and passes_through(tuple(chain)):
                out[start:] = [item] + out[start + 1:]   # the call as the program wrote it
                continue
        elif pyversion.NULL_AFTER_CALLABLE and item.name == "LOAD_ATTR":
            # [callable, self or NULL] (3.13+): the method load stays, its callable is
            # routed in place. A bound method would hold one more reference to self
            # during the call than plain Python (3.14 loads self borrowed): NumPy's
            # ``resize(refcheck=True)`` would refuse
            out += [item, Instr("SWAP", 2, location=loc),
                    *pyversion.wrap_top_instrs(intercept, loc), Instr("SWAP", 2, location=loc)]
            continue
        else:
            out.append(Instr("LOAD_ATTR", (False, name) if pyversion.PY312 else name,
                             location=loc))
        out += pyversion.wrap_top_instrs(intercept, loc)
        out += pyversion.push_null_for_call(loc)
    return out


_PLAIN_LOCAL_LOADS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW")


def module_chain(out: list) -> tuple:
    """The global and attribute names that the instructions ending ``out`` load, where
    they are a plain ``LOAD_GLOBAL`` and plain ``LOAD_ATTR`` loads (no NULL pushed,
    no method load); () otherwise. A call of a submodule's function loads its callable as
    a method of such a chain: 3.11 compiles ``np.linalg.norm(x)`` as ``LOAD_GLOBAL np;
    LOAD_ATTR linalg; LOAD_METHOD norm``, so the global chain that ``intercept_calls``
    follows from a call's ``LOAD_GLOBAL`` never starts there, and each call went
    through ``intercept`` (potential-field planning: two a trip, 0.93x plain).

    Example::

        >>> module_chain([Instr("LOAD_GLOBAL", (False, "np")), Instr("LOAD_ATTR", "linalg")])
        ('np', 'linalg')
        >>> module_chain([Instr("LOAD_FAST", "x")])
        ()
    """
    names = []
    k = len(out)
    while k > 0 and isinstance(out[k - 1], Instr) and out[k - 1].name == "LOAD_ATTR":
        arg = out[k - 1].arg
        if isinstance(arg, tuple):   # (3.12+: (method load, name))
            if arg[0]:
                return ()
            arg = arg[1]
        names.append(arg)
        k -= 1
    if k == 0 or not isinstance(out[k - 1], Instr) or out[k - 1].name != "LOAD_GLOBAL":
        return ()
    arg = out[k - 1].arg
    if isinstance(arg, tuple):   # ((pushes NULL, name))
        if arg[0]:
            return ()
        arg = arg[1]
    return (arg, *reversed(names))


def is_call_load(instr: Instr) -> bool:
    if instr.name == "LOAD_METHOD":
        return True
    return instr.name in ("LOAD_GLOBAL", "LOAD_ATTR") and isinstance(instr.arg, tuple) \
        and instr.arg[0]
