"""Every break program equals eager (values, stdout, mutations, exceptions) on the first
and on cached calls, with the graph and break counts that ``dynamo.explain`` reports,
and no frame falls back to eager after an internal error (generated code that
``bytecode`` cannot read back, say: results would still be right, silently slower)."""

import logging

import corpus_breaks
import corpus_breaks_more
import pytest
from harness import check

PROGRAMS = corpus_breaks.PROGRAMS + corpus_breaks_more.PROGRAMS


@pytest.mark.parametrize("name,fn,args,graphs,breaks", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_break_program(name, fn, args, graphs, breaks, caplog):
    with caplog.at_level(logging.WARNING, logger="dynamo.internal"):
        check(fn, *args, graphs=graphs, breaks=breaks, calls=3)
    internal = [r.getMessage() for r in caplog.records if r.name == "dynamo.internal"]
    assert not internal, internal
