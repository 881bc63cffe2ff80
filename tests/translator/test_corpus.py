"""The corpus of Python-feature programs: each is captured whole and equals eager."""

import collections

import corpus_containers
import corpus_control
import corpus_functions
import corpus_more
import corpus_objects
import numpy as np
import pytest
from harness import check

import dynamo

CORPUS = [(f"{mod.__name__.split('_')[1]}-{name}", fn, args, graphs)
          for mod in (corpus_functions, corpus_control, corpus_containers, corpus_objects,
                          corpus_more)
          for name, fn, args, *rest in mod.PROGRAMS
          for graphs in [rest[0] if rest else 1]]


@pytest.mark.parametrize("name,fn,args,graphs", CORPUS, ids=[c[0] for c in CORPUS])
def test_program(name, fn, args, graphs):
    check(fn, *args, graphs=graphs, breaks=0)


def _stats_with_too_many_fields(x):
    return corpus_objects.Stats(x, 1, 2, 3)


def _stats_with_unknown_field(x):
    return corpus_objects.Stats(x, 1, variance=2)


@pytest.mark.parametrize("fn", [_stats_with_too_many_fields, _stats_with_unknown_field])
def test_namedtuple_bad_arguments_raise_as_eager(fn):
    check(fn, corpus_objects.X)   # the same TypeError, raised by Python itself


def test_namedtuple_input_of_another_class_retraces():
    Other = collections.namedtuple("Other", "left right scale")
    f = dynamo.compile(corpus_objects.o_namedtuple_input_fields, backend="eager")
    x, y = corpus_objects.X, corpus_objects.Y
    first = f(corpus_objects.Pair(x, y, 2.0))
    second = f(Other(x, y, 2.0))       # same items, another class: guarded by type
    assert type(first) is type(second) is tuple
    np.testing.assert_array_equal(first[0], second[0])
    report = dynamo.explain(corpus_objects.o_namedtuple_input_fields,
                            backend="eager")(Other(x, y, 3))
    assert "Other" in "\n".join(g.describe() for g in report.guards)
