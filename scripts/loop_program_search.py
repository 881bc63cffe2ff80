"""Search random loop programs for differences from plain Python, and shrink each.

Runs the programs of ``scripts/random_loop_programs.py`` for seeds ``--start`` to
``--start + --count`` on each backend named, prints every failing seed with its
difference, and (``--shrink``) the failure shrunk to a minimal program: statements
removed one at a time (a block left empty gets ``pass``), ``if`` tests and ``elif``
arms dropped, then calls dropped and array elements set to 0 or 1, while the same kind
of difference (``failure_kind``) remains. Seeds are reproducible: ``--start 120
--count 1`` reruns seed 120 alone. Example::

    python scripts/loop_program_search.py --count 2000 --backends eager numpy
    python scripts/loop_program_search.py --start 417 --count 1 --shrink
    python scripts/loop_program_search.py --count 200 --backends native --cache-dir /tmp/k
    python scripts/loop_program_search.py --count 2000 --config loop_unroll_limit=2 \
        outline_min_elements=0
    python scripts/loop_program_search.py --generator state --count 2000 --shrink

``--generator state`` runs ``scripts/random_state_programs.py`` instead (Python state,
graph breaks and exceptions; ``state_more`` and ``mixed``,
``scripts/random_mixed_programs.py`` with threads, keyword arguments and more, the
same), with the same interface (``program``, ``inputs``, ``differences``, ``observe``,
``failure_kind``, ``loop_nodes``).

Prints a summary line per backend: programs run, programs the plain call of which
raised on every call (still compared: the compiled one must raise the same), failures
by kind.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import random_loop_programs as R  # noqa: E402

GENERATORS = {"loops": "random_loop_programs", "state": "random_state_programs",
              "state_more": "random_state_programs_more", "mixed": "random_mixed_programs"}


def check(source: str, calls: list, backend: str, cache_dir=None, made=None,
          settings=None, gen=R) -> list[str]:
    """``differences`` of the generator ``gen``, with an internal error of the compile
    counted as one."""
    try:
        return gen.differences(source, calls, backend, cache_dir, made, settings)
    except Exception as e:  # noqa: BLE001 (a crash of the compiler is a finding)
        return [f"{backend} crashed: {type(e).__name__}: {e}"]


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) line ranges of each statement of the body with its block."""
    out = []
    for k, line in enumerate(lines):
        if k == 0 or not line.strip() or line.strip().startswith("return"):
            continue
        pad = len(line) - len(line.lstrip())
        end = k + 1
        while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > pad:
            end += 1
        out.append((k, end))
    return out


def _fix(lines: list[str]) -> str | None:
    """The source with an empty block filled by ``pass``; None if it does not parse."""
    fixed = []
    for k, line in enumerate(lines):
        fixed.append(line)
        if line.rstrip().endswith(":"):
            pad = len(line) - len(line.lstrip())
            nxt = lines[k + 1] if k + 1 < len(lines) else ""
            if len(nxt) - len(nxt.lstrip()) <= pad:
                fixed.append(" " * (pad + 4) + "pass")
    src = "\n".join(fixed) + "\n"
    try:
        compile(src, "<shrunk>", "exec")
    except SyntaxError:
        return None
    return src


