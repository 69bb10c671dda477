"""The example scripts run and print what the README shows; the overnight example's recency
rows, and the hog example's lru row and its runs without swapping, are worked out by hand; the
big compile example's explanation is counted."""
import importlib.util
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pagesim

ROOT = Path(__file__).resolve().parents[2]


def readme_output(command: str) -> str:
    """The lines the README shows under `$ command`, up to the end of its code block."""
    text = (ROOT / "README.md").read_text()
    start = text.index(f"$ {command}\n") + len(command) + 3
    return text[start:text.index("```", start)]


@pytest.mark.parametrize("script", ["overnight_updatedb.py", "read_priority_seeks.py",
                                    "kbuild_exits.py", "hog_and_streams.py", "big_compile.py",
                                    "swap_token.py", "where_writes_go.py"])
def test_readme_shows_what_the_example_prints(script):
    printed = subprocess.run([sys.executable, str(ROOT / "examples" / script)], check=True,
                             capture_output=True, text=True, env=os.environ).stdout
    assert printed == readme_output(f"PYTHONPATH=_build/python /usr/bin/python3 examples/{script}")


def load_example(script: str):
    path = ROOT / "examples" / script
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_overnight():
    return load_example("overnight_updatedb.py")


def test_overnight_recency_policies_by_hand():
    # Day: the editor's 3000 pages (ids 0..2999) are written, then read 9 times, in id order;
    # 8000 frames, so nothing is evicted. Night: updatedb reads 60000 file pages (ids 3000..
    # 62999), each a file read: the first 5000 fill memory, the next 3000 evict the editor's
    # pages in id order (the order of their last use, of their arrival, and of the clock hand
    # after its first round clears their referenced bits), each to the next swap slot: slots
    # 0..2999. The other 52000 evict updatedb's own clean pages. Morning: the editor reads
    # pages 0..2999. A fault on slot s reads its window, Linux's offsets [b, b + 8) with
    # b = ((s + 1) >> 3) << 3 (offset s + 1: offset 0 is the swap header, which the first
    # window skips): slots [max(b, 1) - 1, b + 7), forward up to the first free slot. Page 0's
    # fault reads slots 0..6 (pages 0..6), the fault on page 8k - 1 (k = 1..374) slots
    # 8k - 1..8k + 6, page 2999's slot 2999 alone (slot 3000 is free), each in one request;
    # the other pages are hits: 1 + 374 + 1 = 376 major faults, 3000 - 376 = 2624 read ahead.
    #
    # hdd-2002, swap area 2 x 63000 = 126000 slots, then the file pages in vpn order, at
    # 126000 + 0 .. 59999, in a span of 126000 + 63000 = 189000 positions. The night's last
    # read leaves the head at 126000 + 59999 + 1 = 186000; each swap write went long before,
    # at once on the idle disk when updatedb's next fault evicted (updatedb waits for each of
    # its reads). The first morning read, of 7 pages, moves the head by 186000:
    #   overhead 0.3 ms + seek 1 + (8.5 - 1) * sqrt(186000 / 189000) * 15/8 = 14.9504464 ms
    #   + rotation 4.17 ms + 7 pages * 4096 B / 30 MB/s = 0.9557333 ms = 20376180 ns (rounded)
    # and ends where the next begins, so each of the 374 reads of 8 pages costs overhead +
    # transfer, and so does the last, of 1 page:
    #   0.3 ms + 8 * 4096 B / 30 MB/s = 0.3 ms + 1.0922667 ms        = 1392267 ns (rounded)
    #   0.3 ms + 4096 B / 30 MB/s = 0.3 ms + 0.1365333 ms             =  436533 ns (rounded)
    # The disk is idle at each fault, so the editor waits for exactly these.
    overnight = load_overnight()
    trace = overnight.overnight_trace()
    wait_ns = 20_376_180 + 374 * 1_392_267 + 436_533
    for policy in ("lru", "clock", "fifo"):
        r = pagesim.simulate(trace, policy, frames=8000, device="hdd-2002", schedule="static",
                             interval_ns=0)
        editor = {p["pid"]: p for p in r.per_process_time}[overnight.EDITOR]
        counters = {p["pid"]: p for p in r.per_process}
        assert counters[overnight.EDITOR]["major_faults"] == 376, policy
        assert counters[overnight.EDITOR]["readahead_used"] == 3000 - 376, policy
        assert counters[overnight.UPDATEDB]["file_reads"] == 60000, policy
        assert r["swap_outs"] == 3000, policy
        assert editor["iowait_ns"] == wait_ns, policy


def test_overnight_table_is_consistent():
    # Every file page is read once whatever the policy; a policy that keeps the editor's pages
    # swaps nothing out (only the editor has anonymous pages) and the editor never waits.
    overnight = load_overnight()
    rows = overnight.morning_table(overnight.overnight_trace())
    assert [row[0] for row in rows] == list(overnight.POLICIES)
    for policy, major, wait, stream_major, swap_outs in rows:
        assert stream_major == 60000, policy
        assert (major == 0) == (swap_outs == 0) == (wait == 0), policy
    kept = {row[0] for row in rows if row[1] == 0}
    assert {"active_inactive", "linux24_vscan", "freebsd", "mglru", "arc", "lirs"} <= kept
    # "linux24_mq ... waits longer, 0.755 s: its morning's 376 reads seek 35 times, lru's once
    # (its night's 3000 swap-outs reach the disk as 99 writes, page_launder's batches, against
    # lru's 3000)".
    by_policy = {row[0]: row for row in rows}
    assert by_policy["linux24_mq"][1:] == (376, pytest.approx(0.755, abs=5e-4), 60000, 3000)
    assert by_policy["lru"][2] < by_policy["linux24_mq"][2]
    trace = overnight.overnight_trace()
    dawn = len(trace) - overnight.EDITOR_PAGES
    def disk(policy, accesses):
        return pagesim.simulate(trace[:accesses], policy, frames=overnight.FRAMES,
                                device="hdd-2002", schedule="static", interval_ns=0).device_stats
    for policy, morning_seeks, night_writes in (("linux24_mq", 35, 99), ("lru", 1, 3000)):
        night, day = disk(policy, dawn), disk(policy, len(trace))
        assert (day["reads"] - night["reads"], day["seeks"] - night["seeks"]) == (376, morning_seeks)
        assert (night["writes"], night["pages_written"]) == (night_writes, 3000)
    # "wsclock keeps the editor by its clock ... and took the first clean page it met,
    # updatedb's first": the editor's pages are never evicted, updatedb's first is evicted first.
    assert "wsclock" in kept
    r = pagesim.simulate(overnight.overnight_trace(), "wsclock", frames=overnight.FRAMES,
                         device="hdd-2002", schedule="static", interval_ns=0, page_stats=True)
    pages = r.page_stats()
    assert pages[pages["pid"] == overnight.EDITOR]["evictions"].sum() == 0
    # Up to the night's first eviction: the day's 30,000 accesses and updatedb's first 5001.
    prefix = overnight.overnight_trace()[:30_000 + overnight.FRAMES - overnight.EDITOR_PAGES + 1]
    first = pagesim.simulate(prefix, "wsclock", frames=overnight.FRAMES, page_stats=True).page_stats()
    assert first[first["evictions"] > 0][["pid", "vpn"]].values.tolist() == [[overnight.UPDATEDB, 1_000_000]]
    # "lfu keeps the editor by its counts; lrfu ... at its first eviction an editor page last
    # used 8000 accesses before weighs 2^-8 x 1.14, less than updatedb's oldest page (2^-5)":
    # the editor's page 0, used first in the day's last pass, is the night's first victim.
    assert "lfu" in kept and by_policy["lrfu"][1:] == by_policy["lru"][1:]
    # "So does gclock ...: the night's 58,000 evictions make the hand pass 70,000 pages
    # (128,000 scanned with the victims)".
    assert by_policy["gclock"][1:] == by_policy["lru"][1:]
    r = pagesim.simulate(overnight.overnight_trace(), "gclock", frames=overnight.FRAMES,
                         device="hdd-2002", schedule="static", interval_ns=0)
    assert (r["evictions"], r["pages_scanned"]) == (58_000, 128_000)
    first = pagesim.simulate(prefix, "lrfu", frames=overnight.FRAMES, page_stats=True).page_stats()
    assert first[first["evictions"] > 0][["pid", "vpn"]].values.tolist() == [[overnight.EDITOR, 0]]


