"""Prescient bracket, ratios, headline table and miss-ratio curves from Python.

Expected numbers come from independent naive implementations written here (pure Python
LRU, lower bound by direct per-access load arrays), never from the program's own output.
"""
import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

import pagesim
from pagesim import prescient as ps


def quicksort_trace(n=1500, per_page=32, seed=3):
    """Accesses of an in-place quicksort of n random keys, per_page keys a page."""
    rng = np.random.default_rng(seed)
    a = list(rng.permutation(n))
    idx, wr = [], []

    def qs(lo, hi):
        while hi - lo > 1:
            p = a[(lo + hi) // 2]
            i, j = lo, hi - 1
            while i <= j:
                while a[i] < p:
                    idx.append(i); wr.append(0); i += 1
                while a[j] > p:
                    idx.append(j); wr.append(0); j -= 1
                if i <= j:
                    a[i], a[j] = a[j], a[i]
                    idx.extend([i, j]); wr.extend([1, 1])
                    i += 1; j -= 1
            if j - lo < hi - 1 - i:
                qs(lo, j + 1); lo = i
            else:
                qs(i, hi); hi = j + 1

    qs(0, n)
    assert a == sorted(a)
    return pagesim.Trace.from_arrays(np.array(idx) // per_page, writes=np.array(wr))


def naive_lru_swap_outs(pages, writes, frames):
    resident = []  # most recent last
    dirty = {}
    swaps = majors = 0
    seen = set()
    for p, w in zip(pages, writes):
        if p in resident:
            resident.remove(p)
        else:
            if p in seen:
                majors += 1
            if len(resident) == frames:
                v = resident.pop(0)
                if dirty.pop(v, False):
                    swaps += 1
            seen.add(p)
        resident.append(p)
        if w:
            dirty[p] = True
    return swaps, majors


def naive_lower_bound(pages, writes, frames):
    """The README's bound, computed directly: segments from a write to the next write of its
    page (or the end), capacity F-1 at each access, +1 at a read inside the reader's own
    segment; greedy by right end with an explicit per-access load array."""
    n = len(pages)
    last_write = {}
    segs, cap = [], [frames - 1] * n
    for i, (p, w) in enumerate(zip(pages, writes)):
        if w:
            if p in last_write:
                segs.append((last_write[p] + 1, i - 1))
            last_write[p] = i
        elif p in last_write:
            cap[i] = frames
    for p, i in last_write.items():
        segs.append((i + 1, n - 1))
    load = [0] * n
    broken = 0
    for lo, hi in sorted(segs, key=lambda s: s[1]):
        if all(load[s] + 1 <= cap[s] for s in range(lo, hi + 1)):
            for s in range(lo, hi + 1):
                load[s] += 1
        else:
            broken += 1
    return broken


def columns(t):
    return [int(x) for x in t.pages], [int(x) & 1 for x in t.flags]


@pytest.fixture(scope="module")
def qtrace():
    return quicksort_trace()


def test_trace_columns_available(qtrace):
    pages, writes = columns(qtrace)
    assert len(pages) == len(qtrace) and any(writes)


def test_lower_bound_matches_naive_and_brackets_policies(qtrace):
    pages, writes = columns(qtrace)
    for frames in (5, 16, 31):
        lb = ps.swap_out_lower_bound(qtrace, frames=frames)
        assert lb == naive_lower_bound(pages, writes, frames)
        for policy in ("lru", "clock", "fifo", "random", "belady", "belady_segment"):
            assert lb <= pagesim.simulate(qtrace, policy, frames=frames)["swap_outs"]


def test_exact_optimum_small_trace():
    t = pagesim.Trace.from_arrays(np.array([1, 2, 3, 1, 2]), writes=np.array([1, 1, 0, 0, 0]))
    # 2 frames: R3 must evict dirty 1 or 2: one swap-out at least, and one suffices.
    e = ps.exact_optimum(t, frames=2)
    assert e["swap_outs"] == 1
    assert ps.swap_out_lower_bound(t, frames=2) == 1
    # Fault weight only: MIN's faults (hand count: 1 2 3(evict 2... ) 1 2 -> 4).
    assert ps.exact_optimum(t, frames=2, fault_weight=1, swap_out_weight=0)["faults"] == \
        pagesim.simulate(t, "belady", frames=2)["faults"]


def test_prescient_ratio_table_against_naive(qtrace):
    pages, writes = columns(qtrace)
    df = pagesim.prescient_ratio(qtrace, policies=["lru", "clock"], frames=[8, 20])
    assert isinstance(df, pd.DataFrame)
    assert list(df["policy"]) == ["lru", "clock", "lru", "clock"]
    for r in df.itertuples():
        assert r.lower_bound == naive_lower_bound(pages, writes, r.frames)
        assert r.lower_bound <= r.best_prescient
        best = min(pagesim.simulate(qtrace, p, frames=r.frames, **pagesim.TEXTBOOK)["swap_outs"]
                   for p in ps.PRESCIENT)
        assert r.best_prescient == best
        assert r.ratio_to_best == pytest.approx(r.swap_outs / best)
        assert r.ratio_to_lower_bound == pytest.approx(r.swap_outs / r.lower_bound)
        if r.policy == "lru":
            swaps, majors = naive_lru_swap_outs(pages, writes, r.frames)
            assert (r.swap_outs, r.major_faults) == (swaps, majors)
    ax = ps.plot_prescient_ratio(df)
    assert ax.get_ylabel().startswith("swap-outs")


def test_headline_table_skips_unregistered_and_gives_a_verdict(qtrace):
    frames = int(qtrace.num_pages / 1.5)
    df, verdict = ps.headline_table(qtrace, frames, policies=("lru", "no_such_policy", "clock"))
    assert list(df["policy"]) == ["lru", "clock"]
    assert "no_such_policy" in verdict and "1.5x" in verdict
    assert f"{frames} frames" in verdict
    pages, writes = columns(qtrace)
    lru = df[df.policy == "lru"].iloc[0]
    assert lru.swap_outs == naive_lru_swap_outs(pages, writes, frames)[0]
    assert lru.lower_bound == naive_lower_bound(pages, writes, frames)
    with pytest.raises(pagesim.ConfigError):
        ps.headline_table(qtrace, frames, policies=("nothing_here",))
    # Reads only: no page is ever dirty, every count is 0 and no ratio exists.
    reads = pagesim.Trace.from_arrays(np.array([1, 2, 3, 1, 2, 3, 4, 1]))
    df, verdict = ps.headline_table(reads, 2, policies=("lru", "clock"))
    assert (df.swap_outs == 0).all() and (df.lower_bound == 0).all()
    assert "lru 0 (no ratio), clock 0 (no ratio)" in verdict
    assert "swaps out no page" in verdict and "the claim does not apply" in verdict
    assert "1.5x" not in verdict and "nan" not in verdict


def test_lru_curve_equals_simulation_at_every_size(qtrace):
    curve = pagesim.mrc.lru_mrc(qtrace)
    assert len(curve) == qtrace.num_pages + 1
    for f in range(1, qtrace.num_pages + 1):
        assert curve[f] == pagesim.simulate(qtrace, "lru", frames=f, **pagesim.TEXTBOOK)["faults"]
    df = pagesim.mrc.mrc(qtrace, policies=["lru", "belady", "fifo"], frames=[4, 12, 30])
    for r in df.itertuples():
        assert r.faults == pagesim.simulate(qtrace, r.policy, frames=r.frames, **pagesim.TEXTBOOK)["faults"]
    assert pagesim.mrc.plot_mrc(df).get_xlabel().startswith("memory")


def test_opt_curve_and_shards():
    t = pagesim._core.generate_zipf(20000, 800, 0.9, 0.3, 4)
    opt = pagesim.mrc.opt_mrc(t)
    for f in (1, 10, 100, 400):
        assert opt[f] == pagesim.simulate(t, "belady", frames=f, **pagesim.TEXTBOOK)["faults"]
    exact = pagesim.mrc.lru_mrc(t)
    assert np.array_equal(pagesim.mrc.shards_mrc(t, rate=1.0), exact.astype(float))
    # SHARDS is for large footprints: a few thousand sampled pages.
    t = pagesim._core.generate_zipf(100000, 10000, 0.9, 0.3, 4)
    exact = pagesim.mrc.lru_mrc(t)
    for est in (pagesim.mrc.shards_mrc(t, rate=0.25, seed=1),
                pagesim.mrc.shards_mrc(t, max_pages=2000, seed=1)):
        assert np.mean(np.abs(est[1:] - exact[1:])) / len(t) < 0.02
    with pytest.raises(pagesim.ConfigError):
        pagesim.mrc.shards_mrc(t)
    with pytest.raises(pagesim.ConfigError):
        pagesim.mrc.shards_mrc(t, rate=2.0)


def naive_working_set(pages, window):
    """Faults and sum of |W(t, window)| by sliding a window of the last `window` accesses."""
    from collections import Counter, deque
    held, counts, faults, size_sum = deque(), Counter(), 0, 0
    for p in pages:
        faults += counts[p] == 0  # not among the `window` accesses before this one
        held.append(p)
        counts[p] += 1
        if len(held) > window:
            q = held.popleft()
            counts[q] -= 1
            if counts[q] == 0:
                del counts[q]
        size_sum += len(counts)
    return faults, size_sum


def naive_vmin(pages, window):
    """Faults and sum of resident pages of VMIN run literally: after each reference, the page
    stays only if its next reference is at most `window` accesses away."""
    pages = list(pages)
    next_use, seen = [None] * len(pages), {}
    for i in reversed(range(len(pages))):
        next_use[i] = seen.get(pages[i])
        seen[pages[i]] = i
    resident, faults, size_sum = set(), 0, 0
    for i, p in enumerate(pages):
        faults += p not in resident
        resident.add(p)
        size_sum += len(resident)
        if next_use[i] is None or next_use[i] - i > window:
            resident.discard(p)
    return faults, size_sum


def naive_pff(pages, threshold):
    """Faults and size sum of the page-fault-frequency policy run literally: at a fault more
    than `threshold` accesses after the last, keep the pages accessed from that fault on."""
    resident, faults, size_sum, last = set(), 0, 0, None
    for i, p in enumerate(pages):
        if p not in resident:
            if last is not None and i - last > threshold:
                resident = set(pages[last:i])
            resident.add(p)
            faults += 1
            last = i
        size_sum += len(resident)
    return faults, size_sum


def test_pff_curve_against_the_policy_run_literally():
    # Hand-traced (tests/cpp/test_mrc.cpp): 1 2 3 1 1 1 4 1 5 2; T=1: sizes sum to 28 with 6
    # faults; T=2, 3: 30, 6; T>=4: 33, 5 (page 2 stays).
    t = pagesim.Trace.from_arrays(np.array([1, 2, 3, 1, 1, 1, 4, 1, 5, 2]))
    df = pagesim.mrc.pff(t, thresholds=[4, 1, 2, 3, 100])
    assert list(df.columns) == ["threshold", "mean_size", "faults", "miss_ratio"]
    assert df["threshold"].tolist() == [1, 2, 3, 4, 100]
    assert df["faults"].tolist() == [6, 6, 6, 5, 5]
    assert (df["mean_size"] * 10).round(9).tolist() == [28, 30, 30, 33, 33]
    # Random pages of three processes, each in its own time with per_process.
    rng = np.random.default_rng(11)
    pids = rng.choice([5, 2, 8], size=4000, p=[0.5, 0.3, 0.2])
    pages = rng.integers(0, 60, size=4000) ** 2 // 60 + 1000 * pids  # a skewed popularity
    t = pagesim.Trace.from_arrays(pages, pids=pids)
    thresholds = [1, 2, 5, 20, 100, 4000]
    for row in pagesim.mrc.pff(t, thresholds=thresholds).itertuples():
        faults, size_sum = naive_pff(list(pages), row.threshold)
        assert row.faults == faults
        assert row.mean_size == pytest.approx(size_sum / len(pages), rel=1e-12)
    each = pagesim.mrc.pff(t, thresholds=thresholds, per_process=True)
    assert sorted(set(each["pid"])) == [2, 5, 8]
    for row in each.itertuples():
        own = list(pages[pids == row.pid])
        faults, size_sum = naive_pff(own, row.threshold)
        assert (row.faults, row.accesses) == (faults, len(own))
        assert row.mean_size == pytest.approx(size_sum / len(own), rel=1e-12)
    ax = pagesim.mrc.plot_working_set(pagesim.mrc.pff(t, points=5))
    assert [line.get_label() for line in ax.lines] == ["PFF"]
    with pytest.raises(pagesim.ConfigError, match="'thresholds' = 0 is out of range"):
        pagesim.mrc.pff(t, thresholds=[0])


def test_miniature_simulation_estimates_every_policys_curve():
    t = pagesim._core.generate_zipf(1_000_000, 100_000, 0.9, 0.3, 4)
    sizes, policies = [1000, 5000, 20000, 50000], ["lru", "arc", "clock", "s3fifo", "lirs"]
    full = pagesim.mrc.mrc(t, policies=policies, frames=sizes)
    # Rate 1 is the whole trace: the same counts as the simulation (and lru's one pass).
    whole = pagesim.mrc.mrc(t, policies=policies, frames=sizes, sample=1.0)
    assert whole.faults.tolist() == full.faults.tolist()
    assert set(whole.method) == {"miniature, rate 1"}
    # Rate 0.1 (about 10,000 pages): within 0.01 of every miss ratio here (README).
    est = pagesim.mrc.mrc(t, policies=policies, frames=sizes, sample=0.1, seed=2)
    error = (est.miss_ratio - full.miss_ratio).abs()
    assert error.max() < 0.01 and error.mean() < 0.005
    small, rate = pagesim.mrc.sample(t, 0.1, seed=2)
    assert rate == pytest.approx(0.1) and small.num_pages < t.num_pages
    with pytest.raises(pagesim.ConfigError, match="give them"):
        pagesim.mrc.mrc(t, sample=0.1)
    with pytest.raises(pagesim.ConfigError, match="'rate' must be"):
        pagesim.mrc.mrc(t, frames=[10], sample=0)
    with pytest.raises(pagesim.ConfigError, match="kept no access"):
        pagesim.mrc.mrc(pagesim.Trace.from_arrays(np.array([1, 2, 1])), frames=[1], sample=1e-6)


def test_working_set_curve_against_a_sliding_window(qtrace):
    pages = np.asarray(qtrace.pages)
    windows = [1, 2, 7, 50, 400, len(pages) // 3, len(pages) + 5]
    ws = pagesim.mrc.working_set(qtrace, windows=windows[::-1] + [7])
    assert list(ws["window"]) == windows  # sorted, once each
    for row in ws.itertuples():
        faults, size_sum = naive_working_set(pages, row.window)
        assert row.faults == faults
        assert row.mean_size == pytest.approx(size_sum / len(pages), rel=1e-12)
        assert row.miss_ratio == pytest.approx(faults / len(pages), rel=1e-12)
        vmin_faults, vmin_size_sum = naive_vmin(pages, row.window)
        assert vmin_faults == faults
        assert row.vmin_mean_size == pytest.approx(vmin_size_sum / len(pages), rel=1e-12)
    # Default: windows spaced geometrically from 1 to the length, the last holding every page.
    ws = pagesim.mrc.working_set(qtrace, points=12)
    assert ws["window"].iloc[0] == 1 and ws["window"].iloc[-1] == len(pages)
    assert ws["faults"].iloc[-1] == qtrace.num_pages
    assert ws["mean_size"].is_monotonic_increasing and ws["faults"].is_monotonic_decreasing
    ax = pagesim.mrc.plot_mrc(pagesim.mrc.mrc(qtrace, frames=[10, 40]))
    assert pagesim.mrc.plot_working_set(ws, ax) is ax
    assert [line.get_label() for line in ax.lines] == ["lru", "working set", "VMIN"]
    empty = pagesim.mrc.working_set(pagesim.Trace.from_arrays(np.array([], dtype=np.int64)), windows=[3])
    assert empty["faults"].tolist() == [0] and np.isnan(empty["mean_size"][0])
    for bad, message in [(dict(windows=[0]), "'windows' = 0 is out of range"),
                         (dict(windows=[2.5]), "'windows' must be an integer"),
                         (dict(points=0), "'points' = 0 is out of range")]:
        with pytest.raises(pagesim.ConfigError, match=message):
            pagesim.mrc.working_set(qtrace, **bad)


def test_working_set_sizes_over_the_trace():
    # Three processes' pages, each its own: per access, the system's |W(t, T)| from a sliding
    # window, and each process's from its own last T accesses (none after its last access).
    rng = np.random.default_rng(3)
    pids = np.concatenate([rng.choice([4, 7], size=900), np.full(300, 9)])
    pages = rng.integers(0, 50, size=1200) + 1000 * pids
    t = pagesim.Trace.from_arrays(pages, pids=pids)
    system = pagesim.mrc.working_set_sizes(t, 25, every=1)
    assert list(system.columns) == ["size"] and system.index.name == "access"
    held, sizes = [], []
    for p in pages:
        held = (held + [p])[-25:]
        sizes.append(len(set(held)))
    assert system["size"].tolist() == sizes
    assert system["size"].mean() == pytest.approx(pagesim.mrc.working_set(t, windows=[25])["mean_size"][0],
                                                  rel=1e-12)
    each = pagesim.mrc.working_set_sizes(t, 25, every=1, per_process=True)
    assert list(each.columns) == [f"size_{pid}" for pid in t.proc_pids]
    for pid in (4, 7, 9):
        own, last, want = [], np.flatnonzero(pids == pid)[-1], []
        for i, p in enumerate(pages):
            if pids[i] == pid:
                own = (own + [p])[-25:]
            want.append(len(set(own)) if i <= last else 0)
        assert each[f"size_{pid}"].tolist() == want
    assert (each.loc[900:, ["size_4", "size_7"]] == 0).all().all()  # they have exited
    # Blocks: the default makes about 1000 rows (here 1 access each); every=100, 12 means.
    blocks = pagesim.mrc.working_set_sizes(t, 25, every=100)
    assert blocks.index.tolist() == list(range(0, 1200, 100))
    assert np.allclose(blocks["size"], system["size"].to_numpy().reshape(12, 100).mean(axis=1))
    ax = pagesim.mrc.plot_working_set_sizes(each, frames=60)
    assert ax.get_ylabel() == "working set (pages)"
    with pytest.raises(pagesim.ConfigError, match="'every' = 0 is out of range"):
        pagesim.mrc.working_set_sizes(t, 25, every=0)
    with pytest.raises(pagesim.ConfigError, match="'window' = 0 is out of range"):
        pagesim.mrc.working_set_sizes(t, 0)


def test_working_set_per_process_is_each_process_alone():
    rng = np.random.default_rng(7)
    pids = rng.choice([3, 9, 4], size=3000, p=[0.5, 0.3, 0.2])
    pages = rng.integers(0, 40, size=3000) + 1000 * pids  # each process its own pages
    t = pagesim.Trace.from_arrays(pages, pids=pids)
    windows = [1, 3, 10, 60, 500]
    ws = pagesim.mrc.working_set(t, windows=windows, per_process=True)
    assert list(ws.columns) == ["pid", "window", "mean_size", "faults", "miss_ratio",
                                "vmin_mean_size", "accesses"]
    assert sorted(set(ws["pid"])) == [3, 4, 9] and len(ws) == 3 * len(windows)
    for pid, rows in ws.groupby("pid"):
        own = pages[pids == pid]
        assert rows["accesses"].tolist() == [len(own)] * len(windows)
        for row in rows.itertuples():
            faults, size_sum = naive_working_set(own, row.window)
            assert row.faults == faults
            assert row.mean_size == pytest.approx(size_sum / len(own), rel=1e-12)
            assert row.vmin_mean_size == pytest.approx(naive_vmin(own, row.window)[1] / len(own),
                                                       rel=1e-12)
    # In the trace's time a process's pages age while the others run: more faults at a window.
    system = pagesim.mrc.working_set(t, windows=[10])
    assert system["faults"][0] > ws[ws["window"] == 10]["faults"].sum()
    ax = pagesim.mrc.plot_working_set(ws, vmin=False)
    assert [line.get_label() for line in ax.lines] == [f"working set, pid {p}" for p in ws["pid"].unique()]
    with pytest.raises(pagesim.ConfigError, match="'per_process' must be True or False"):
        pagesim.mrc.working_set(t, per_process="yes")


def test_working_set_beats_lru_in_the_same_mean_memory_on_qsbench():
    # README (miss-ratio curves): on the headline's qsbench a window of 100,000 accesses keeps
    # 4791 pages on average and faults 20,066 times; LRU in 4791 frames faults 29,077 times,
    # MIN 18,986. VMIN makes the same faults in 2694 pages on average; in 2694 frames MIN
    # faults 30,562 times and LRU 42,462.
    q = pagesim.generate("qsbench", mib=32, seed=1)
    ws = pagesim.mrc.working_set(q, windows=[100_000])
    assert round(ws["mean_size"][0]) == 4791 and ws["faults"][0] == 20066
    assert round(ws["vmin_mean_size"][0]) == 2694
    lru, opt = pagesim.mrc.lru_mrc(q), pagesim.mrc.opt_mrc(q, max_frames=4791)
    assert lru[4791] == 29077 and opt[4791] == 18986
    assert lru[2694] == 42462 and opt[2694] == 30562
    # Its size through the sort (README): 8192, down to 1753 (access 212,888), up to 6842
    # (233,818), down to 1790 (576,472), 8108 at the end; 348 of 1001 blocks above 5461.
    sizes = pagesim.mrc.working_set_sizes(q, 100_000)["size"]
    assert len(sizes) == 1001 and sizes.max() == 8192 and (sizes > 5461).sum() == 348
    assert round(sizes.loc[100_000:240_000].min()) == 1753
    assert sizes.loc[100_000:240_000].idxmin() == 212_888
    assert (sizes.loc[220_000:300_000].idxmax(), round(sizes.loc[220_000:300_000].max())) == (233_818, 6842)
    assert (sizes.loc[300_000:590_000].idxmin(), sizes.loc[300_000:590_000].min()) == (576_472, 1790)
    assert round(sizes.iloc[-1]) == 8108
    # Page-fault frequency: each page faults once, then the whole array stays (mean 8136).
    pff = pagesim.mrc.pff(q, thresholds=[1, 1000, 100_000])
    assert pff["faults"].tolist() == [8192] * 3 and set(pff["mean_size"].round()) == {8136}


def test_the_bracket_knows_about_exits():
    # Process 1 writes 13 pages and exits, process 2 writes 8, at 8 frames: 5 swap-outs for
    # every policy. The bound ends process 1's segments at its exit only when told.
    t = pagesim._core.testing.exit_then_fill(8)
    assert len(t) == 21 and t.num_procs == 2
    b = pagesim.prescient.prescient_bracket(t, frames=8, free_on_exit=True)
    assert b["lower_bound"] == b["best"] == 5
    assert pagesim.prescient.swap_out_lower_bound(t, frames=8) > 5
    df = pagesim.prescient_ratio(t, policies=["lru", "fifo"], frames=[8], free_on_exit=True)
    assert list(df["swap_outs"]) == [5, 5]


def test_belady_evicts_a_dirty_file_page_before_a_dirty_anonymous_one():
    # W1 (anonymous) W2 (file) R3, two frames: at R3 pages 1 and 2 are both never used again.
    # Evicting the file page writes its file; evicting page 1 would be a swap-out that no
    # policy needs (the lower bound and the exact optimum are 0).
    t = pagesim.Trace.from_arrays(np.array([1, 2, 3]), writes=np.array([1, 1, 0]),
                                  kinds=np.array([0, 1, 0]))
    r = pagesim.simulate(t, "belady", frames=2, **pagesim.TEXTBOOK)
    assert (r["faults"], r["swap_outs"], r["file_writes"]) == (3, 0, 1)
    assert ps.swap_out_lower_bound(t, frames=2) == 0
    # And a clean page before either: R3 W1 W2 R4 evicts page 3.
    t = pagesim.Trace.from_arrays(np.array([3, 1, 2, 4]), writes=np.array([0, 1, 1, 0]),
                                  kinds=np.array([0, 0, 1, 0]))
    r = pagesim.simulate(t, "belady", frames=3, **pagesim.TEXTBOOK)
    assert (r["evictions_clean"], r["swap_outs"], r["file_writes"]) == (1, 0, 0)
