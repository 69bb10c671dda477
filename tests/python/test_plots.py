"""Plots draw what the table holds and return their Axes (Agg backend, no display)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import pagesim  # noqa: E402
from pagesim import plots  # noqa: E402
from conftest import random_trace  # noqa: E402


@pytest.fixture(scope="module")
def table():
    return pagesim.sweep(random_trace(1), policies=["lru", "fifo", "belady"],
                         fractions=[0.1, 0.3, 0.6], progress=False, **pagesim.TEXTBOOK)


def test_miss_ratio_curves(table):
    fig, ax = plt.subplots()
    assert plots.plot_miss_ratio(table, ax=ax) is ax
    lines = {l.get_label(): l for l in ax.get_lines()}
    assert list(lines) == ["lru", "fifo", "belady"]
    lru = table[table.policy == "lru"]
    assert np.allclose(lines["lru"].get_ydata(), lru.faults / lru.accesses)
    assert np.allclose(lines["lru"].get_xdata(), lru.fraction)
    plt.close(fig)


def test_a_swept_parameter_gets_a_line_per_value():
    df = pagesim.sweep(random_trace(1), policies=["lru", "fifo"], fractions=[0.2, 0.5],
                       page_cluster=[0, 3], schedule=["static"], progress=False)
    ax = plots.plot_miss_ratio(df)
    lines = {l.get_label(): l for l in ax.get_lines()}
    assert list(lines) == ["lru, page_cluster=0", "fifo, page_cluster=0",
                           "lru, page_cluster=3", "fifo, page_cluster=3"]  # one schedule: no label
    rows = df[(df.policy == "fifo") & (df.page_cluster == 3)]
    assert list(lines["fifo, page_cluster=3"].get_ydata()) == list(rows.faults / rows.accesses)
    plt.close("all")


def test_faults_and_swap_outs(table):
    ax = plots.plot_faults(table, policies=["lru", "belady"])
    labels = [l.get_label() for l in ax.get_lines()]
    assert labels == ["lru: faults", "lru: swap-outs", "belady: faults", "belady: swap-outs"]
    belady = table[table.policy == "belady"].sort_values("frames")
    assert list(ax.get_lines()[3].get_ydata()) == list(belady.swap_outs)
    with pytest.raises(pagesim.ConfigError, match="no rows for policies nope"):
        plots.plot_faults(table, policies=["nope"])
    plt.close("all")


def test_vmstat_from_a_hand_made_series():
    ts = pd.DataFrame({"time": [0.1, 0.2, 0.3, 0.4], "resident": [10, 20, 20, 20],
                       "faults": [10, 12, 3, 0], "swap_ins": [0, 2, 3, 0], "swap_outs": [0, 1, 1, 0]})
    ax = plots.plot_vmstat(ts)
    assert [l.get_label() for l in ax.get_lines()] == ["resident"]
    assert list(ax.get_lines()[0].get_ydata()) == [10, 20, 20, 20]
    right = [l.get_label() for l in ax.right_ax.get_lines()]
    assert right == ["faults / interval", "swap-ins / interval", "swap-outs / interval"]
    with pytest.raises(pagesim.ConfigError, match="needs the columns time"):
        plots.plot_vmstat(ts.drop(columns="time"))
    plt.close("all")


def test_vmstat_of_a_run():
    # The run itself or its vmstat() table (indexed by time_s): the lines are its columns.
    t = pagesim.Trace.from_arrays(np.arange(4000) % 700, writes=np.arange(4000) % 3 == 0,
                                  pids=(np.arange(4000) % 700) // 350 + 1)
    r = pagesim.simulate(t, "lru", frames=300, device="nvme", interval_ns=5_000_000)
    vm = r.vmstat()
    assert len(vm) > 3
    for source in (r, vm):
        ax = plots.plot_vmstat(source)
        lines = ax.get_lines()
        assert [l.get_label() for l in lines] == ["resident 1", "resident 2"]
        assert list(lines[1].get_xdata()) == list(vm.index)
        assert list(lines[1].get_ydata()) == list(vm["resident_2"])
        assert list(ax.right_ax.get_lines()[2].get_ydata()) == list(vm["swap_outs"])
        # A row's count covers the interval ending at its time, back to the previous row.
        assert ax.right_ax.get_lines()[2].get_drawstyle() == "steps-pre"
    with pytest.raises(pagesim.ConfigError, match="kept no vmstat series"):
        plots.plot_vmstat(pagesim.simulate(t, "lru", frames=300, interval_ns=0))
    plt.close("all")


def test_prescient_ratio_lines_and_bars():
    df = pd.DataFrame({"policy": ["lru", "lru", "fifo", "fifo"], "frames": [10, 20, 10, 20],
                       "ratio": [1.4, 1.6, 1.9, 2.1]})
    ax = plots.plot_prescient_ratio(df)
    assert [l.get_label() for l in ax.get_lines()][:2] == ["lru", "fifo"]
    one = plots.plot_prescient_ratio(df[df.frames == 10])
    assert [round(p.get_height(), 2) for p in one.patches] == [1.4, 1.9]
    plt.close("all")


def test_prescient_ratio_bands_from_the_bracket_table():
    # The table of pagesim.prescient_ratio: a band from the ratio to the best prescient
    # heuristic up to the ratio to the lower bound (inf where the bound is 0: no band there).
    df = pd.DataFrame({"policy": ["lru", "lru", "fifo", "fifo"], "frames": [10, 20, 10, 20],
                       "ratio_to_best": [1.4, 1.6, 1.9, 2.1],
                       "ratio_to_lower_bound": [1.5, float("inf"), 2.0, 2.2]})
    ax = plots.plot_prescient_ratio(df)
    assert [l.get_label() for l in ax.get_lines()][:2] == ["lru", "fifo"]
    assert list(ax.get_lines()[0].get_ydata()) == [1.4, 1.6]
    assert len(ax.collections) == 2  # one band per policy
    one = plots.plot_prescient_ratio(df[df.frames == 10])
    assert [round(p.get_height(), 2) for p in one.patches] == [1.4, 1.9]
    segments = one.collections[0].get_segments()
    assert [(s[0][1], s[1][1]) for s in segments] == [(1.4, 1.5), (1.9, 2.0)]
    with pytest.raises(pagesim.ConfigError, match="missing: ratio_to_lower_bound"):
        plots.plot_prescient_ratio(df.drop(columns="ratio_to_lower_bound"))
    plt.close("all")


def test_pages_sums_a_column_over_runs_of_pages():
    # Two processes of 3 pages each, given out of order: the x axis is pid then vpn. Writes
    # in that order: pid 1 vpns 10, 11, 12 -> 1, 2, 3; pid 2 vpns 5, 6, 7 -> 4, 5, 6.
    # 3 bins of 2 pages: 3, 7, 11.
    t = pd.DataFrame({"pid": [2, 1, 2, 1, 2, 1], "vpn": [7, 12, 5, 10, 6, 11],
                      "writes": [6, 3, 4, 1, 5, 2]})
    ax = plots.plot_pages({"hand": t}, bins=3)
    (line,) = ax.get_lines()
    assert list(line.get_xdata()) == [0, 2, 4, 6] and list(line.get_ydata()) == [3, 7, 11, 11]
    assert line.get_drawstyle() == "steps-post" and line.get_label() == "hand"
    # From runs: the bins add up to the run's counter.
    trace = pagesim.generate("qsbench", mib=1, seed=1)
    runs = {p: pagesim.simulate(trace, p, frames=150, page_stats=True, **pagesim.TEXTBOOK)
            for p in ("lru", "belady")}
    ax = plots.plot_pages(runs, column="writes", bins=16)
    for line, r in zip(ax.get_lines(), runs.values()):
        assert sum(line.get_ydata()[:-1]) == r.counters["evictions_dirty"] > 0
    with pytest.raises(pagesim.ConfigError, match="missing: writes"):
        plots.plot_pages({"x": t.drop(columns="writes")})
    with pytest.raises(pagesim.ConfigError, match="runs of one trace"):
        plots.plot_pages({"a": t, "b": t.iloc[:3]})
    with pytest.raises(pagesim.ConfigError, match="run it with page_stats=True"):
        plots.plot_pages({"a": pagesim.simulate(trace, "lru", frames=150)})
    plt.close("all")
