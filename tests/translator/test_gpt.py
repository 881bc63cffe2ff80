"""A small GPT written the way NumPy users write one, captured as one graph.

Parameter dicts unpacked with ``**``, a list of blocks, heads split with ``np.split`` and
merged with ``np.hstack``, a list comprehension over heads (after picoGPT's style). The
model is the real-world suite's (tests/realworld/rw_models.py).
"""

from harness import check
from rw_models import gpt_forward, gpt_params


def test_gpt_is_one_graph():
    params = gpt_params()
    inputs = [3, 14, 15, 9, 2, 6]
    report = check(gpt_forward, inputs, params, 4, graphs=1, breaks=0)
    assert report.ops_per_graph[0] > 100
