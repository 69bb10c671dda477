import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pagesim

# W1 R2 R1 with one frame (see tests/cpp/test_device.cpp for the arithmetic): on hdd-2002 the
# swap-out of page 1 (0.3 ms + 4096 B / 30 MB/s = 436533 ns) starts at 200 ns; the read of
# slot 0 at 300 ns queues behind it and costs 0.3 + 8.03125 + 4.17 ms + 136533 ns = 12637783
# ns (one seek of span/4 over 4 slots).
W1R2R1 = dict(pages=np.array([1, 2, 1]), writes=np.array([1, 0, 0]))
TINY = dict(frames=1, page_cluster=0, swap_slots=4, io_scheduler="fifo")


def tiny():
    return pagesim.Trace.from_arrays(W1R2R1["pages"], writes=W1R2R1["writes"])


def test_time_summary_on_hdd_2002():
    r = pagesim.simulate(tiny(), "lru", device="hdd-2002", **TINY)
    elapsed = 200 + 436533 + 12637783
    assert r.time["elapsed_ns"] == elapsed
    assert r.time["user_ns"] == 300
    assert r.time["iowait_ns"] == elapsed - 300
    df = r.time_summary()
    assert list(df.index) == [1, "all"]
    assert df.loc["all", "elapsed_s"] == pytest.approx(elapsed * 1e-9)
    assert df.loc[1, "swap_outs"] == 1 and df.loc[1, "swap_ins"] == 1
    assert df.loc[1, "major_faults"] == 1 and df.loc[1, "minor_faults"] == 2
    stats = r.device_stats
    assert (stats["reads"], stats["writes"], stats["seeks"], stats["seek_distance"]) == (1, 1, 1, 1)
    assert stats["busy_ns"] == 436533 + 12637783
    # The write starts at the head; the read seeks and waits: 8.03125 + 4.17 ms.
    assert (stats["read_busy_ns"], stats["write_busy_ns"]) == (12637783, 436533)
    assert stats["seek_ns"] == 12201250
    assert r.device == "hdd-2002"


def test_zram_costs_cpu_not_io():
    # compress 10 us during R2, decompress 3 us during R1.
    r = pagesim.simulate(tiny(), "lru", device="zram", **TINY)
    assert (r.time["elapsed_ns"], r.time["sys_ns"], r.time["iowait_ns"]) == (13300, 13000, 0)
    # Rows every 5 us: [0, 5000) accesses 200 ns, compression from 200; [5000, 10000) all
    # compression; [10000, 13300) compression to 10200, R1 100 ns, decompression 3000 ns.
    vm = pagesim.simulate(tiny(), "lru", device="zram", interval_ns=5000, **TINY).vmstat()
    assert vm.index.tolist() == pytest.approx([5e-6, 10e-6, 13.3e-6])
    assert vm["cpu_user"].tolist() == pytest.approx([0.04, 0.0, 1 / 33])
    assert vm["cpu_system"].tolist() == pytest.approx([0.96, 1.0, 32 / 33])
    assert (vm["cpu_system"] == vm["device_busy"]).all()
    assert (vm["cpu_iowait"] == 0).all() and (vm["iowait_1"] == 0).all()


