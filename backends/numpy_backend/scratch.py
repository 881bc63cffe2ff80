"""Large intermediates of the plain path in buffers kept from one call to the next.

Eager NumPy allocates every temporary anew. Past malloc's mmap threshold (128 KiB to
32 MiB, moved by glibc as arrays come and go) a fresh array is new pages from the
kernel: a page fault and the zeroing of 4 KiB for every page the op writes. Whether
a call pays that depends on what the process allocated before, not on the program:
the tone mapping of a 600x600x3 float32 image (4.3 MB arrays) took 12 ms with no page
fault in a process of its own and 16 ms with 1,600 faults a call beside other code
(``docs/benchmarks.md``, #15). So on the plain path an elementwise ufunc whose fresh
result is at least ``MIN_BYTES`` and lends no donor's buffer (``reuse.donors``)
writes into the buffer its site handed out on the previous call, once nobody but
the site holds it (ops whose buffers never live at once share a site:
``reuse.Recycled``)::

    def tone(rgb):                         # rgb: (600, 600, 3) float32
        L = 0.2126 * rgb[..., 0] + ...     # multiply = _multiply(0.2126, rgb[..., 0],
        ...                                #     out=_scratch0.take())

``take`` is ``runtime.Recycler.take`` with one array kept and a cheaper check first:
the kept array is free when its reference count is what the site's own list and
``take``'s local variable make (no variable, container, view, exported buffer or
concurrent call holds it: each would add a reference), it has no weak reference,
and the caller changed nothing about it (shape, strides, dtype, writeability). Else
``Recycler.take`` decides (a new array where the kept one is held). The caller
cannot tell: an array nobody can reach is as good as a new one, and a fresh ufunc
result's contents are all written by the ufunc (no ``where=``: ``reuse.recycled``).

    >>> site = Scratch((512, 512), np.dtype("float64"))
    >>> a = site.take(); address = a.ctypes.data
    >>> del a
    >>> site.take().ctypes.data == address     # nobody held it: the same buffer
    True
    >>> held = site.take()
    >>> site.take() is held                    # the caller holds it: a new array
    False
"""

from __future__ import annotations

import sys
import weakref

import numpy as np

from dynamo import pyversion

from .runtime import Recycler

# Results from this many bytes on (1 MiB). Below it glibc tends to serve a temporary
# from the heap, hot in the cache, once its dynamic mmap threshold has risen past the
# size (a 3x3 convolution over 256x256 float64, nine 516 KB products: 0.97x the old
# code's speed with one shared site, 0.67x with nine); the fast ``take`` costs 1-2 us,
# 1-2% of an op over 1 MiB.
MIN_BYTES = 1 << 20


def _refs(a) -> int:
    return sys.getrefcount(a)


def _held_by_list_and_local(items: list) -> int:
    a = items[0]           # (the same two holders ``Scratch.take`` has when it counts)
    return _refs(a)


# The count ``_refs`` sees when only the site's list and ``take``'s local hold the array
# (calibrated, so it does not depend on the interpreter's own reference counting).
_FREE = _held_by_list_and_local([np.empty(0)])


class Scratch(Recycler):
    """One allocation site's buffer for a large intermediate (see the module's text)."""

    def __init__(self, shape: tuple, dtype: np.dtype):
        super().__init__(shape, dtype, keep=1)

    def take(self) -> np.ndarray:
        issued = self._issued
        if issued and pyversion.REFCOUNTS_TELL:
            a = issued[0]
            if _refs(a) == _FREE and a.shape == self.shape and a.strides == self.strides \
                    and a.dtype == self.dtype and a.flags.writeable \
                    and not weakref.getweakrefcount(a):
                return a
            del a          # (held here, it would make Recycler.take find it "held")
        return super().take()


def scratch_site(m, site) -> str:
    """The bound name of the ``Scratch`` for ``site`` (a ``reuse.Recycled``) in the
    generated module ``m``, made on first use: the ops that share the site, and the
    function's any-layout variant, share it."""
    sites = m.__dict__.setdefault("scratch_sites", {})
    if site not in sites:
        sites[site] = m.bind(Scratch(site.shape, site.dtype), f"scratch{len(sites)}")
    return sites[site]
