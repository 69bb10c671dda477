import pickle
import re
import resource
import subprocess
import sys

import numpy as np

import pytest

import pagesim

BELADY = np.array([1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5])


@pytest.mark.parametrize("policy,frames,faults", [
    ("fifo", 3, 9), ("fifo", 4, 10), ("lru", 3, 10), ("lru", 4, 8),
    ("belady", 3, 7), ("belady", 4, 6),
])
def test_belady_string_from_numpy(policy, frames, faults):
    # Hand-traced in tests/cpp/test_hand_traced.cpp.
    assert pagesim.simulate(BELADY, policy, frames=frames)["faults"] == faults


def test_counters_read_as_dict_and_add_up():
    rng = np.random.default_rng(3)
    pages = rng.integers(0, 200, 5000)
    writes = rng.random(5000) < 0.3
    t = pagesim.Trace.from_arrays(pages, writes=writes, pids=pages % 3)
    r = pagesim.simulate(t, "clock", frames=50)
    c = r.counters
    assert list(c) == pagesim.counter_names()
    assert c["hits"] + c["faults"] == c["accesses"] == 5000
    assert c["minor_faults"] == t.num_pages
    assert sum(p["faults"] for p in r.per_process) == c["faults"]
    assert sorted(p["pid"] for p in r.per_process) == [0, 1, 2]


def test_write_then_evict_swaps_out():
    # 1 frame: W1, R2 evicts dirty 1 -> one swap-out; R1 swaps it back in.
    t = pagesim.Trace.from_arrays(np.array([1, 2, 1]), writes=np.array([1, 0, 0]))
    c = pagesim.simulate(t, "lru", frames=1).counters
    assert (c["swap_outs"], c["swap_ins"], c["evictions_dirty"]) == (1, 1, 1)


def test_page_stats_say_which_pages_fault_and_are_written():
    # 1 frame: W1* [1 dirty]; R2* evicts 1 (written); R1* evicts 2 (clean), swaps 1 in;
    # W2* evicts 1 (clean, its slot still holds it: no write), 2 is a zero refill, now dirty.
    # Page 1: 2 faults (1 major), 2 evictions, 1 write; page 2: 2 faults (1 major), 1
    # eviction, no write, resident at the end.
    t = pagesim.Trace.from_arrays(np.array([1, 2, 1, 2]), writes=np.array([1, 0, 0, 1]))
    r = pagesim.simulate(t, "lru", frames=1, page_stats=True, **pagesim.TEXTBOOK)
    df = r.page_stats()
    assert df.index.name == "page" and list(df.columns) == [
        "pid", "vpn", "kind", "accesses", "faults", "major_faults", "readahead", "evictions", "writes"]
    assert df[["vpn", "accesses", "faults", "major_faults", "readahead", "evictions", "writes"]
              ].values.tolist() == [[1, 2, 2, 1, 0, 2, 1], [2, 2, 2, 1, 0, 1, 0]]
    assert df.kind.tolist() == ["anon", "anon"]
    assert not r.page_stats_arrays["faults"].flags.writeable
    # The same run as without; the pages add up to its counters, per process too.
    plain = pagesim.simulate(t, "lru", frames=1, **pagesim.TEXTBOOK)
    assert plain.counters == r.counters and plain.page_stats_arrays is None
    with pytest.raises(pagesim.ConfigError, match="run it with page_stats=True"):
        plain.page_stats()
    q = pagesim.generate("kbuild", jobs=2, seed=1)
    r = pagesim.simulate(q, "active_inactive", frames=q.num_pages // 3, page_stats=True,
                         device="nvme", read_ahead_kb=32)
    df = r.page_stats()
    assert set(df.kind) == {"anon", "file"} and df.readahead.sum() > 0
    by_pid = df.groupby("pid")[["accesses", "faults", "major_faults", "evictions", "writes"]].sum()
    for p in r.per_process:
        assert by_pid.loc[p["pid"]].tolist() == [p["accesses"], p["faults"], p["major_faults"],
                                                 p["evictions"], p["evictions_dirty"]]
    assert df.readahead.sum() == r.counters["readahead_pages"]
    assert pickle.loads(pickle.dumps(r)).page_stats().equals(df)
    # A sweep's table is unchanged: the arrays are no scalar of the run.
    kw = dict(policies=["lru"], frames=[1], progress=False)
    assert pagesim.sweep(t, page_stats=True, **kw).equals(pagesim.sweep(t, **kw))


def test_trace_columns_are_read_only_views_and_pickle():
    t = pagesim.Trace.from_arrays(np.array([10, 11, 10, 12]), writes=np.array([0, 1, 0, 0]))
    assert t.pages.tolist() == [0, 1, 0, 2]
    assert t.page_vpns.tolist() == [10, 11, 12]
    assert not t.pages.flags.writeable
    with pytest.raises(ValueError):
        t.pages[0] = 5
    u = pickle.loads(pickle.dumps(t))
    assert u.pages.tolist() == t.pages.tolist() and u.flags.tolist() == t.flags.tolist()
    assert pagesim.simulate(u, "fifo", frames=2).counters == pagesim.simulate(t, "fifo", frames=2).counters