def test_vmstat_is_a_read_only_view_and_a_dataframe():
    r = pagesim.simulate(tiny(), "lru", device="hdd-2002", interval_ns=1_000_000, **TINY)
    arrays = r.vmstat_arrays
    # 13074516 ns: 13 full intervals of 1 ms and a partial one.
    assert len(arrays["time_ns"]) == 14
    with pytest.raises(ValueError):
        arrays["faults"][0] = 5
    assert arrays["faults"].sum() == 3
    assert arrays["resident"].shape == (14, 1)
    df = r.vmstat()
    assert list(df.columns) == ["resident_1", "free_frames", "swap_used", "faults",
                                "major_faults", "swap_ins", "swap_outs", "file_reads",
                                "file_writes", "readahead_pages", "pages_scanned", "device_busy",
                                "device_read_busy",
                                "device_write_busy", "cpu_user", "cpu_system", "cpu_iowait",
                                "iowait_1"]
    # The process waits from its fault at 300 ns to the end; the CPU with it.
    assert df["cpu_user"].iloc[0] == pytest.approx(300 / 1e6)
    assert df["iowait_1"].iloc[0] == df["cpu_iowait"].iloc[0] == pytest.approx(1 - 300 / 1e6)
    assert df["cpu_iowait"].iloc[1:].tolist() == [1.0] * 13
    assert df["swap_used"].tolist() == [1] * 14
    assert df["swap_outs"].sum() == 1 and df["swap_ins"].sum() == 1
    # The device is busy from 200 ns to the end, so every full interval after the first is
    # busy all the time: the write of slot 0 from 200 to 436733 ns, then the read until the
    # end (test_time_summary_on_hdd_2002 above).
    assert df["device_busy"].iloc[1:13].tolist() == [1.0] * 12
    assert df["device_write_busy"].iloc[0] == pytest.approx(436533 / 1e6)
    assert df["device_read_busy"].iloc[0] == pytest.approx((1e6 - 436733) / 1e6)
    assert df["device_read_busy"].iloc[1:13].tolist() == [1.0] * 12
    assert df["device_write_busy"].iloc[1:].sum() == 0
    assert pagesim.simulate(tiny(), "lru", interval_ns=0, **TINY).vmstat().empty


def test_two_processes_round_robin():
    # Same schedule as tests/cpp/test_time.cpp: A's file read (3000 ns) lets B run.
    pages = np.array([100, 0, 1, 1, 2] + list(range(2, 15)))
    pids = np.array([1, 2, 1, 2, 1] + [2] * 13)
    kinds = np.zeros(len(pages), dtype=np.uint8)
    kinds[0] = 1
    t = pagesim.Trace.from_arrays(pages, pids=pids, kinds=kinds)
    params = dict(frames=100, device="nvme", device_read_us=2.0, device_transfer_mb_s=4096.0,
                  cpu_ns=100, quantum_ns=1000)
    r = pagesim.simulate(t, "lru", **params)
    assert r.schedule == "round_robin"
    df = r.time_summary()
    assert df.loc["all", "elapsed_s"] == pytest.approx(3300e-9)
    assert df.loc[1, "iowait_s"] == pytest.approx(3000e-9)
    assert df.loc[2, "elapsed_s"] == pytest.approx(1600e-9)
    assert pagesim.simulate(t, "lru", schedule="static", **params).time["elapsed_ns"] == 4800
    with pytest.raises(pagesim.ConfigError, match="schedule='static'"):
        pagesim.simulate(t, "belady", **params)


def test_a_process_that_the_trace_starts_later_waits_and_reports_its_start():
    # tests/cpp/test_time.cpp's three_procs: C (pid 3) starts in the trace after A's last
    # access, so round robin starts it when A has ended, at 3300 ns; B runs from 100 ns.
    rows = ([(1, 100, 1), (2, 0, 0), (1, 1, 0), (2, 1, 0), (1, 2, 0), (3, 0, 0)]
            + [(2, v, 0) for v in range(2, 15)] + [(3, v, 0) for v in range(1, 5)])
    pids, pages, kinds = (np.array(c) for c in zip(*rows))
    t = pagesim.Trace.from_arrays(pages, pids=pids, kinds=kinds.astype(np.uint8))
    r = pagesim.simulate(t, "lru", frames=100, device="nvme", device_read_us=2.0,
                         device_transfer_mb_s=4096.0, cpu_ns=100, quantum_ns=1000)
    df = r.time_summary()
    assert (df["start_s"] * 1e9).round().tolist() == [0, 100, 3300, 0]
    assert (df["elapsed_s"] * 1e9).round().tolist() == [3300, 1600, 3800, 3800]


