"""The inputs of issue #16's tenth stateful corpus (``stateful_corpus10.py`` and
``stateful_corpus10_agents.py``): ``CALLS`` (10) calls' worth of 5-element inputs,
measurements, losses and rewards, then one input of a new shape each (``X_NEW``: 7
elements), and the ``why`` words the two files share.

Example::

    [f(x) for x in XS + [X_NEW]]      # 10 calls of one shape, then a new one
"""

import numpy as np

CALLS = 10
NEW_SHAPE = "; the new shape at the last call costs one recompile (a size then symbolic)"
SIDES = "; a branch on a changing value: an entry per side"
COUNTER = "a counter the call steps itself: a changing number from the first trace"


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


XS = [_data(10000 + i, 5) for i in range(CALLS)]
X_NEW = _data(10100, 7)
ZS = [np.sin(0.3 * i) + 0.1 * _data(10200 + i, 5) for i in range(CALLS)]   # measurements
Z_NEW = 0.1 * _data(10300, 7)
LOSSES = [1.0, 0.9, 0.92, 0.85, 0.86, 0.87, 0.8, 0.81, 0.82, 0.83, 0.79]
REWARDS = [0.0, 1.0, 0.5, -0.5, 1.0, 0.0, 0.25, 1.0, -1.0, 0.5, 0.75]
LOGITS = [_data(10400 + i, 6) for i in range(CALLS)]   # a vocabulary of 6 per step
