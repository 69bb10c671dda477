"""Sweeps on the native thread pool: same numbers as single runs, typed errors, Ctrl-C, and
the GIL released during native work."""
import pickle
import signal
import sys
import threading
import time
import warnings

import numpy as np
import pandas as pd
import pytest

import pagesim
from conftest import OrderedDictLRU, random_trace

POLICIES = ["lru", "fifo", "clock", "random", "belady"]


def test_sweep_equals_single_simulate_calls():
    traces = {"a": random_trace(1), "b": random_trace(2, length=2000, pages=80, procs=3)}
    # belady needs the trace order of these multi-process traces
    df = pagesim.sweep(traces, policies=POLICIES, fractions=[0.05, 0.2, 0.5], jobs=2, progress=False,
                       **pagesim.TEXTBOOK)
    assert len(df) == 2 * len(POLICIES) * 3
    assert list(df.columns[:4]) == ["trace", "policy", "frames", "fraction"]
    assert set(pagesim.counter_names()) <= set(df.columns)
    assert list(df.trace.unique()) == ["a", "b"] and list(df.policy.unique()) == POLICIES
    for row in df.itertuples(index=False):
        t = traces[row.trace]
        assert row.frames == max(1, round(row.fraction * t.num_pages))
        expected = pagesim.simulate(t, row.policy, frames=row.frames, **pagesim.TEXTBOOK).summary()
        got = row._asdict()
        assert {k: got[k] for k in expected if k not in ("policy",)} == \
            {k: v for k, v in expected.items() if k != "policy"}


def test_sweep_with_frames_and_policy_params():
    t = random_trace(3)
    df = pagesim.sweep([t], policies=["lru", ("random", {"seed": 1}), ("random", {"seed": 2})],
                       frames=[10, 20], progress=False)
    assert list(df.policy.unique()) == ["lru", "random(seed=1)", "random(seed=2)"]
    assert list(df.frames) == [10, 20] * 3
    assert np.allclose(df.fraction, df.frames / t.num_pages)
    r = df[(df.policy == "random(seed=2)") & (df.frames == 20)].iloc[0]
    assert r.faults == pagesim.simulate(t, "random", frames=20, seed=2)["faults"]


def test_a_policy_with_its_own_parameters_is_labelled_with_them():
    # Alone too, not only to tell two entries of one policy apart: a row never names a policy
    # without the parameters it ran with.
    t = random_trace(3)
    df = pagesim.sweep(t, policies=[("random", {"seed": 1}), "lru"], frames=[10], progress=False)
    assert list(df.policy) == ["random(seed=1)", "lru"]
    assert df.faults.iloc[0] == pagesim.simulate(t, "random", frames=10, seed=1)["faults"]


def test_sweep_over_listed_parameters():
    # A list is a grid axis: 2 devices x 2 schedulers x 2 policies x 2 sizes = 16 runs, the
    # combinations outermost, each column holding its value, each row as a single run gives it.
    t = random_trace(4, length=3000, pages=120, procs=2)
    df = pagesim.sweep(t, policies=["lru", "clock"], frames=[20, 60], progress=False,
                       device=["hdd-2002", "nvme"], io_scheduler=("fifo", "read_priority"),
                       page_cluster=0)
    assert list(df.columns[:6]) == ["trace", "policy", "frames", "fraction", "device",
                                    "io_scheduler"]
    assert list(zip(df.device, df.io_scheduler))[::4] == [
        ("hdd-2002", "fifo"), ("hdd-2002", "read_priority"),
        ("nvme", "fifo"), ("nvme", "read_priority")]
    assert list(df.policy) == ["lru", "lru", "clock", "clock"] * 4
    for row in df.itertuples(index=False):
        r = pagesim.simulate(t, row.policy, frames=row.frames, device=row.device,
                             io_scheduler=row.io_scheduler, page_cluster=0)
        assert (row.faults, row.elapsed_ns, row.seeks) == (
            r["faults"], r.time["elapsed_ns"], r.device_stats["seeks"])
    # The schedulers differ on the disk (else the test would not tell them apart).
    hdd = df[df.device == "hdd-2002"]
    elapsed = {s: set(hdd[hdd.io_scheduler == s].elapsed_ns) for s in ("fifo", "read_priority")}
    assert elapsed["fifo"] != elapsed["read_priority"]
    with pytest.raises(pagesim.ConfigError, match="at least one value in device"):
        pagesim.sweep(t, policies=["lru"], frames=[20], device=[], progress=False)
    with pytest.raises(pagesim.ConfigError, match="'seed' is swept and also set for policy random"):
        pagesim.sweep(t, policies=[("random", {"seed": 1})], frames=[20], seed=[1, 2],
                      progress=False)


