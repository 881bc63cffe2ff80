"""Graph passes shared by the backends: pure functions ``Graph -> Graph``.

==================  ===========================================================
pass                what it does
==================  ===========================================================
``dce``             drops nodes nothing needs (keeps writes and random draws)
``cse``             computes each pure value once
``fold_constants``  computes at compile time what depends on no input
``strength_reduce`` ``x**3`` -> multiplies, ``x**0.5`` -> sqrt, ``x/4`` -> ``x*0.25``
``without_errstate`` drops ``with np.errstate`` from CuPy graphs (not in the pipeline)
==================  ===========================================================

``optimize`` applies them in one visible order (``PIPELINE``). Each pass builds a
new graph and leaves its input untouched.

Example::

    >>> from backends.passes import optimize
    >>> print(optimize(gelu_graph))
    def forward(x):
        multiply = ops.multiply(0.5, x)
        v_pow_square = ops.square(x)
        v_pow = ops.multiply(v_pow_square, x)
        ...
"""

from .cse import cse
from .dce import dce
from .errstate import without_errstate
from .fold import FOLD_LIMIT, fold_constants
from .pipeline import PIPELINE, optimize
from .strength import MAX_POWER, strength_reduce

__all__ = ["FOLD_LIMIT", "MAX_POWER", "PIPELINE", "cse", "dce", "fold_constants", "optimize",
           "strength_reduce", "without_errstate"]