@pytest.fixture(scope="module")
def hog_example():
    return load_example("hog_and_streams.py")


@pytest.fixture(scope="module")
def hog_trace(hog_example):
    return hog_example.hog_and_streams_trace()


@pytest.fixture(scope="module")
def hog_results(hog_example, hog_trace):
    return dict(hog_example.hog_runs(hog_trace))


@pytest.fixture(scope="module")
def hog_rows(hog_example, hog_results):
    return {label: hog_example.hog_row(label, r) for label, r in hog_results.items()}


def test_hog_lru_by_hand(hog_example, hog_results):
    # The trace: the hog's 7168 pages (vpn order k = 0..7167) written in 3 passes, 21504
    # writes; the streams' 21504 file pages, each read once (ls -lR, updatedb, dd one after
    # another). They alternate in turns of 256: hog block, stream block, ..., 84 of each, the
    # last a stream block. A stream page's only access is its first: a file read, a major
    # fault, whatever the policy: 21504.
    #
    # lru. Between two writes of hog page k come the 7167 other hog pages and exactly 28
    # stream blocks (each hog block is followed by one): 14335 distinct pages > 8192 frames,
    # so k is evicted before each of its rewrites. So no access hits except the readahead
    # below, the recency order is the access order, and reclaim (32 at a time when memory is
    # full) takes the oldest pages in access order.
    # Pass 1: 7168 minor faults. The first evictions (memory is full after 8192 page-ins) take
    # pages in access order, so the hog's in vpn order, each dirty, each to the next free swap
    # slot (scan_swap_map on a fresh swap map): page k gets slot k. The swap cache keeps the
    # slot when the page comes back, and its next swap-out rewrites that slot.
    # Passes 2 and 3: a fault on slot s reads its window, Linux's offsets [b, b + 8) with
    # b = ((s + 1) >> 3) << 3 (offset s + 1: offset 0 is the swap header, which the first
    # window skips): slots [max(b, 1) - 1, b + 7), forward up to the first free slot; none of
    # its pages is resident. Page 0's fault reads slots 0..6 (pages 0..6), the fault on page
    # 8j - 1 (j = 1..895) pages 8j - 1..8j + 6, page 7167's slot 7167 alone (slot 7168 is
    # free); the writes between hit. A window that spans two turns (page 255's, pages
    # 255..262) stays through the stream block between: reclaim takes the list's tail, and
    # its pages went in at the head. 1 + 895 + 1 = 897 major faults a pass, 1794 in all, each
    # a swap-in; 2 * 7168 = 14336 pages read, 14336 - 1794 = 12542 of them readahead, all used.
    # The end: after the first 8192 page-ins (pass 1's first 16 blocks, 16 stream blocks), a
    # fault that finds no frame free reclaims 32, one whose read needs more frames than are
    # free reclaims the difference. A stream block, 256 page-ins of 1, leaves the number of
    # free frames as it found it (0..32), as do pass 1's other blocks: pass 2 starts with none
    # free. Page 0's read of 7 leaves 25, the reads of 8 on pages 7, 15, 23 leave 17, 9, 1,
    # page 31's reclaims 7 and leaves 0, as does every 4th read from there: each hog block
    # ends with 0 free (the first reads 7 + 32 * 8 pages, each of the next 26 32 * 8) but the
    # last, whose 31 reads of 8 (31 = 4 * 7 + 3) leave 8 and page 7167's of 1 leaves 7. Pass
    # 3's read of 7 takes them, pages 7..31 leave 24, 16, 8, 0, and from there it goes as pass
    # 2: it ends with 7 free, and so does the last stream block. So 34816 + 7 pages are
    # evicted (32 at a time, and 7 once), and memory ends with 8185 pages, the most recently
    # used: the last 16 stream blocks, the last 15 hog blocks and the last 249 pages of the hog
    # block before them, 3079..3327 (3072..3078, hit first in it, are gone): 15 * 256 + 249 =
    # 4089 hog pages. Each of the other 21504 - 4089 hog writes is followed by the eviction of
    # its page, dirty: 17415 swap-outs.
    assert (hog_example.FRAMES, hog_example.TURN) == (8192, 256)
    r = hog_results["lru"]
    procs = {p["pid"]: p for p in r.per_process}
    hog = procs[hog_example.HOG]
    assert hog["minor_faults"] == 7168
    assert hog["major_faults"] == hog["swap_ins"] == 1794
    assert hog["readahead_pages"] == hog["readahead_used"] == 12542
    assert hog["readahead_wasted"] == 0
    assert hog["swap_outs"] == r["swap_outs"] == 17415
    assert r["hits"] == 12542
    for pid in hog_example.STREAMS:
        assert procs[pid]["major_faults"] == procs[pid]["file_reads"] == procs[pid]["accesses"]
    assert sum(procs[pid]["file_reads"] for pid in hog_example.STREAMS) == 21504


