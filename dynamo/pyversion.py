"""Every fact about CPython versions that the project relies on, in one place.

Opcode handlers never test ``sys.version_info``; they ask this module instead.
A handler for an opcode that exists only in some versions simply never runs on the
others, so most version differences need no fact at all.

Example::

    >>> from dynamo import pyversion
    >>> pyversion.call_instrs(2)          # on 3.11: [PRECALL 2, CALL 2]; on 3.12+: [CALL 2]
    [<CALL arg=2 ...>]

What 3.14 changed, and where it is handled:

- new opcodes with a handler of their own: ``LOAD_SMALL_INT`` (ints 0..255),
  ``LOAD_COMMON_CONSTANT`` (``COMMON_CONSTANTS``), ``LOAD_SPECIAL`` (``with`` looks up
  ``__enter__``/``__exit__`` itself; replaces ``BEFORE_WITH``), ``NOT_TAKEN`` (a no-op
  after each conditional jump, for ``sys.monitoring``), ``POP_ITER``;
- renamed or folded: ``LOAD_FAST_BORROW`` and ``LOAD_FAST_BORROW_LOAD_FAST_BORROW`` (a
  ``LOAD_FAST`` that does not take a reference; also loads cells for closures, see
  ``CELL_SLOT_LOADS``), ``BINARY_OP`` with the ``SUBSCR`` argument (was ``BINARY_SUBSCR``),
  ``LOAD_COMMON_CONSTANT`` for ``LOAD_ASSERTION_ERROR``, ``BUILD_MAP`` for
  ``BUILD_CONST_KEY_MAP``, ``LOAD_CONST`` + ``RETURN_VALUE`` for ``RETURN_CONST``;
- stack layouts: ``CALL_FUNCTION_EX`` always takes a keyword slot
  (``CALL_EX_KWARGS_SLOT``); a ``while`` loop tests its condition only at its top
  (``WHILE_TEST_IN_LOOP``); ``FOR_ITER`` leaves the exhausted iterator for ``POP_ITER``
  (``FOR_ITER_EXIT_POPS``); ``with`` enters through six instructions (``WITH_ENTER``);
- ``all``/``any``/``tuple`` of a generator expression are inlined by the compiler
  behind an ``is`` test of the global against ``LOAD_COMMON_CONSTANT``.
"""

from __future__ import annotations

import sys

from bytecode import Compare, Instr

PY312 = sys.version_info >= (3, 12)
PY313 = sys.version_info >= (3, 13)
PY314 = sys.version_info >= (3, 14)

# Whether reading an object's ``__dict__`` makes one for good where its attributes were
# kept inline (3.11, 3.12): from then on every attribute read and write of the object
# misses the interpreter's specialized paths (issue #15, ``dynamo/made_dicts.py``).
# 3.13+ keep the inline values after the dict is made.
READING_DICT_MAKES_IT = not PY313

# Whether an object's reference count says who holds it: not in a free-threaded build
# (3.13t and later), whose counts are split between threads. The numpy backend reuses
# an output array only when its count says the caller has dropped it.
REFCOUNTS_TELL = getattr(sys, "_is_gil_enabled", lambda: True)()

# The versions whose bytecode the translator and the resume-function generator know.
# On any other, compiled functions run their original code (see convert_frame): a
# new CPython renames and adds opcodes and changes stack layouts, and generated
# bytecode that is wrong for the interpreter can crash it rather than raise.
SUPPORTED = (3, 11) <= sys.version_info[:2] <= (3, 14)
SUPPORTED_VERSIONS = "3.11, 3.12, 3.13 and 3.14"
UNSUPPORTED_REASON = (
    f"CPython {sys.version_info[0]}.{sys.version_info[1]} is not supported yet (dynamo "
    f"translates the bytecode of CPython {SUPPORTED_VERSIONS})")

# How many calls a new code object runs before CPython specializes it: 3.11 quickens a
# code object at its 8th call (``co_warmup``, QUICKENING_WARMUP_DELAY) and runs it
# unspecialized until then (every LOAD_ATTR, LOAD_GLOBAL, BINARY_OP generic: a small
# dispatcher's call about twice its later cost); 3.12+ quicken code when it is made.
# Generated code that is called per call of the program (the dispatcher) is called this
# many times by dynamo first, through an early return (``dispatch.warmed``).
WARMUP_CALLS = 0 if PY312 else 8

# The codes of two kinds of entry of a code object's line table (co_linetable, the same
# format on 3.11-3.14, CPython's Objects/locations.md): a line with no columns, and no
# location (dynamo.source writes such tables for generated code at the program's lines).
LOCATION_NO_COLUMNS = 13
LOCATION_NONE = 15

