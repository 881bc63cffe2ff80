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

Sizes and strides are compile-time constants, and launch shapes follow from them,
except in a kernel of a symbolic graph: there every size, count and stride that
depends on a symbol is a ``long long`` parameter (``Kernel.params()``), the grid is
computed by the host at each call, and the conditions of ``_v`` that depend on
sizes (a row length that is a multiple of the vector width) are checked by the host
before it picks ``_v`` (``Launch.requires``).

Example::

    >>> src = pointwise_source(kernel, "k_0123", Tuning())
    >>> src.variants["v"].grid, src.variants["v"].block
    ((16384,), (256,))
"""

from __future__ import annotations

from .cuda_body import index_type, instr_line, signature, size_ref
from .cuda_types import ctype, max_itemsize
from .ir import Kernel
from .launch import Launch, Tuning, blocks_for
from .sizes import is_static, prod


def vector_width(kernel: Kernel) -> int:
    return vector_plan(kernel)[0]


def vector_plan(kernel: Kernel) -> tuple[int, tuple]:
    """(elements per vector access, run-time conditions); 0 when ``_v`` does not apply.

    It applies when every input is contiguous along the innermost dimension or constant
    along it (stride 1 or 0 there) and, with more than one dimension, the innermost size
    and every other stride of the contiguous inputs are multiples of the width: then a
    vector never crosses a row, a contiguous input's vector is one aligned access, and a
    row-broadcast input (a bias ``(C,)``, a column ``(R, 1)``) is one scalar per vector.
    Those multiples are checked here when static, else returned as ``(value, vec)``
    pairs for the host to check at each call.
    """
    if any(not is_static(ld.strides[-1]) or ld.strides[-1] not in (0, 1)
           for ld in kernel.loads):
        return 0, ()
    dtypes = [ld.dtype for ld in kernel.loads if ld.strides[-1] == 1]
    vec = 16 // max_itemsize(dtypes + [o.dtype for o in kernel.outputs])
    multi = len(kernel.dims) > 1
    values = ([kernel.dims[-1]] if multi else []) + [
        s for ld in kernel.loads if ld.strides[-1] == 1 for s in ld.strides[:-1]]
    if any(not is_static(v) and not hasattr(v, "coef") for v in values):
        return 0, ()        # a stride read at run time
    while vec >= 2 and any(is_static(v) and v % vec for v in values):
        vec //= 2
    if vec < 2 or (not kernel.symbolic and kernel.size < vec):
        return 0, ()
    return vec, tuple(dict.fromkeys((v, vec) for v in values if not is_static(v)))


def _scalar_loads(kernel: Kernel) -> list[str]:
    return [f"const {ctype(ld.dtype)} {ld.name} = p{ld.input}[0];"
            for ld in kernel.loads if not any(ld.strides)]


def _body(kernel: Kernel) -> list[str]:
    params = kernel.params()
    return [instr_line(ins, params) for ins in kernel.body]


def _total(kernel: Kernel) -> str:
    """The element count in C: a literal, or the kernel parameter holding it."""
    return size_ref(prod(kernel.dims), kernel.params())


def _offsets(kernel: Kernel, index: str) -> list[str]:
    """Statements defining the offset ``off<k>`` of every strided load at flat ``index``."""
    dims, params = kernel.dims, kernel.params()
    idx = index_type(prod(dims))
    lines = [f"{idx} rem = ({idx}){index};"]
    for d in range(len(dims) - 1, 0, -1):
        size = f"{dims[d]}u" if is_static(dims[d]) else f"({idx}){params[dims[d]]}"
        lines.append(f"const {idx} i{d} = rem % {size}; rem /= {size};")
    lines.append(f"const {idx} i0 = rem;")
    for ld in kernel.loads:
        if any(not is_static(s) or s for s in ld.strides):
            terms = [f"(long long)i{d} * {size_ref(s, params)}"
                     for d, s in enumerate(ld.strides) if not is_static(s) or s]
            lines.append(f"const long long off_{ld.name} = {' + '.join(terms)};")
    return lines


def _launch_fields(kernel: Kernel, per_block: int, vec: int, tuning: Tuning) -> dict:
    """Static grid, or what the host needs to compute it at run time."""
    n = prod(kernel.dims)
    if is_static(n):
        return {"grid": (blocks_for(n // vec, per_block, tuning),)}
    return {"grid": None, "work": n, "per_block": per_block, "max_blocks": tuning.max_blocks}


def _scalar_variant(kernel: Kernel, name: str, tuning: Tuning) -> tuple[str, Launch]:
    t, n = tuning.threads, _total(kernel)
    lines = [signature(kernel, name, t) + " {", *("  " + x for x in _scalar_loads(kernel)),
             f"  for (long long i = (long long)blockIdx.x * {t} + threadIdx.x; i < {n};"
             f" i += (long long)gridDim.x * {t}) {{"]
    inner = _offsets(kernel, "i")
    inner += [f"const {ctype(ld.dtype)} {ld.name} = p{ld.input}[off_{ld.name}];"
              for ld in kernel.loads if any(ld.strides)]
    inner += _body(kernel)
    inner += [f"o{k}[i] = {o.value};" for k, o in enumerate(kernel.outputs)]
    lines += ["    " + x for x in inner] + ["  }", "}"]
    launch = Launch(name, block=(t,), vec=1, per_thread=1, aligned=(),
                    **_launch_fields(kernel, t, 1, tuning))
    return "\n".join(lines), launch


def _vector_variant(kernel: Kernel, name: str, tuning: Tuning, vec: int,
                    requires: tuple = ()) -> tuple[str, Launch]:
    t, ilp, n = tuning.threads, tuning.ilp, _total(kernel)
    static = is_static(prod(kernel.dims))
    nvec = f"{prod(kernel.dims) // vec}LL" if static else "nvec"
    strided = [ld for ld in kernel.loads if any(not is_static(s) or s for s in ld.strides)]
    vloads = [ld for ld in strided if ld.strides[-1] == 1]
    bloads = [ld for ld in strided if ld.strides[-1] == 0]     # one value per vector
    lines = [signature(kernel, name, t) + " {", *("  " + x for x in _scalar_loads(kernel)),
             *([] if static else [f"  const long long nvec = {n} / {vec};"]),
             f"  for (long long base = (long long)blockIdx.x * {t * ilp} + threadIdx.x;"
             f" base < {nvec}; base += (long long)gridDim.x * {t * ilp}) {{"]
    for ld in vloads:
        lines.append(f"    dyn_vec<{ctype(ld.dtype)}, {vec}> l_{ld.name}[{ilp}];")
    for ld in bloads:
        lines.append(f"    {ctype(ld.dtype)} b_{ld.name}[{ilp}];")
    lines += ["#pragma unroll", f"    for (int u = 0; u < {ilp}; ++u) {{",
              f"      const long long vi = base + (long long)u * {t};",
              f"      if (vi < {nvec}) {{"]
    if strided:
        lines += ["        " + x for x in _offsets(kernel, f"vi * {vec}")]
    for ld in vloads:
        lines.append(f"        l_{ld.name}[u] = *reinterpret_cast<const dyn_vec<"
                     f"{ctype(ld.dtype)}, {vec}>*>(p{ld.input} + off_{ld.name});")
    for ld in bloads:
        lines.append(f"        b_{ld.name}[u] = p{ld.input}[off_{ld.name}];")
    lines += ["      }", "    }", "#pragma unroll", f"    for (int u = 0; u < {ilp}; ++u) {{",
              f"      const long long vi = base + (long long)u * {t};",
              f"      if (vi >= {nvec}) continue;"]
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
    if len(kernel.dims) == 1 and (not static or prod(kernel.dims) % vec):
        # the last n % vec elements (one dimension only: with more, the row length is
        # a multiple of vec), one per thread
        lines.append(f"  for (long long i = {nvec} * {vec} + (long long)blockIdx.x * {t} + "
                     f"threadIdx.x; i < {n}; i += (long long)gridDim.x * {t}) {{")
        inner = [f"const {ctype(ld.dtype)} {ld.name} = p{ld.input}[i];" for ld in vloads]
        inner += _body(kernel)
        inner += [f"o{k}[i] = {o.value};" for k, o in enumerate(kernel.outputs)]
        lines += ["    " + x for x in inner] + ["  }"]
    lines.append("}")
    aligned = tuple(ld.input for ld in vloads) + tuple(
        len(kernel.inputs) + k for k in range(len(kernel.outputs)))
    launch = Launch(name, block=(t,), vec=vec, per_thread=ilp,
                    aligned=tuple(sorted(set(aligned))), requires=requires,
                    **_launch_fields(kernel, t * ilp, vec, tuning))
    return "\n".join(lines), launch


def pointwise_variants(kernel: Kernel, name: str, tuning: Tuning) -> dict:
    """``{variant: (source, Launch)}``: always ``s``, and ``v`` where it applies."""
    variants = {"s": _scalar_variant(kernel, name + "_s", tuning)}
    vec, requires = vector_plan(kernel)
    if vec:
        variants["v"] = _vector_variant(kernel, name + "_v", tuning, vec, requires)
    return variants
