"""Overhead of the Python API over the C++ core, and the speed of a Python-defined policy.

Replays the trace of bench/bench_replay.cpp (10 million accesses, zipf(0.9) over 1 million
pages, 30% writes, seed 42) with ``pagesim.simulate`` at 10% of the footprint, best of
``--repeat`` runs (CPU time of the thread), and prints accesses per second. Compare with
``_build/bench/bench_replay --benchmark_filter='replay/(lru|fifo)/memory_pct:10'``.
Then times a pure-Python LRU (an OrderedDict) against the native ``lru`` on 1 million accesses.

    PYTHONPATH=_build/python /usr/bin/python3 bench/bench_python.py

Not a test: run it by hand on a quiet machine.
"""
from __future__ import annotations

import argparse
import time
from collections import OrderedDict

import pagesim
from pagesim import _core


class OrderedDictLRU(pagesim.Policy):
    traits = pagesim.PolicyTraits(needs_hits=True)

    def reset(self, num_pages, frames):
        self.order = OrderedDict()

    def on_hit(self, access, view):
        self.order.move_to_end(access.page)

    def on_fault(self, access, view):
        self.order[access.page] = None

    def select_victims(self, want, view):
        return [self.order.popitem(last=False)[0] for _ in range(want)]


def best_of(repeat: int, call) -> float:
    """Best CPU time of the calling thread (the native replay runs in it, GIL released), as
    Google Benchmark's items_per_second is computed from CPU time: fair on a loaded machine."""
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        call()
        times.append(time.thread_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--policies", nargs="*", default=["lru", "fifo"])
    args = parser.parse_args()

    trace = _core.generate_zipf(10_000_000, 1_000_000, 0.9, 0.3, 42)
    frames = trace.num_pages * 10 // 100
    print(f"# {trace}; frames = {frames} (10%)")
    for policy in args.policies:
        t = best_of(args.repeat, lambda: pagesim.simulate(trace, policy, frames=frames))
        print(f"simulate {policy:<6} {t * 1e3:8.1f} ms  {len(trace) / t / 1e6:6.1f} M accesses/s")

    small = _core.generate_zipf(1_000_000, 100_000, 0.9, 0.3, 42)
    frames = small.num_pages // 10
    native = best_of(args.repeat, lambda: pagesim.simulate(small, "lru", frames=frames))
    python = best_of(1, lambda: pagesim.simulate(small, OrderedDictLRU(), frames=frames))
    print(f"# {small}; frames = {frames} (10%)")
    print(f"native lru         {native * 1e3:8.1f} ms  {len(small) / native / 1e6:6.2f} M accesses/s")
    print(f"Python LRU         {python * 1e3:8.1f} ms  {len(small) / python / 1e6:6.2f} M accesses/s"
          f"  ({python / native:.0f}x slower)")


if __name__ == "__main__":
    main()
