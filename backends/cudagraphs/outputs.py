"""The output rule: what a replay hands back, and why a later replay cannot overwrite it.

A CUDA graph writes its results into the same addresses on every replay. Returning
those *static outputs* to the caller would let the next call overwrite arrays the
caller still holds (``y1 = f(x1); y2 = f(x2)`` would silently change ``y1``). So:

**Rule.** Every call returns arrays the caller owns: each static output allocation
is copied (one device-to-device ``memcpy``, stream-ordered after the replay) into a
fresh allocation from the caller's memory pool, and the outputs are rebuilt on it
with their captured offsets, shapes and strides. Outputs that share memory in eager
execution share it here too (``return y, y.T`` gives two views of one fresh copy,
``return y, y`` the same object twice), and outputs that are views of an input are
views of the caller's own input (``return x[0]`` aliases ``x``, as eagerly).

The alternatives and why not: handing out the static buffers (what
``torch.compile(mode="reduce-overhead")`` does, documented as "overwritten by the next
run") breaks the rule; rotating several captured graphs saves the copy only while the
caller drops results in time, and cannot see pointers kept outside Python objects.
The copy costs one ``memcpy`` launch per output allocation; ``scripts/bench_cudagraphs.py``
reports it separately.

Example::

    >>> plan = OutputPlan.analyze(outs, statics, private_bases, device)
    >>> plan.describe()
    ['copy of allocation 0 (+0 bytes)', 'view of input 0 (+16 bytes)']
    >>> y, x0 = plan.build(args, stream)
"""

from __future__ import annotations

from .layout import contains, span


class CaptureRejected(Exception):
    """The captured graph cannot be replayed correctly; the runner falls back to eager."""


SAME, ARG, INPUT, COPY, EMPTY = "same", "arg", "input", "copy", "empty"


class OutputPlan:
    """How to turn one replay's static outputs into arrays the caller owns."""

    def __init__(self, specs: list[tuple], groups: list[tuple[int, int]], device):
        self.specs = specs          # one per output, see SAME/ARG/INPUT/COPY/EMPTY
        self.groups = groups        # (base address, size) of each allocation to copy
        self.device = device

    @classmethod
    def analyze(cls, outs, statics: list, private_bases: set, device) -> OutputPlan:
        """Classify each output of the capture run by the memory it lives in."""
        if not isinstance(outs, (tuple, list)):
            raise CaptureRejected(f"the graph returned a {type(outs).__name__}, not a tuple")
        specs: list[tuple] = []
        groups: list[tuple[int, int]] = []
        for j, o in enumerate(outs):
            specs.append(cls._classify(j, o, outs, statics, private_bases, groups, device))
        return cls(specs, groups, device)

    @staticmethod
    def _classify(j, o, outs, statics, private_bases, groups, device) -> tuple:
        if not device.is_array(o):
            raise CaptureRejected(f"output {j} is a {type(o).__name__}, not a device array")
        for k in range(j):
            if outs[k] is o:
                return (SAME, k)
        statics = [s if device.is_array(s) else None for s in statics]   # sizes: not memory
        for i, s in enumerate(statics):
            if s is o:
                return (ARG, i)
        layout = (tuple(o.shape), o.dtype, tuple(o.strides))
        if o.size == 0:
            return (EMPTY, *layout)
        ptr = device.address(o)
        lo, nbytes = span(o.shape, o.strides, o.itemsize)
        base, size = device.allocation(o)
        if base in private_bases:
            group = next((g for g, (b, _) in enumerate(groups) if b == base), None)
            if group is None:
                group = len(groups)
                groups.append((base, size))
            return (COPY, group, ptr - base, *layout)
        for i, s in enumerate(statics):
            if s is not None and s.size and device.allocation(s)[0] == base:
                s_lo, s_nbytes = span(s.shape, s.strides, s.itemsize)
                s_ptr = device.address(s)
                if contains(s_ptr + s_lo, s_nbytes, ptr + lo, nbytes):
                    return (INPUT, i, ptr - s_ptr, *layout)
        raise CaptureRejected(f"output {j} lives in memory the graph neither computed nor "
                              "received as an input (a constant array?)")

    def build(self, args: tuple, stream) -> tuple:
        """This call's outputs: fresh copies of the static outputs, views of ``args``."""
        dev = self.device
        fresh = [dev.copy_out(base, size, stream) for base, size in self.groups]
        out: list = []
        for spec in self.specs:
            kind = spec[0]
            if kind == COPY:
                out.append(dev.view(fresh[spec[1]], spec[2], spec[3], spec[4], spec[5]))
            elif kind == SAME:
                out.append(out[spec[1]])
            elif kind == ARG:
                out.append(args[spec[1]])
            elif kind == INPUT:
                out.append(dev.view_of(args[spec[1]], spec[2], spec[3], spec[4], spec[5]))
            else:
                out.append(dev.empty(spec[1], spec[2], spec[3]))
        return tuple(out)

    def describe(self) -> list[str]:
        words = {COPY: lambda s: f"copy of allocation {s[1]} (+{s[2]} bytes)",
                 SAME: lambda s: f"same object as output {s[1]}",
                 ARG: lambda s: f"input {s[1]} itself",
                 INPUT: lambda s: f"view of input {s[1]} (+{s[2]} bytes)",
                 EMPTY: lambda s: "a new empty array"}
        return [words[s[0]](s) for s in self.specs]
