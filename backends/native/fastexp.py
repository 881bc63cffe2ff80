"""``exp`` of float32 values in code LLVM's loop vectorizer can turn into vector
instructions. No kernel calls it since 2026-12-06: tier 2's float32 ``np.exp`` is
NumPy's own call (``elementwise.no_loop_for``), bit for bit with eager, and faster on
float32 softmax (``scripts/bench_f32_exp.py``, which still measures this one against
it; docs/native.md "Tolerances").

Numba's ``np.exp`` is a call to libm's ``expf`` per element (no SVML in the llvmlite
wheels: ``numba -s`` says "SVML Operational: False"), which no loop vectorizer can
widen: softmax's 10 million exps took 24.5 ms of one core against NumPy's SIMD 4.7.
``exp32`` computes in float64, without a call or a branch: ``x = k ln2 + r`` (``k`` by
the round-to-nearest of adding 1.5 * 2**52, ``|r| <= ln2 / 2``), ``exp(r)`` by its
Taylor polynomial to degree 9 (relative error under 2e-11), times ``2**k`` made from
its bits (``_bits_f64``, a bitcast). The float64 result is rounded once to float32:
within 1 ulp of exp's true value (at most 1 ulp from the correctly rounded float32,
over every float32 in [-104, 89] sampled densely), 11.5 ms for the 10 million.

Against NumPy's own float32 exp (its SIMD version, up to 3 ulp from the correctly
rounded value on this AVX2 machine): at most 3 ulp apart, as libm's ``expf`` is; the
documented tolerance of tier 2's ``exp`` is 4 ulp (docs/native.md). Overflow (``x >
88.72...``) gives ``inf`` for exactly the inputs NumPy's does (checked over every
float32 in [88, 89]), so the kernel's check flags the same calls; ``-inf`` gives 0,
NaN stays NaN. No fastmath: the compiler may not reorder any of it.

Example::

    >>> float(np.float32(exp32(np.float32(1.0))))   # (boxed as a Python float)
    2.7182817459106445
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

_MAGIC = 6755399441055744.0            # 1.5 * 2**52: adding it rounds to an integer
_LOG2E = 1.4426950408889634
_LN2_HI = 0.6931471803691238           # ln 2 with its low 28 bits zero: k * _LN2_HI exact
_LN2_LO = 1.9082149292705877e-10
_MAGIC_BITS = int(np.float64(_MAGIC).view(np.int64)) - 1023   # k's bits to 2**k's


@intrinsic
def _f64_bits(typingctx, x):
    """The bits of a float64 as an int64 (a bitcast: one vector instruction or none)."""
    if x != types.float64:
        return None

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], context.get_value_type(types.int64))
    return types.int64(types.float64), codegen


@intrinsic
def _bits_f64(typingctx, x):
    """The float64 whose bits are the int64 ``x``."""
    if x != types.int64:
        return None

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], context.get_value_type(types.float64))
    return types.float64(types.int64), codegen


@njit(inline="always")
def exp32(xf):
    """``exp`` of the float32 ``xf`` (see the module docstring)."""
    x = np.float64(xf)
    # beyond these exp is 0 or inf in float32 whatever the digits; 2**k stays normal
    xc = min(max(x, -110.0), 100.0)
    kd = xc * _LOG2E + _MAGIC
    k = kd - _MAGIC
    r = (xc - k * _LN2_HI) - k * _LN2_LO
    p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (
        1.0 / 120 + r * (1.0 / 720 + r * (1.0 / 5040 + r * (1.0 / 40320 + r * (
            1.0 / 362880)))))))))
    scale = _bits_f64((_f64_bits(kd) - _MAGIC_BITS) << 52)
    y = np.float32(p * scale)
    return y if x == x else xf    # NaN stays NaN (the clamp made it a number)