def test_device_parameters_are_checked():
    with pytest.raises(pagesim.ConfigError, match="hdd-2002"):
        pagesim.simulate(tiny(), "lru", frames=1, device="floppy")
    with pytest.raises(pagesim.ConfigError, match="device_seek_ms"):
        pagesim.simulate(tiny(), "lru", frames=1, device="hdd-2002", device_sek_ms=3.0)
    assert "nvme" in pagesim.timing.device_presets()


def test_readahead_counters():
    # 2 frames, windows of 2 slots (hand-traced in tests/cpp/test_device.cpp).
    t = pagesim.Trace.from_arrays(np.array([0, 1, 2, 3, 4, 1, 5]),
                                  writes=np.array([1, 1, 1, 1, 1, 0, 1]))
    c = pagesim.simulate(t, "lru", frames=2, page_cluster=1).counters
    assert (c["readahead_pages"], c["readahead_used"], c["readahead_wasted"]) == (1, 0, 1)


def dd_on_hdd_2002(read_ahead_kb: int) -> "pagesim.Result":
    """dd reading a 60 MiB file (15360 pages of 4 KiB) on hdd-2002, as the README shows."""
    dd = pagesim.generate("stream", mib=60, files=1)
    return pagesim.simulate(dd, "lru", frames=8192, device="hdd-2002", read_ahead_kb=read_ahead_kb)


def test_file_readahead_streams_dd_at_the_disks_rate():
    # hdd-2002: a read of n pages costs 0.3 ms + n * 4096 B / 30 MB/s, rounded to the ns, plus
    # for the first (the head moves from 0 to the file, after 2 x 15360 swap slots, over a
    # span of 3 x 15360) 1 ms + 7.5 ms * 15/8 * sqrt(2/3) + 4.17 ms. The reads follow one
    # another on the disk and dd waits for each: elapsed = 15360 accesses of 100 ns + reads.
    pages = 15360

    def read_ns(n: int, first: bool = False) -> int:
        ns = 0.3e6 + n * 4096 * 1e3 / 30
        if first:
            ns += 1e6 + 7.5e6 * 15 / 8 * math.sqrt(2 / 3) + 4.17e6
        return int(ns + 0.5)

    # Off: one read per page.
    off = dd_on_hdd_2002(0)
    assert off.time["elapsed_ns"] == pages * 100 + read_ns(1, True) + (pages - 1) * read_ns(1)
    assert off.device_stats["reads"] == pages
    # read_ahead_kb=128: windows of 4, 8, 16 pages, then 479 of 32 (4 + 8 + 16 + 479 * 32 =
    # 15356) and the last, cut at the end of the file, of 4: 483 reads.
    on = dd_on_hdd_2002(128)
    windows = [4, 8, 16] + [32] * 479 + [4]
    assert sum(windows) == pages
    assert on.time["elapsed_ns"] == (pages * 100 + read_ns(4, True)
                                     + sum(read_ns(n) for n in windows[1:]))
    assert on.device_stats["reads"] == len(windows)
    assert on.counters["major_faults"] == len(windows)
    assert on.counters["readahead_pages"] == on.counters["readahead_used"] == pages - len(windows)
    # The README's figures, in MB/s (1e6 B).
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for r in (off, on):
        rate = pages * 4096 / r.time["elapsed_ns"] * 1e3
        assert f"{rate:.1f} MB/s" in readme


