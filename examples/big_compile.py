"""One big compile in a small machine: gcc's garbage collector against page replacement.

The `compile` generator (defaults): one compiler process reads 8 MiB of headers, then 2 MiB
of source, and ends with 96 MiB of live heap, having allocated four times that; three
quarters of it becomes garbage when the function that allocated it is done. Between
functions gcc's ggc_collect collects when the heap has grown by ggc-min-expand percent since
the last collection and is at least ggc-min-heapsize; a collection reads every live page of
the heap once (the mark) and frees the pages left without a live object, which later
allocations take first. gcc derives the two thresholds from the machine's RAM
(ggc-common.c): for this 64 MiB machine 34% and 8 MiB, for a 1 GiB machine 100% and 128 MiB
(fewer, bigger collections). The machine has 64 MiB (16384 frames) and a 2002 IDE disk;
the trace order is the schedule (schedule="static", which belady needs).

Columns: major faults, swap-ins, swap-outs, elapsed time, and the share of the major faults
that fall in mark phases (from replays of the trace's prefixes: the counts of the first n
accesses of a run are those of a replay of the first n, for a policy that does not see the
future; belady's are not, hence its "-"). The first table says what the collector did:
collections, the heap in use (live and garbage) before the biggest one, the heap live after
the last one, the share of the accesses that are mark reads.

Run: PYTHONPATH=_build/python /usr/bin/python3 examples/big_compile.py
"""
from typing import Optional

import pagesim

MACHINE_MIB = 64
FRAMES = MACHINE_MIB * 256
POLICIES = ("lru", "clock", "active_inactive", "rmap_aging", "arc", "lirs", "clock_pro", "mglru",
            "belady")
# Policies whose choices depend on accesses to come: a replay of a prefix is not the start of
# their run.
SEE_THE_FUTURE = ("belady",)
# The RAM gcc's GC heuristics see: this machine's, and a big machine's.
GGC_RAM = (("64M", 64), ("1G", 1024))


def compiles():
    """label -> (trace, collections) for each of GGC_RAM."""
    return {label: pagesim.traces.compile_with_collections(ram_mib=ram_mib)
            for label, ram_mib in GGC_RAM}


def run(trace: pagesim.Trace, policy: str, **params) -> pagesim.Result:
    return pagesim.simulate(trace, policy, frames=FRAMES, device="hdd-2002", schedule="static",
                            interval_ns=0, **params)


def prefix(trace: pagesim.Trace, n: int) -> pagesim.Trace:
    """The first n accesses of a trace (all its pages)."""
    return pagesim.Trace.from_columns(trace.pages[:n], trace.writes[:n], page_procs=trace.page_procs,
                                      page_vpns=trace.page_vpns, page_kinds=trace.page_kinds,
                                      proc_pids=trace.proc_pids)


def counters_between(trace: pagesim.Trace, start: int, end: int, policy: str, **params):
    """The counters of accesses start..end-1 of a run: the difference of two prefix replays."""
    before, after = (run(prefix(trace, n), policy, **params).counters for n in (start, end))
    return {key: after[key] - before[key] for key in after}


def mark_majors(trace: pagesim.Trace, collections, policy: str) -> Optional[int]:
    """Major faults during the mark phases (None for a policy that sees the future)."""
    if policy in SEE_THE_FUTURE:
        return None
    return sum(counters_between(trace, c["mark"], c["sweep"], policy)["major_faults"]
               for c in collections)


def collector_row(label: str, trace: pagesim.Trace, collections):
    marks = sum(c["sweep"] - c["mark"] for c in collections)
    return (label, len(collections), max(c["heap_pages"] for c in collections) / 256,
            collections[-1]["live_pages"] / 256, marks / len(trace))


def policy_rows(runs):
    """One row per policy and threshold: counts, elapsed seconds, share of majors in marks."""
    rows = []
    for policy in POLICIES:
        for label, (trace, collections) in runs.items():
            r = run(trace, policy)
            c = r.counters
            in_mark = mark_majors(trace, collections, policy)
            rows.append((policy, label, c["major_faults"], c["swap_ins"], c["swap_outs"],
                         r.time["elapsed_ns"] / 1e9,
                         None if in_mark is None else in_mark / c["major_faults"]))
    return rows


def main() -> None:
    runs = compiles()
    print(f"{'ggc_for':<8} {'collections':>11} {'peak_mib':>8} {'live_mib':>8} {'mark_share':>10}")
    for label, count, peak, live, share in (collector_row(k, *v) for k, v in runs.items()):
        print(f"{label:<8} {count:>11} {peak:>8.1f} {live:>8.1f} {share:>10.3f}")
    print()
    print(f"{'policy':<16} {'ggc_for':<7} {'major':>6} {'swap_in':>7} {'swap_out':>8} "
          f"{'elapsed_s':>9} {'in_mark':>7}")
    for policy, label, major, swap_in, swap_out, elapsed, in_mark in policy_rows(runs):
        share = "-" if in_mark is None else f"{in_mark:.2f}"
        print(f"{policy:<16} {label:<7} {major:>6} {swap_in:>7} {swap_out:>8} {elapsed:>9.1f} "
              f"{share:>7}")


if __name__ == "__main__":
    main()