# sys.monitoring (3.12+): a tool holds one of the ids 0-5 (``sys.settrace`` and
# ``sys.setprofile`` use 6 and 7 inside CPython, seen through sys.gettrace/getprofile).
# A tool's events need its id in use when they are set (``set_events`` raises
# otherwise), but ``free_tool_id`` keeps them on 3.12 and 3.13 (their callbacks still
# run; 3.14 clears the global ones), so the global events are asked too. Not seen: a
# freed tool's events set on chosen code objects (``set_local_events``) on 3.12/3.13.
# ``get_tool`` answers the tool's name or None (a name may be "", so not ``any``).
if PY312:
    _get_tool = sys.monitoring.get_tool
    _get_events = sys.monitoring.get_events
    _NO_TOOLS = (None,) * 6
    _TOOL_IDS = range(6)

    def monitoring_tool_in_use() -> bool:
        """Whether a ``sys.monitoring`` tool is registered or has global events
        (0.3 us).

            >>> sys.monitoring.use_tool_id(3, ""); monitoring_tool_in_use()
            True
            >>> sys.monitoring.free_tool_id(3); monitoring_tool_in_use()
            False
        """
        return (tuple(map(_get_tool, _TOOL_IDS)) != _NO_TOOLS
                or any(map(_get_events, _TOOL_IDS)))
else:
    def monitoring_tool_in_use() -> bool:
        """No ``sys.monitoring`` before 3.12."""
        return False

# Where the NULL that marks "plain call, no self" sits next to the callable:
# 3.11 and 3.12 push NULL first (NULL, callable, args); 3.13 pushes it after
# (callable, NULL, args).
NULL_AFTER_CALLABLE = PY313

# When FOR_ITER finds its iterator exhausted it jumps to its target plus this many
# instructions: 3.12 skips END_FOR, 3.13 skips END_FOR and POP_TOP, 3.11 has
# neither; all three pop the iterator first. 3.14 skips END_FOR only and leaves the
# iterator for the POP_ITER that follows (the interpreter asserts that the target is
# END_FOR, so generated code keeps that pair).
FOR_ITER_EXIT_POPS = not PY314
FOR_ITER_EXIT_SKIP = 1 if PY314 else 2 if PY313 else 1 if PY312 else 0

# The order a returning frame drops its locals in: by slot, first to last on 3.11-3.13
# (_PyFrame_ClearLocals), last to first on 3.14 (it pops them like a stack). The
# program sees it (`r = weakref.ref(p, cb)`: cb runs only if r outlives p), so code
# whose slots are not the program's drops the program's values in the program's order
# (variables/lifetimes.py glue_slot_order, bytecode/drop_order.py).
FRAME_DROPS_LAST_SLOT_FIRST = PY314

# 3.12 inlines list/dict/set comprehensions into the enclosing frame (PEP 709).
INLINED_COMPREHENSIONS = PY312
# sum() adds a run of floats with compensated rounding (Neumaier), not one by one
SUM_COMPENSATES = PY312

# Keyword-argument names of a call: 3.11/3.12 set them with KW_NAMES before CALL,
# 3.13 pushes the tuple on the stack and uses CALL_KW.
KW_NAMES_ON_STACK = PY313


# 3.11-3.13 compile `while cond:` with a copy of the test in front of the loop, so a
# test that depends on array data breaks before the loop is entered. 3.14 tests only
# at the top of the loop, inside it; the translator treats that test, on the loop's
# first pass, as the copy in front (see translator/frames.py).
WHILE_TEST_IN_LOOP = PY314

# CALL_FUNCTION_EX takes (callable, NULL-slot, args tuple) and a dict of keywords
# when its flag bit 1 is set (3.11-3.13); 3.14 has no argument and always takes the
# keyword slot, a NULL when the call has no `**`.
CALL_EX_KWARGS_SLOT = PY314

# 3.13 removed LOAD_CLOSURE: LOAD_FAST of a cell variable pushes the cell itself.
# 3.14 compiles those loads as LOAD_FAST_BORROW; generated code keeps LOAD_FAST.
LOAD_CLOSURE = "LOAD_FAST" if PY313 else "LOAD_CLOSURE"

# Loads that ``bytecode`` may give a cell's slot as a plain name (an argument that is
# also a cell): LOAD_FAST and its variants, which push the cell itself for a closure
# (3.13+), and LOAD_DEREF on 3.14, whose `dis` lists it among the local opcodes, so
# it is read like LOAD_FAST (3.11-3.13 give a CellVar).
CELL_SLOT_LOADS = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_DEREF"})

# The super-instructions of 3.13+ that hold two local indices of four bits each, and
# the two plain instructions each one stands for. Generated code renumbers the locals
# (a resume function's parameters come first), so it splits them: an index past 15
# does not fit (and ``bytecode`` encodes an index of 16 wrongly).
SUPER_INSTRUCTIONS = {
    "LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW": ("LOAD_FAST_BORROW", "LOAD_FAST_BORROW"),
    "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
    "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST"),
}