def test_progress_callback_sees_every_run():
    calls = []
    pagesim.sweep(random_trace(1), policies=["lru", "fifo"], frames=[5, 10, 20],
                  progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (6, 6)
    assert all(total == 6 and 0 <= done <= 6 for done, total in calls)


def test_sweep_errors_are_typed(tmp_path):
    t = random_trace(1)
    with pytest.raises(pagesim.ConfigError, match="unknown policy 'lur': did you mean 'lru'"):
        pagesim.sweep(t, policies=["lru", "lur"], frames=[5], progress=False)
    with pytest.raises(pagesim.ConfigError, match="unknown parameter 'sede'"):
        pagesim.sweep(t, policies=["random"], frames=[5], sede=3, progress=False)
    with pytest.raises(pagesim.ConfigError, match="exactly one of frames"):
        pagesim.sweep(t, policies=["lru"], progress=False)
    with pytest.raises(pagesim.ConfigError, match=r"parameter 'frames' = 0 is out of range: allowed 1 to"):
        pagesim.sweep(t, policies=["lru"], frames=[0], progress=False)
    with pytest.raises(pagesim.ConfigError, match="parameter 'fractions' must be a finite number above 0, got -0.5"):
        pagesim.sweep(t, policies=["lru"], fractions=[-0.5], progress=False)
    with pytest.raises(pagesim.ConfigError, match="parameter 'jobs' must be an integer, got bool True"):
        pagesim.sweep(t, policies=["lru"], frames=[5], jobs=True, progress=False)
    bad = tmp_path / "bad.txt"
    bad.write_text("R 1\nR 2\nX 3\n")
    with pytest.raises(pagesim.TraceFormatError, match="bad.txt:3: expected R or W"):
        pagesim.sweep([str(bad)], policies=["lru"], frames=[5], progress=False)
    for cls in (pagesim.ConfigError, pagesim.TraceFormatError, pagesim.PolicyError):
        assert issubclass(cls, ValueError)


def test_trace_survives_pickling():
    t = random_trace(4)
    u = pickle.loads(pickle.dumps(t, protocol=pickle.HIGHEST_PROTOCOL))
    for column in ("pages", "flags", "page_procs", "page_vpns", "proc_pids"):
        assert np.array_equal(getattr(u, column), getattr(t, column))
    assert pagesim.simulate(u, "clock", frames=20).counters == pagesim.simulate(t, "clock", frames=20).counters


def _counts_while(call):
    """How far a pure-Python thread counted while `call` ran in this thread.

    With a huge switch interval the interpreter never takes the GIL from a thread that holds
    it, so the counter can only advance during `call` if `call` released the GIL.
    """
    counter = [0]
    stop = threading.Event()
    started = threading.Event()

    def count():
        started.set()
        while not stop.is_set():
            counter[0] += 1
            # Blocks briefly without the GIL, so the main thread gets it back when it asks.
            time.sleep(0.0001)

    interval = sys.getswitchinterval()
    thread = threading.Thread(target=count, daemon=True)
    thread.start()
    started.wait()
    sys.setswitchinterval(1000.0)
    try:
        before = counter[0]
        call()
        after = counter[0]
    finally:
        sys.setswitchinterval(interval)
        stop.set()
        thread.join()
    return after - before


def test_gil_is_released_during_native_replay():
    t = pagesim._core.generate_zipf(1_000_000, 50_000, 0.9, 0.3, 1)
    assert _counts_while(lambda: pagesim.simulate(t, "lru", frames=5_000)) > 0
    assert _counts_while(lambda: pagesim.sweep(t, policies=["fifo"], frames=[5_000], progress=False)) > 0


def test_gil_check_would_see_a_call_that_holds_the_gil():
    # The check itself: a pure-Python busy loop of the same kind holds the GIL throughout.
    def busy():
        x = 0
        for i in range(2_000_000):
            x += i
    assert _counts_while(busy) == 0


def _long_sweep_args():
    t = pagesim._core.generate_zipf(200_000, 20_000, 0.9, 0.3, 1)
    return t, dict(policies=["lru", "fifo", "clock"], frames=list(range(100, 20_000, 100)), jobs=2)


def test_keyboard_interrupt_from_progress_stops_the_sweep():
    t, kw = _long_sweep_args()
    seen = []

    def progress(done, total):
        seen.append(done)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        pagesim.sweep(t, progress=progress, **kw)
    assert len(seen) == 2 and seen[-1] < 3 * len(kw["frames"])
    # The runs that finished are not lost: their rows, as the whole sweep gives them.
    stopped = info.value
    assert isinstance(stopped, pagesim.SweepInterrupted)
    assert stopped.total == 3 * len(kw["frames"]) and stopped.finished == len(stopped.table) > 0
    assert stopped.finished < stopped.total
    assert str(stopped) == (f"the sweep was interrupted after {stopped.finished} of {stopped.total} "
                            f"runs; their rows are this exception's .table")
    for row in stopped.table.iloc[[0, -1]].itertuples():
        counters = pagesim.simulate(t, row.policy, frames=row.frames).counters
        assert (row.faults, row.swap_outs) == (counters["faults"], counters["swap_outs"])
    # Usable afterwards, native threads included.
    df = pagesim.sweep(t, policies=["lru"], frames=[100, 200], progress=False)
    assert len(df) == 2


def test_an_interrupted_sweep_keeps_its_recorded_errors_and_python_runs():
    # No native runs: the Python-defined policies run one at a time, the progress callback
    # after each; it interrupts after the second. Grid order: Broken at 7, 8, 9, then LRU.
    t = random_trace(1)

    class Broken(OrderedDictLRU):
        def select_victims(self, want, view):
            raise RuntimeError("out of ideas")

    def interrupted_at(runs, failed):
        def progress(done, total):
            if done == runs:
                raise KeyboardInterrupt

        with pytest.raises(pagesim.SweepInterrupted) as info, pytest.warns(RuntimeWarning,
                                                                           match=f"{failed} run"):
            pagesim.sweep(t, policies=[Broken(), OrderedDictLRU()], frames=[7, 8, 9],
                          on_error="record", progress=progress)
        return info.value

    stopped = interrupted_at(2, failed=2)
    assert (stopped.finished, stopped.total) == (2, 6)
    assert stopped.table["frames"].tolist() == [7, 8]
    assert stopped.table["error"].tolist() == ["RuntimeError: out of ideas"] * 2
    table = interrupted_at(4, failed=3).table
    assert table["error"].isna().tolist() == [False, False, False, True]
    assert table["faults"].iloc[3] == pagesim.simulate(t, "lru", frames=7)["faults"]


def test_sigint_stops_the_sweep():
    # SIGINT from outside while the native threads run: sent a moment after the first
    # progress report (a fixed delay from the start failed when the sweep had already ended,
    # 0.3 s on an idle machine).
    t, kw = _long_sweep_args()
    kw["frames"] = list(range(100, 20_000, 25))  # 2388 runs: seconds, not 0.1 s
    calls = []
    timer = threading.Timer(0.05, signal.raise_signal, args=(signal.SIGINT,))

    def progress(done, total):
        if not calls:
            timer.start()
        calls.append(done)

    try:
        with pytest.raises(KeyboardInterrupt):
            pagesim.sweep(t, progress=progress, **kw)
    finally:
        timer.cancel()
    assert calls and calls[-1] < 3 * len(kw["frames"])
    assert pagesim.simulate(t, "lru", frames=100)["accesses"] == 200_000


def test_result_summary_and_to_frame():
    t = random_trace(2)
    r = pagesim.simulate(t, "lru", frames=30)
    s = r.summary()
    assert list(s)[:2] == ["policy", "frames"] and s["faults"] == r["faults"]
    assert all(isinstance(v, (int, float, str, bool)) for v in s.values())
    f = r.to_frame()
    assert isinstance(f, pd.DataFrame) and len(f) == t.num_procs
    assert f.faults.sum() == r["faults"] and list(f.pid) == list(t.proc_pids)
    # With each process's times, as a sweep's rows per process have them.
    assert list(f.columns[:3]) == ["policy", "frames", "pid"]
    assert f.user_ns.sum() == len(t) * 100 and f.elapsed_ns.max() == r.time["elapsed_ns"]
    rows = pagesim.sweep(t, policies=["lru"], frames=[30], per_process=True, progress=False)
    assert list(rows.drop(columns=["trace", "fraction"]).columns) == list(f.columns)
    assert (rows.drop(columns=["trace", "fraction"]).values == f.values).all()


def test_a_worker_loads_a_trace_file_again_when_it_changed(tmp_path):
    # Dask workers keep the traces they loaded by path; a file saved anew (a new inode and
    # time) must not be answered from that copy.
    from pagesim import sweeps
    path = str(tmp_path / "t.pgt")
    pagesim.generate("loop", accesses=5000, pages=50).save(path)
    assert len(sweeps._load_cached(path)) == 5000
    assert sweeps._load_cached(path) is sweeps._load_cached(path)
    pagesim.generate("loop", accesses=9000, pages=50).save(path)
    assert len(sweeps._load_cached(path)) == 9000


def test_a_failing_run_is_named():
    # 10 swap slots: the run at 5 frames fills them (lru and fifo alike), the one at 10**4
    # frames (more than the footprint) swaps nothing. The error says which run.
    t = random_trace(1)
    with pytest.raises(pagesim.ConfigError, match=r"swap is full.*\(in the sweep's run of fifo on numpy "
                                                  r"at 5 frames, device=nvme\)"):
        pagesim.sweep(t, policies=["fifo"], frames=[10_000, 5], swap_slots=10, device=["nvme"],
                      progress=False)

    class Broken(OrderedDictLRU):
        def select_victims(self, want, view):
            raise RuntimeError("out of ideas")

    with pytest.raises(RuntimeError, match="out of ideas") as info:
        pagesim.sweep(t, policies=[Broken()], frames=[10_000, 7], progress=False)
    assert info.value.__notes__[-1] == "in the sweep's run of Broken on numpy at 7 frames"


def test_on_error_record_keeps_every_other_run():
    # The failing runs of test_a_failing_run_is_named, recorded: fifo and lru at 5 frames fill
    # their 10 swap slots; at 10**4 frames (beyond the footprint) nothing is swapped; a Python
    # policy that raises at its first reclaim fails at 7 frames only.
    t = random_trace(1)

    class Broken(OrderedDictLRU):
        def select_victims(self, want, view):
            raise RuntimeError("out of ideas")

    kw = dict(frames=[10_000, 5], swap_slots=10, device=["nvme"], progress=False)
    with pytest.warns(RuntimeWarning, match=r"pagesim.sweep: 2 run\(s\) failed.*The first: ConfigError: "
                                            r"swap is full.*\(run of fifo on numpy at 5 frames\)"):
        df = pagesim.sweep(t, policies=["fifo", "lru"], on_error="record", **kw)
    assert df.columns[-1] == "error" and list(df.columns[:-1]) == list(
        pagesim.sweep(t, policies=["fifo"], frames=[10_000], swap_slots=10, device=["nvme"],
                      progress=False).columns)
    assert df.error.isna().tolist() == [True, False, True, False]
    assert all(e.startswith("ConfigError: swap is full: all 10 slots") for e in df.error[1::2])
    assert df.frames.tolist() == [10_000, 5, 10_000, 5]
    assert df.fraction[1] == 5 / t.num_pages and df.device.tolist() == ["nvme"] * 4
    # A failed run's figures are missing; integer columns stay integers (pandas' Int64).
    assert df.faults.dtype == "Int64" and df.faults.isna().tolist() == [False, True, False, True]
    for k, policy in [(0, "fifo"), (2, "lru")]:
        single = pagesim.simulate(t, policy, frames=10_000, swap_slots=10, device="nvme")
        assert df.faults[k] == single.counters["faults"] and df.elapsed_ns[k] == single.time["elapsed_ns"]

    with pytest.warns(RuntimeWarning, match="1 run"):
        df = pagesim.sweep(t, policies=[Broken()], frames=[10_000, 7], on_error="record", progress=False)
    assert df.error[1] == "RuntimeError: out of ideas" and df.error[0] is None
    assert df.faults[0] == pagesim.simulate(t, "lru", frames=10_000).counters["faults"]
    # Per process: a failed run is one row, without a pid.
    with pytest.warns(RuntimeWarning):
        df = pagesim.sweep(t, policies=["fifo"], per_process=True, on_error="record", **kw)
    assert df.pid.isna().sum() == 1 and df.error.notna().sum() == 1
    assert t.num_procs > 1 and len(df) == t.num_procs + 1
    # Nothing failed: the same table as without recording, with an empty error column.
    plain = pagesim.sweep(t, policies=["fifo", "lru"], frames=[10_000], progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        recorded = pagesim.sweep(t, policies=["fifo", "lru"], frames=[10_000], progress=False,
                                 on_error="record")
    assert recorded.drop(columns="error").equals(plain) and recorded.error.isna().all()
    with pytest.raises(pagesim.ConfigError, match="parameter 'on_error' = 'skip' is not allowed: "
                                                  "choose one of raise, record"):
        pagesim.sweep(t, policies=["fifo"], frames=[5], on_error="skip")


def test_axes_may_be_ranges_and_numpy_arrays():
    t = random_trace(1)
    kw = dict(policies=["lru"], frames=[20], progress=False)
    df = pagesim.sweep(t, page_cluster=np.array([0, 3]), cpu_ns=range(100, 300, 100), **kw)
    assert df[["page_cluster", "cpu_ns"]].values.tolist() == [[0, 100], [0, 200], [3, 100], [3, 200]]
    assert df.equals(pagesim.sweep(t, page_cluster=[0, 3], cpu_ns=[100, 200], **kw))


def test_per_process_rows_say_which_process_suffers():
    # qsbench -p 2 on nvme: one row per process of each run, with the process's own counters
    # and times, the same as simulate's per_process and per_process_time.
    t = pagesim.generate("qsbench", mib=1, procs=2)
    kw = dict(policies=["lru", "clock"], frames=[150, 300], device=["nvme", "zram"], progress=False)
    df = pagesim.sweep(t, per_process=True, **kw)
    assert len(df) == 2 * 2 * 2 * 2
    assert list(df.columns[:6]) == ["trace", "policy", "frames", "fraction", "device", "pid"]
    for row in df.itertuples():
        r = pagesim.simulate(t, row.policy, frames=row.frames, device=row.device)
        k = [p["pid"] for p in r.per_process].index(row.pid)
        assert {c: getattr(row, c) for c in r.per_process[k]} == r.per_process[k]
        times = r.per_process_time[k]
        assert (row.start_ns, row.elapsed_ns, row.user_ns, row.sys_ns, row.iowait_ns) == (
            times["start_ns"], times["elapsed_ns"], times["user_ns"], times["sys_ns"], times["iowait_ns"])
    # Summed over processes, the counters are the run's.
    whole = pagesim.sweep(t, **kw)
    sums = df.groupby(["policy", "frames", "device"], sort=False)[["faults", "swap_outs"]].sum()
    assert sums.reset_index()[["faults", "swap_outs"]].equals(whole[["faults", "swap_outs"]])
    with pytest.raises(pagesim.ConfigError, match="parameter 'per_process' must be True or False"):
        pagesim.sweep(t, per_process="yes", **kw)


def test_a_device_figure_goes_to_the_swept_devices_it_applies_to():
    # device_seek_ms is a disk's: over hdd-2002 and nvme it changes the disk's runs only.
    t = random_trace(1)
    kw = dict(policies=["lru"], frames=[20], progress=False)
    df = pagesim.sweep(t, device=["hdd-2002", "nvme"], device_seek_ms=2.0, **kw)
    for row in df.itertuples():
        extra = {"device_seek_ms": 2.0} if row.device == "hdd-2002" else {}
        assert row.elapsed_ns == pagesim.simulate(t, "lru", frames=20, device=row.device, **extra).time["elapsed_ns"]
    assert df.elapsed_ns[0] != pagesim.sweep(t, device=["hdd-2002"], **kw).elapsed_ns[0]
    # A figure that applies to none of the swept devices is refused before any run.
    with pytest.raises(pagesim.ConfigError, match=r"parameter 'device_seek_ms' applies to none of the swept "
                                                  r"devices \(nvme, zram\): it is for device hdd-2002, hdd-laptop"):
        pagesim.sweep(t, device=["nvme", "zram"], device_seek_ms=2.0, **kw)


def test_a_trace_without_pages_sweeps_to_zero_faults():
    # Its memory is no share of a footprint: fraction NaN (it divided by zero before).
    empty = pagesim.Trace.from_arrays(np.array([], dtype=np.int64))
    df = pagesim.sweep(empty, policies=["lru", "belady"], frames=[3], progress=False)
    assert df.fraction.isna().all() and (df.faults == 0).all() and df.frames.tolist() == [3, 3]
    df = pagesim.sweep(empty, policies=["lru"], fractions=[0.5], progress=False)
    assert df.fraction.tolist() == [0.5] and df.frames.tolist() == [1] and df.faults[0] == 0
