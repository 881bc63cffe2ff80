"""``sum(v for v in h)``, ``max(v for v in h)``: a generator expression that yields a
growing list's items unchanged, read whole by a reducing builtin, is one changing float
the call computes, as ``sum(h)`` is (``variables/identity_generators.py``), not an
entry per length while the list grows (issue #16). A generator that filters or maps,
or one already advanced, is read item by item as before; one kept after the builtin
has run is exhausted, as Python's is.
"""

import pytest
from harness import outcome, same_outcome
from test_float_windows import LOSSES, X

import dynamo


class Losses:
    def __init__(self):
        self.losses = []

    def mean(self, x, loss):
        self.losses.append(loss)
        return x * (sum(v for v in self.losses) / len(self.losses))

    def best(self, x, loss):
        self.losses.append(loss)
        return x * max(s for s in self.losses) + min(s for s in self.losses)

    def kept(self, x, loss):
        self.losses.append(loss)
        g = (v for v in self.losses)
        top = max(g)
        return x * top, list(g)        # [] in Python: max ran the generator out

    def advanced(self, x, loss):
        self.losses.append(loss)
        g = (v for v in self.losses)
        first = next(g)
        return x * first + sum(g)      # the items after the first

    def filtered(self, x, loss):
        self.losses.append(loss)
        return x * sum(v for v in self.losses if v > 0.5)


def _run(method, calls, backend):
    """Each call's outcome for plain Python and compiled, the lists left equal (items
    and types); the compiled side's recompiles after call 0."""
    want_obj, got_obj = Losses(), Losses()
    dynamo.reset()
    with dynamo.explain(getattr(got_obj, method), backend=backend) as f:
        for i in range(calls):
            args = (X, LOSSES[i % len(LOSSES)])
            same_outcome(outcome(getattr(want_obj, method), args),
                         outcome(f, args), f"call {i}", rtol=0.0)
            assert got_obj.losses == want_obj.losses
            assert list(map(type, got_obj.losses)) == list(map(type, want_obj.losses))
    return [r for r in f.report.recompiles if r.call >= 1]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("method", ["mean", "best"])
def test_a_generator_over_a_growing_list_is_one_entry(method, backend):
    recompiles = _run(method, 10, backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


def test_a_generator_kept_after_the_builtin_is_exhausted():
    recompiles = _run("kept", 6, "eager")
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


@pytest.mark.parametrize("method", ["advanced", "filtered"])
def test_an_advanced_or_filtering_generator_reads_the_items(method):
    _run(method, 5, "eager")          # eager's values and lists: read item by item
