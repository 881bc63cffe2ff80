"""A list that holds itself, passed to a builtin (random state program seed 6021, #17).

``log.append(log)`` then ``repr(log)``, ``id(log)``, ``format(log)``, ``slice(1, 2,
log)``, ``operator.contains(log, 2)``, or a class whose ``__module__`` is
``builtins`` (a class made by ``exec`` in a namespace without ``__name__``): deciding
whether a builtin's arguments are constants it may fold walked into the list and back
into it without end, a RecursionError the frame fell back from (an internal error,
results right). A list met again inside itself is no constant now.
"""

import operator

import numpy as np

import dynamo


def _texts(x, log):
    log.append(log)
    return x + 1, repr(log), format(log), len(log)


def _identity_and_membership(x, log):
    log.append([log, 2])
    return x * len(log), id(log) > 0, operator.contains(log, 2), slice(1, 2, log).stop


_SCOPE: dict = {}     # (no __name__: the class's __module__ is "builtins")
exec("class Box:\n    def __init__(self, v):\n        self.v = v\n", _SCOPE)


def _builtins_module_class(x, log):
    log.append(log)
    b = _SCOPE["Box"](log)
    return x - 1, b.v is log


def test_a_list_that_holds_itself_passed_to_a_builtin(caplog):
    for fn in (_texts, _identity_and_membership, _builtins_module_class):
        for backend in ("eager", "numpy"):
            dynamo.reset()
            plain_log, log = [], []
            compiled = dynamo.compile(fn, backend=backend)
            with caplog.at_level("WARNING", logger="dynamo.internal"):
                for n in (2, 3):
                    want, got = fn(np.ones(n), plain_log), compiled(np.ones(n), log)
                    assert np.array_equal(want[0], got[0]) and want[1:] == got[1:]
            internal = [r.getMessage() for r in caplog.records if r.name == "dynamo.internal"]
            assert not internal, f"{fn.__name__} {backend}: {internal[0]}"
            assert len(log) == len(plain_log) == 2
