"""CUDA C for a ``pointwise`` kernel: one loop over the coalesced iteration shape.

Two variants of each kernel live in one module:

- ``_v`` (vectorized), when every input is contiguous or constant along the innermost
  dimension (see ``vector_width``: GELU's single array, a bias added to a matrix): each
  thread moves ``ILP`` vectors of ``VEC`` elements (16 bytes for the widest type) per
  step, loads first, so several 16-byte loads are in flight before the first use; a
  scalar loop does the tail. It needs 16-byte aligned pointers, which the host code
  checks before each launch.
- ``_s`` (scalar): a grid-stride loop over elements with the offsets of every input
  computed from the element's multi-index (division by constant sizes).

Sizes and strides are compile-time constants; launch shapes follow from them.

Example::

    >>> src = pointwise_source(kernel, "k_0123", Tuning())
    >>> src.variants["v"].grid, src.variants["v"].block
    ((16384,), (256,))
"""

from __future__ import annotations

from .cuda_body import index_type, instr_line, signature
from .cuda_types import ctype, max_itemsize
from .ir import Kernel
from .launch import Launch, Tuning, blocks_for


def vector_width(kernel: Kernel) -> int:
    """Elements per vector access, 0 when the vectorized variant does not apply.

    It applies when every input is contiguous along the innermost dimension or constant
    along it (stride 1 or 0 there) and, with more than one dimension, the innermost size
    and every other stride of the contiguous inputs are multiples of the width: then a
    vector never crosses a row, a contiguous input's vector is one aligned access, and a
    row-broadcast input (a bias ``(C,)``, a column ``(R, 1)``) is one scalar per vector.
    """
    if any(ld.strides[-1] not in (0, 1) for ld in kernel.loads):
        return 0
    dtypes = [ld.dtype for ld in kernel.loads if ld.strides[-1] == 1]
    vec = 16 // max_itemsize(dtypes + [o.dtype for o in kernel.outputs])
    multi = len(kernel.shape) > 1
    while vec >= 2 and (multi and kernel.shape[-1] % vec or any(
            s % vec for ld in kernel.loads if ld.strides[-1] == 1 for s in ld.strides[:-1])):
        vec //= 2
    return vec if vec >= 2 and kernel.size >= vec else 0


def _scalar_loads(kernel: Kernel) -> list[str]:
    return [f"const {ctype(ld.dtype)} {ld.name} = p{ld.input}[0];"
            for ld in kernel.loads if not any(ld.strides)]


def _body(kernel: Kernel) -> list[str]:
    return [instr_line(ins) for ins in kernel.body]


def _offsets(kernel: Kernel, index: str) -> list[str]:
    """Statements defining the offset ``off<k>`` of every strided load at flat ``index``."""
    shape, idx = kernel.shape, index_type(kernel.size)
    lines = [f"{idx} rem = ({idx}){index};"]
    for d in range(len(shape) - 1, 0, -1):
        lines.append(f"const {idx} i{d} = rem % {shape[d]}u; rem /= {shape[d]}u;")
    lines.append(f"const {idx} i0 = rem;")
    for ld in kernel.loads:
        if any(ld.strides):
            terms = [f"(long long)i{d} * {s}LL" for d, s in enumerate(ld.strides) if s]
            lines.append(f"const long long off_{ld.name} = {' + '.join(terms)};")
    return lines


def _scalar_variant(kernel: Kernel, name: str, tuning: Tuning) -> tuple[str, Launch]:
    t, n = tuning.threads, kernel.size
    lines = [signature(kernel, name, t) + " {", *("  " + x for x in _scalar_loads(kernel)),
             f"  for (long long i = (long long)blockIdx.x * {t} + threadIdx.x; i < {n}LL;"
             f" i += (long long)gridDim.x * {t}) {{"]
    inner = _offsets(kernel, "i")
    inner += [f"const {ctype(ld.dtype)} {ld.name} = p{ld.input}[off_{ld.name}];"
              for ld in kernel.loads if any(ld.strides)]
    inner += _body(kernel)
    inner += [f"o{k}[i] = {o.value};" for k, o in enumerate(kernel.outputs)]
    lines += ["    " + x for x in inner] + ["  }", "}"]
    return "\n".join(lines), Launch(name, (blocks_for(n, t, tuning),), (t,), 1, 1, ())


