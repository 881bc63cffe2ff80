"""The inputs of issue #16's twelfth stateful corpus (``stateful_corpus12.py`` and
``stateful_corpus12_agents.py``): ``CALLS`` (20) calls' worth of 6-element inputs,
gradients, losses, rewards, log-probability tables and sentences, all of one shape,
and the ``why`` words the two files share.

Example::

    [f(ws) for ws in SENTENCES]      # 20 calls of one shape, changing words
"""

import numpy as np

CALLS = 20
COUNTER = "a counter the call steps itself: a changing number from the first trace"
SIDES = "; a branch on a changing value: an entry per side"
TEXT = ("the words change every call: a changing string in a list is text data, its "
        "uses run as Python at a break, the ids it makes a graph input of data")


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


XS = [_data(12000 + i, 6) for i in range(CALLS)]
GS = [0.1 * _data(12100 + i, 6) for i in range(CALLS)]           # gradients
LOGPS = [np.log(np.random.default_rng(12200 + i).dirichlet(np.ones(5), size=3))
         for i in range(CALLS)]                                     # 3 steps x 5 tokens
LOSSES = [1.0, 0.8, 0.85, 0.7, 0.71, 0.72, 0.73, 0.6, 0.61, 0.62,
          0.63, 0.64, 0.5, 0.55, 0.56, 0.57, 0.58, 0.59, 0.45, 0.46]
REWARDS = [0.0, 1.0, -0.5, 0.5, 1.0, 0.0, -1.0, 0.25, 1.0, 0.5,
           0.0, 0.5, 1.0, -0.25, 0.0, 1.0, 0.5, -1.0, 0.0, 0.75]
_LEXICON = ["the", "a", "one", "cat", "dog", "bird", "sat", "ran", "flew", "down",
            "up", "far", "home", "fish", "swam"]
# a sentence of four words per call: some seen before, some new (a vocabulary grows)
SENTENCES = [[_LEXICON[(7 * i + 3 * j * j + j) % len(_LEXICON)] for j in range(4)]
             for i in range(CALLS)]
TAGS = ["train", "val", "train", "test", "val", "train", "train", "test", "val", "train",
        "test", "train", "val", "val", "train", "test", "train", "val", "test", "train"]