def test_hog_runs_without_swapping_by_hand(hog_results, hog_rows):
    # A policy that swaps nothing out leaves the disk to the streams' reads, one page each,
    # synchronous (static schedule) on an idle disk: elapsed = CPU time + their service times.
    # hdd-2002 puts 2 * 28672 swap slots first, then the file pages by process and vpn: ls -lR's
    # 2048, updatedb's 4096, dd's 15360, each in the order its process reads them; the span is
    # 3 * 28672 = 86016. The streams read one after another, so the reads follow one another on
    # the disk: the first moves the head from 0 to 57344, the other 21503 follow on. A read
    # costs 0.3 ms + 4096 B / 30 MB/s, plus, if the head moves by d, 1 ms + (8.5 - 1) ms * 15/8
    # * sqrt(d / span) + 4.17 ms of rotation, rounded to the ns. CPU: 43008 accesses of 100 ns.
    pages, span = 7168 + 21504, 3 * (7168 + 21504)

    def read_ns(d: int) -> int:
        ns = 0.3e6 + 4096 * 1e3 / 30
        if d:
            ns += 1e6 + 7.5e6 * 15 / 8 * math.sqrt(d / span) + 4.17e6
        return int(ns + 0.5)

    elapsed_ns = 43008 * 100 + read_ns(2 * pages) + (21504 - 1) * read_ns(0)
    assert elapsed_ns == 9_408_158_416
    kept = [label for label, out, *_ in hog_rows.values() if out == 0]
    assert kept == ["active_inactive", "active_inactive(workingset=true)", "mglru", "freebsd",
                    "freebsd(defer_swapspace_pageouts=true)", "belady"]
    for label in kept:
        assert hog_results[label].time["elapsed_ns"] == elapsed_ns, label
        assert hog_results[label].time["user_ns"] == 43008 * 100, label  # "4.3 ms of CPU"


def test_hog_table_is_consistent(hog_example, hog_trace, hog_results, hog_rows):
    rows = hog_rows
    assert list(rows) == [label for label, _, _ in hog_example.POLICIES]
    for label, r in hog_results.items():
        _, out, pages_in, major, wait, stream_major, elapsed = rows[label]
        # Every stream page is read once: one major fault each, whatever the policy.
        assert stream_major == 21504, label
        # The hog's pages are all written before any eviction, so each refault finds a swap
        # copy: every hog major fault is a swap-in. A policy that never swaps out the hog
        # never swaps it in and the hog never waits; one that does, does both.
        hog = {p["pid"]: p for p in r.per_process}[hog_example.HOG]
        assert hog["major_faults"] == hog["swap_ins"], label
        assert hog["zero_refills"] == 0, label
        assert (out == 0) == (pages_in == 0) == (major == 0) == (wait == 0), label
    # "The hog fits with 1024 frames to spare": belady (MIN) evicts a page never used again
    # while one is resident, and at least 1024 stream pages, all dead once read, are.
    assert hog_example.FRAMES - 7168 == 1024
    # "workingset detection changes nothing: no file page is read twice".
    info = pagesim.traces.summary(hog_trace)
    assert info["file_pages"] == sum(p["accesses"] for p in info["processes"]
                                     if p["pid"] in hog_example.STREAMS) == 21504
    assert rows["active_inactive(workingset=true)"][1:] == rows["active_inactive"][1:]
    # lru (worked out above): 7167 + 7168 pages between two writes, more than memory holds.
    assert 7167 + 7168 > hog_example.FRAMES
    lru = rows["lru"]
    assert lru[1:4] == (17415, 14336, 1794)
    assert round(lru[4], 1) == 12.5  # "the hog waits 12.5 s"
    assert round(lru[6], 1) == 25.8 and round(lru[6] / rows["belady"][6], 1) == 2.7
    # two_q swaps as many pages out and in: it admits a page to Am only if A1out (Kout = 0.5 *
    # 8192 ids) still remembers it, but in this FIFO order a hog page comes back 2 * 7168 -
    # 8192 = 6144 evictions after its own (32 fewer at most with batches), which is more than
    # 4096.
    assert rows["two_q"][1:4] == lru[1:4]
    assert 2 * 7168 - hog_example.FRAMES - 32 > hog_example.FRAMES // 2
    # clock swaps as many out and faults 4 times more. It is FIFO here but for readahead
    # pages, which enter unreferenced: page 1023's window (pages 1023..1030) leaves pages
    # 1024..1030 through a stream block before the hog's next turn, and the hand, which finds
    # most pages referenced, can reach them first. Pass 2's write of page 1024, access 14336 +
    # 4 * 512 = 16384, is a hit under lru and a major fault under clock.
    assert rows["clock"][1] == lru[1] and rows["clock"][3] == lru[3] + 4

    def hog_major_faults(policy, accesses):
        columns = {name: np.asarray(getattr(hog_trace, name))
                   for name in ("page_procs", "page_vpns", "page_kinds", "proc_pids")}
        prefix = pagesim.Trace.from_columns(np.asarray(hog_trace.pages)[:accesses].copy(),
                                            np.asarray(hog_trace.writes)[:accesses].copy(),
                                            **columns)
        r = hog_example.run(prefix, policy, {})
        return {p["pid"]: p for p in r.per_process}[hog_example.HOG]["major_faults"]

    # Page ids go by first access, a turn's 256 hog pages then the streams' 256: hog page
    # 1024 is id 2048.
    assert np.asarray(hog_trace.pages)[16384] == 2048
    assert np.asarray(hog_trace.page_vpns)[2048] - np.asarray(hog_trace.page_vpns)[0] == 1024
    for policy, fault in (("lru", 0), ("clock", 1)):
        assert hog_major_faults(policy, 16385) - hog_major_faults(policy, 16384) == fault
    # The 2.4 VMs give in part of the way; arc less than half of lru's swap-outs, yet about as
    # many hog major faults.
    assert (rows["rmap_aging"][1], rows["rmap_aging(aging=exponential)"][1],
            rows["linux24_vscan"][1]) == (8587, 14279, 2044)
    # "rmap_aging writes more hog pages than it reads back, 8587 against 4704": each write
    # page_launder_zone's, and none at an eviction.
    assert rows["rmap_aging"][1:3] == (8587, 4704)
    assert hog_results["rmap_aging"].counters["writebacks"] == 8587
    assert hog_results["rmap_aging"].counters["evictions_dirty"] == 0
    # "linux24_vscan writes 2044 hog pages but frees only 864 of them, each read back later":
    # every write shrink_cache's writepage of a page swap_out left in the swap cache, every
    # eviction clean.
    vscan_hog = hog_results["linux24_vscan"].to_frame().set_index("pid").loc[hog_example.HOG]
    assert (vscan_hog["writebacks"], vscan_hog["evictions"]) == (2044, 864)
    assert vscan_hog["evictions_dirty"] == 0
    assert rows["linux24_vscan"][2] == 864
    vscan_pages = hog_example.run(hog_trace, "linux24_vscan", {"page_stats": True}).page_stats()
    assert (vscan_pages.loc[vscan_pages["pid"] == hog_example.HOG, "writes"] > 0).sum() == 2044
    assert all(0 < rows[label][1] < lru[1]
               for label in ("rmap_aging", "rmap_aging(aging=exponential)", "linux24_vscan"))
    # linux24_vscan asked for one victim per fault (no watermarks) instead of 32.
    one_at_a_time = pagesim.simulate(hog_trace, "linux24_vscan", frames=hog_example.FRAMES,
                                     device="hdd-2002", schedule="static", interval_ns=0)
    assert one_at_a_time["swap_outs"] == 225
    # 2.4.0 as shipped swaps out nearly as many as lru, yet finishes sooner: page_launder's
    # batches of writes take half the seeks.
    assert rows["linux24_mq"][1:4] == (16296, 14340, 1796)
    assert 0 < rows["linux24_mq"][1] < lru[1]
    assert (round(rows["linux24_mq"][6], 2), round(lru[6], 2)) == (20.30, 25.81)
    assert 7168 >> 5 == 224
    mq_disk = hog_results["linux24_mq"].device_stats
    lru_disk = hog_results["lru"].device_stats
    assert (mq_disk["writes"], lru_disk["writes"]) == (666, 601)
    assert (mq_disk["seeks"], lru_disk["seeks"]) == (562, 1121)
    assert rows["arc"][1] == 8056 and 2 * rows["arc"][1] < lru[1]
    assert rows["arc"][3] == 1777 and 100 * (lru[3] - rows["arc"][3]) < lru[3]