# The instructions that push plain locals, and for each value they push (in push order)
# the index of its local in the argument (a super-instruction holds two) and the load
# that pushes it again the same way. The break code pushes a stack value from the local
# the original loaded it from with that load (``dynamo/bytecode/stack_sources.py``):
# 3.14's LOAD_FAST_BORROW puts a borrowed reference on the stack, no reference of its
# own (``sys.getrefcount`` counts one less than after LOAD_FAST), and the copy borrows
# exactly where the original did. LOAD_FAST_CHECK only differs when the local is
# unbound, and a value was loaded from it. (Names that a version lacks never occur.)
LOCAL_LOADS = {
    "LOAD_FAST": ((0, "LOAD_FAST"),),
    "LOAD_FAST_CHECK": ((0, "LOAD_FAST"),),
    "LOAD_FAST_BORROW": ((0, "LOAD_FAST_BORROW"),),
    "LOAD_FAST_LOAD_FAST": ((0, "LOAD_FAST"), (1, "LOAD_FAST")),
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW": ((0, "LOAD_FAST_BORROW"), (1, "LOAD_FAST_BORROW")),
    "STORE_FAST_LOAD_FAST": ((1, "LOAD_FAST"),),
}

# The instructions that enter a `with` block, just before its exception-table region:
# 3.11-3.13 have one BEFORE_WITH; 3.14 looks the methods up with LOAD_SPECIAL
# (COPY 1; LOAD_SPECIAL __exit__; SWAP 2; SWAP 3; LOAD_SPECIAL __enter__; CALL 0).
WITH_ENTER = (("COPY", "LOAD_SPECIAL", "SWAP", "SWAP", "LOAD_SPECIAL", "CALL") if PY314
              else ("BEFORE_WITH",))

# LOAD_SPECIAL's argument (3.14; `bytecode` gives an int enum) indexes these.
SPECIAL_METHODS = ("__enter__", "__exit__", "__aenter__", "__aexit__")

# 3.14 follows every conditional jump with NOT_TAKEN (a no-op that sys.monitoring
# turns into its BRANCH_LEFT event); generated jumps do the same. Patterns read after
# a jump see it first: ``a and b`` is ``COPY 1; TO_BOOL; POP_JUMP_IF_FALSE L;
# NOT_TAKEN; POP_TOP; <b>; L:`` (translator/size_and_or.py).
NOT_TAKEN_AFTER_BRANCH = PY314

# 3.13+ conditional jumps test only True and False (``COMPARE_OP`` and ``TO_BOOL``
# make the bool first): a NumPy bool left on the stack for a jump is taken as true.
# 3.11/3.12's jumps call its ``__bool__``. A break at such a jump runs ``TO_BOOL``
# before it (bytecode/break_code.py): the trace may have left the ``bool()`` to it
# (translator/size_chains.py).
JUMPS_TEST_EXACT_BOOLS = PY313

# The conditional jump generated code uses to skip forward on False: 3.11 names the
# direction (``bytecode`` keeps 3.11's names), 3.12+ has only the one jump.
POP_JUMP_FORWARD_IF_FALSE = "POP_JUMP_IF_FALSE" if PY312 else "POP_JUMP_FORWARD_IF_FALSE"

# LOAD_COMMON_CONSTANT's argument indexes these (3.14): AssertionError for `assert`,
# NotImplementedError, and the builtins whose calls on a generator expression the
# compiler inlines (`all(x > 0 for x in xs)` tests `all is <builtin all>` first).
COMMON_CONSTANTS = (AssertionError, NotImplementedError, tuple, all, any)


def with_null(value, null) -> list:
    """The two stack slots a call expects for a callable with no bound self."""
    return [value, null] if NULL_AFTER_CALLABLE else [null, value]


def compare_op(arg) -> tuple[str, bool]:
    """Decode COMPARE_OP's argument into (operator name, result cast to bool).

    3.13 sets a flag (the ``_CAST`` members of ``bytecode.Compare``) when the
    comparison feeds a jump and its result must be a real bool.
    """
    name = arg.name if isinstance(arg, Compare) else Compare(arg).name
    return name.removesuffix("_CAST"), name.endswith("_CAST")


# ----------------------------------------------------------------------------- codegen

def call_instrs(argc: int, kw_names: tuple[str, ...] = (), location=None) -> list[Instr]:
    """Instructions that call ``callable, NULL-slot, *args`` left on the stack.

    ``kw_names`` are the names of the last ``len(kw_names)`` arguments.
    """
    def ins(name, arg=None):
        return Instr(name, arg, location=location) if arg is not None else Instr(
            name, location=location)

    out = []
    if kw_names and KW_NAMES_ON_STACK:
        return [ins("LOAD_CONST", tuple(kw_names)), ins("CALL_KW", argc)]
    if kw_names:
        out.append(ins("KW_NAMES", tuple(kw_names)))
    if not PY312:
        out.append(ins("PRECALL", argc))
    out.append(ins("CALL", argc))
    return out


