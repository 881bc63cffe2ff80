"""The inputs of issue #16's eleventh stateful corpus (``stateful_corpus11.py`` and
``stateful_corpus11_sims.py``): ``CALLS`` (10) calls' worth of 6-element inputs,
losses, rewards and word lists, all of one shape, and the ``why`` words the two files
share.

Example::

    [f(x) for x in XS]      # 10 calls of one shape, changing values
"""

import numpy as np

CALLS = 10
COUNTER = "a counter the call steps itself: a changing number from the first trace"
SIDES = "; a branch on a changing value: an entry per side"


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


XS = [_data(11000 + i, 6) for i in range(CALLS)]
GS = [0.1 * _data(11100 + i, 6) for i in range(CALLS)]          # gradients
LOSSES = [1.0, 0.8, 0.85, 0.7, 0.71, 0.72, 0.73, 0.6, 0.61, 0.62]
REWARDS = [0.0, 1.0, -0.5, 0.5, 1.0, 0.0, -1.0, 0.25, 1.0, 0.5]
# a sentence of four words per call: some seen before, some new (a vocabulary grows)
WORDS = [["the", "cat", "sat", "down"], ["the", "dog", "sat", "up"],
         ["a", "cat", "ran", "down"], ["the", "cat", "sat", "down"],
         ["one", "dog", "ran", "far"], ["a", "bird", "sat", "up"],
         ["the", "bird", "flew", "far"], ["a", "dog", "ran", "home"],
         ["the", "cat", "ran", "home"], ["one", "bird", "sat", "down"]]
