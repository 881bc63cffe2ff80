"""Every hostile program (``prog_*.py``) behaves exactly like plain Python when compiled,
on each backend, over several calls (see ``hostile_check``). The programs that differ
today are strict xfails listed in ``known.py``: a fix makes its entry XPASS (a failure),
and the entry is then deleted."""

import collections

import hostile_check as hc
import pytest
from known import KNOWN

PROGRAMS = hc.all_programs()
CATEGORIES = ("aliasing", "guards", "state", "exceptions", "numerics", "layout", "dynamic",
              "api", "more", "loops", "newest", "round5_objects", "round5_state",
              "round5_numbers", "round5_exceptions", "round5_arrays", "round5_misc",
              "round5_loops", "fp_warnings", "round6_objects", "round6_control",
              "round6_arrays", "round6_exceptions", "round6_runtime", "round6_graphs",
              "round7_loops", "round7_dead", "round7_arrays", "round7_native",
              "round8_index", "round8_counters", "round8_frames", "round8_native",
              "round8_minmax", "round9_numbers", "round9_state", "round9_loops",
              "round9_sizes", "round10_islands", "round10_stencils", "round10_loops",
              "round10_draws", "round10_api", "round11_calls", "round11_stencils",
              "round11_native", "round11_frames", "round12_lowerings", "round12_counters",
              "round12_reach", "round12_quotients", "round13_indices", "round13_math",
              "round13_trips", "round13_targets", "round14_objects",
              "round14_python", "round14_flow", "round15_numbers", "round15_state",
              "round16_state", "round16_text", "round16_python", "round17_stacks",
              "round17_sizes", "round17_islands", "round18_protocols", "round18_dunders",
              "round18_buffers", "round18_dtypes", "round19_flow", "round19_closures",
              "round20_threads", "round21_flat", "round21_lent", "round21_checks",
              "round21_calls", "round22_selects", "round22_numbers", "round22_objects",
              "round22_windows", "round23_bounds", "round23_listed", "round23_outs",
              "round23_words", "round23_picks", "round23_infos", "round24_counts",
              "round24_uses", "round24_tier2", "round24_cached", "round24_deep",
              "round25_scatters", "round25_bare", "round25_axes", "round25_lengths",
              "round26_tuples", "round26_hits", "round26_sizes", "round26_polys",
              "round27_readonly", "round27_dtypes", "round27_subclasses",
              "round27_globals", "round27_promotion", "round27_errstate",
              "round28_polys", "round28_truths", "round28_rounds", "round28_wrappers",
              "round28_tier2", "round29_decisions", "round29_ends", "round29_joins",
              "round29_texts", "round29_rows", "round30_deques", "round30_classes",
              "round30_trips", "round31_einsums", "round31_gathers",
              "round31_trips", "round31_rows", "round31_truths", "round32_data",
              "round32_windows", "round32_classes", "round32_chains", "round32_carried",
              "round33_casts", "round33_indices", "round33_stats", "round33_spills",
              "round34_windows", "round34_rows", "round34_truths", "round34_gathers",
              "round35_windows", "round35_slices", "round35_zips", "round35_ints",
              "round35_returns", "round36_nested", "round36_scans", "round36_shapes",
              "round36_steps", "round36_compares", "round36_seterr",
              "round37_triangles", "round37_keyed", "round37_counts", "round37_selves",
              "round37_bodies", "round38_state", "round38_flow", "round39_numbers",
              "round39_loops", "round40_state", "round40_loops", "round40_native",
              "round41_loops", "round41_buffers", "round42_loops", "round42_state",
              "round43_loops", "round43_state", "round44_loops", "round44_state",
              "round45_reads", "round45_flow", "round46_values", "round46_objects",
              "round46_consts", "round47_loops", "round47_trial", "round48_args",
              "round48_views", "round48_stencils", "round48_other")


def _runs(text):
    """``--hostile-runs`` parsed: ``"eager,numpy:1-4/6"`` -> {("eager", 0), ("eager", 1),
    ... every program index on eager, and on numpy the indices whose share (index mod 6)
    is 0-3}, as (backend, program index) pairs."""
    pairs = set()
    for entry in text.split(","):
        backend, _, part = entry.partition(":")
        if backend not in hc.BACKENDS:
            raise pytest.UsageError(f"--hostile-runs: unknown backend {backend!r}; "
                                    f"choose from {list(hc.BACKENDS)}")
        first, last, shares = _share(part or "1/1")
        pairs |= {(backend, i) for i in range(len(PROGRAMS))
                  if first <= i % shares + 1 <= last}
    return pairs


def _share(part):
    """``"2/3"`` -> (2, 2, 3); ``"1-4/6"`` -> (1, 4, 6)."""
    ks, _, n = part.partition("/")
    first, _, last = ks.partition("-")
    last = last or first
    if not (first.isdigit() and last.isdigit() and n.isdigit()
            and 1 <= int(first) <= int(last) <= int(n)):
        raise pytest.UsageError(f"--hostile-runs: {part!r} is not K/N or K1-K2/N "
                                "with 1 <= K <= N, e.g. 1/2 or 1-4/6")
    return int(first), int(last), int(n)


def _params(pairs):
    params = []
    for i, p in enumerate(PROGRAMS):
        for backend in hc.BACKENDS:
            if (backend, i) not in pairs or (p.own_backend and backend != hc.ONE_BACKEND):
                continue
            known = KNOWN.get(p.id)
            mark = known.mark(backend) if known is not None else None
            params.append(pytest.param(p, backend, id=f"{p.id}-{backend}",
                                       marks=[mark] if mark is not None else []))
    return params


def pytest_generate_tests(metafunc):
    """``test_program``'s cases: every program on every backend, or the part
    ``--hostile-runs`` chooses (tests/conftest.py)."""
    if metafunc.definition.name != "test_program":
        return
    runs = _runs(metafunc.config.getoption("hostile_runs"))
    metafunc.parametrize("program,backend", _params(runs))


def test_a_program_that_names_its_backend_runs_under_one_backend_only():
    """``Programs.tiers`` scenarios compile on "native" and "auto" themselves (never with
    the backend the test is for), so on "eager" they would run again what they run
    under ``ONE_BACKEND``; every other program runs on every backend."""
    every = {(b, i) for b in hc.BACKENDS for i in range(len(PROGRAMS))}
    ids = {param.id for param in _params(every)}
    own = [p for p in PROGRAMS if p.own_backend]
    assert own and all(p.name.endswith(("_native", "_auto")) for p in own)
    assert all(f"{p.id}-{b}" in ids for p in PROGRAMS for b in hc.BACKENDS
               if not p.own_backend or b == hc.ONE_BACKEND)
    assert not any(f"{p.id}-{b}" in ids for p in own for b in hc.BACKENDS
                   if b != hc.ONE_BACKEND)


def test_program(program, backend):
    diff = hc.compare(program.scenario, backend)
    assert diff is None, diff


def test_known_failures_name_programs_that_exist():
    ids = {p.id for p in PROGRAMS}
    assert sorted(set(KNOWN) - ids) == []


def test_every_known_reason_names_its_class():
    for pid, known in KNOWN.items():
        cls, _, text = known.reason.partition(": ")
        assert cls and text and " " not in cls, f"{pid}: {known.reason!r}"


def test_enough_programs_per_category():
    counts = collections.Counter(p.category for p in PROGRAMS)
    assert sum(counts.values()) >= 400, counts
    for category in CATEGORIES:
        assert counts[category] >= 40, counts
