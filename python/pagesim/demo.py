"""Compare the built-in policies on a generated trace over several memory sizes."""
from __future__ import annotations

import argparse

import pagesim
from . import _core

POLICIES = ["belady", "lru", "clock", "fifo", "random"]
FRACTIONS = [0.05, 0.10, 0.25, 0.50]


def main(args: argparse.Namespace) -> int:
    trace = _core.generate_zipf(args.accesses, args.pages, 0.9, 0.3, 1)
    print(f"zipf(0.9) trace: {len(trace)} accesses over {trace.num_pages} pages, 30% writes\n")
    header = f"{'memory':>8} " + "".join(f"{p:>18}" for p in POLICIES)
    print("faults / swap-outs, by memory size as a share of the footprint")
    print(header)
    for fraction in FRACTIONS:
        frames = max(1, int(trace.num_pages * fraction))
        cells = []
        for policy in POLICIES:
            c = pagesim.simulate(trace, policy, frames=frames).counters
            cells.append(f"{c['faults']:>9}/{c['swap_outs']:<8}")
        print(f"{fraction:>7.0%} " + "".join(f"{cell:>18}" for cell in cells))
    return 0