def load_callable_const(value, location=None) -> list[Instr]:
    """Push a constant callable ready for ``call_instrs``: NULL and the value."""
    load = Instr("LOAD_CONST", value, location=location)
    null = Instr("PUSH_NULL", location=location)
    return [load, null] if NULL_AFTER_CALLABLE else [null, load]


def wrap_top_instrs(wrap, location=None) -> list[Instr]:
    """Replace the value on top of the stack by ``wrap(value)``."""
    def ins(name, arg=None):
        return Instr(name, arg, location=location) if arg is not None else Instr(
            name, location=location)
    if NULL_AFTER_CALLABLE:   # [f] -> [w, NULL, f]
        head = [ins("LOAD_CONST", wrap), ins("SWAP", 2), ins("PUSH_NULL"), ins("SWAP", 2)]
    else:                     # [f] -> [NULL, w, f]
        head = [ins("PUSH_NULL"), ins("SWAP", 2), ins("LOAD_CONST", wrap), ins("SWAP", 2)]
    return head + call_instrs(1, location=location)


def push_null_for_call(location=None) -> list[Instr]:
    """[f] -> the two call slots for a plain call of f."""
    if NULL_AFTER_CALLABLE:
        return [Instr("PUSH_NULL", location=location)]
    return [Instr("PUSH_NULL", location=location), Instr("SWAP", 2, location=location)]


# ----------------------------------------------------------------------------- stack effects

_POPS_1 = {"UNARY_NEGATIVE", "UNARY_POSITIVE", "UNARY_INVERT", "UNARY_NOT", "TO_BOOL",
           "GET_ITER", "LOAD_ATTR", "LOAD_METHOD", "UNPACK_SEQUENCE", "UNPACK_EX",
           "FORMAT_SIMPLE", "CONVERT_VALUE", "CALL_INTRINSIC_1", "STORE_GLOBAL", "STORE_FAST",
           "STORE_DEREF", "DELETE_ATTR", "BEFORE_WITH", "LIST_APPEND", "SET_ADD",
           "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE", "LIST_TO_TUPLE",
           "POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE",
           "POP_JUMP_IF_NOT_NONE", "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE",
           "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE",
           "POP_JUMP_FORWARD_IF_NONE", "POP_JUMP_FORWARD_IF_NOT_NONE",
           "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE"}
_POPS_2 = {"BINARY_OP", "COMPARE_OP", "IS_OP", "CONTAINS_OP", "BINARY_SUBSCR", "STORE_ATTR",
           "DELETE_SUBSCR", "FORMAT_WITH_SPEC", "IMPORT_NAME", "MAP_ADD",
           "STORE_FAST_STORE_FAST"}
_PUSHES_0 = {"STORE_GLOBAL", "STORE_FAST", "STORE_DEREF", "STORE_ATTR", "STORE_SUBSCR",
             "STORE_SLICE", "DELETE_ATTR", "DELETE_SUBSCR", "LIST_APPEND", "SET_ADD",
             "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE", "MAP_ADD",
             "RAISE_VARARGS", "DELETE_FAST", "STORE_FAST_STORE_FAST"} | \
    {n for n in _POPS_1 if n.startswith("POP_JUMP")}


def stack_pops(name: str, arg) -> int | None:
    """How many stack items instruction ``name`` consumes (None: unknown here)."""
    if name == "CALL":
        return arg + 2
    if name == "CALL_KW":
        return arg + 3
    if name == "CALL_FUNCTION_EX":
        return 4 if CALL_EX_KWARGS_SLOT else 3 + (arg & 1 if isinstance(arg, int) else 0)
    if name == "DELETE_FAST":
        return 0
    if name in _POPS_1 or name == "STORE_FAST_LOAD_FAST":
        return 1
    if name in _POPS_2:
        return 2
    if name in ("STORE_SUBSCR", "BINARY_SLICE"):
        return 3
    if name == "STORE_SLICE":
        return 4
    if name == "FORMAT_VALUE":
        return 2 if isinstance(arg, int) and arg & 0x04 else 1
    if name in ("BUILD_STRING", "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_SLICE",
                "RAISE_VARARGS"):
        return arg
    return None


def stack_pushes(name: str, arg) -> int:
    """How many items it leaves (method loads are emitted as plain loads at a break)."""
    if name in _PUSHES_0:
        return 0
    if name == "UNPACK_SEQUENCE":
        return arg
    if name == "UNPACK_EX":
        return (arg & 0xFF) + (arg >> 8) + 1
    if name == "BEFORE_WITH":
        return 2
    return 1