def test_hog_size_decides(hog_example):
    # "at 20 MiB rmap_aging and linux24_vscan swap out nothing, at 30 MiB 13320 and 11345
    # (lru 18183), while active_inactive and mglru still swap out nothing. freebsd swaps out
    # 764 there (none with defer_swapspace_pageouts)".
    def swap_outs(mib, policy):
        return hog_example.run(hog_example.hog_and_streams_trace(mib), policy, {})["swap_outs"]

    assert swap_outs(20, "rmap_aging") == swap_outs(20, "linux24_vscan") == 0
    assert (swap_outs(30, "rmap_aging"), swap_outs(30, "linux24_vscan"),
            swap_outs(30, "lru")) == (13320, 11345, 18183)
    assert swap_outs(30, "active_inactive") == swap_outs(30, "mglru") == 0
    assert swap_outs(30, "freebsd") == 764
    defer = {"defer_swapspace_pageouts": True}
    hog30 = hog_example.hog_and_streams_trace(30)
    assert hog_example.run(hog30, "freebsd", defer)["swap_outs"] == 0
    # "2.4.0 as it shipped (linux24_mq) ... 8700 even at 20 MiB".
    assert swap_outs(20, "linux24_mq") == 8700


def test_hog_sleeps_under_round_robin(hog_example, hog_trace):
    # Round robin (the default for several processes) runs a process until it blocks or its
    # 10 ms quantum ends: the hog, first and never blocked (its faults are minor), does its
    # 21504 writes of 100 ns in its first 2.15 ms, then sleeps.
    r = pagesim.simulate(hog_trace, "lru", frames=hog_example.FRAMES, device="hdd-2002",
                         interval_ns=0, **hog_example.BATCH)
    hog = {p["pid"]: p for p in r.per_process_time}[hog_example.HOG]
    assert hog["elapsed_ns"] == hog["user_ns"] == 21504 * 100
    assert hog["major_faults"] == 0


def test_overnight_rmap_aging_writes_pages_it_has_not_freed_by_dawn():
    # "rmap_aging loses almost half of them, 1406 pages (176 faults, 0.264 s), and writes 241
    # more that page_launder_zone had written but not yet freed at dawn (1647 swap-outs)".
    overnight = load_overnight()
    r = pagesim.simulate(overnight.overnight_trace(), "rmap_aging", frames=overnight.FRAMES,
                         device="hdd-2002", schedule="static", interval_ns=0, page_stats=True)
    editor = r.page_stats().query(f"pid == {overnight.EDITOR}")
    assert (editor.evictions > 0).sum() == editor.evictions.sum() == 1406
    assert (editor.writes == 1).sum() == editor.writes.sum() == r["swap_outs"] == 1647
    assert r["writebacks"] == 1647 and r["evictions_dirty"] == 0
    # The 241 written and kept were laundered last: each one still resident at the end.
    kept = editor[(editor.writes == 1) & (editor.evictions == 0)]
    assert len(kept) == 241
    t = r.time_summary()
    assert (t.loc[overnight.EDITOR, "major_faults"], round(t.loc[overnight.EDITOR, "iowait_s"], 3)) == (176, 0.264)


def test_overnight_lru_k_loses_the_editor_when_its_references_are_one_burst():
    # The README: each editor page is referenced once per pass of 3000 accesses. With a
    # correlated period shorter than that, its ten references count and LRU-2 keeps it (updatedb's
    # pages have one); with 3000 or more, they are one burst, the editor's pages have one
    # reference like updatedb's, and the oldest go: the recency policies' 376 readahead faults.
    overnight = load_overnight()
    trace = overnight.overnight_trace()
    for period, major in ((0, 0), (2999, 0), (3000, 376)):
        r = pagesim.simulate(trace, "lru_k", frames=8000, device="hdd-2002", schedule="static",
                             interval_ns=0, correlated_period=period)
        counters = {p["pid"]: p for p in r.per_process}
        assert counters[overnight.EDITOR]["major_faults"] == major, period


def test_readme_python_policy_passes_its_own_tests():
    # The README's "In Python" block: a policy class and two pytest tests, run as written.
    text = (ROOT / "README.md").read_text()
    start = text.index("```python\nfrom collections import OrderedDict\n") + len("```python\n")
    namespace = {}
    exec(text[start:text.index("```", start)], namespace)
    tests = [name for name in namespace if name.startswith("test_")]
    assert tests == ["test_my_lru_conforms", "test_my_lru_is_no_better_than_min_on_a_scan"]
    for name in tests:
        namespace[name]()


@pytest.fixture(scope="module")
def compile_example():
    return load_example("big_compile.py")


@pytest.fixture(scope="module")
def compile_runs(compile_example):
    return compile_example.compiles()


