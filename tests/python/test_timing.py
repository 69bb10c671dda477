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
    assert list(df.columns) == ["resident_1", "free_frames", "faults", "major_faults",
                                "swap_ins", "swap_outs", "device_busy", "device_read_busy",
                                "device_write_busy"]
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


def test_device_parameters_are_checked():
    with pytest.raises(pagesim.ConfigError, match="hdd-2002"):
        pagesim.simulate(tiny(), "lru", frames=1, device="floppy")
    with pytest.raises(pagesim.ConfigError, match="device_seek_ms"):
        pagesim.simulate(tiny(), "lru", frames=1, device="hdd-2002", device_sek_ms=3.0)
    assert "nvme" in pagesim.timing.device_presets()


def test_readahead_counters():
    # 2 frames, windows of 2 slots (hand-traced in tests/cpp/test_device.cpp).
    t = pagesim.Trace.from_arrays(np.array([0, 1, 2, 3, 0, 4]), writes=np.array([1, 1, 1, 1, 0, 1]))
    c = pagesim.simulate(t, "lru", frames=2, page_cluster=1).counters
    assert (c["readahead_pages"], c["readahead_used"], c["readahead_wasted"]) == (1, 0, 1)


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
