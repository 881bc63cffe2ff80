"""Graph passes shared by the backends: pure functions ``Graph -> Graph``.

======================  =========================================================
pass                    what it does
======================  =========================================================
``hoist_invariants``    runs a loop body's invariant ops once, before the loop
                        (ops that cannot fail or signal; values no trip writes)
``dce``                 drops nodes nothing needs (keeps writes, random draws,
                        and anything that may raise or warn)
``drop_dead_carried``   drops a ``while_loop``'s carried values that no trip reads
                        and nothing reads after the loop
``scalar_reads``        reads ``int(x)``'s NumPy scalar itself, not ``copy(x)[()]``
``cse``                 computes each pure value once
``fold_constants``      computes at compile time what depends on no input
``strength_reduce``     exact rewrites: ``x**2`` -> square, integer ``n**3`` ->
                        multiplies
``fast_powers``         float ``x**3`` -> multiplies (not exact; only on request)
``fresh_copies``        drops ``np.array(xs)`` of a list the guards converted
                        anew (the graph's input is already a fresh array)
``without_errstate``    drops ``with np.errstate`` from CuPy graphs (not in the
                        pipeline)
======================  =========================================================

``optimize`` applies them in one visible order (``PIPELINE``). Each pass builds a
new graph and leaves its input untouched. No pass drops an op that may raise or
warn, or changes a value, dtype or exception; floating-point warnings stay eager's
(``signals``: a pass may change which op reports a condition only where the backend
reruns the graph as eager on one).

Example::

    >>> from dynamo.backends.passes import optimize
    >>> print(optimize(gelu_graph))
    def forward(x):
        multiply = ops.multiply(0.5, x)
        v_pow = ops.pow(x, 3)                # a float power stays (fast_powers: not exact)
        ...
"""

from dynamo.ops.signals import barrier, may_signal, rerun_on_signal

from .cse import cse
from .dce import dce
from .dead_carried import drop_dead_carried
from .errstate import without_errstate
from .fold import FOLD_LIMIT, fold_constants
from .fresh import fresh_copies
from .hoist import hoist_invariants
from .loops import compile_loop_bodies, has_loops, varies_per_trip
from .pipeline import PIPELINE, PIPELINE_FAST_POWERS, optimize
from .scalar_reads import scalar_reads
from .strength import MAX_POWER, fast_powers, strength_reduce

__all__ = ["FOLD_LIMIT", "MAX_POWER", "PIPELINE", "PIPELINE_FAST_POWERS", "barrier",
           "compile_loop_bodies", "cse", "dce", "drop_dead_carried", "fast_powers",
           "fold_constants", "fresh_copies",
           "has_loops", "hoist_invariants", "may_signal", "optimize", "rerun_on_signal",
           "scalar_reads", "strength_reduce", "varies_per_trip", "without_errstate"]