@pytest.fixture(scope="module")
def compile_rows(compile_example, compile_runs):
    return {(row[0], row[1]): row[2:] for row in compile_example.policy_rows(compile_runs)}


def test_big_compile_collections(compile_example, compile_runs):
    # "34% and 8 MiB for this 64 MiB machine ... 100% and 128 MiB for a 1 GiB one" (the C++
    # tests check the heuristics): with its own thresholds gcc collects 34 times, the heap in
    # use reaching 111 MiB, 1.7 times memory; with a 1 GiB machine's, once, at 256 MiB in use
    # (65548 pages), three quarters of it garbage.
    small, small_gcs = compile_runs["64M"]
    big, big_gcs = compile_runs["1G"]
    assert len(small_gcs) == 34
    peak = max(c["heap_pages"] for c in small_gcs)
    assert round(peak / 256) == 111 and round(peak / compile_example.FRAMES, 1) == 1.7
    assert [(c["heap_pages"], c["live_pages"]) for c in big_gcs] == [(65548, 16387)]
    assert round((65548 - 16387) / 65548, 2) == 0.75
    # "the mark reads are 22% of the accesses"
    assert round(sum(c["sweep"] - c["mark"] for c in small_gcs) / len(small), 2) == 0.22


def test_big_compile_policies(compile_rows):
    real = ["lru", "clock", "active_inactive", "rmap_aging", "arc", "lirs", "clock_pro", "mglru"]
    small = {p: compile_rows[(p, "64M")] for p in real + ["belady"]}
    big = {p: compile_rows[(p, "1G")] for p in real + ["belady"]}
    # Row: major, swap_in, swap_out, elapsed_s, in_mark.
    # "about half the major faults of every real policy" are in the mark phases.
    assert all(0.45 <= round(small[p][4], 2) <= 0.5 for p in real)
    # "none of the policies that resist scans beats lru"; "3.1-4.2 times as often as belady".
    assert min(real, key=lambda p: small[p][0]) == "lru"
    ratios = [small[p][0] / small["belady"][0] for p in real]
    assert round(min(ratios), 1) == 3.1 and round(max(ratios), 1) == 4.2
    # A 1 GiB machine's thresholds: "every real policy but rmap_aging faults 1.2-1.4 times as
    # often (rmap_aging as often), and every one writes 1.6-1.9 times as many pages to swap and
    # takes 1.1-1.5 times as long".
    assert round(big["rmap_aging"][0] / small["rmap_aging"][0], 1) == 1.0
    for column, low, high, policies in ((0, 1.2, 1.4, [p for p in real if p != "rmap_aging"]),
                                        (2, 1.6, 1.9, real), (3, 1.1, 1.5, real)):
        ratios = [big[p][column] / small[p][column] for p in policies]
        assert (round(min(ratios), 1), round(max(ratios), 1)) == (low, high), column
    # "Only belady gains ... (148.6 against 202.7 s) while it writes twice as many pages to
    # swap".
    assert big["belady"][0] < small["belady"][0]
    assert (round(big["belady"][3], 1), round(small["belady"][3], 1)) == (148.6, 202.7)
    assert round(big["belady"][2] / small["belady"][2]) == 2


def test_big_compile_readahead_and_swap_before_the_collection(compile_example, compile_runs):
    # "in lru's mark phases a swap-in reads 7.3 pages on average, and 94168 read-ahead pages
    # are used".
    trace, collections = compile_runs["64M"]
    swap_ins = pages_read = used = 0
    for c in collections:
        d = compile_example.counters_between(trace, c["mark"], c["sweep"], "lru")
        assert d["major_faults"] == d["swap_ins"]
        swap_ins += d["swap_ins"]
        pages_read += d["swap_ins"] + d["readahead_pages"]
        used += d["readahead_used"]
    assert round(pages_read / swap_ins, 1) == 7.3 and used == 94168
    # "with page_cluster=0, lru faults 149549 times and takes 1300 s".
    r = compile_example.run(trace, "lru", page_cluster=0)
    assert r["major_faults"] == 149549 and round(r.time["elapsed_ns"] / 1e9) == 1300
    # A 1 GiB machine's thresholds: up to the one collection 65548 heap pages are in use, each
    # written when allocated; at most 16384 can be resident, so at least 49164 were evicted
    # dirty, each a swap-out ("62882 under lru"), whatever the policy.
    trace, (gc,) = compile_runs["1G"]
    for policy in compile_example.POLICIES:
        before = compile_example.counters_between(trace, 0, gc["start"], policy)
        assert before["swap_outs"] >= 65548 - compile_example.FRAMES == 49164, policy
        if policy == "lru":
            assert before["swap_outs"] == 62882


def test_kbuild_prose():
    """What the README says of examples/kbuild_exits.py around its table."""
    example = load_example("kbuild_exits.py")
    trace = pagesim.generate("kbuild", seed=1)
    rows = {(row[0], row[1]): row for row in example.exits_table(trace)}
    # "With exits ... nothing is swapped, and the 64 jobs are done after 64 ms."
    for policy in example.POLICIES:
        assert rows[policy, "exit"][4:6] == (0, 0) and round(rows[policy, "exit"][6], 3) == 0.064
    # "the dead jobs' dirty heaps (99,491 pages in all, 25 times memory)"
    owners = np.asarray(trace.proc_pids)[np.asarray(trace.page_procs)]
    heap_pages = int((owners != 0).sum())
    assert heap_pages == 99491 and round(heap_pages / example.FRAMES) == 25
    # "lru, clock, active_inactive and mglru write 99.5 thousand pages and read back almost
    # none (4-28 swap-ins)"; arc: "25 thousand swap-ins, 147 thousand swap-outs"
    recency = [rows[p, "sleep"] for p in example.POLICIES if p != "arc"]
    assert {round(r[5], -2) for r in recency} == {99500}
    assert (min(r[4] for r in recency), max(r[4] for r in recency)) == (4, 28)
    assert (round(rows["arc", "sleep"][4], -3), round(rows["arc", "sleep"][5], -3)) == (
        25000, 147000)
    # "From the sixth job on, jobs wait (56 of the 64 under lru) ... from the fourth job on, 61
    # of the 64 wait" (arc), lru's waits for room in the queue (its 5 swap-ins aside), and
    # "under lru pid 0 gets 7 of them [file reads] in the first 14 s, 660 in the next 14";
    # the disk writes all the time until then.
    for policy, first, waiting in (("lru", 5, 56), ("arc", 3, 61)):
        r = pagesim.simulate(trace, policy, frames=example.FRAMES, device="hdd-2002",
                             interval_ns=2_000_000_000)
        jobs = sorted((p for p in r.per_process_time if p["pid"] != 0), key=lambda p: p["pid"])
        waits = [p["iowait_ns"] > 0 for p in jobs]
        assert (len(jobs), waits.index(True), sum(waits)) == (64, first, waiting), policy
        if policy == "lru":
            assert r.device_stats["queue_full_waits"] > 6000
            vm = r.vmstat()
            first_14, next_14 = vm.index <= 14, (vm.index > 14) & (vm.index <= 28)
            assert (vm.file_reads[first_14].sum(), vm.file_reads[next_14].sum()) == (7, 660)
            assert (vm.device_write_busy[first_14] > 0.95).all()
    # "the last one ends after 13.6-14.9 s, and writing 99.5 thousand pages at 30 MB/s takes
    # 13.6 s"; arc's "after 732 s"
    jobs_s = [r[6] for r in recency]
    assert (round(min(jobs_s), 1), round(max(jobs_s), 1)) == (13.6, 14.9)
    assert round(99_500 * 4096 / 30e6, 1) == 13.6
    assert round(rows["arc", "sleep"][6]) == 732
    # "49% more file reads for active_inactive, 44% for mglru, 0.5% fewer for arc, no more
    # than 0.1% more for lru and clock), and the run takes 4-55% longer"
    more_reads = {p: 100 * (rows[p, "sleep"][3] / rows[p, "exit"][3] - 1) for p in example.POLICIES}
    assert {p: round(more_reads[p]) for p in ("active_inactive", "mglru")} == {
        "active_inactive": 49, "mglru": 44}
    assert round(more_reads["arc"], 1) == -0.5
    assert 0 <= more_reads["lru"] <= 0.1 and 0 <= more_reads["clock"] <= 0.1
    longer = [rows[p, "sleep"][7] / rows[p, "exit"][7] - 1 for p in example.POLICIES]
    assert (round(100 * min(longer)), round(100 * max(longer))) == (4, 55)


