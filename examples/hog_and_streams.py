"""A memory hog and three streams: which VMs swap out a working process to cache file pages
that are never read again?

From the 2001-2004 VM threads: a process allocates and writes nearly all of RAM and goes on
writing it while `ls -lR`, `updatedb` and `dd` read through the page cache. The hog (pid 1,
the `hog` generator) writes its 7168 pages (28 MiB) three times over. The streams (the
`stream` generator) read 21504 file pages (84 MiB) once each, one after another: ls -lR
(pid 2, 2048 files of one page), updatedb (pid 3, 4096 pages in 1024 files), dd (pid 4, one
file of 15360 pages). The hog and the streams take turns of 256 pages (1 MiB): the hog writes
a page for each page the streams read. 8192 frames (32 MiB), a 2002 IDE disk, swap readahead
of 8 slots (the default), reclaim of 32 pages whenever memory is full (SWAP_CLUSTER_MAX, what
2.4 and 2.6 free per call of try_to_free_pages: low_watermark=0, high_watermark=32), the
trace order as the schedule (schedule="static"; round robin, the engine's default for several
processes, would run the hog's 21504 writes at 100 ns each in its first 2.15 ms and then let
it sleep, the situation of overnight_updatedb.py).

The hog fits with 1024 frames to spare, and a stream's page is dead once read: it is one
major fault under every policy (21504 in all), and belady, which sees the future, swaps
nothing out. Nor do the VMs that keep pages used once apart from pages used again: the 2.6
active/inactive lists (workingset detection changes nothing: no file page is read twice)
and the 6.1 multi-gen LRU; nor does FreeBSD 5, with or without defer_swapspace_pageouts,
which keeps pages read() apart from mapped ones (a page read() enters its inactive queue,
where the buffer cache releases it: vfs_vmio_release -> vm_page_unwire(m, 0), and a later
read() puts it back at the tail; the page daemon frees it from there, while the hog's pages,
which page faults put on the active queue, stay). Their runs take 9.41 s: the streams' reads
and 4.3 ms of CPU time.

Recency alone cannot tell the hog from the streams. Between two writes of a hog page come
the 7167 other hog pages and 7168 stream pages, more than memory holds, so lru evicts every
hog page before its next write: all 14336 rewrites of passes 2 and 3 are swap-ins, read 8
slots at a time but for each pass's first and last window (1794 major faults), and every write
is a swap-out but for the 4089 pages still resident at the end: 17415. The hog waits 12.5 s
for its swap-ins and the run takes 25.8 s, 2.7 times as long as without swapping. two_q swaps
as many pages out and in (its ghost list A1out remembers 4096 evicted pages; a hog page comes
back some 6000 evictions after its own), clock as many out, with 4 more major faults: a
readahead window that spans two turns leaves the next turn's first pages unreferenced through
a stream block, where its hand can take them.

The 2.4 VMs give in part of the way: rmap_aging swaps out 8587 hog pages and reads 4704 back
(page_launder_zone writes a page at the inactive_dirty tail and frees it on a later pass, and
a page written to in between is written again), with 2.4.0's constants (aging=exponential)
14279, and 2.4.17's linux24_vscan 2044 pages, of which it frees only 864: it frees the
streams' pages from its inactive list, but calls swap_out, which walks the hog's page tables,
whenever too many of the pages it scans there are mapped; swap_out unmaps hog pages into the
swap cache, up to 32 a call, shrink_cache writes each when it reaches it and frees it when it
comes round to it again, and a page the hog touches in between is mapped again (asked for one
page at a time, the engine's default, which 2.4.17's try_to_free_pages never does, it swaps
out 225). The hog's size decides: at 20 MiB rmap_aging and linux24_vscan swap out nothing, at 30 MiB
13320 and 11345 (lru 18183), while active_inactive and mglru still swap out nothing. freebsd
swaps out 764 there (none with defer_swapspace_pageouts): the 512 frames the hog leaves cannot
hold its inactive target of 924 pages (v_inactive_target, as vm_pageout sets it for 8192 pages),
so the active scan that follows every inactive scan deactivates hog pages. 2.4.0 as it shipped
(linux24_mq, no reverse map) swaps out 16296, 8700 even at 20 MiB: its swap_out halves the age
of up to max(rss >> 5, 8) = 224 hog ptes a call, while refill_inactive_scan halves at most
nr_active >> priority stream pages and stops at the first it deactivates. Yet its run is shorter
than lru's, 20.30 s against 25.81: page_launder's second loop writes every dirty page of
inactive_dirty at once, and the disk serves those writes (666 requests; lru's 601) with half the
seeks, 562 against 1121. arc swaps out 8056 pages, yet its hog faults almost as often as under
lru (1777 major faults).

Run: PYTHONPATH=_build/python /usr/bin/python3 examples/hog_and_streams.py
"""
import pagesim

