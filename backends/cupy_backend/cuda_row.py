"""CUDA C for a ``row`` kernel: one block per row, reductions in registers and shuffles.

Each block owns one row of ``cols`` elements. Thread ``t`` handles vectors
``j * threads + t`` (coalesced across the warp). The kernel makes one pass over the
row per reduction level (softmax: the max, then the sum of ``exp(x - max)``, then
the stores); inputs used by several passes are loaded once into registers when they
fit (``Tuning.row_cache`` elements per thread), so the row is read from memory once
and written once. A reduction combines the thread's elements in order, then the
warp by shuffles, then the warps through 32 words of shared memory: every thread
ends with the same row value, without a second barrier.

As for pointwise kernels, ``_v`` moves 16-byte vectors (needs ``cols`` divisible by
the vector width, and aligned rows; checked on the host) and ``_s`` moves elements.

In a symbolic graph, the row count, the strides and the counts that depend on
symbols are kernel parameters (the grid is computed by the host). When the row
length itself is symbolic the strategy above (threads and registers per thread,
which follow from ``cols``) cannot be fixed, so the kernel is the generic one:
``Tuning.threads`` threads loop over the row in every pass, nothing is kept in
registers (a pass re-reads its inputs, from L2 for rows of moderate length), and
``_v`` is launched when ``cols`` is a multiple of the vector width at run time.

Example::

    >>> variants = row_variants(softmax_kernel, "k_42", Tuning())
    >>> variants["v"][1].block, variants["v"][1].per_thread     # 8192 x 4096 float32
    ((256,), 4)
"""

from __future__ import annotations

from .cuda_body import instr_line, needed, signature, size_ref
from .cuda_prelude import combine, identity
from .cuda_types import ctype, max_itemsize
from .ir import ELEM, REDUCTIONS, ROWSPACE, Kernel, Load
from .launch import Launch, Tuning, row_threads
from .sizes import is_static, prod


def _multiple(value, vec: int) -> bool:
    """Can ``value`` be a multiple of ``vec``: statically, or checked at run time (Size)."""
    return value % vec == 0 if is_static(value) else hasattr(value, "coef")


def vector_loads(kernel: Kernel, vec: int) -> list:
    """Elem loads that can move as aligned vectors of ``vec`` elements."""
    return [ld for ld in kernel.loads if ld.space == ELEM and ld.strides[-1] == 1
            and all(_multiple(s, vec) for s in ld.strides[:-1])]


def vector_width(kernel: Kernel) -> int:
    elem_out = [o.dtype for o in kernel.outputs if o.space == ELEM]
    vec = 16 // max_itemsize([ld.dtype for ld in kernel.loads
                              if ld.space == ELEM and ld.strides[-1] == 1] + elem_out)
    while vec >= 2 and (not _multiple(kernel.dims[-1], vec) or
                        not vector_loads(kernel, vec) and not elem_out):
        vec //= 2
    return vec if vec >= 2 else 0


def vector_requires(kernel: Kernel, vloads: list, vec: int) -> tuple:
    """The run-time conditions of ``_v``: symbolic row length and row strides."""
    values = [kernel.dims[-1]] + [s for ld in vloads for s in ld.strides[:-1]]
    return tuple(dict.fromkeys((v, vec) for v in values if not is_static(v)))


def _pass_roots(kernel: Kernel) -> list[list[str]]:
    """What each pass must produce: its reductions' operands; the last, the stored values."""
    roots = [[a for i in kernel.body if i.op in REDUCTIONS and i.level == p + 1
              for a in i.args if isinstance(a, str)] for p in range(kernel.levels - 1)]
    return roots + [[o.value for o in kernel.outputs if o.space == ELEM]]