def test_kbuild_pageout_writeback():
    """README, "What the disk's pace does to memory": kbuild under active_inactive with
    pageout="writeback" against the default (evict), without exits and with them."""
    trace = pagesim.generate("kbuild", seed=1)
    runs = {(mode, free): pagesim.simulate(trace, "active_inactive", frames=4000,
                                           device="hdd-2002", pageout=mode, free_on_exit=free)
            for mode in ("evict", "writeback") for free in (False, True)}
    evict, writeback = runs["evict", False], runs["writeback", False]
    # "69 million pages scanned, against 780 thousand"
    assert (round(writeback["pages_scanned"], -6), round(evict["pages_scanned"], -4)) == (
        69_000_000, 780_000)
    # "8658 swap-ins (4 before), 14% more file reads, 122,820 swap-outs (99,495 before)"
    assert (writeback["swap_ins"], evict["swap_ins"]) == (8658, 4)
    assert round(100 * (writeback["file_reads"] / evict["file_reads"] - 1)) == 14
    assert (writeback["swap_outs"], evict["swap_outs"]) == (122_820, 99_495)
    assert writeback["writebacks"] > 0 and evict["writebacks"] == 0
    # "the last job ends after 298 s instead of 13.6"
    def jobs_end(r):
        return max(p["elapsed_ns"] for p in r.per_process_time if p["pid"] != 0) / 1e9
    assert (round(jobs_end(writeback)), round(jobs_end(evict), 1)) == (298, 13.6)
    # "With exits nothing is written and nothing changes."
    with_exits = runs["writeback", True]
    assert with_exits["swap_outs"] == 0
    assert with_exits.counters == runs["evict", True].counters
    assert with_exits.time == runs["evict", True].time


def test_kbuild_deadline_prose():
    """What the README says of examples/kbuild_exits.py's second table."""
    example = load_example("kbuild_exits.py")
    trace = pagesim.generate("kbuild", seed=1)
    rows = {row[0]: row for row in example.scheduler_table(trace)}
    elevator, deadline = rows["elevator"], rows["deadline"]
    # "131 in the first 14 s instead of 7"; "342 reads in the next 14 s instead of 660"
    assert (elevator[1], deadline[1], elevator[2], deadline[2]) == (7, 131, 660, 342)
    # "the last job ends after 19.1 s, 41% later"; "it ends 2% later"
    assert round(deadline[4], 1) == 19.1 and round(100 * (deadline[4] / elevator[4] - 1)) == 41
    assert round(100 * (deadline[5] / elevator[5] - 1)) == 2

    def lru(**params):
        r = pagesim.simulate(trace, "lru", frames=example.FRAMES, device="hdd-2002",
                             io_scheduler="deadline", interval_ns=2_000_000_000, **params)
        vm = r.vmstat()
        jobs_end = max(p["elapsed_ns"] for p in r.per_process_time if p["pid"] != 0)
        return int(vm.file_reads[vm.index <= 14].sum()), round(jobs_end / 1e9, 1), r.counters

    # "with io_read_expire_ms of a million the run is the same"
    assert lru(io_read_expire_ms=1e6) == lru()
    # "with io_fifo_batch=8 pid 0 gets 201 reads in the first 14 s and the jobs end after
    # 24.7 s; with 32, 81 reads and 16.4 s"
    assert lru(io_fifo_batch=8)[:2] == (201, 24.7)
    assert lru(io_fifo_batch=32)[:2] == (81, 16.4)


def test_read_priority_prose(capsys):
    # README: "58 more seeks than fifo (59 more than elevator, the default), 18% more seek
    # distance, 0.6 s more disk time, 6% later end. `seek_s` is the part of the disk's busy
    # time spent seeking and waiting for the platter: all of the 0.6 s."
    example = load_example("read_priority_seeks.py")
    capsys.readouterr()
    rows = {row[0]: row for row in example.rows}
    fifo, elevator, prio = rows["fifo"], rows["elevator"], rows["read_priority"]
    assert fifo[2:4] == elevator[2:4] == prio[2:4] == (764, 2560)  # "The paging is the same"
    assert (prio[6] - fifo[6], prio[6] - elevator[6]) == (58, 59)
    assert round(prio[7] / fifo[7] - 1, 2) == 0.18
    assert round(prio[8] - fifo[8], 1) == 0.6
    assert round(prio[1] / fifo[1] - 1, 2) == 0.06
    # Seeking grew by 0.6489 s, the busy time by 0.6483 s (two fewer writes, less overhead).
    assert round(prio[9] - fifo[9], 2) == round(prio[8] - fifo[8], 2) == 0.65