HOG, LS, UPDATEDB, DD = 1, 2, 3, 4
STREAMS = (LS, UPDATEDB, DD)
FRAMES, HOG_MIB, HOG_PASSES, TURN = 8192, 28, 3, 256
# Reclaim SWAP_CLUSTER_MAX pages when memory is full (at most 0 free frames, up to 32 free).
BATCH = {"low_watermark": 0, "high_watermark": 32}
# (label, policy, parameters); a label is the command line's `--policies` spelling.
POLICIES = (
    ("lru", "lru", {}),
    ("clock", "clock", {}),
    ("rmap_aging(aging=exponential)", "rmap_aging", {"aging": "exponential"}),
    ("rmap_aging", "rmap_aging", {}),
    ("linux24_vscan", "linux24_vscan", {}),
    ("linux24_mq", "linux24_mq", {}),
    ("active_inactive", "active_inactive", {}),
    ("active_inactive(workingset=true)", "active_inactive", {"workingset": True}),
    ("mglru", "mglru", {}),
    ("freebsd", "freebsd", {}),
    ("freebsd(defer_swapspace_pageouts=true)", "freebsd", {"defer_swapspace_pageouts": True}),
    ("two_q", "two_q", {}),
    ("arc", "arc", {}),
    ("belady", "belady", {}),
)


def one_after_another(traces) -> pagesim.Trace:
    """The traces in sequence: interleaved in turns longer than any of them."""
    return pagesim.interleave(traces, quantum=max(t.num_accesses for t in traces))


def hog_and_streams_trace(hog_mib: int = HOG_MIB) -> pagesim.Trace:
    """The hog's passes and the three streams, in turns of TURN accesses."""
    hog = pagesim.generate("hog", mib=hog_mib, passes=HOG_PASSES, pid=HOG)
    streams = one_after_another([
        pagesim.generate("stream", mib=8, files=2048, seed=1, pid=LS),
        pagesim.generate("stream", mib=16, files=1024, seed=2, pid=UPDATEDB),
        pagesim.generate("stream", mib=60, files=1, pid=DD),
    ])
    return pagesim.interleave([hog, streams], quantum=TURN)


def run(trace: pagesim.Trace, policy: str, params: dict) -> pagesim.Result:
    return pagesim.simulate(trace, policy, frames=FRAMES, device="hdd-2002", schedule="static",
                            interval_ns=0, **BATCH, **params)


def hog_runs(trace: pagesim.Trace):
    """(label, Result) for each of POLICIES."""
    return [(label, run(trace, policy, params)) for label, policy, params in POLICIES]


def hog_row(label: str, r: pagesim.Result):
    """The hog's pages swapped out and in (readahead included), its major faults (each a
    swap-in) and IO wait, the streams' major faults, the elapsed time."""
    procs = r.to_frame().set_index("pid")
    hog = procs.loc[HOG]
    time = r.time_summary()
    return (label, int(hog["swap_outs"]), int(hog["swap_ins"] + hog["readahead_pages"]),
            int(hog["major_faults"]), float(time.loc[HOG, "iowait_s"]),
            int(procs.loc[list(STREAMS), "major_faults"].sum()),
            float(time.loc["all", "elapsed_s"]))


def hog_table(trace: pagesim.Trace):
    """One row per policy (hog_row)."""
    return [hog_row(label, r) for label, r in hog_runs(trace)]


def main() -> None:
    print(f"{'policy':<38} {'hog_out':>7} {'hog_in':>7} {'hog_major':>9} {'hog_wait_s':>10} "
          f"{'stream_major':>12} {'elapsed_s':>9}")
    for label, out, pages_in, major, wait, stream_major, elapsed in hog_table(
            hog_and_streams_trace()):
        print(f"{label:<38} {out:>7} {pages_in:>7} {major:>9} {wait:>10.2f} {stream_major:>12} "
              f"{elapsed:>9.2f}")


if __name__ == "__main__":
    main()