def test_text_trace_path(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("# pid op addr\n1 W 0x1000\n1 R 0x2000\n2 R 0x1000\n1 R 0x1fff\n")
    t = pagesim.load(path)
    assert (len(t), t.num_pages, t.num_procs) == (4, 3, 2)
    assert pagesim.simulate(str(path), "lru", frames=3)["hits"] == 1
    # In trace order (two processes are scheduled round-robin by default).
    assert pagesim.simulate(str(path), "lru", frames=2, schedule="static")["hits"] == 0


def test_errors_are_typed_value_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("R 1\nQ 2\n")
    with pytest.raises(pagesim.TraceFormatError, match=r"bad.txt:2: expected R or W, got 'Q'"):
        pagesim.load(bad)
    with pytest.raises(pagesim.ConfigError, match="unknown policy 'lur': did you mean 'lru'"):
        pagesim.simulate(BELADY, "lur", frames=3)
    # A sweep's label (or the command line's --policies entry) as a name: how to pass them.
    with pytest.raises(pagesim.ConfigError, match=re.escape(
            "unknown policy 'random(seed=7,x=1)': in Python a policy's own parameters are not part "
            "of its name; pass them as keywords, simulate(trace, 'random', seed=7, x=1), or as "
            "('random', {...}) in pagesim.sweep() and pagesim.mrc.mrc()")):
        pagesim.simulate(BELADY, "random(seed=7,x=1)", frames=3)
    with pytest.raises(pagesim.ConfigError, match=r"unknown policy 'random\(seed=7\)': in Python"):
        pagesim.sweep(BELADY, policies=["random(seed=7)"], frames=[3], progress=False)
    with pytest.raises(pagesim.ConfigError, match=r"unknown policy 'nope\(seed=7\)' \(known"):
        pagesim.simulate(BELADY, "nope(seed=7)", frames=3)
    with pytest.raises(pagesim.ConfigError, match="unknown parameter 'sede' for policy 'random': did you mean 'seed'"):
        pagesim.simulate(BELADY, "random", frames=3, sede=1)
    with pytest.raises(pagesim.ConfigError, match="'seed' = -4 is out of range"):
        pagesim.simulate(BELADY, "random", frames=3, seed=-4)
    with pytest.raises(pagesim.ConfigError, match="'frames' = 0 is out of range"):
        pagesim.simulate(BELADY, "lru", frames=0)
    with pytest.raises(pagesim.ConfigError, match="must be a bool, int, float or str"):
        pagesim.simulate(BELADY, "lru", frames=3, cpu_ns=[1])
    # numpy scalars are values; arrays and objects whose __index__ fails are not (they once
    # crashed the process); integers beyond int64 are out of range, not a RuntimeError.
    assert pagesim.simulate(BELADY, "lru", frames=np.int32(3), cpu_ns=np.float32(2.0))["faults"] == \
        pagesim.simulate(BELADY, "lru", frames=3, cpu_ns=2.0)["faults"]

    class BadIndex:
        def __index__(self):
            raise ZeroDivisionError

    for value in [np.array([5, 6]), np.array([]), np.array([1.5, 2.0]), BadIndex()]:
        with pytest.raises(pagesim.ConfigError, match=r"parameter 'frames' must be a bool, int, float or str, got "):
            pagesim.simulate(BELADY, "lru", frames=value)
    for value in [2**63, 2**64, np.uint64(2**64 - 1)]:
        with pytest.raises(pagesim.ConfigError, match=rf"parameter 'frames' = {int(value)} is out of range"):
            pagesim.simulate(BELADY, "lru", frames=value)
    assert issubclass(pagesim.ConfigError, ValueError)
    assert issubclass(pagesim.TraceFormatError, pagesim.Error)


def test_lru_k_parameters_from_python():
    # tests/cpp/test_paper_policies.cpp traces these: a twice-referenced page survives a scan
    # under LRU-2 and not under LRU (k=1); a correlated reference does not count.
    scan = np.array([1, 1, 2, 3, 4, 5, 6, 1])
    assert pagesim.simulate(scan, "lru_k", frames=3)["faults"] == 6
    assert pagesim.simulate(scan, "lru_k", frames=3, k=1)["faults"] == 7
    burst = np.array([1, 1, 2, 3, 4, 1])
    assert pagesim.simulate(burst, "lru_k", frames=3, correlated_period=1)["faults"] == 5
    assert pagesim.simulate(burst, "lru_k", frames=3, correlated_period=1, retained_period=10,
                            k=2)["faults"] == 5
    with pytest.raises(pagesim.ConfigError, match=r"'k' = 0 is out of range: allowed 1 to 64"):
        pagesim.simulate(scan, "lru_k", frames=3, k=0)
    with pytest.raises(pagesim.ConfigError,
                       match=r"'k' must be an integer from 1 to 64, got a number \(2.5\)"):
        pagesim.simulate(scan, "lru_k", frames=3, k=2.5)
    assert "lru_k" in pagesim.policies()


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "pagesim", *args], capture_output=True, text=True)


def test_cli_out_of_memory_is_an_error_not_a_traceback():
    # A loop trace of 5 * 10^8 accesses needs about 2.5 GB (more than the 2 GB of address space given
    # here, less than the machine's memory, which the generator checks against first).
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    out = subprocess.run([sys.executable, "-m", "pagesim", "gen", "loop", "-P", "accesses=500000000",
                          "-P", "pages=5"], capture_output=True, text=True, preexec_fn=limit)
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr.startswith("pagesim: error: out of memory"), out.stderr


