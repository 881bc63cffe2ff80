"""A list the trace read and then only appended to is written back with ``extend``.

``log.append(v); n = len(log)`` reads the list (its length is guarded), so the glue
used to write the whole list back (``log[:] = [...]``): the same list in one thread,
but a read-modify-write that loses another thread's append made between the entry's
read and the write (hostile round 44: a helper appending to a list shared by three
threads lost appends, about 1 run in 40). Appending only the new items is what eager's
``list.append`` does, in one step.
"""
import numpy as np
import pytest

import dynamo
from dynamo import listeners


class Glue:
    def __init__(self):
        self.sources = []

    def on_compile(self, record, ctx):
        self.sources.append(record.glue_source)


def appends_then_reads(x, log):
    log.append(float(x[0]))
    log.extend([1.5, 2.5])
    return x * len(log)


def pops_then_appends(x, log):
    last = log.pop()
    log.append(float(x[0]))
    return x * len(log) + last


def sets_then_appends(x, log):
    log[0] = -1.0
    log.append(float(x[0]))
    return x * len(log)


def pop_push_same(x, log):
    item = log.pop()
    log.append(item)
    return x * len(log)


CASES = [appends_then_reads, pops_then_appends, sets_then_appends, pop_push_same]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_results_and_the_list_equal_eager(fn, backend):
    dynamo.reset()
    f = dynamo.compile(fn, backend=backend)
    for k in range(4):
        log, want_log = [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]
        x = np.arange(3.0) + k
        got, want = f(x, log), fn(x, want_log)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype and log == want_log


def _glue_of(fn):
    dynamo.reset()
    glue = Glue()
    with listeners.listening(glue):
        dynamo.compile(fn, backend="eager")(np.ones(3), [1.0, 2.0])
    assert glue.sources, "one compile"
    return "\n".join(glue.sources)


def test_a_read_list_only_appended_to_is_extended_not_rewritten():
    source = _glue_of(appends_then_reads)
    assert ".extend(" in source and "[:] =" not in source, source


@pytest.mark.parametrize("fn", [pops_then_appends, sets_then_appends],
                         ids=lambda f: f.__name__)
def test_a_list_whose_read_items_changed_is_written_whole(fn):
    source = _glue_of(fn)
    assert "[:] =" in source, source
