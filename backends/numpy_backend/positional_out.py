"""A ufunc's output buffer passed as a positional argument, where NumPy takes it so.

Generated code writes a ufunc's result into a buffer it owns (a temporary it reuses,
a scratch kept across calls). ``np.add(a, b, out=c)`` and ``np.add(a, b, c)`` do the
same work, but the keyword goes through NumPy's argument parser
(``_npy_parse_arguments``) on every call: about 300 machine instructions of a 16 KB
float32 add's 7,000 (callgrind, NumPy 2.4, Python 3.11), as much as allocating a fresh
result costs. Issue #16's Adam step makes two such calls per step::

    add = _add(multiply, (_multiply(_float32_0_1, g)), multiply)     # was: out=multiply
    divide = _divide(add, (1 - (0.9 ** float((s0)))), add)

Not every ufunc takes its output positionally without a word: NumPy 2.4 deprecates a
third positional argument of ``np.maximum`` and ``np.minimum`` (a DeprecationWarning
the program's own calls, which pass ``out=``, never show), and a later NumPy may
deprecate more. So the positional form is used only on the NumPy versions whose
ufuncs were all checked (``dynamo.npversion.CHECKED``; ``tests/backends/numpy_backend/
test_numpy_backend_positional_out.py`` calls every ufunc of NumPy's namespace so, with
warnings as errors, and fails on a NumPy that warns for another one), for a plain
``np.ufunc`` of one output that is not a generalized ufunc (``matmul``), and never for
``maximum`` or ``minimum``. Elsewhere generated code keeps ``out=``.

The rule is static, not a probe at compile time: a probe would have to record
warnings, and ``warnings.catch_warnings`` swaps the process's filters, which would
swallow a warning another thread of the program raises meanwhile.

Example::

    >>> takes_positional_out(np.add), takes_positional_out(np.maximum)
    (True, False)
"""

from __future__ import annotations

import numpy as np

from dynamo import npversion

# ufuncs that warn on a positional output (NumPy 2.4), by name: a ufunc of another
# module so named (scipy.special's are ``np.ufunc`` too) keeps the keyword as well
_WARNS = frozenset({"maximum", "minimum"})
_CHECKED = npversion.NUMPY in npversion.CHECKED   # the versions the test above ran on


def takes_positional_out(ufunc) -> bool:
    """Whether generated code may write ``ufunc(*inputs, out)`` for
    ``ufunc(*inputs, out=out)`` (module doc)."""
    return (_CHECKED and type(ufunc) is np.ufunc and ufunc.nout == 1
            and ufunc.signature is None and ufunc.__name__ not in _WARNS
            and ufunc is not np.maximum and ufunc is not np.minimum)