def test_adaptive_swap_readahead_on_random_swap_ins(capsys):
    # README (swap_readahead): "On the random swap-ins of examples/read_priority_seeks.py (fifo)
    # it reads nothing ahead where fixed wastes 3371 pages, which push process 2's own pages
    # out: 516 major faults instead of 764, and 5.33 s instead of 10.18".
    example = load_example("read_priority_seeks.py")
    capsys.readouterr()
    runs = {mode: pagesim.simulate(example.trace, "lru", frames=512, device="hdd-2002",
                                   io_scheduler="fifo", low_watermark=8, high_watermark=40,
                                   quantum_ns=1000, swap_readahead=mode)
            for mode in ("fixed", "adaptive")}
    fixed, adaptive = runs["fixed"], runs["adaptive"]
    assert (fixed["readahead_wasted"], adaptive["readahead_pages"]) == (3371, 0)
    assert (adaptive["major_faults"], fixed["major_faults"]) == (516, 764)
    assert [round(r.time["elapsed_ns"] / 1e9, 2) for r in (adaptive, fixed)] == [5.33, 10.18]
    # The major faults are all process 2's (process 1 only writes new pages).
    for r in (fixed, adaptive):
        assert [p["major_faults"] for p in r.per_process if p["pid"] == 2] == [r["major_faults"]]


def test_vma_swap_readahead_with_processes_swapping_in_turn():
    # README (swap_readahead): "on qsbench with 4 processes of 16 MiB in 32 MiB (nvme,
    # free_on_exit), whose first two read their arrays back at the same time, it reads nothing
    # ahead and they fault on every page: 8200 major faults and 0.78 s, where vma reads 6791
    # pages ahead: 1410 major faults and 0.32 s (fixed: 1033, 0.21 s)".
    trace = pagesim.generate("qsbench", mib=16, procs=4, seed=1)
    runs = {mode: pagesim.simulate(trace, "lru", frames=8192, device="nvme", free_on_exit=True,
                                   swap_readahead=mode)
            for mode in ("fixed", "adaptive", "vma")}
    assert [(r["readahead_pages"], r["major_faults"], round(r.time["elapsed_ns"] / 1e9, 2))
            for r in runs.values()] == [(7223, 1033, 0.21), (0, 8200, 0.78), (6791, 1410, 0.32)]
    # Processes 1 and 2 read their arrays back at the same time, each swap-in after one of the
    # other's, never next to the last one: under adaptive they fault on every page.
    assert [p["major_faults"] for p in runs["adaptive"].per_process] == [4096, 4094, 10, 0]


def test_swap_readahead_auto_against_fixed_on_each_device():
    # README (swap_readahead auto): "On the same run the fixed windows of Linux 2.6 beat it on
    # every disk [...]: hdd-2002 538 and 4.27 against 990 and 7.58, ssd-sata 1242 and 0.59
    # against 1420 and 0.72, nvme as above; on zram auto reads every page alone, 18087 major
    # faults, in 0.36 s as fixed's 2325 faults with 16105 pages read ahead".
    trace = pagesim.generate("qsbench", mib=16, procs=4, seed=1)
    runs = {(device, mode): pagesim.simulate(trace, "lru", frames=8192, device=device,
                                             free_on_exit=True, swap_readahead=mode)
            for device in ("hdd-2002", "ssd-sata", "nvme", "zram") for mode in ("fixed", "auto")}
    got = {key: (r["major_faults"], round(r.time["elapsed_ns"] / 1e9, 2)) for key, r in runs.items()}
    assert got == {("hdd-2002", "fixed"): (538, 4.27), ("hdd-2002", "auto"): (990, 7.58),
                   ("ssd-sata", "fixed"): (1242, 0.59), ("ssd-sata", "auto"): (1420, 0.72),
                   ("nvme", "fixed"): (1033, 0.21), ("nvme", "auto"): (1410, 0.32),
                   ("zram", "fixed"): (2325, 0.36), ("zram", "auto"): (18087, 0.36)}
    assert runs[("zram", "fixed")]["readahead_pages"] == 16105
    assert runs[("zram", "auto")]["readahead_pages"] == 0


def test_a_small_swap_area_fills_up_unless_swap_ins_free_their_slots():
    # README (Semantics): "qsbench of 32 MiB (8192 pages) in 5461 frames under lru, with 6000
    # swap slots [...] With False [...] swap fills up; by default the sort finishes, with 20588
    # swap-outs against 20033 with twice the pages of swap, and 3494 swap-ins against 2174".
    trace = pagesim.generate("qsbench", mib=32, procs=1, seed=1)
    assert trace.num_pages == 8192
    with pytest.raises(pagesim.ConfigError,
                       match="swap is full: all 6000 slots.*or leave out free_slot_on_swapin=never \\(false\\)"):
        pagesim.simulate(trace, "lru", frames=5461, swap_slots=6000, free_slot_on_swapin=False)
    small = pagesim.simulate(trace, "lru", frames=5461, swap_slots=6000)
    roomy = pagesim.simulate(trace, "lru", frames=5461)
    assert (small["swap_outs"], roomy["swap_outs"]) == (20588, 20033)
    assert (small["swap_ins"], roomy["swap_ins"]) == (3494, 2174)
    assert small.swap_slots_used <= 3000 < roomy.swap_slots_used


def test_freeing_a_slot_at_a_write_clusters_the_writes():
    # README (Semantics): "the same sort under active_inactive on hdd-2002 [...] 22016 swap-outs
    # in 4242 write requests, 33.6 s of writing, 58.3 s in all. With "write" [...] 22245
    # swap-outs in 3027 requests, 21.7 s of writing, 46.4 s in all (reading takes 24.6 s and
    # 24.7 s; the mean seek falls from 2255 slots to 1359). "write_fault" gives the default's
    # figures here".
    trace = pagesim.generate("qsbench", mib=32, procs=1, seed=1)
    runs = {mode: pagesim.simulate(trace, "active_inactive", frames=5461, device="hdd-2002",
                                   **({} if mode is None else {"free_slot_on_swapin": mode}))
            for mode in (None, "write", "write_fault")}

    def figures(r):
        d = r.device_stats
        return (r["swap_outs"], d["writes"], round(d["write_busy_ns"] / 1e9, 1),
                round(r.time["elapsed_ns"] / 1e9, 1), round(d["read_busy_ns"] / 1e9, 1),
                round(d["seek_distance"] / d["seeks"]))

    assert figures(runs[None]) == (22016, 4242, 33.6, 58.3, 24.6, 2255)
    assert figures(runs["write"]) == (22245, 3027, 21.7, 46.4, 24.7, 1359)
    assert figures(runs["write_fault"]) == figures(runs[None])
    assert runs["write"].swap_slots_used < runs[None].swap_slots_used


