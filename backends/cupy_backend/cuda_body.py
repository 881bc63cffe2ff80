"""CUDA C statements for a kernel's scalar instructions (shared by both kernel kinds).

Example::

    >>> instr_line(Instr("v0", "multiply", (Const(0.5, F32), "in0"), (F32, F32), F32))
    'const float v0 = (float)((((float)0.5) * in0));'
"""

from __future__ import annotations

from .cuda_types import ctype, literal
from .ir import Const, Instr, Kernel, const_value
from .scalar_ops import SCALAR_OPS


def operand(arg, params: dict | None = None) -> str:
    if not isinstance(arg, Const):
        return arg
    if const_value(arg) is None:      # a count known at run time: a kernel parameter
        return f"(({ctype(arg.dtype)}){params[arg.value]})"
    return literal(arg.value, arg.dtype)


def size_ref(value, params: dict) -> str:
    """A size or stride in C: a literal when static, else its kernel parameter."""
    return f"{value}LL" if isinstance(value, int) else params[value]


def instr_line(ins: Instr, params: dict | None = None) -> str:
    """``params``: the kernel's run-time values (``Kernel.params()``)."""
    c = ctype(ins.dtype)
    args = [operand(a, params) for a in ins.args]
    consts = tuple(const_value(a) for a in ins.args)
    expr = SCALAR_OPS[ins.op].emit(args, ins.in_dtypes, ins.dtype, consts)
    if expr is None:  # lowering checked this; a failure here is a bug
        raise AssertionError(f"{ins.op} on {ins.in_dtypes} has no CUDA form")
    return f"const {c} {ins.name} = ({c})({expr});"


def needed(kernel: Kernel, roots: list[str], stop=lambda v: False) -> list:
    """The values ``roots`` depend on (themselves included), in kernel order.

    ``stop(value)`` marks values that are already available (their inputs are not
    followed).
    """
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        v = kernel.value(name)
        if isinstance(v, Instr) and not stop(v):
            todo.extend(a for a in v.args if isinstance(a, str))
    return [v for v in kernel.values() if v.name in seen]


def signature(kernel: Kernel, name: str, threads: int) -> str:
    params = [f"const {ctype(i.dtype)}* __restrict__ p{k}" for k, i in enumerate(kernel.inputs)]
    params += [f"{ctype(o.dtype)}* __restrict__ o{k}" for k, o in enumerate(kernel.outputs)]
    params += [f"const long long {q}" for q in kernel.params().values()]
    return (f'extern "C" __global__ void __launch_bounds__({threads})\n'
            f"{name}({', '.join(params)})")


def index_type(n) -> str:
    """32-bit index arithmetic when every offset fits (division by constants is cheaper);
    64-bit when the size is known only at run time."""
    return "unsigned int" if isinstance(n, int) and n < (1 << 31) else "unsigned long long"
