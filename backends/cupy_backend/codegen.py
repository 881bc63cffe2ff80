"""CUDA source of a plan: each kernel's variants, named by the hash of their text.

A kernel's name is ``k_`` and the first 12 hex digits of the SHA-1 of its code, so the
same computation on the same shapes gets the same name (and hits the same cache
entries) in every graph and every process. All kernels of one graph go into one
module, compiled by one NVRTC call.

``COMPILE_OPTIONS`` hold no fast-math flag: ``-use_fast_math`` would approximate
``expf``/division and change results and NaN/Inf handling. (CuPy adds ``-ftz=true`` to
every module it compiles, its own eager kernels included, so float32 denormals flush
as in CuPy eager.)

Example::

    >>> codes = [kernel_code(k, Tuning()) for k in plan.kernels]
    >>> src = module_source(codes)
    >>> codes[0].launches["v"].name
    'k_3f9a1c0b2d4e_v'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from .cuda_pointwise import pointwise_variants
from .cuda_prelude import PRELUDE
from .cuda_row import row_variants
from .ir import POINTWISE, Kernel
from .launch import Launch, Tuning

COMPILE_OPTIONS = ("--std=c++17",)
_PLACEHOLDER = "KNAME"


@dataclass
class KernelCode:
    kernel: Kernel
    name: str
    source: str                  # every variant, without the prelude
    launches: dict               # variant ("s" scalar, "v" vectorized) -> Launch


def kernel_code(kernel: Kernel, tuning: Tuning) -> KernelCode:
    make = pointwise_variants if kernel.kind == POINTWISE else row_variants
    variants = make(kernel, _PLACEHOLDER, tuning)
    text = "\n\n".join(src for src, _ in variants.values())
    name = "k_" + hashlib.sha1(text.encode()).hexdigest()[:12]
    launches: dict[str, Launch] = {
        v: replace(launch, name=launch.name.replace(_PLACEHOLDER, name))
        for v, (_, launch) in variants.items()}
    kernel.name = name
    return KernelCode(kernel, name, text.replace(_PLACEHOLDER, name), launches)


def module_source(codes: list[KernelCode]) -> str:
    """The prelude and every distinct kernel, as one translation unit."""
    seen: dict[str, str] = {}
    for c in codes:
        seen.setdefault(c.name, c.source)
    return PRELUDE + "\n" + "\n\n".join(seen.values()) + "\n"