def test_file_readahead_follows_vpns_so_a_random_reader_reads_page_by_page():
    # 1000 file pages read once each at random offsets (vpns), first touched in that order.
    # Readahead follows a process's vpns, so almost every read is random (ra_off) and reads
    # its page alone; only a read at the vpn after the last one is sequential and opens a
    # window (4, then 8, 16, 32 pages). A model of that, with 2000 frames (nothing evicted):
    v = np.random.default_rng(0).permutation(1000)
    t = pagesim.Trace.from_arrays(v, kinds=np.ones(1000, dtype=np.uint8))
    resident, faults, read_ahead, nxt, size = set(), 0, 0, None, 0
    for x in v.tolist():
        if x in resident:
            continue
        faults += 1
        resident.add(x)
        if nxt is not None and x != nxt:
            nxt, size = x + 1, 0
            continue
        size = 4 if size == 0 else min(2 * size, 32)
        nxt = x + size
        window = set(range(x + 1, min(x + size, 1000))) - resident
        resident |= window
        read_ahead += len(window)
    assert faults > 990
    r = pagesim.simulate(t, "lru", frames=2000, read_ahead_kb=128, device="hdd-2002")
    assert (r["file_reads"], r["readahead_pages"]) == (faults, read_ahead)
    # The file's pages lie on the disk in vpn order: without readahead a read that does not
    # start where the last one ended (at the next vpn) seeks, and the first one does.
    off = pagesim.simulate(t, "lru", frames=2000, device="hdd-2002")
    assert off.device_stats["seeks"] == 1 + int(np.sum(np.diff(v) != 1))


def test_file_readahead_reads_ahead_for_streams_interleaved_page_by_page():
    # Two dd's of a 16 MiB file (4096 pages each) interleaved access by access: each process
    # reads its own file in vpn order, windows of 4, 8, 16, then 127 of 32 and the last 4
    # (28 + 127 * 32 + 4 = 4096): 131 faults and 4096 - 131 = 3965 readahead pages each.
    a = pagesim.generate("stream", mib=16, files=1, pid=1)
    b = pagesim.generate("stream", mib=16, files=1, pid=2)
    t = pagesim.interleave([a, b], quantum=1)
    r = pagesim.simulate(t, "lru", frames=20000, read_ahead_kb=128)
    assert r["major_faults"] == 2 * 131
    assert r["readahead_pages"] == r["readahead_used"] == 2 * 3965


def test_a_file_reader_waits_for_its_page_then_at_first_use_for_the_rest_of_its_window():
    # 32 file pages read in order, 1 ms of CPU each; a disk with 1 ms overhead, 5 ms for any
    # seek, no rotation, 1 ms per page, requests of at most 8 pages. Windows 0-3 (a seek from
    # slot 0 to the file after the 64-slot swap area, + 1 + 4 = 10 ms), 4-11 (1 + 8 = 9),
    # 12-27 (two requests of 8: 9 + 9), 28-31 (5): 42 ms of reads. The reader waits for the
    # request holding its page: 10, 9, then 9 for 12-19, which it uses (pages 13-20, 8 ms of
    # CPU) while 20-27 is read; its first use of 20 waits for that request's last 1 ms (as
    # lock_page does); then 5 for 28-31. IO wait 10 + 9 + 9 + 1 + 5 = 34 ms, elapsed 32 + 34 =
    # 66 ms. (Waiting for the whole window at each fault: 74 ms; not waiting at the first use
    # of 20: 65 ms, with pages used before the disk has read them.)
    t = pagesim.Trace.from_arrays(np.arange(32), kinds=np.ones(32, np.uint8))
    r = pagesim.simulate(t, "lru", frames=100, read_ahead_kb=128, io_max_request_pages=8,
                         cpu_ns=1_000_000, device="hdd-2002", device_overhead_ms=1,
                         device_seek_ms=5, device_track_seek_ms=5, device_rotation_ms=0,
                         device_transfer_mb_s=4.096)
    assert r.device_stats["reads"] == 5
    assert r.device_stats["read_busy_ns"] == 42_000_000
    assert r.time["elapsed_ns"] == 66_000_000
    assert r.time["iowait_ns"] == 34_000_000


