"""The corpus of Python-feature programs: each is captured whole and equals eager."""

import corpus_containers
import corpus_control
import corpus_functions
import corpus_more
import corpus_objects
import pytest
from harness import check

CORPUS = [(f"{mod.__name__.split('_')[1]}-{name}", fn, args, graphs)
          for mod in (corpus_functions, corpus_control, corpus_containers, corpus_objects,
                          corpus_more)
          for name, fn, args, *rest in mod.PROGRAMS
          for graphs in [rest[0] if rest else 1]]


@pytest.mark.parametrize("name,fn,args,graphs", CORPUS, ids=[c[0] for c in CORPUS])
def test_program(name, fn, args, graphs):
    check(fn, *args, graphs=graphs, breaks=0)