def test_cli_run_prints_counters(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("".join(f"R {p}\n" for p in BELADY))
    out = run_cli("run", str(path), "--policy", "fifo", "--frames", "3", "--page-numbers")
    assert out.returncode == 0, out.stderr
    lines = dict(line.split() for line in out.stdout.splitlines() if not line.startswith("#"))
    assert lines["faults"] == "9"


def test_cli_run_writes_each_pages_counts(tmp_path):
    path, csv = tmp_path / "t.txt", tmp_path / "pages.csv"
    path.write_text("".join(f"{'W' if p % 2 else 'R'} {p}\n" for p in BELADY))
    out = run_cli("run", str(path), "--policy", "fifo", "--frames", "3", "--page-numbers",
                  "-P", "page_cluster=0", "--pages", str(csv))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == f"wrote {csv}: a row per page (5), its accesses, faults, readahead, evictions and writes"
    import pandas as pd
    expected = pagesim.simulate(pagesim.load(path, page_numbers=True), "fifo", frames=3, page_cluster=0,
                                page_stats=True).page_stats().reset_index()
    got = pd.read_csv(csv)
    pd.testing.assert_frame_equal(got, expected, check_dtype=False, check_categorical=False)
    assert got.faults.tolist() == [2, 2, 2, 2, 1]  # FIFO at 3 frames: test_hand_traced.cpp


def test_cli_run_with_a_device_prints_time_device_and_vmstat(tmp_path):
    # Two processes writing Belady's string over their own pages, on nvme: the run's time view,
    # device counts and vmstat rows, as the Python API gives them.
    path = tmp_path / "t.txt"
    path.write_text("".join(f"{1 + k % 2} W {p}\n" for k, p in enumerate(BELADY)) * 20)
    out = run_cli("run", str(path), "--policy", "lru", "--frames", "3", "--page-numbers",
                  "-P", "device=nvme", "-P", "interval_ns=200000", "--vmstat")
    assert out.returncode == 0, out.stderr
    r = pagesim.simulate(pagesim.load(path, page_numbers=True), "lru", frames=3, device="nvme",
                         interval_ns=200000)
    assert r.device_stats["reads"] > 0 and r.counters["swap_outs"] > 0
    sections = out.stdout.split("\n\n")
    assert [s.splitlines()[0] for s in sections] == [
        f"# {path}: 240 accesses, 10 pages; policy lru, 3 frames, device nvme",
        "# time (virtual, seconds), as /usr/bin/time per process",
        "# device nvme",
        "# vmstat, every 0.0002 s of virtual time"]
    counters = dict(line.split() for line in sections[0].splitlines()[1:])
    assert counters == {k: str(v) for k, v in r.counters.items()}
    rows = {line.split()[0]: line.split() for line in sections[1].splitlines()[3:]}
    assert list(rows) == ["1", "2", "all"]
    header = sections[1].splitlines()[1].split()
    assert header[:2] == ["start_s", "elapsed_s"]
    assert rows["all"][1:3] == ["0.000000", f"{r.time['elapsed_ns'] / 1e9:.6f}"]
    device = {line.split()[0]: line.split()[1:] for line in sections[2].splitlines()[1:]}
    assert device == {k: [str(v)] + ([f"({v / 1e9:.3f}", "s)"] if k.endswith("_ns") else [])
                      for k, v in r.device_stats.items()}
    assert {"busy_ns", "read_busy_ns", "write_busy_ns", "seek_ns"} <= set(device)
    assert len(sections[3].splitlines()) == 3 + len(r.vmstat()) > 4
    # Without a device, one process and no --time: the counters alone.
    path.write_text("".join(f"W {p}\n" for p in BELADY))
    out = run_cli("run", str(path), "--frames", "3", "--page-numbers")
    assert "\n\n" not in out.stdout and "device none" in out.stdout


def test_cli_sweep_prints_the_table_and_writes_csv(tmp_path):
    # Belady's string read, and written: faults hand-traced in tests/cpp/test_hand_traced.cpp
    # (fifo 9 at 3 frames, 10 at 4: Belady's anomaly; lru 10 and 8), the same with writes.
    reads, writes = tmp_path / "reads.txt", tmp_path / "writes.txt"
    reads.write_text("".join(f"R {p}\n" for p in BELADY))
    writes.write_text("".join(f"W {p}\n" for p in BELADY))
    csv = tmp_path / "out.csv"
    out = run_cli("sweep", str(reads), str(writes), "--policies", "fifo,lru", "--frames", "3,4",
                  "--page-numbers", "-o", str(csv), "-P", "page_cluster=0")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["trace", "policy", "frames", "fraction", "faults", "major_faults",
                                "swap_outs"]
    rows = [line.split() for line in lines[1:9]]
    assert [(r[1], r[2], r[4]) for r in rows] == [
        ("fifo", "3", "9"), ("fifo", "4", "10"), ("lru", "3", "10"), ("lru", "4", "8")] * 2
    assert [r[0] for r in rows] == [str(reads)] * 4 + [str(writes)] * 4
    assert lines[9] == f"wrote {csv}: 8 rows, 50 columns"
    import pandas as pd
    expected = pagesim.sweep({str(reads): pagesim.load(reads, page_numbers=True),
                              str(writes): pagesim.load(writes, page_numbers=True)},
                             policies=["fifo", "lru"], frames=[3, 4], page_cluster=0, progress=False)
    expected["elapsed_s"] = expected["elapsed_ns"] / 1e9
    pd.testing.assert_frame_equal(pd.read_csv(csv), expected, check_dtype=False)
    # Compressed as the name says (it was plain text under a .gz name).
    gz = tmp_path / "out.csv.gz"
    out = run_cli("sweep", str(reads), str(writes), "--policies", "fifo,lru", "--frames", "3,4",
                  "--page-numbers", "-o", str(gz), "-P", "page_cluster=0")
    assert out.returncode == 0, out.stderr
    assert gz.read_bytes()[:2] == b"\x1f\x8b"
    pd.testing.assert_frame_equal(pd.read_csv(gz), expected, check_dtype=False)


def test_cli_sweep_axes_and_pivot(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("".join(f"W {p}\n" for p in BELADY) * 5)
    # Several values make a grid axis; with a device the table shows the elapsed time.
    out = run_cli("sweep", str(path), "--policies", "fifo", "--fractions", "0.6,0.8",
                  "--page-numbers", "-P", "device=none,nvme", "-P", "cpu_ns=50")
    assert out.returncode == 0, out.stderr
    header, *rows = out.stdout.splitlines()
    assert header.split() == ["trace", "device", "policy", "frames", "fraction", "faults",
                              "major_faults", "swap_outs", "elapsed_s"]
    r = pagesim.simulate(pagesim.load(path, page_numbers=True), "fifo", frames=4, device="nvme",
                         cpu_ns=50)
    assert [row.split()[1:4] for row in rows] == [["none", "fifo", "3"], ["none", "fifo", "4"],
                                                  ["nvme", "fifo", "3"], ["nvme", "fifo", "4"]]
    assert rows[3].split()[-1] == f"{r.time['elapsed_ns'] / 1e9:.4g}"
    # A swept key named in --columns is printed once, where the axes are.
    out = run_cli("sweep", str(path), "--policies", "fifo", "--fractions", "0.6", "--page-numbers",
                  "-P", "device=none,nvme", "--columns", "device,faults")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].split() == ["trace", "device", "policy", "frames", "fraction",
                                                  "faults"]
    # A policy's own parameters: two seeds of random side by side.
    out = run_cli("sweep", str(path), "--policies", "random(seed=1), random(seed=2)", "--frames", "3",
                  "--page-numbers", "--columns", "faults")
    assert out.returncode == 0, out.stderr
    t = pagesim.load(path, page_numbers=True)
    assert [line.split()[1:] for line in out.stdout.splitlines()[1:]] == [
        [f"random(seed={s})", "3", "0.6", str(pagesim.simulate(t, "random", frames=3, seed=s)["faults"])]
        for s in (1, 2)]
    # --pivot: one column, a row per policy and a column per memory size.
    out = run_cli("sweep", str(path), "--policies", "fifo,lru", "--frames", "3,4",
                  "--page-numbers", "-P", "page_cluster=0", "--pivot", "faults")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "# faults, a column per memory size (frames)"
    body = {line.split()[-3]: line.split()[-2:] for line in out.stdout.splitlines()[3:]}
    faults = {p: [str(pagesim.simulate(pagesim.load(path, page_numbers=True), p, frames=f,
                                       page_cluster=0)["faults"]) for f in (3, 4)]
              for p in ("fifo", "lru")}
    assert body == faults and faults["fifo"] == ["45", "50"]  # 9 and 10 per round of the string


def test_cli_sweep_keep_going(tmp_path):
    # Belady's string written 5 times: 5 pages, all dirty. With 2 swap slots the runs at 3
    # frames fill them; at 5 frames nothing is evicted. Without --keep-going the first failure
    # stops the sweep (status 2, one line); with it every other run is printed and written.
    path = tmp_path / "t.txt"
    path.write_text("".join(f"W {p}\n" for p in BELADY) * 5)
    csv = tmp_path / "out.csv"
    args = ["sweep", str(path), "--policies", "fifo,lru", "--frames", "3,5", "--page-numbers",
            "-P", "swap_slots=2,64", "-o", str(csv)]
    out = run_cli(*args)
    assert out.returncode == 2 and out.stderr.startswith("pagesim: error: swap is full: all 2 slots")
    assert not csv.exists()
    out = run_cli(*args, "--keep-going")
    assert out.returncode == 1
    header, *rows = out.stdout.splitlines()[:9]
    assert header.split() == ["trace", "swap_slots", "policy", "frames", "fraction", "faults",
                              "major_faults", "swap_outs"]
    t = pagesim.load(path, page_numbers=True)
    expected = [[str(slots), policy, str(f)] + (["<NA>"] * 3 if slots == 2 and f == 3 else [
        str(r["faults"]), str(r["major_faults"]), str(r["swap_outs"])])
        for slots in (2, 64) for policy in ("fifo", "lru") for f in (3, 5)
        for r in [pagesim.simulate(t, policy, frames=f, swap_slots=slots) if slots == 64 or f == 5 else None]]
    assert [row.split()[1:4] + row.split()[5:] for row in rows] == expected
    assert expected[4][3:] != ["5", "0", "0"]  # at 3 frames with room in swap: swap-outs
    first, *failed = out.stderr.splitlines()
    assert first == "pagesim: 2 runs failed:" and len(failed) == 2
    for line, p in zip(failed, ("fifo", "lru")):
        assert re.fullmatch(
            rf"  {p} on {re.escape(str(path))} at 3 frames, swap_slots=2: ConfigError: swap is full: "
            r"all 2 slots \(parameter 'swap_slots'\) are in use, so dirty page pid 0 vpn 0x\d cannot be "
            r"swapped out; raise swap_slots \(0 means twice the trace's pages\)", line), line
    import pandas as pd
    table = pd.read_csv(csv)
    assert table.error.notna().tolist() == [True, False] * 2 + [False] * 4
    # Nothing failed: status 0, and the CSV's error column is empty.
    out = run_cli(*args[:-4], "-P", "swap_slots=64", "-o", str(csv), "--keep-going")
    assert out.returncode == 0 and out.stderr == ""
    assert pd.read_csv(csv).error.isna().all()
    # Every run failed: the table says which and why (a KeyError on the missing figures).
    for pivot in ([], ["--pivot", "swap_outs"]):
        out = run_cli("sweep", str(path), "--policies", "fifo,lru", "--frames", "3", "--page-numbers",
                      "-P", "swap_slots=2", "-o", str(csv), "--keep-going", *pivot)
        assert out.returncode == 1 and out.stderr.startswith("pagesim: 2 runs failed:\n"), out.stderr
        header, *rows = out.stdout.splitlines()
        assert header.split() == ["trace", "policy", "frames", "fraction", "error"]
        assert [row.split()[1:4] for row in rows[:2]] == [["fifo", "3", "0.6"], ["lru", "3", "0.6"]]
        assert rows[2] == f"wrote {csv}: 2 rows, 5 columns"
        assert pd.read_csv(csv).error.str.startswith("ConfigError: swap is full").all()


def test_cli_sweep_errors_name_the_option(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("R 1\nR 2\n")
    cases = [
        (["--frames", "3,x"], "--frames expects comma-separated integers, got 'x'"),
        (["--fractions", "0.5,half"], "--fractions expects comma-separated numbers, got 'half'"),
        (["--frames", "3", "--columns", "faults,nope"], "unknown column 'nope': choose from trace,"),
        (["--frames", "3", "--pivot", "nope"], "--pivot 'nope' is not a figure of a run: choose from accesses,"),
        (["--frames", "3", "--pivot", "device"], "--pivot 'device' is not a figure"),
        (["--frames", "3", "--policies", "lru,nope"], "unknown policy 'nope'"),
        (["--frames", "3", "-P", "device=nvme,disk"], "'device' = 'disk' is not allowed"),
        (["--frames", "3", "--policies", "lru,(x"], "--policies expects NAME or NAME(KEY=VALUE,...)"),
        (["--frames", "3", "--policies", "random(seed)"], "--policies random(...) expects KEY=VALUE, got 'seed'"),
        (["--frames", "3", "--policies", "lru(seed=1)"], "unknown parameter 'seed' for policy 'lru'"),
    ]
    for extra, message in cases:
        args = ["sweep", str(path), "--page-numbers", "--policies", "lru", *extra]
        out = run_cli(*args)
        assert out.returncode == 2 and message in out.stderr, (extra, out.stderr)
        assert out.stderr.count("\n") == 1


def test_cli_mrc_prints_the_curves(tmp_path):
    # Belady's string, hand-traced (tests/cpp/test_hand_traced.cpp): lru 10 and 8 faults at 3
    # and 4 frames, belady 7 and 6, fifo 9 and 10; 12 accesses.
    path = tmp_path / "t.txt"
    path.write_text("".join(f"R {p}\n" for p in BELADY))
    csv, png = tmp_path / "c.csv", tmp_path / "c.png"
    out = run_cli("mrc", str(path), "--page-numbers", "--frames", "3,4", "--policies",
                  "lru,belady,fifo", "--shards", "1", "-o", str(csv), "--plot", str(png))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == f"# {path}: 12 accesses, 5 pages; miss ratio = faults / accesses, demand paging in trace order"
    assert lines[1].split() == ["policy", "lru", "belady", "fifo", "lru_shards"]
    assert lines[3].split() == ["3", "0.8333", "0.5833", "0.7500", "0.8333"]  # 10, 7, 9, 10 of 12
    assert lines[4].split() == ["4", "0.6667", "0.5000", "0.8333", "0.6667"]  # 8, 6, 10, 8
    import pandas as pd
    df = pd.read_csv(csv)
    assert list(df["faults"]) == [10, 8, 7, 6, 9, 10, 10, 8]  # SHARDS at rate 1 is exact
    assert list(df["method"]) == ["one-pass"] * 4 + ["simulation"] * 2 + ["shards rate 1"] * 2
    assert png.read_bytes()[:4] == b"\x89PNG"
    # Without --frames: --points sizes up to the footprint, here every size 1..5.
    out = run_cli("mrc", str(path), "--page-numbers", "--policies", "lru")
    assert [line.split()[0] for line in out.stdout.splitlines()[3:]] == ["1", "2", "3", "4", "5"]
    for extra, message in [(["--frames", "0,3"], "--frames = 0 is out of range: allowed 1 to"),
                           (["--points", "0"], "--points must be >= 1"),
                           (["--policies", "lur"], "unknown policy 'lur'")]:
        out = run_cli("mrc", str(path), "--page-numbers", *extra)
        assert out.returncode == 2 and message in out.stderr, out.stderr


def test_cli_mrc_sample(tmp_path):
    # --sample 1: the miniature simulation of the whole trace is the simulation itself.
    path = tmp_path / "t.txt"
    path.write_text("".join(f"R {p}\n" for p in BELADY))
    out = run_cli("mrc", str(path), "--page-numbers", "--frames", "3,4", "--policies", "lru,fifo",
                  "--sample", "1")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].endswith("demand paging in trace order; estimated by miniature simulations at rate 1")
    assert lines[3].split() == ["3", "0.8333", "0.7500"] and lines[4].split() == ["4", "0.6667", "0.8333"]
    out = run_cli("mrc", str(path), "--page-numbers", "--sample", "0")
    assert out.returncode == 2 and "--sample expects a sampling rate above 0 and at most 1, got 0" in out.stderr


def test_cli_mrc_working_set(tmp_path):
    # Belady's string, N = 12. Intervals: page 1 4 and 3, page 2 4 and 3, page 3 7, page 4 7,
    # page 5 5; 5 first references; from each page's last access to the end: 5, 4, 3, 2, 1.
    # --points 3: windows 1, 3 (geomspace(1, 12, 3) = 1, 3.46, 12 rounded) and 12.
    # T=1: 12 faults, mean size 1. T=3: 5 intervals above 3, 10 faults; sizes min(gap, 3):
    # 7 * 3 + 3 + 3 + 3 + 2 + 1 = 33, mean 2.75. T=12: 5 faults; 33 + 15 = 48, mean 4.
    # VMIN holds a page over its intervals of at most T, else for its reference instant: T=1,
    # 12 instants, mean 1; T=3, pages 1 and 2 over 3 each, 5 intervals above and 5 last
    # references: 16, mean 1.3333; T=12, the 7 intervals (33) and 5 last references: 38, 3.1667.
    path = tmp_path / "t.txt"
    path.write_text("".join(f"R {p}\n" for p in BELADY))
    csv, png = tmp_path / "c.csv.gz", tmp_path / "c.png"
    out = run_cli("mrc", str(path), "--page-numbers", "--policies", "lru", "--points", "3",
                  "--working-set", "-o", str(csv), "--plot", str(png))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    at = lines.index("# working set (time = the trace's accesses): miss ratio against mean size, "
                     "window in accesses; VMIN, prescient, makes the same faults in vmin_mean_size")
    assert [line.split() for line in lines[at + 1:at + 5]] == [
        ["window", "mean_size", "miss_ratio", "vmin_mean_size"], ["1", "1.0000", "1.0000", "1.0000"],
        ["3", "2.7500", "0.8333", "1.3333"], ["12", "4.0000", "0.4167", "3.1667"]]
    import pandas as pd
    ws = pd.read_csv(tmp_path / "c.working_set.csv.gz")
    assert ws["faults"].tolist() == [12, 10, 5]
    # --pff, by hand: faults at #0-#3 (1 2 3 4), 1 apart: the set grows to {1 2 3 4}. #6 (5)
    # comes 3 after #3: at T=1 the set shrinks to the pages used from #3 on, {4 1 2}, then
    # takes 5; #9 (3), 3 after #6: {5 1 2}, then 3; #10 (4), 1 after: grows. 7 faults. At T=3
    # and 12 the set only grows: the 5 pages' first faults.
    out = run_cli("mrc", str(path), "--page-numbers", "--policies", "lru", "--points", "3",
                  "--pff", "-o", str(csv))
    assert out.returncode == 0, out.stderr
    pff = pd.read_csv(tmp_path / "c.pff.csv.gz")
    want = pagesim.mrc.pff(pagesim.Trace.from_arrays(np.array(BELADY)), thresholds=[1, 3, 12])
    assert pff["faults"].tolist() == want["faults"].tolist() == [7, 5, 5]
    assert pd.read_csv(csv)["policy"].tolist() == ["lru"] * 3
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_cli_sweep_interrupted_writes_the_runs_that_finished(tmp_path):
    import os
    import signal
    trace = tmp_path / "z.pgt"
    pagesim._core.generate_zipf(200_000, 20_000, 0.9, 0.3, 1).save(str(trace))
    out = tmp_path / "r.csv"
    frames = list(range(100, 20_000, 10))  # 5970 runs: several seconds
    proc = subprocess.Popen([sys.executable, "-m", "pagesim", "sweep", str(trace), "--policies",
                             "lru,fifo,clock", "--frames", ",".join(map(str, frames)), "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # The progress bar appears after a second of sweeping: then the sweep is under way.
    seen = b""
    while b"sweep:" not in seen:
        chunk = os.read(proc.stderr.fileno(), 4096)
        assert chunk, "the sweep ended before its progress bar showed"
        seen += chunk
    proc.send_signal(signal.SIGINT)
    stdout, rest = proc.communicate(timeout=120)
    stderr = (seen + rest).decode()
    assert proc.returncode == 130, stderr
    # The runs that finished are printed and written as a whole sweep's would be.
    finished = re.search(r"pagesim: interrupted: the table holds the (\d+) of 5970 runs that had "
                         r"finished$", stderr.rstrip())
    assert finished, stderr
    import pandas as pd
    df = pd.read_csv(out)
    assert 0 < len(df) == int(finished[1]) < 3 * len(frames)
    assert stdout.decode().splitlines()[-1] == f"wrote {out}: {len(df)} rows, {len(df.columns)} columns"
    row = df.iloc[-1]
    counters = pagesim.simulate(pagesim.load(str(trace)), row.policy, frames=int(row.frames)).counters
    assert (row.faults, row.swap_outs) == (counters["faults"], counters["swap_outs"])


def test_cli_errors_are_one_line_and_exit_2(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("R 1\nR x\n")
    out = run_cli("run", str(path), "--frames", "3")
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0
    assert "t.txt:2: expected an address" in out.stderr
    path.write_text("R 1\n")
    out = run_cli("run", str(path), "--frames", "3", "--policy", "nope")
    assert out.returncode == 2 and "unknown policy 'nope'" in out.stderr
    assert run_cli("run", "/no/such/file", "--frames", "3").returncode == 2


def test_bad_arguments_name_the_key_and_what_is_allowed(tmp_path):
    """Each of these once gave a TypeError from the binding, a MemoryError, or a silently
    changed value (int(2.7), bool("false"))."""
    from pagesim import mrc, prescient, testing
    t = pagesim.generate("zipf", accesses=3000, pages=200, write_fraction=0.3, seed=1)
    tiny = pagesim.Trace.from_arrays([1, 2, 3, 1])
    cases = [
        (lambda: prescient.swap_out_lower_bound(t, frames=100, free_on_exit="false"),
         "parameter 'free_on_exit' must be True or False, got str 'false'"),
        (lambda: prescient.swap_out_lower_bound(t, frames=2.5), "parameter 'frames' must be an integer, got float 2.5"),
        (lambda: prescient.exact_optimum(tiny, frames=2, fault_weight=2**62),
         r"parameter 'fault_weight' = 4611686018427387904 is out of range: allowed 0 to 1048576"),
        (lambda: prescient.exact_optimum(tiny, frames=-1), r"parameter 'frames' = -1 is out of range"),
        (lambda: prescient.prescient_bracket(t, frames=5, prescient=["lru"]),
         "'lru' in prescient is not a prescient policy"),
        (lambda: mrc.mrc(t, frames=[2.7]), "parameter 'frames' must be an integer, got float 2.7"),
        (lambda: mrc.opt_mrc(t, max_frames=-1), r"parameter 'max_frames' = -1 is out of range: allowed 0 to"),
        (lambda: mrc.shards_mrc(t, max_pages=-1), r"parameter 'max_pages' = -1 is out of range: allowed 1 to"),
        (lambda: mrc.shards_mrc(t, rate=float("inf")), "parameter 'rate' must be a finite number above 0"),
        (lambda: pagesim.simulate(t, None, frames=5), "policy must be a registered policy's name or a pagesim.Policy"),
        (lambda: pagesim.interleave([t, t], quantum=-1), r"parameter 'quantum' = -1 is out of range: allowed 1 to"),
        (lambda: pagesim.PolicyTraits(tick_ns=-1), r"parameter 'tick_ns' = -1 is out of range"),
        (lambda: pagesim.sweep(t, policies=["lru"], fractions=[float("inf")]), "parameter 'fractions' must be a finite number above 0, got inf"),
        (lambda: pagesim.sweep(None, policies=["lru"], frames=[5]), "sweep's traces must be a Trace, a path"),
        (lambda: pagesim.Trace.from_arrays(np.array([1.5, 2.5])), "'pages' must hold integers; got dtype float64"),
        (lambda: pagesim.Trace.from_columns(np.array([0, 1], dtype=np.uint32),
                                            page_procs=np.array([0, 2**32 - 1], dtype=np.uint32)),
         "'page_procs' holds process 4294967295; expected dense process ids below the page count 2"),
        (lambda: pagesim.generate("zipf", accesses=10**12), r"parameter 'accesses' = 1000000000000 asks for a trace of"),
        (lambda: pagesim.generate("qsbench", procs=0), r"parameter 'procs' = 0 is out of range: allowed 1 to 1024"),
        (lambda: pagesim.simulate(t, "belady", frames=30, schedule="round_robin"),
         r"schedule='round_robin' was given: set schedule='static'"),
        (lambda: pagesim.simulate(t, "lru", frames=50, device_seek_ms=5),
         "parameter 'device_seek_ms' does not apply to device 'none': it is for device hdd-2002, hdd-laptop"),
        # A byte that is not UTF-8 on a command line arrives as a lone surrogate.
        (lambda: pagesim.simulate(t, "lru", frames=5, device="\udcff"),
         r"parameter 'device' = '\\udcff' is not text"),
        (lambda: pagesim.simulate(t, "lru", frames=5, **{"\udcff": 1}), r"parameter name '\\udcff' is not text"),
        (lambda: prescient.prescient_ratio(t, frames=[2.7], policies=["lru"]),
         "parameter 'frames' must be an integer, got float 2.7"),
        (lambda: testing.check_known_answers("lruu"), "unknown policy 'lruu'"),
    ]
    for call, message in cases:
        with pytest.raises(pagesim.ConfigError, match=message):
            call()
    # One memory size, one policy by name: as a list of one (a str was read letter by letter).
    assert list(mrc.mrc(t, frames=4, policies="lru")["frames"]) == [4]
    assert list(prescient.prescient_ratio(t, frames=5, policies="lru")["policy"]) == ["lru"]
    # SHARDS with a tiny sample estimates badly, but never more faults than accesses (the
    # SHARDS_adj correction once put this curve at 10097 faults for 3000 accesses).
    assert mrc.shards_mrc(t, max_pages=3).max() <= 3000
    r = run_cli("mrc", str(tmp_path / "x.pgt"), "--plot", "curve.bogus")  # before reading the trace
    assert r.returncode == 2 and "--plot 'curve.bogus': expected an image file name ending in" in r.stderr
    r = run_cli("sweep", str(tmp_path / "x.pgt"), "--policies", "lru", "--frames", "5", "-o", "nodir/x.csv")
    assert r.returncode == 2 and "-o 'nodir/x.csv': directory 'nodir' does not exist" in r.stderr
    # An output that is a directory, before the work (it failed after it, naming a temporary file).
    (tmp_path / "adir").mkdir()
    adir = str(tmp_path / "adir")
    for args in (["sweep", str(tmp_path / "x.pgt"), "--policies", "lru", "--frames", "5", "-o", adir],
                 ["mrc", str(tmp_path / "x.pgt"), "-o", adir],
                 ["run", str(tmp_path / "x.pgt"), "--frames", "5", "--pages", adir],
                 ["convert", str(tmp_path / "x.pgt"), adir, "--to", "text"]):
        r = run_cli(*args)
        assert (r.returncode, r.stdout) == (2, ""), args
        assert f"{adir!r} is a directory: expected a file's name" in r.stderr, r.stderr
    # gen refuses an output format it cannot write before it generates: with 2 GB of address
    # space, the 2.5 GB trace would have run out of memory first.
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    for out, message in ((["-o", str(tmp_path / "g.pgt"), "--format", "bogus"],
                          "trace format 'bogus' is not known"),
                         (["-o", str(tmp_path / "g.spc")],
                          "pagesim reads block I/O traces but does not write them")):
        r = subprocess.run([sys.executable, "-m", "pagesim", "gen", "loop", "-P", "accesses=500000000",
                            *out], capture_output=True, text=True, preexec_fn=limit)
        assert r.returncode == 2 and message in r.stderr, r.stderr
    # The memory size has its own options (a second 'frames' was a TypeError).
    for args in (["run", "--policy", "lru", "--frames", "2", "-P", "frames=3"],
                 ["run", "--policy", "lru(frames=3)", "--frames", "2"],
                 ["sweep", "--policies", "lru", "--fractions", "0.5", "-P", "fractions=0.2"]):
        r = run_cli(args[0], str(tmp_path / "x.pgt"), *args[1:])
        assert r.returncode == 2 and "the memory size is given by --frames" in r.stderr, r.stderr
    # A Python policy's class where an instance was due, and a factory's missing parameter.
    class Fifo(pagesim.Policy):
        def __init__(self, window):
            super().__init__()
    with pytest.raises(pagesim.ConfigError, match=r"got the class Fifo: pass Fifo\(...\)"):
        pagesim.simulate(tiny, Fifo, frames=2)
    pagesim.register_policy("needs_window", Fifo)
    try:
        with pytest.raises(pagesim.ConfigError, match="policy 'needs_window': missing parameter 'window'; "):
            pagesim.simulate(tiny, "needs_window", frames=2)
    finally:
        pagesim.unregister_policy("needs_window")
    # A name the command line could not select.
    with pytest.raises(pagesim.ConfigError, match=r"a policy name is letters, digits.*got 'my policy\(x\)'"):
        pagesim.register_policy("my policy(x)", Fifo)


def test_cli_mrc_says_how_it_simulated_and_shards_only_demand_paging(tmp_path):
    # SHARDS estimates the demand-paging lru curve; with readahead it printed that estimate
    # beside the simulated lru curve, under a header that said "demand paging in trace order".
    path = tmp_path / "t.txt"
    path.write_text("".join(f"R {p}\n" for p in BELADY))
    args = ["mrc", str(path), "--page-numbers", "--frames", "3,4", "--policies", "lru"]
    out = run_cli(*args, "-P", "page_cluster=3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].endswith(
        "miss ratio = faults / accesses, every policy simulated with page_cluster=3 schedule=static")
    out = run_cli(*args, "--shards", "1", "-P", "page_cluster=3")
    assert out.returncode == 2 and out.stderr == (
        "pagesim: error: --shards estimates the lru curve of demand paging in trace order, not the "
        "one with -P page_cluster=3: drop one of the two\n")
    out = run_cli(*args, "--shards", "1", "-P", "page_cluster=0")  # textbook settings, spelt out
    assert out.returncode == 0 and out.stdout.splitlines()[0].endswith("demand paging in trace order")
    # The Python API: the one-pass curve only for textbook settings, otherwise a simulation.
    t = pagesim.Trace.from_arrays(BELADY)
    assert list(pagesim.mrc.mrc(t, frames=[3], page_cluster=0)["method"]) == ["one-pass"]
    assert list(pagesim.mrc.mrc(t, frames=[3], page_cluster=3)["method"]) == ["simulation"]


def test_cli_stops_quietly_when_the_reader_has_gone(tmp_path):
    # `pagesim policies | head -1` once ended "pagesim: error: [Errno 32] Broken pipe", exit 2.
    import os
    path = tmp_path / "t.txt"
    path.write_text("".join(f"W {p}\n" for p in BELADY) * 20)
    for args in (["policies"], ["run", str(path), "--frames", "3", "--page-numbers", "--vmstat",
                                "-P", "interval_ns=1000"]):
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first byte
        try:
            r = subprocess.run([sys.executable, "-m", "pagesim", *args], stdout=write,
                               stderr=subprocess.PIPE, text=True)
        finally:
            os.close(write)
        assert (r.returncode, r.stderr) == (141, ""), args


def test_cli_ctrl_c_is_one_line_and_exit_130(tmp_path, capsys, monkeypatch):
    from pagesim import cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pagesim, "sweep", interrupted)
    path = tmp_path / "t.txt"
    path.write_text("R 1\n")
    try:
        status = cli.main(["sweep", str(path), "--policies", "lru", "--frames", "3"])
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt came out of cli.main, a traceback on the terminal")
    assert status == 130
    assert capsys.readouterr().err == "pagesim: interrupted\n"


def test_cli_run_mrc_and_sweep_read_policies_alike(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("".join(f"R {p}\n" for p in BELADY) * 3)
    t = pagesim.load(path, page_numbers=True)
    random3 = pagesim.simulate(t, "random", frames=3, seed=3)["faults"]
    out = run_cli("run", str(path), "--page-numbers", "--frames", "3", "--policy", "random(seed=3)")
    assert out.returncode == 0, out.stderr
    assert "policy random(seed=3), 3 frames" in out.stdout.splitlines()[0]
    assert f"faults            {random3}" in out.stdout.splitlines()
    # The policy's own parameter wins over -P, as in sweep.
    out = run_cli("run", str(path), "--page-numbers", "--frames", "3", "--policy", "random(seed=3)",
                  "-P", "seed=4")
    assert f"faults            {random3}" in out.stdout.splitlines()
    out = run_cli("mrc", str(path), "--page-numbers", "--frames", "3", "--policies", "random(seed=3),lru")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1].split() == ["policy", "random(seed=3)", "lru"]
    assert out.stdout.splitlines()[3].split()[1] == f"{random3 / 36:.4f}"
    out = run_cli("mrc", str(path), "--page-numbers", "--frames", "3", "--policies", "all")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1].split()[1:] == sorted(pagesim.policies())
    for spec in ("all", "lru,fifo", "lru("):
        out = run_cli("run", str(path), "--page-numbers", "--frames", "3", "--policy", spec)
        assert out.returncode == 2 and out.stderr == (
            f"pagesim: error: --policy expects one NAME or NAME(KEY=VALUE,...), got {spec!r}; to "
            f"compare several (or all) use sweep or mrc --policies\n")


def test_cli_says_library_settings_as_its_own_options(tmp_path):
    two = tmp_path / "two.txt"
    two.write_text("1 R 1\n2 R 2\n1 R 3\n")
    cases = [
        (["run", str(two), "--page-numbers", "--frames", "2", "--policy", "belady", "-P",
          "schedule=round_robin"],
         "-P schedule=round_robin was given: set -P schedule=static\n"),
        (["mrc", str(two), "--page-numbers", "--shards", "0"],
         "--shards expects a sampling rate above 0 and at most 1, got 0\n"),
        (["mrc", str(two), "--page-numbers", "--shards", "1.5"],
         "--shards expects a sampling rate above 0 and at most 1, got 1.5\n"),
        (["mrc", str(two), "--page-numbers", "--sample", "0"],
         "--sample expects a sampling rate above 0 and at most 1, got 0\n"),
        (["mrc", str(two), "--page-numbers", "--sample", "nan"],
         "--sample expects a sampling rate above 0 and at most 1, got nan\n"),
        (["sweep", str(two), "--page-numbers", "--policies", "lru", "--frames", "1,2,1"],
         "--frames lists 1 more than once\n"),
        (["sweep", str(two), "--page-numbers", "--policies", "lru", "--fractions", "0.5,0.25,0.5"],
         "--fractions lists 0.5 more than once\n"),
        (["run", str(two), "--page-numbers", "--frames", "0"], "--frames = 0 is out of range"),
    ]
    for args, message in cases:
        out = run_cli(*args)
        assert out.returncode == 2 and message in out.stderr, (args, out.stderr)
        assert "'static'" not in out.stderr and "parameter 'rate'" not in out.stderr
    from pagesim.cli import _in_cli_terms
    options = {"format": "--format", "instructions": "--instructions", "frames": "--frames"}
    assert _in_cli_terms("name the format (format='oracle' for oracleGeneral); read them with "
                         "instructions=True; or set interval_ns=0", options) == (
        "name the format (--format oracle for oracleGeneral); read them with --instructions; or "
        "set -P interval_ns=0")
    # Policy labels, echoed input and what is already in the CLI's words stay as they are.
    for text in ("sweep policies must be distinct: random(seed=1), lru_k(k=2,correlated_period=5)",
                 "-P expects KEY=VALUE, got 'seed=3'", "set -P interval_ns=0",
                 "t.lackey:1: expected a decimal size from 1 to 65536, got '4 frames=3'",
                 "got 'a b=1' and 'c frames=True'"):
        assert _in_cli_terms(text, options) == text


def test_cli_vmstat_needs_an_interval(tmp_path):
    # It printed the counters and no vmstat section, without a word.
    path = tmp_path / "t.txt"
    path.write_text("".join(f"R {p}\n" for p in BELADY))
    out = run_cli("run", str(path), "--page-numbers", "--frames", "3", "--vmstat", "-P", "interval_ns=0")
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == ("pagesim: error: --vmstat needs -P interval_ns above 0 (default 1000000000, "
                          "1 s of virtual time): -P interval_ns=0 turns the series off\n")
