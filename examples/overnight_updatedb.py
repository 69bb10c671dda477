"""The interactive program evicted overnight: which VMs keep an idle editor's pages while
updatedb streams through the page cache?

Day: an editor (pid 2) writes its 3000 pages (12 MiB), then reads them 9 times. Night: the
editor idles while updatedb (pid 1) reads 60000 file pages (234 MiB) once each. Morning: the
editor reads its pages again. 8000 frames (31 MiB), a 2002 IDE disk, the trace order (static
schedule: day, night, morning), swap readahead of 8 slots (the default).

The editor's pages fit in memory with room to spare; only the stream, whose pages are never
used twice, can push them out. A policy that evicts by recency or arrival alone (lru, clock,
fifo) loses all of them: the 8000 most recent pages at dawn are updatedb's. They were swapped
out in the order of their last use, 0 to 2999, onto consecutive slots, so the morning's reads in
that order fault once per readahead window: 376 major faults, each a read of 8 consecutive slots
but the first, of 7, and the last, of 1 (Linux aligns the windows on swap offsets, whose first
is the swap header's). Policies that keep pages used once apart from pages used again
(active/inactive lists, ARC, LIRS, ...) protect the editor, and so does FreeBSD 5, which keeps
pages read() on its inactive queue, apart from the editor's faulted-in pages; the table says
which do and how long the editor waits at its first keystrokes.

Run: PYTHONPATH=_build/python /usr/bin/python3 examples/overnight_updatedb.py
"""
import numpy as np

import pagesim

EDITOR, UPDATEDB = 2, 1
EDITOR_PAGES, FILE_PAGES, FRAMES = 3000, 60000, 8000
POLICIES = ("lru", "fifo", "clock", "random", "rmap_aging", "linux24_vscan", "linux24_mq",
            "active_inactive",
            "freebsd", "mglru", "two_q", "arc", "car", "clock_pro", "lirs", "s3fifo", "lru_k",
            "sieve", "wsclock", "lfu", "lrfu", "gclock")


def overnight_trace() -> pagesim.Trace:
    editor = np.arange(EDITOR_PAGES)
    day = np.tile(editor, 10)
    night = 1_000_000 + np.arange(FILE_PAGES)  # file pages, in their own page numbers
    pages = np.concatenate([day, night, editor])
    writes = np.zeros(pages.size, dtype=np.uint8)
    writes[:EDITOR_PAGES] = 1  # the first pass writes every page: all are dirty anonymous memory
    pids = np.concatenate([np.full(day.size, EDITOR), np.full(FILE_PAGES, UPDATEDB),
                           np.full(EDITOR_PAGES, EDITOR)])
    kinds = np.concatenate([np.zeros(day.size, np.uint8), np.ones(FILE_PAGES, np.uint8),
                            np.zeros(EDITOR_PAGES, np.uint8)])
    return pagesim.Trace.from_arrays(pages, writes=writes, pids=pids, kinds=kinds)


def morning_table(trace: pagesim.Trace):
    """One row per policy: the editor's major faults and IO wait, updatedb's, the swap-outs."""
    rows = []
    for policy in POLICIES:
        r = pagesim.simulate(trace, policy, frames=FRAMES, device="hdd-2002", schedule="static",
                             interval_ns=0)
        t = r.time_summary()
        rows.append((policy, int(t.loc[EDITOR, "major_faults"]), float(t.loc[EDITOR, "iowait_s"]),
                     int(t.loc[UPDATEDB, "major_faults"]), r["swap_outs"]))
    return rows


if __name__ == "__main__":
    print(f"{'policy':<16} {'editor_major':>12} {'editor_wait_s':>13} {'updatedb_major':>14} "
          f"{'swap_outs':>9}")
    for policy, major, wait, stream_major, swap_outs in morning_table(overnight_trace()):
        print(f"{policy:<16} {major:>12} {wait:>13.3f} {stream_major:>14} {swap_outs:>9}")