def test_vmstat_has_every_series_of_the_arrays():
    # readahead_pages among them: with swap_ins and file_reads, the pages read (si + bi).
    t = pagesim.Trace.from_arrays(np.arange(10), kinds=np.ones(10, np.uint8))
    r = pagesim.simulate(t, "lru", frames=100, read_ahead_kb=128, device="hdd-2002",
                         interval_ns=5_000_000)
    df = r.vmstat()
    for name in r.vmstat_arrays:
        if name not in ("interval_ns", "time_ns", "resident", "iowait"):
            assert name in df.columns
    assert (df["file_reads"] + df["readahead_pages"]).sum() == r.device_stats["pages_read"] == 10


def test_a_file_stream_does_not_wrap_around_at_the_top_of_the_address_space():
    # A read at vpn 1000 (or 2^64 - 1) starts a window of 4 (nothing else of the file is
    # there to read): the stream's next vpn is 1004 (or past 2^64). Then 3, 4, 5, 6: 3 is
    # random, read alone; 4 follows it: a window of 4 reads 5 and 6. 3 faults, 2 readahead
    # pages, whichever the first vpn (with 2^64 - 1 + 4 wrapping to 3, 3 looked sequential).
    for first in (1000, 2**64 - 1):
        t = pagesim.Trace.from_arrays(np.array([first, 3, 4, 5, 6], dtype=np.uint64),
                                      kinds=np.ones(5, np.uint8))
        r = pagesim.simulate(t, "lru", frames=100, read_ahead_kb=128)
        assert (r["file_reads"], r["readahead_pages"]) == (3, 2)


def test_read_ahead_kb_is_checked():
    t = pagesim.Trace.from_arrays(np.array([0, 1]))
    for bad in (-1, 16385):
        with pytest.raises(pagesim.ConfigError,
                           match=rf"parameter 'read_ahead_kb' = {bad} is out of range: allowed 0 to 16384"):
            pagesim.simulate(t, "lru", frames=1, read_ahead_kb=bad)
    with pytest.raises(pagesim.ConfigError, match="read_ahead_kb"):
        pagesim.simulate(t, "lru", frames=1, read_ahead_kb=1.5)


