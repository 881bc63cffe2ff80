"""``rw_check.check_program`` runs the compiled backends that this Python's share of
``--split-runs`` takes for the running test (tests/realworld/conftest.py names the test
and the share; tests/split_runs.py ``takes_backend_run``), and eager always: over the
three shares of CI each compiled backend runs once."""

import numpy as np
import rw_check
import split_runs

from dynamo import listeners


def _backends_run(backends) -> set[str]:
    ran = set()

    class Backends:
        def on_frame_start(self, fn, ctx):
            ran.add(ctx.backend_name)

    with listeners.listening(Backends()):
        rw_check.check_program(lambda x: x * 2.0 + 1.0, [(np.arange(4.0),)],
                               backends=backends, calls=1)
    return ran


def test_check_program_runs_the_backends_of_this_share(request):
    split = split_runs.parse(request.config.getoption("split_runs"))
    want = {b for b in ("eager", "numpy", "auto")
            if split_runs.takes_backend_run(split, request.node.nodeid, b)}
    assert rw_check.SHARE["nodeid"] == request.node.nodeid   # (the fixture named it)
    assert _backends_run(("eager", "numpy", "auto")) == want


def test_each_compiled_backend_runs_in_one_of_three_shares(request):
    runs = []
    for k in (1, 2, 3):
        rw_check.SHARE.update(nodeid=request.node.nodeid, split=(k, k, 3))
        runs.append(_backends_run(("eager", "numpy", "auto")))
    assert all("eager" in ran for ran in runs)
    for backend in ("numpy", "auto"):
        assert sum(backend in ran for ran in runs) == 1, (backend, runs)
