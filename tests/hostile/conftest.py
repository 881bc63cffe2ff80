import gc
import os
import sys

import pytest

sys.path.append(os.path.dirname(__file__))


@pytest.fixture(autouse=True, scope="module")
def _young_heap_only():
    """Many programs call ``gc.collect()`` to run finalizers at a known point; a full
    collection scans every object the test session holds (a tenth of a second or more
    in a full suite). Objects older than the module are frozen, so those collections
    scan only what this module's programs made: what they test is unchanged."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()