def test_read_priority_vmstat_splits_the_disks_time(capsys):
    # README: the same run with interval_ns=2 s. Every swap-out happens in the first interval,
    # process 1 is done at once, and the disk writes its queue for about two seconds while it
    # serves process 2's reads; then it only reads.
    example = load_example("read_priority_seeks.py")
    capsys.readouterr()
    r = pagesim.simulate(example.trace, "lru", frames=512, device="hdd-2002",
                         io_scheduler="read_priority", low_watermark=8, high_watermark=40,
                         quantum_ns=1000, interval_ns=2_000_000_000)
    vm = r.vmstat()
    assert vm["swap_outs"].tolist() == [2560] + [0] * (len(vm) - 1)
    assert round(r.time_summary().loc[1, "elapsed_s"] * 1e3, 2) == 0.26  # ms
    parts = vm["device_read_busy"] + vm["device_write_busy"]
    assert parts.tolist() == pytest.approx(vm["device_busy"].tolist())
    assert round(vm["device_write_busy"].iloc[0], 2) == 0.59
    assert round(vm["device_read_busy"].iloc[0], 2) == 0.41
    assert 0 < vm["device_write_busy"].iloc[1] < 0.1
    assert (vm["device_write_busy"].iloc[2:] == 0).all()
    assert (vm["device_busy"] > 0.9999).all()
    # The CPU idles for process 2's reads all along; process 1's slots stay in use.
    assert (vm["cpu_iowait"].round(3) == 1.0).all() and (vm["iowait_2"].round(3) == 1.0).all()
    assert (vm["swap_used"] == 2560).all()
    # The README shows the two tables as pandas prints them (vmstat's first two rows and its
    # last).
    text = (ROOT / "README.md").read_text()
    shown = text[text.index(">>> r.time_summary()\n"):]
    shown = shown[:shown.index("```")].splitlines()
    lines = [line.rstrip() for line in r.time_summary().to_string().splitlines()]
    assert shown[1:1 + len(lines)] == lines
    columns = ["resident_2", "resident_1", "swap_used", "major_faults", "swap_outs",
               "device_read_busy", "device_write_busy", "cpu_user", "cpu_iowait"]
    lines = [line.rstrip() for line in vm[columns].round(3).to_string().splitlines()]
    assert shown[-6:] == lines[:4] + ["..."] + lines[-1:]


@pytest.fixture(scope="module")
def token_runs():
    example = load_example("swap_token.py")
    return example.rows(example.qsbench())


def test_swap_token_claims(token_runs):
    """What the README says of examples/swap_token.py."""
    def elapsed(r):
        return r.time["elapsed_ns"] / 1e9

    def majors(r):
        return r.counters["major_faults"]

    # "With memory for 1.6 to 2.4 of the four arrays (52-76 MiB) the token makes the run
    # 1.7-2.4 times faster ... and saves 30-46% of the major faults."
    assert (round(52 / 32, 1), round(76 / 32, 1)) == (1.6, 2.4)
    faster = [round(elapsed(token_runs[m][0]) / elapsed(token_runs[m][1]), 1) for m in (52, 64, 76)]
    saved = [round(1 - majors(token_runs[m][1]) / majors(token_runs[m][0]), 2)
             for m in (52, 64, 76)]
    assert (min(faster), max(faster), min(saved), max(saved)) == (1.7, 2.4, 0.3, 0.46)
    # 64 MiB: without the token all finish after 250-260 s with 2967-3491 majors each; with
    # it pid 1 finishes after 55 s with 659, the others fault 1655-2476 times.
    off, on = token_runs[64]
    assert [round(p["elapsed_ns"] / 1e9) for p in off.per_process_time] == [250, 252, 260, 260]
    assert sorted(p["major_faults"] for p in off.per_process_time) == [2967, 3046, 3332, 3491]
    first = on.per_process_time[0]
    assert (first["pid"], round(first["elapsed_ns"] / 1e9), first["major_faults"]) == (1, 55, 659)
    assert all(p["elapsed_ns"] > 90e9 for p in on.per_process_time[1:])
    assert sorted(p["major_faults"] for p in on.per_process_time[1:]) == [1655, 2083, 2476]
    # "at 52 and 76 MiB one of them finishes early, after 57 s and 3 s" (without the token)
    assert [round(min(p["elapsed_ns"] for p in token_runs[m][0].per_process_time) / 1e9)
            for m in (52, 76)] == [57, 3]
    # 40 MiB: the first finishes later, the run takes 18% longer with 8% more majors.
    off, on = token_runs[40]
    first_done = [min(p["elapsed_ns"] for p in r.per_process_time) / 1e9 for r in (off, on)]
    assert [round(t, 1) for t in first_done] == [176.3, 251.5]
    assert round(elapsed(on) / elapsed(off) - 1, 2) == 0.18
    assert (majors(off), majors(on)) == (14921, 16117)
    assert round(majors(on) / majors(off) - 1, 2) == 0.08
    # 96 MiB: the token costs a little time, with about as many majors; 115 MiB: nothing changes.
    off, on = token_runs[96]
    assert elapsed(on) > elapsed(off) and (majors(off), majors(on)) == (1059, 1034)
    off, on = token_runs[115]
    assert off.counters == on.counters and elapsed(on) == elapsed(off)


def test_where_writes_go_prose(capsys):
    # The README's sentences under examples/where_writes_go.py's table.
    w = load_example("where_writes_go.py")
    capsys.readouterr()
    last_fifth, last_three_tenths = w.tenth >= 8, w.tenth >= 7
    belady = w.pages["belady"]
    assert (belady.evictions == 0).sum() == 2205 and (belady.evictions[last_fifth] == 0).all()
    assert (belady.writes == 1).sum() == 1907
    lru = w.pages["lru"]
    assert lru.writes.min() == 1 and (lru.writes == 4).sum() == 1161
    for policy in ("lru", "clock"):
        assert (w.pages[policy].writes[last_three_tenths] == 2).all(), policy
    rmap = w.pages["rmap_aging"]
    assert (rmap.evictions[last_three_tenths] == 2).all()
    assert (rmap.writes[last_three_tenths] == 3).sum() == 250
    assert (rmap.writes[last_three_tenths] >= 2).all()
    extra = rmap.writes.astype(int) - rmap.evictions.astype(int)
    assert extra.sum() == 3206 and (extra > 0).sum() == 2708 and extra.min() == 0
    resident = rmap.faults + rmap.readahead - rmap.evictions == 1
    assert ((extra > 0) & resident).sum() == 750
    assert rmap.evictions.sum() == 17844 < w.pages["clock"].evictions.sum()  # the headline's prose
    assert last_fifth.sum() == 2 * 819 and last_three_tenths.sum() == 3 * 819  # of 8192 pages
