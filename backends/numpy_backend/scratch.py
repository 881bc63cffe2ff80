"""Large intermediates of the plain path in buffers kept from one call to the next.

Eager NumPy allocates every temporary anew. Past malloc's mmap threshold (128 KiB to
32 MiB, moved by glibc as arrays come and go) a fresh array is new pages from the
kernel: a page fault and the zeroing of 4 KiB for every page the op writes. Whether
a call pays that depends on what the process allocated before, not on the program:
the tone mapping of a 600x600x3 float32 image (4.3 MB arrays) took 12 ms with no page
fault in a process of its own and 16 ms with 1,600 faults a call beside other code
(``docs/benchmarks.md``, #15). So on the plain path an elementwise ufunc whose fresh
result is at least ``MIN_BYTES`` and lends no donor's buffer (``reuse.donors``)
writes into a buffer handed out before, once nobody but its holder holds it (ops
whose buffers never live at once share a site: ``reuse.Recycled``; the sites of one
shape and dtype share one holder for the process: ``scratch_site``)::

    def tone(rgb):                         # rgb: (600, 600, 3) float32
        L = 0.2126 * rgb[..., 0] + ...     # multiply = _multiply(0.2126, rgb[..., 0],
        ...                                #     out=_scratch0.take())

``take`` is ``runtime.Recycler.take`` with a cheaper check first: a kept array
(the newest first) is free when its reference count is what the holder's list and
``take``'s local variable make (no variable, container, view, exported buffer or
concurrent call holds it: each would add a reference), it has no weak reference,
and the caller changed nothing about it (shape, strides, dtype, writeability). Else
``Recycler.take`` decides (a new array where every kept one is held). The caller
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

# At most this many arrays per holder (a bound on a leak, not the working rule: a
# holder makes a new array only when all it keeps are held, so it keeps what the
# process's calls held at once).
KEEP = 64


def _refs(a) -> int:
    return sys.getrefcount(a)


def _held_by_list_and_local(items: list) -> int:
    a = items[0]           # (the same two holders ``Scratch.take`` has when it counts)
    return _refs(a)


# The count ``_refs`` sees when only the site's list and ``take``'s local hold the array
# (calibrated, so it does not depend on the interpreter's own reference counting).
_FREE = _held_by_list_and_local([np.empty(0)])


class Scratch(Recycler):
    """The buffers of one shape and dtype for large intermediates, shared by every site
    of the process (see the module's text): an array nobody holds is handed out again,
    whichever site took it last; a new one is made only when every kept one is held,
    so a holder keeps no more arrays than the process's calls ever held at once."""

    def __init__(self, shape: tuple, dtype: np.dtype):
        super().__init__(shape, dtype, keep=KEEP)

    def take(self) -> np.ndarray:
        if pyversion.REFCOUNTS_TELL:
            # (the newest first: the array a call freed last is the one in the cache; the
            # list is replaced, never changed, by ``Recycler.take``: safe to walk)
            for a in reversed(self._issued):
                if _refs(a) == _FREE and a.shape == self.shape \
                        and a.strides == self.strides and a.dtype == self.dtype \
                        and a.flags.writeable and not weakref.getweakrefcount(a):
                    return a
            a = None       # (held here, it would make Recycler.take find it "held")
        return super().take()


def scratch_site(m, site) -> str:
    """The bound name of the ``Scratch`` for ``site`` (a ``reuse.Recycled``) in the
    generated module ``m``, made on first use: one holder per shape and dtype for the
    whole process, so the sites of a function, its any-layout variant and the other
    graphs of the process share their arrays (#15: one array kept per site made
    unsharp masking keep 8 arrays of 1.25 MB where its calls hold 5 at once, 1.79x
    plain NumPy's peak; shared, 1.2x).

        >>> a, b = Module(), Module()      # two graphs' modules, two sites
        >>> s0, s1 = Recycled((4,), np.dtype("f8"), 1), Recycled((4,), np.dtype("f8"), 2)
        >>> a.scope[scratch_site(a, s0)] is b.scope[scratch_site(b, s1)]
        True
    """
    key = (tuple(site.shape), np.dtype(site.dtype))
    # (named ``_scratch<n>``: a new name's number is the module's count of bound values)
    return m.bind_shared(("site", *key), lambda: Scratch(*key), f"scratch{len(m._bound)}")
