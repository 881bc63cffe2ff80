"""The glue the dispatcher pastes reads the graph's inputs from the names its check bound
(dynamo/checked_reads.py): up to the graph's call only, never a source the glue writes
there, and the names let go of right after the call."""

from dynamo.checked_reads import handed_checked_reads

EXPR = ("type((___e0_s1 := self.n)) is ___e0_c4 and\n"
        "type((___e0_s2 := self.shadow)) is ___e0_c5 and\n"
        "type((___e0_s3 := ___e0_s2['w'])) is ___e0_c8 and\n"
        "(___e0_s3.shape, ___e0_s1,) == ___e0_expected")


def test_inputs_read_from_the_check_and_let_go_of_after_the_call():
    body = ["___in1 = self.shadow['w']",
            "___in2 = self.n",
            "___o0 = (___only := ___e0_glue_graph.only)(x, ___in1, ___in2)",
            "del ___in1, ___in2",
            "___t1 = (self.n + 1)",
            "self.n = ___t1",
            "return ___o0"]
    out, kept = handed_checked_reads(body, EXPR, "___e0_")
    assert kept == ["___e0_s1", "___e0_s3"]
    assert out[:5] == ["___in1 = ___e0_s3", "___in2 = ___e0_s1", body[2], body[3],
                       "___e0_s1 = ___e0_s3 = None"]
    assert out[5:] == body[4:]   # after the call: as written


def test_a_store_before_the_call_hands_nothing_over():
    """A store to anything but the glue's own names before the call (none is made
    there today): every read stays as written, the base of a bound read too."""
    for store in ("self.n += 1", "self.shadow = {}", "self.shadow['w'] = y", "del self.n",
                  "f(key=self.n)"):
        body = [f"    {store}", "    ___o0 = ___e0_glue_graph(self.n, self.shadow['w'])",
                "    return ___o0"]
        assert handed_checked_reads(body, EXPR, "___e0_") == (body, []), store


def test_no_graph_call_or_nothing_bound_changes_nothing():
    body = ["___t1 = (self.n + 1)", "self.n = ___t1", "return None"]
    assert handed_checked_reads(body, EXPR, "___e0_") == (body, [])
    call = ["___o0 = ___e0_glue_graph(self.n)", "return ___o0"]
    assert handed_checked_reads(call, "type(self.n) is ___e0_c1", "___e0_") == (call, [])
    split = ["___o0 = ___e0_glue_graph(", "    self.n)", "return ___o0"]
    assert handed_checked_reads(split, EXPR, "___e0_") == (split, [])