def _registers(value, per_thread: int) -> int:
    return per_thread * -(-value.dtype.itemsize // 4)


def pass_values(kernel: Kernel, cached: list[str]) -> list[list]:
    """The elem values each pass computes or loads itself, given the cached ones.

    A cached load is read from registers in every pass; a cached instruction is
    computed by the first pass that needs it and read from registers after that.
    """
    stored = {n for n in cached if isinstance(kernel.value(n), Load)}
    out = []
    for roots in _pass_roots(kernel):
        done = set(stored)
        values = needed(kernel, roots,
                        stop=lambda v, done=done: v.space == ROWSPACE or v.name in done)
        values = [v for v in values if v.space == ELEM and v.name not in done]
        out.append(values)
        stored |= {v.name for v in values if v.name in cached}
    return out


def choose_cached(kernel: Kernel, per_thread: int, budget: int) -> list[str]:
    """Elem values kept in registers across passes instead of reloaded or recomputed.

    Repeatedly takes the latest value (in kernel order) that two or more passes would
    load or compute, while its ``per_thread`` elements fit in the register budget
    (in 4-byte registers): caching ``exp(x - m)`` in softmax saves recomputing it in
    the store pass; caching ``x`` saves reading it from memory again.
    """
    cached: list[str] = []
    while True:
        uses: dict[str, int] = {}
        for values in pass_values(kernel, cached):
            for v in values:
                uses[v.name] = uses.get(v.name, 0) + 1
        cost = sum(_registers(kernel.value(n), per_thread) for n in cached)
        multi = [v for v in kernel.values() if uses.get(v.name, 0) > 1
                 and cost + _registers(v, per_thread) <= budget]
        if not multi:
            return cached
        cached.append(multi[-1].name)


class _RowCode:
    def __init__(self, kernel: Kernel, name: str, vec: int, vloads: list, tuning: Tuning):
        self.k, self.name, self.vec = kernel, name, max(vec, 1)
        self.vloads = {ld.name for ld in vloads}
        self.params = kernel.params()
        self.cols = size_ref(kernel.dims[-1], self.params)
        if is_static(kernel.dims[-1]):
            self.threads = row_threads(kernel.cols, self.vec, tuning)
            self.nv = -(-kernel.cols // (self.threads * self.vec))
            self.cached = choose_cached(kernel, self.nv * self.vec, tuning.row_cache)
        else:   # generic: a loop over the row, nothing cached (see the module docstring)
            self.threads, self.nv, self.cached = tuning.threads, 0, []
        self.stored: set[str] = set()    # cached values already written (earlier pass)
        self.lines: list[str] = []

    def emit(self, line: str, depth: int = 1) -> None:
        self.lines.append("  " * depth + line if not line.startswith("#") else line)

    def row_offsets(self) -> None:
        shape = self.k.dims[:-1]
        self.emit("const long long row = blockIdx.x;")
        self.emit("long long rem = row;")
        for d in range(len(shape) - 1, 0, -1):
            size = size_ref(shape[d], self.params)
            self.emit(f"const long long r{d} = rem % {size}; rem /= {size};")
        self.emit("const long long r0 = rem;")
        for ld in self.k.loads:
            terms = [f"r{d} * {size_ref(s, self.params)}"
                     for d, s in enumerate(ld.strides[:-1]) if not is_static(s) or s]
            self.emit(f"const long long ro_{ld.name} = {' + '.join(terms) or '0LL'};")

    def scalar_load(self, ld, col: str) -> str:
        sc = ld.strides[-1]
        off = f"ro_{ld.name}" + (f" + (long long)({col}) * {size_ref(sc, self.params)}"
                                 if not is_static(sc) or sc else "")
        return f"p{ld.input}[{off}]"

    def vector_load(self, ld) -> str:
        return (f"*reinterpret_cast<const dyn_vec<{ctype(ld.dtype)}, {self.vec}>*>"
                f"(p{ld.input} + ro_{ld.name} + cb)")

    def loop(self, body, depth: int = 1) -> None:
        """``for j`` over this thread's vectors, ``cb`` = first column of the vector."""
        if not self.nv:     # generic: any row length
            step = self.threads * self.vec
            self.emit(f"for (long long cb = (long long)threadIdx.x * {self.vec}; "
                      f"cb < {self.cols}; cb += {step}) {{", depth)
            body(depth + 1)
            self.emit("}", depth)
            return
        self.emit("#pragma unroll", depth)
        self.emit(f"for (int j = 0; j < {self.nv}; ++j) {{", depth)
        self.emit(f"const int cb = (j * {self.threads} + (int)threadIdx.x) * {self.vec};",
                  depth + 1)
        self.emit(f"if (cb < {self.k.cols}) {{", depth + 1)
        body(depth + 2)
        self.emit("}", depth + 1)
        self.emit("}", depth)

    def preload(self) -> None:
        for name in self.cached:
            v = self.k.value(name)
            self.emit(f"{ctype(v.dtype)} c_{name}[{self.nv}][{self.vec}];")
        loads = [n for n in self.cached if isinstance(self.k.value(n), Load)]
        self.stored.update(loads)

        def body(d):
            for name in loads:
                ld = self.k.value(name)
                if name in self.vloads:
                    self.emit(f"const dyn_vec<{ctype(ld.dtype)}, {self.vec}> t_{name} = "
                              f"{self.vector_load(ld)};", d)
                    self.emit("#pragma unroll", d)
                    self.emit(f"for (int e = 0; e < {self.vec}; ++e) c_{name}[j][e] = "
                              f"t_{name}.v[e];", d)
                else:
                    self.emit("#pragma unroll", d)
                    self.emit(f"for (int e = 0; e < {self.vec}; ++e) c_{name}[j][e] = "
                              f"{self.scalar_load(ld, 'cb + e')};", d)
        if loads:
            self.loop(body)

    def row_values(self, level: int) -> None:
        for v in self.k.values():
            if v.space == ROWSPACE and v.level == level and isinstance(v, Load):
                self.emit(f"const {ctype(v.dtype)} {v.name} = {self.scalar_load(v, '0')};")
        for ins in self.k.body:
            if ins.space == ROWSPACE and ins.level == level and ins.op not in REDUCTIONS:
                self.emit(instr_line(ins, self.params))

    def element_pass(self, roots: list[str], reductions: list, final: bool) -> None:
        k = self.k
        outs = [(i, o) for i, o in enumerate(k.outputs) if o.space == ELEM] if final else []
        done = set(self.stored)
        values = needed(k, roots, stop=lambda v: v.space == ROWSPACE or v.name in done)
        values = [v for v in values if v.space == ELEM]
        for r in reductions:
            self.emit(f"{ctype(r.dtype)} acc_{r.name} = {identity(r.op, r.dtype)};")

        def body(d):
            for ld in values:
                if isinstance(ld, Load) and ld.name in self.vloads and ld.name not in done:
                    self.emit(f"const dyn_vec<{ctype(ld.dtype)}, {self.vec}> t_{ld.name} = "
                              f"{self.vector_load(ld)};", d)
            for i, o in outs:
                self.emit(f"dyn_vec<{ctype(o.dtype)}, {self.vec}> s{i};", d)
            self.emit("#pragma unroll", d)
            self.emit(f"for (int e = 0; e < {self.vec}; ++e) {{", d)
            for v in values:
                t = ctype(v.dtype)
                if v.name in done:
                    self.emit(f"const {t} {v.name} = c_{v.name}[j][e];", d + 1)
                    continue
                if isinstance(v, Load):
                    src = (f"t_{v.name}.v[e]" if v.name in self.vloads else
                           self.scalar_load(v, "cb + e"))
                    self.emit(f"const {t} {v.name} = {src};", d + 1)
                else:
                    self.emit(instr_line(v, self.params), d + 1)
                if v.name in self.cached:
                    self.emit(f"c_{v.name}[j][e] = {v.name};", d + 1)
            for r in reductions:
                self.emit(f"acc_{r.name} = {combine(r.op, r.dtype, f'acc_{r.name}', r.args[0])};",
                          d + 1)
            for i, o in outs:
                self.emit(f"s{i}.v[e] = {o.value};", d + 1)
            self.emit("}", d)
            for i, o in outs:
                self.emit(f"*reinterpret_cast<dyn_vec<{ctype(o.dtype)}, {self.vec}>*>"
                          f"(o{i} + row * {self.cols} + cb) = s{i};", d)
        if values:
            self.loop(body)
        self.stored.update(v.name for v in values if v.name in self.cached)
        for r in reductions:
            t = ctype(r.dtype)
            fn = f"[]({t} a, {t} b) {{ return {combine(r.op, r.dtype, 'a', 'b')}; }}"
            self.emit(f"const {t} {r.name} = dyn_block_reduce<{t}, {self.threads}>("
                      f"acc_{r.name}, smem_{r.name}, {fn});")

    def source(self) -> str:
        k = self.k
        self.lines = [signature(k, self.name, self.threads) + " {"]
        for r in k.body:
            if r.op in REDUCTIONS:
                self.emit(f"__shared__ {ctype(r.dtype)} smem_{r.name}[32];")
        self.row_offsets()
        self.preload()
        roots = _pass_roots(k)
        self.row_values(0)
        for p, r in enumerate(roots):
            reductions = [i for i in k.body if i.op in REDUCTIONS and i.level == p + 1]
            self.element_pass(r, reductions, final=p == len(roots) - 1)
            self.row_values(p + 1)
        row_outs = [(i, o) for i, o in enumerate(k.outputs) if o.space == ROWSPACE]
        if row_outs:
            self.emit("if (threadIdx.x == 0) {")
            for i, o in row_outs:
                self.emit(f"o{i}[row] = {o.value};", 2)
            self.emit("}")
        self.lines.append("}")
        return "\n".join(self.lines)

    def launch(self) -> Launch:
        aligned = ()
        if self.vec > 1:
            aligned = tuple(self.k.value(n).input for n in sorted(self.vloads)) + tuple(
                len(self.k.inputs) + i for i, o in enumerate(self.k.outputs) if o.space == ELEM)
        rows = prod(self.k.dims[:-1])
        requires = vector_requires(self.k, [self.k.value(n) for n in sorted(self.vloads)],
                                   self.vec) if self.vec > 1 else ()
        return Launch(self.name, (rows,) if is_static(rows) else None, (self.threads,),
                      self.vec, self.nv, tuple(sorted(set(aligned))), tuple(self.cached),
                      work=rows, requires=requires)


def row_variants(kernel: Kernel, name: str, tuning: Tuning) -> dict:
    """``{variant: (source, Launch)}``: always ``s``, and ``v`` where vectors apply."""
    scalar = _RowCode(kernel, name + "_s", 1, [], tuning)
    variants = {"s": (scalar.source(), scalar.launch())}
    vec = vector_width(kernel)
    if vec:
        code = _RowCode(kernel, name + "_v", vec, vector_loads(kernel, vec), tuning)
        variants["v"] = (code.source(), code.launch())
    return variants
