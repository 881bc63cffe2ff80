"""Every break program equals eager (values, stdout, mutations, exceptions) on the first
and on cached calls, with the graph and break counts that ``dynamo.explain`` reports."""

import corpus_breaks
import corpus_breaks_more
import pytest
from harness import check

PROGRAMS = corpus_breaks.PROGRAMS + corpus_breaks_more.PROGRAMS


@pytest.mark.parametrize("name,fn,args,graphs,breaks", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_break_program(name, fn, args, graphs, breaks):
    check(fn, *args, graphs=graphs, breaks=breaks, calls=3)
