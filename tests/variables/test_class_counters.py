"""Class attributes used as counters that flow into array data (issue #16): a changing
class-attribute int is a number of the graph, as an instance attribute's is, with
NumPy's own typing of it (an int64 item of the array it is data of), and guarded only
where it decides control flow.

Two causes, each tested here against eager with the state compared after each call
(``check_stateful_program``), on both CPU backends:

- ``self.__class__`` was a graph break (object's ``__class__`` descriptor): it is
  ``type(self)`` now, so ``self.__class__.n += 1`` is a class write replayed after
  the graph (``variables/class_writes.py``);
- an int that is an item of array data (``np.concatenate([x, [Cls.next_id]])``,
  ``np.array([n])``, ``np.full(3, n)``) was taken as a size: specialized at 0 and 1,
  two recompiles (``symbolic/shape_env.py: _as_array_data``).

Example::

    class IdAssigner:
        next_id = 0
        def tag(self, x):
            IdAssigner.next_id += 1
            return np.concatenate([x, [IdAssigner.next_id]])   # 1 compile over 8 calls
"""

import numpy as np
import pytest
from rw_check import BACKENDS
from stateful_programs import registrar
from test_stateful_programs import _measured, check_stateful_program

X = np.random.default_rng(90).standard_normal(5)
X32 = X.astype(np.float32)
PROGRAMS: list = []


program = registrar(PROGRAMS)


class Tagger:
    next_id = 0

    def tag(self, x):
        Tagger.next_id += 1
        return np.concatenate([x, [Tagger.next_id]])     # float64 for float32 x too

    def through_class(self, x):
        self.__class__.next_id += 1
        return x * self.__class__.next_id

    def filled(self, x):
        type(self).next_id += 1
        return np.full(3, type(self).next_id) + np.array([self.next_id, 2 * self.next_id, 0])

    def shadowed(self, x):
        self.__class__.next_id += 1
        # self.next_id: the instance's own, once it has one
        return np.append(x * self.next_id, self.__class__.next_id)


class SubTagger(Tagger):
    pass


def _calls(f, owner, n, x=X, between=None):
    """``n`` calls, each result with the counters right after it."""
    out = []
    for i in range(n):
        if between is not None:
            between(i)
        out.append((f(x), Tagger.next_id, SubTagger.__dict__.get("next_id"),
                    owner.__dict__.get("next_id")))
    return out


def _fresh():
    Tagger.next_id = 0
    if "next_id" in SubTagger.__dict__:
        del SubTagger.next_id


@program(recompiles=0)
def class_counter_as_array_data(wrap):
    _fresh()
    t = Tagger()
    return _calls(wrap(t.tag), t, 8)


@program(recompiles=0)
def class_counter_as_data_of_float32(wrap):
    _fresh()
    t = Tagger()
    return _calls(wrap(t.tag), t, 8, x=X32)


@program(recompiles=0)
def counter_through_self_class(wrap):
    _fresh()
    t = Tagger()
    return _calls(wrap(t.through_class), t, 8)


@program(recompiles=0)
def counter_filled_and_as_items(wrap):
    _fresh()
    t = Tagger()
    return _calls(wrap(t.filled), t, 8)


@program(recompiles=0)
def subclass_writes_its_own_counter(wrap):
    # the first call reads Tagger's 10 and creates SubTagger's own; later calls read
    # SubTagger's, a changing number by then
    _fresh()
    Tagger.next_id = 10
    s = SubTagger()
    return _calls(wrap(s.through_class), s, 8)


@program(recompiles=1)
def class_counter_shadowed_by_an_instance_attribute(wrap):
    # ``t.next_id = 100`` set between calls: the instance's answers ``self.next_id``
    # from then on (the lookup guarded: one recompile), the class's keeps counting
    _fresh()
    t = Tagger()

    def between(i):
        if i == 4:
            t.next_id = 100
    return _calls(wrap(t.shadowed), t, 9, between=between)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_class_counter(prog, backend):
    check_stateful_program(prog, backend)


THROUGH_CLASS = [p for p in PROGRAMS if p.name in (
    "counter_through_self_class", "subclass_writes_its_own_counter",
    "class_counter_shadowed_by_an_instance_attribute")]


@pytest.mark.parametrize("prog", THROUGH_CLASS, ids=[p.name for p in THROUGH_CLASS])
def test_class_counter_is_compiled_whole(prog):
    """No graph break: ``self.__class__`` broke the graph (the frame in three parts,
    one of them compiled per count) before it was read as ``type(self)``."""
    _, report = _measured(prog, "eager")
    assert report.graph_break_count == 0, [b.reason for r in report.records for b in r.breaks]
