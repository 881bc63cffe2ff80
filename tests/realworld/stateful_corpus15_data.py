"""The inputs of issue #16's fifteenth stateful corpus (``stateful_corpus15.py`` and
``stateful_corpus15_more.py``): ``CALLS`` (20) calls' worth of 6-element inputs,
gradients, targets, labels and prices, all of one shape, and the ``why`` words the two
files share.

Example::

    [f(x, g) for x, g in zip(XS, GS)]      # 20 calls of one shape, changing values
"""

import numpy as np

CALLS = 20
COUNTER = "a counter the call steps itself: a changing number from the first trace"
SIDES = "; a branch on a changing value: an entry per side"
FLOATS = "Python floats the call updates: changing numbers from the first trace"


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


XS = [_data(15000 + i, 6) for i in range(CALLS)]
GS = [0.1 * _data(15100 + i, 6) for i in range(CALLS)]          # gradients
W6 = _data(15200, 6, 6) * 0.3                                    # a weight matrix
TARGETS = [float(v) for v in _data(15300, CALLS)]                # one float per call
LABELS = [(i * i + i // 3) % 3 for i in range(CALLS)]                # ints 0..2
PRICES = [100.0 + 3.0 * float(np.sin(0.7 * i)) + 0.1 * i for i in range(CALLS)]