def test_results_pickle_with_every_view():
    # Two processes on a disk with a vmstat series: every view of the copy equals the original's
    # (multiprocessing, Dask futures and joblib pickle what a function returns).
    import pickle
    t = pagesim.Trace.from_arrays(np.arange(6000) % 900, writes=np.arange(6000) % 4 == 0,
                                  pids=(np.arange(6000) % 900) // 450 + 1)
    for params in (dict(device="hdd-2002", interval_ns=50_000_000), dict(interval_ns=0)):
        r = pagesim.simulate(t, "clock", frames=400, **params)
        u = pickle.loads(pickle.dumps(r))
        for view in ("policy", "frames", "swap_slots_used", "counters", "per_process", "time",
                     "per_process_time", "device", "schedule", "device_stats"):
            assert getattr(u, view) == getattr(r, view), view
        assert u.summary() == r.summary()
        if params["interval_ns"]:
            assert r.counters["swap_ins"] > 0 and len(r.vmstat()) > 2
            pd.testing.assert_frame_equal(u.vmstat(), r.vmstat())
            assert not u.vmstat_arrays["resident"].flags.writeable
        else:
            assert u.vmstat_arrays is None
    with pytest.raises(pagesim.ConfigError, match="unsupported pickled Result state"):
        pagesim.Result.__new__(pagesim.Result).__setstate__((2,))


def test_vmstat_counts_an_access_that_ends_on_a_row_in_that_row():
    # 10 accesses of 100 ns each, no device: the 5th ends at 500 ns, the 10th at 1000 ns, the
    # end of the run. Rows (0, 500] and (500, 1000] hold 5 faults each (every access is a
    # first touch); the last access was lost when the run ended on a row's time.
    t = pagesim.Trace.from_arrays(np.arange(10))
    r = pagesim.simulate(t, "lru", frames=20, interval_ns=500)
    df = r.vmstat()
    assert list(df.index) == pytest.approx([500e-9, 1000e-9])
    assert df["faults"].tolist() == [5, 5]
    assert df["resident_1"].tolist() == [5, 10]
    assert r.vmstat().equals(pagesim.simulate(t, OrderedLru(), frames=20, interval_ns=500).vmstat())


def test_vmstat_of_a_run_whose_clock_never_moved_has_one_row_at_0():
    # cpu_ns=0 without a device: every access ends at 0. The row of time 0 holds them all (it
    # covers (-interval, 0]); its fractions are of an interval of no length: NaN.
    # 0 1 2 in 2 frames: 2 evicts 0, which faults again (major: it was resident before).
    t = pagesim.Trace.from_arrays(np.array([0, 1, 2, 0]))
    r = pagesim.simulate(t, "lru", frames=2, cpu_ns=0)
    df = r.vmstat()
    assert r.time["elapsed_ns"] == 0 and list(df.index) == [0.0]
    assert df["faults"].tolist() == [4] and df["major_faults"].tolist() == [r["major_faults"]] == [1]
    assert df["resident_1"].tolist() == [2] and df["free_frames"].tolist() == [0]
    assert df["cpu_user"].isna().all() and df["device_busy"].isna().all()
    # An empty trace has no row.
    assert pagesim.simulate(pagesim.Trace.from_arrays(np.array([], np.uint32)), "lru", frames=2,
                            cpu_ns=0).vmstat().empty


class OrderedLru(pagesim.Policy):
    """The virtual path (general loop) for the same run."""

    def reset(self, num_pages, frames):
        self.order = []

    def on_fault(self, access, view):
        self.order.append(access.page)

    def select_victims(self, want, view):
        return [self.order.pop(0) for _ in range(want)]


def test_zram_busy_is_split_across_rows():
    # W0 W1 W2 R0 in one frame, 100 ns an access; zram compresses in 10 us, decompresses in
    # 3 us, on the faulting CPU:
    #   W0 ends at 100 (first touch); W1 at 200: compress page 0 [200, 10200), then page 1 in;
    #   W2 at 10300: compress page 1 [10300, 20300); R0 at 20400: compress page 2
    #   [20400, 30400), decompress page 0 [30400, 33400): the end.
    # Rows of 1 us: (0, 1000] busy 800 ns; up to 10000 busy all the time; (10000, 11000] 200 +
    # 700; (20000, 21000] 300 + 600; (30000, 31000] 400 writing + 600 reading; then reading
    # until the partial row (33000, 33400]. The whole CPU cost was booked in the row of the
    # fault (device_busy 10.0).
    t = pagesim.Trace.from_arrays(np.array([0, 1, 2, 0]), writes=np.array([1, 1, 1, 0]))
    for policy in ("fifo", OrderedLru()):
        r = pagesim.simulate(t, policy, frames=1, page_cluster=0, device="zram", interval_ns=1000)
        df = r.vmstat()
        assert len(df) == 34 and df.index[-1] == pytest.approx(33400e-9)
        busy = df["device_busy"]
        assert busy.max() <= 1.0
        assert (busy.iloc[0], busy.iloc[10], busy.iloc[20]) == pytest.approx((0.8, 0.9, 0.9))
        assert busy.iloc[1:10].tolist() == [1.0] * 9 and busy.iloc[21:].tolist() == [1.0] * 13
        assert (df["device_write_busy"].iloc[30], df["device_read_busy"].iloc[30]) == pytest.approx((0.4, 0.6))
        lengths = np.diff(np.concatenate([[0], df.index.to_numpy() * 1e9]))
        assert (busy * lengths).sum() == pytest.approx(r.device_stats["busy_ns"]) == 33000
        # A fault counts when the CPU's work for it is done: W1's at 10200 (row 11000), after
        # its victim's compression, W2's at 20300 (row 21000), R0's at the end, after its
        # decompression; a swap-out when its write starts (200, 10300, 20400).
        faults = df["faults"]
        assert faults[faults > 0].index.tolist() == pytest.approx([1000e-9, 11000e-9, 21000e-9, 33400e-9])
        outs = df["swap_outs"]
        assert outs[outs > 0].index.tolist() == pytest.approx([1000e-9, 11000e-9, 21000e-9])
        # During a compression the page is still resident; during R0's decompression page 2 is
        # gone and page 0 not yet in.
        assert (df["free_frames"].iloc[5], df["free_frames"].iloc[31]) == (0, 1)
        assert (df["resident_1"] + df["free_frames"] == 1).all()


def test_a_readahead_page_whose_read_waits_for_room_makes_its_user_wait_too():
    # A's fault reads slot 1 with slot 2 (B's page b0) read ahead (page_cluster 1: slots 1 and
    # 2 are the kernel's offsets 2 and 3, one window), but its evictions' writes find the queue
    # full (depth 1): the two reads wait behind them. B's first use of b0 must wait until b0 is
    # read, though its read is not even queued yet. Every request takes 9000 + 1000 ns; one
    # access per quantum, 100 ns each. Hand timeline: a0 written to slot 0 at 500-10500, a1 to
    # slot 1 at 10500-20500; at 900 b0's write finds the queue full (A sleeps to 10500); at
    # 10600 A faults on a1: reads 1 and 2 wait behind writes 3 and 4; W2 runs 20500-30500, W3
    # 30500-40500, W4 40500-50500, R1 50500-60500 (A ends), R2 (b0) 60500-70500. B then ends
    # at 70500 + 3 x 100.
    class Scripted(pagesim.Policy):
        """FIFO that evicts the pages in `first` first and never page `pinned`."""

        def __init__(self, pinned, first):
            super().__init__()
            self.pinned, self.first = pinned, list(first)

        def reset(self, num_pages, frames):
            self.q = []

        def on_fault(self, access, view):
            self.q.append(access.page)

        def select_victims(self, want, view):
            out = [self.first.pop(0) for _ in range(min(want, len(self.first)))]
            return out + [p for p in self.q if p != self.pinned and p not in out][:want - len(out)]

        def on_evict(self, page, view):
            self.q.remove(page)

    def b_time(fill):
        seq = [(1, 0, 1), (2, 0, 1), (1, 1, 1), (2, 50, 0), (1, 2, 1), (2, 50, 0), (1, 3, 1),
               (2, 50, 0), (1, 4, 1), (1, 1, 0)] + [(2, 50, 0)] * fill + [(2, 0, 0)] + [(2, 50, 0)] * 3
        t = pagesim.Trace.from_arrays(np.array([s[1] for s in seq]),
                                      writes=np.array([bool(s[2]) for s in seq]),
                                      pids=np.array([s[0] for s in seq]))
        # Page ids in order of first access: a0 = 0, b0 = 1, a1 = 2, b50 = 3.
        r = pagesim.simulate(t, Scripted(pinned=3, first=[0, 2, 1]), frames=4, device="nvme",
                             device_read_us=9, device_write_us=9, device_transfer_mb_s=4096,
                             io_queue_depth=1, io_max_request_pages=1, page_cluster=1, cpu_ns=100,
                             quantum_ns=100, schedule="round_robin", interval_ns=0)
        b = next(p for p in r.per_process_time if p["pid"] == 2)
        return b["elapsed_ns"], b["iowait_ns"], r["readahead_used"]

    # fill 150: B uses b0 at 16100, while its read waits for a place (it had gone on at once).
    assert b_time(150) == (70800, 70500 - 16100, 1)
    # fill 350: B uses b0 at 36100, when its read is queued.
    assert b_time(350) == (70800, 70500 - 36100, 1)
