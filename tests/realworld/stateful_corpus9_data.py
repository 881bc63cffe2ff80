"""The inputs of issue #16's ninth stateful corpus (``stateful_corpus9.py`` and
``stateful_corpus9_models.py``): ``CALLS`` (10) calls' worth of 5-element inputs,
gradients, losses and 3-row batches, then one input of a new shape each (``X_NEW``: 7
elements; ``BATCH_NEW``: 4 rows), and the ``why`` words the two files share.

Example::

    [f(x) for x in XS + [X_NEW]]      # 10 calls of one shape, then a new one
"""

import numpy as np

CALLS = 10
NEW_SHAPE = "; the new shape at the last call costs one recompile (a size then symbolic)"
SIDES = "; a branch on a changing value: an entry per side"


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


XS = [_data(9000 + i, 5) for i in range(CALLS)]
X_NEW = _data(9100, 7)
GS = [_data(9200 + i, 5) * 0.1 for i in range(CALLS)]
G_NEW = _data(9300, 7) * 0.1
LOSSES = [1.0, 0.9, 0.95, 0.8, 0.82, 0.7, 0.71, 0.69, 0.72, 0.6, 0.58]
BATCHES = [_data(9400 + i, 3, 5) for i in range(CALLS)]
BATCH_NEW = _data(9500, 4, 5)       # more rows, the same features
EMB = _data(9600, 12, 5) * 0.5