def _vector_variant(kernel: Kernel, name: str, tuning: Tuning, vec: int) -> tuple[str, Launch]:
    t, ilp, n = tuning.threads, tuning.ilp, kernel.size
    nvec = n // vec
    strided = [ld for ld in kernel.loads if any(ld.strides)]
    vloads = [ld for ld in strided if ld.strides[-1] == 1]
    bloads = [ld for ld in strided if ld.strides[-1] == 0]     # one value per vector
    lines = [signature(kernel, name, t) + " {", *("  " + x for x in _scalar_loads(kernel)),
             f"  for (long long base = (long long)blockIdx.x * {t * ilp} + threadIdx.x;"
             f" base < {nvec}LL; base += (long long)gridDim.x * {t * ilp}) {{"]
    for ld in vloads:
        lines.append(f"    dyn_vec<{ctype(ld.dtype)}, {vec}> l_{ld.name}[{ilp}];")
    for ld in bloads:
        lines.append(f"    {ctype(ld.dtype)} b_{ld.name}[{ilp}];")
    lines += ["#pragma unroll", f"    for (int u = 0; u < {ilp}; ++u) {{",
              f"      const long long vi = base + (long long)u * {t};",
              f"      if (vi < {nvec}LL) {{"]
    if strided:
        lines += ["        " + x for x in _offsets(kernel, f"vi * {vec}")]
    for ld in vloads:
        lines.append(f"        l_{ld.name}[u] = *reinterpret_cast<const dyn_vec<"
                     f"{ctype(ld.dtype)}, {vec}>*>(p{ld.input} + off_{ld.name});")
    for ld in bloads:
        lines.append(f"        b_{ld.name}[u] = p{ld.input}[off_{ld.name}];")
    lines += ["      }", "    }", "#pragma unroll", f"    for (int u = 0; u < {ilp}; ++u) {{",
              f"      const long long vi = base + (long long)u * {t};",
              f"      if (vi >= {nvec}LL) continue;"]
    for k, o in enumerate(kernel.outputs):
        lines.append(f"      dyn_vec<{ctype(o.dtype)}, {vec}> s{k};")
    lines += ["#pragma unroll", f"      for (int e = 0; e < {vec}; ++e) {{"]
    inner = [f"const {ctype(ld.dtype)} {ld.name} = l_{ld.name}[u].v[e];" for ld in vloads]
    inner += [f"const {ctype(ld.dtype)} {ld.name} = b_{ld.name}[u];" for ld in bloads]
    inner += _body(kernel)
    inner += [f"s{k}.v[e] = {o.value};" for k, o in enumerate(kernel.outputs)]
    lines += ["        " + x for x in inner] + ["      }"]
    for k, o in enumerate(kernel.outputs):
        lines.append(f"      reinterpret_cast<dyn_vec<{ctype(o.dtype)}, {vec}>*>(o{k})[vi] = s{k};")
    lines += ["    }", "  }"]
    if n % vec:  # the last n % vec elements (one dimension only), one per thread
        lines.append(f"  for (long long i = {nvec * vec}LL + (long long)blockIdx.x * {t} + "
                     f"threadIdx.x; i < {n}LL; i += (long long)gridDim.x * {t}) {{")
        inner = [f"const {ctype(ld.dtype)} {ld.name} = p{ld.input}[i];" for ld in vloads]
        inner += _body(kernel)
        inner += [f"o{k}[i] = {o.value};" for k, o in enumerate(kernel.outputs)]
        lines += ["    " + x for x in inner] + ["  }"]
    lines.append("}")
    aligned = tuple(ld.input for ld in vloads) + tuple(
        len(kernel.inputs) + k for k in range(len(kernel.outputs)))
    launch = Launch(name, (blocks_for(nvec, t * ilp, tuning),), (t,), vec, ilp,
                    tuple(sorted(set(aligned))))
    return "\n".join(lines), launch


def pointwise_variants(kernel: Kernel, name: str, tuning: Tuning) -> dict:
    """``{variant: (source, Launch)}``: always ``s``, and ``v`` where it applies."""
    variants = {"s": _scalar_variant(kernel, name + "_s", tuning)}
    vec = vector_width(kernel)
    if vec:
        variants["v"] = _vector_variant(kernel, name + "_v", tuning, vec)
    return variants
