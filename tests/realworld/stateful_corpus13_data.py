"""The inputs of issue #16's thirteenth stateful corpus (``stateful_corpus13.py`` and
``stateful_corpus13_agents.py``): ``CALLS`` (20) calls' worth of 6-element inputs,
gradients, losses, labels, int keys and lists of token ids, all of one shape, and the
``why`` words the two files share.

Example::

    [f(x, k) for x, k in zip(XS, KEYS)]      # 20 calls of one shape, changing values
"""

import numpy as np

CALLS = 20
COUNTER = "a counter the call steps itself: a changing number from the first trace"
SIDES = "; a branch on a changing value: an entry per side"
FILL = "the container fills (an entry per length until it is full)"
IDS = ("a fresh list of int ids each call: data with a symbolic length, not a "
       "constant per list")


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


XS = [_data(13000 + i, 6) for i in range(CALLS)]
GS = [0.1 * _data(13100 + i, 6) for i in range(CALLS)]          # gradients
W6 = _data(13200, 6, 6) * 0.3                                    # a weight matrix
LOSSES = [1.0, 0.9, 0.92, 0.8, 0.81, 0.82, 0.83, 0.7, 0.71, 0.72,
          0.73, 0.74, 0.6, 0.65, 0.66, 0.67, 0.68, 0.69, 0.5, 0.51]
LABELS = [float(i * 7 % 3 == 0) for i in range(CALLS)]          # 0.0 / 1.0
KEYS = [(3 * i + i * i) % 5 for i in range(CALLS)]               # ints 0..4, revisited
TOKEN_IDS = [[(5 * i + 3 * j + j * j) % 32 for j in range(4)] for i in range(CALLS)]
EMB = np.cos(np.arange(96.0)).reshape(32, 3)                     # 32 ids x 3