def shrink(source: str, calls: list, backend: str, kind: str, cache_dir=None,
           settings=None, gen=R):
    """The smallest program and calls found that still fail with ``kind``."""
    def fails(src, cl):
        found = check(src, cl, backend, cache_dir, settings=settings, gen=gen)
        return bool(found) and gen.failure_kind(found) == kind

    progress = True
    while progress:
        progress = False
        lines = source.rstrip("\n").split("\n")
        for first, end in reversed(_blocks(lines)):
            variants = [lines[:first] + lines[end:]]
            head = lines[first].strip()
            if head.startswith(("if ", "elif ", "else")) and end > first + 1:
                pad = len(lines[first]) - len(lines[first].lstrip())
                body = [ln[4:] if ln.startswith(" " * (pad + 4)) else ln
                        for ln in lines[first + 1:end]]
                if head.startswith("if "):
                    variants.append(lines[:first] + body + lines[end:])
            for v in variants:
                src = _fix(v)
                if src and src != source and fails(src, calls):
                    source, progress = src, True
                    break
            if progress:
                break
    for k in reversed(range(len(calls))):
        if len(calls) > 1 and fails(source, calls[:k] + calls[k + 1:]):
            calls = calls[:k] + calls[k + 1:]
    for c in range(len(calls)):
        for a in range(len(calls[c])):
            arr = calls[c][a]
            if not isinstance(arr, np.ndarray):
                continue
            for e in range(arr.size):
                for simple in (0, 1):
                    if arr[e] == simple or (arr.dtype == bool and simple > 1):
                        continue
                    trial = arr.copy()
                    trial[e] = simple
                    cl = list(calls)
                    cl[c] = tuple(trial if q == a else calls[c][q]
                                  for q in range(len(calls[c])))
                    if fails(source, cl):
                        calls, arr = cl, trial
                        break
    return source, calls


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--backends", nargs="+", default=["eager", "numpy"])
    ap.add_argument("--cache-dir", default=None, help="tier 2's disk cache (native)")
    ap.add_argument("--shrink", action="store_true")
    ap.add_argument("--loop-nodes-only", action="store_true",
                    help="only programs whose eager graphs hold a loop node (for tier 2)")
    ap.add_argument("--config", nargs="*", default=[], metavar="NAME=INT",
                    help="dynamo.config ints meanwhile: loop_unroll_limit=2 "
                         "outline_min_elements=0 (loop nodes from 3 trips, outlines)")
    ap.add_argument("--quiet", action="store_true", help="only the summary and kinds")
    ap.add_argument("--slow", type=float, default=2.0, metavar="SECONDS",
                    help="skip a seed whose plain calls take more CPU time than this "
                         "(listed at the end: its state grows without bound)")
    ap.add_argument("--generator", choices=sorted(GENERATORS), default="loops",
                    help="loops: random_loop_programs; state: random_state_programs; "
                         "state_more: random_state_programs_more; "
                         "mixed: random_mixed_programs")
    args = ap.parse_args(argv)
    gen = importlib.import_module(GENERATORS[args.generator])
    warnings.simplefilter("ignore")
    settings = {k: int(v) for k, v in (c.split("=") for c in args.config)}
    kinds = {b: collections.Counter() for b in args.backends}
    plain_raised = ran_native = kernel_errors = ran = 0
    slow: list[int] = []
    t0 = time.time()
    for seed in range(args.start, args.start + args.count):
        src, calls = gen.program(seed), gen.inputs(seed)
        if (seed - args.start) % 50 == 0:
            print(f"... seed {seed}: {ran} programs run, {time.time() - t0:.0f} s", flush=True)
        if args.loop_nodes_only and not gen.loop_nodes(src, calls, settings):
            continue
        plain = gen.compile_plain(src)          # (one namespace: the state lives on)
        began = time.process_time()
        outcome = [gen.observe(plain, c)[0] for c in calls]
        if time.process_time() - began > args.slow:   # (opaque_push(log, log) in a
            slow.append(seed)                         # loop: the state doubles per trip)
            continue
        ran += 1
        plain_raised += all(isinstance(o, tuple) and len(o) == 3 and isinstance(o[0], str)
                            and o[0] == "raised" for o in outcome)
        for backend in args.backends:
            made: list = []
            found = check(src, calls, backend, args.cache_dir, made, settings, gen)
            native = sum(getattr(m, "native_calls", 0) for m in made)
            ran_native += native > 0
            kernel_errors += sum(getattr(m, "error", None) is not None for m in made)
            if not found:
                continue
            kind = gen.failure_kind(found)
            kinds[backend][kind] += 1
            print(f"seed {seed}: {kind}: {found[0][:300]}", flush=True)
            if args.shrink:
                small, small_calls = shrink(src, calls, backend, kind, args.cache_dir,
                                            settings, gen)
                again = check(small, small_calls, backend, args.cache_dir,
                              settings=settings, gen=gen)
                print(f"--- seed {seed} shrunk ({backend}):\n{small}calls = "
                      f"{small_calls!r}\n"
                      f"{again[0][:400] if again else '(passes?)'}\n---", flush=True)
            elif not args.quiet:
                print(src)
    for backend in args.backends:
        print(f"{backend}: {ran} programs (plain raised on every call: "
              f"{plain_raised}), failures {sum(kinds[backend].values())}: "
              f"{dict(kinds[backend])}")
    if "native" in args.backends:
        print(f"native: tier 2 ran in {ran_native} programs; kernels with an error: "
              f"{kernel_errors}")
    if slow:
        print(f"skipped as slow (plain calls over {args.slow} s): {slow}")
    print(f"{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
