import pytest
import rw_check
import split_runs


@pytest.fixture(autouse=True)
def _share_of_the_backend_runs(request):
    """Tell ``rw_check.check_program`` which test runs and this run's ``--split-runs``
    share, so that it runs a compiled backend only where this Python's share takes that
    backend's run of the test (tests/split_runs.py ``takes_backend_run``); eager always."""
    rw_check.SHARE.update(nodeid=request.node.nodeid,
                          split=split_runs.parse(request.config.getoption("split_runs")))
    yield
    rw_check.SHARE.update(nodeid="", split=(1, 1, 1))
