"""Matplotlib plots of sweep tables and time series. Every function draws on ``ax`` (a new
figure's axes when None) and returns the Axes, so plots compose and can be saved or styled."""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ._core import ConfigError

__all__ = ["plot_faults", "plot_miss_ratio", "plot_pages", "plot_prescient_ratio", "plot_vmstat"]


def _axes(ax: Any):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(7, 4.2))
    return ax


def check_image_path(path: str, option: str = "plot") -> None:
    """Raise ConfigError unless matplotlib can write an image named ``path`` (by its
    extension): called before the work whose result is plotted, not after."""
    import os

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    kinds = FigureCanvasAgg(Figure()).get_supported_filetypes()
    if os.path.splitext(path)[1].lstrip(".").lower() not in kinds:
        raise ConfigError(f"{option} {path!r}: expected an image file name ending in "
                          f"{', '.join('.' + k for k in sorted(kinds))}")


def _need(df: Any, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ConfigError(f"{what} needs the columns {', '.join(columns)}; missing: {', '.join(missing)} "
                          f"(columns are: {', '.join(map(str, df.columns))})")


def _x_column(df: Any, x: str) -> str:
    if x not in ("frames", "fraction"):
        raise ConfigError(f"x must be 'frames' or 'fraction', got {x!r}")
    _need(df, [x], "the plot")
    return x


def _swept(df: Any) -> list:
    """The parameters a sweep table varies: its columns between ``fraction`` and ``accesses``
    (where :func:`pagesim.sweep` puts them) holding more than one value."""
    columns = list(df.columns)
    if "fraction" not in columns or "accesses" not in columns:
        return []
    between = columns[columns.index("fraction") + 1:columns.index("accesses")]
    return [c for c in between if df[c].nunique() > 1]


def _groups(df: Any, policies: Optional[Sequence[str]]):
    """(label, rows) per policy (and per trace when there are several, and per value of each
    swept parameter), in table order."""
    if policies is not None:
        unknown = sorted(set(policies) - set(df["policy"]))
        if unknown:
            raise ConfigError(f"no rows for policies {', '.join(unknown)}; the table has "
                              f"{', '.join(dict.fromkeys(df['policy']))}")
        df = df[df["policy"].isin(policies)]
    several = "trace" in df.columns and df["trace"].nunique() > 1
    swept = _swept(df)
    keys = (["trace"] if several else []) + ["policy"] + swept
    for key, rows in df.groupby(keys if len(keys) > 1 else keys[0], sort=False):
        values = dict(zip(keys, key if len(keys) > 1 else (key,)))
        label = f"{values['policy']} ({values['trace']})" if several else str(values["policy"])
        label += "".join(f", {c}={values[c]}" for c in swept)
        yield label, rows


def _memory_label(x: str) -> str:
    return "memory (share of the footprint)" if x == "fraction" else "memory (page frames)"


def plot_miss_ratio(df: Any, *, x: str = "fraction", policies: Optional[Sequence[str]] = None,
                    ax: Any = None, logy: bool = False):
    """Miss-ratio curves: faults / accesses against memory size, one line per policy.

    Parameters
    ----------
    df
        A :func:`pagesim.sweep` table (columns ``policy``, ``frames`` or ``fraction``,
        ``faults``, ``accesses``; ``trace`` optional: one line per trace and policy).
    x
        ``"fraction"`` (share of the footprint) or ``"frames"``.
    policies
        Only these policies, in the table's order.
    ax
        Axes to draw on.
    logy
        Logarithmic miss-ratio axis.

    Returns
    -------
    matplotlib.axes.Axes
    """
    x = _x_column(df, x)
    _need(df, ["policy", "faults", "accesses"], "plot_miss_ratio")
    ax = _axes(ax)
    for label, rows in _groups(df, policies):
        rows = rows.sort_values(x)
        ax.plot(rows[x], rows["faults"] / rows["accesses"], marker="o", ms=3, label=label)
    ax.set_xlabel(_memory_label(x))
    ax.set_ylabel("miss ratio (faults / accesses)")
    if logy:
        ax.set_yscale("log")
    if x == "fraction":
        ax.xaxis.set_major_formatter(_percent())
    ax.grid(True, alpha=0.3)
    ax.legend(title="policy")
    ax.set_title("Miss-ratio curves")
    return ax


def plot_faults(df: Any, *, x: str = "frames", policies: Optional[Sequence[str]] = None,
                columns: Sequence[str] = ("faults", "swap_outs"), ax: Any = None,
                logy: bool = True):
    """Faults and swap-outs (or any counters) against memory size, one colour per policy.

    The first counter is drawn solid, the next ones dashed, dotted, ...

    Parameters
    ----------
    df
        A :func:`pagesim.sweep` table.
    x
        ``"frames"`` or ``"fraction"``.
    policies
        Only these policies.
    columns
        Counters to draw (default faults and swap-outs).
    ax
        Axes to draw on.
    logy
        Logarithmic count axis (default: counts span decades).

    Returns
    -------
    matplotlib.axes.Axes
    """
    x = _x_column(df, x)
    _need(df, ["policy", *columns], "plot_faults")
    ax = _axes(ax)
    styles = ["-", "--", ":", "-."]
    for i, (label, rows) in enumerate(_groups(df, policies)):
        rows = rows.sort_values(x)
        color = f"C{i % 10}"
        for j, column in enumerate(columns):
            ax.plot(rows[x], rows[column], styles[j % len(styles)], color=color, marker="o", ms=3,
                    label=f"{label}: {column.replace('_', '-')}")
    ax.set_xlabel(_memory_label(x))
    ax.set_ylabel("count")
    if logy:
        ax.set_yscale("log")
    if x == "fraction":
        ax.xaxis.set_major_formatter(_percent())
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", ncol=2)
    ax.set_title(" and ".join(c.replace("_", "-") for c in columns) + " by memory size")
    return ax


def plot_vmstat(ts: Any, *, ax: Any = None, counters: Sequence[str] = ("faults", "swap_ins", "swap_outs")):
    """The vmstat-like time series of one run.

    Resident pages (every column whose name starts with ``resident``: the total and/or one per
    process) are drawn as lines on the left axis; the per-interval counts (faults, swap-ins,
    swap-outs) as steps on a second axis on the right.

    Parameters
    ----------
    ts
        A run (:class:`pagesim.Result`, its :meth:`~pagesim.Result.vmstat` taken), its
        ``vmstat()`` table (indexed by ``time_s``), or any DataFrame with a ``time`` or
        ``time_s`` column (seconds of virtual time, end of each interval) and the columns above.
    ax
        Axes to draw on (the right-hand axis is created as ``ax.twinx()``).
    counters
        Per-interval counts to draw; the ones missing from ``ts`` are skipped.

    Returns
    -------
    matplotlib.axes.Axes
        The left-hand axes; the right-hand one is ``ax.right_ax``.
    """
    from ._core import Result
    if isinstance(ts, Result):
        if ts.vmstat_arrays is None:
            raise ConfigError("plot_vmstat: the run kept no vmstat series (it ran with interval_ns=0)")
        ts = ts.vmstat()
    if ts.index.name == "time_s":
        ts = ts.reset_index()
    time = next((c for c in ("time", "time_s") if c in ts.columns), None)
    if time is None:
        _need(ts, ["time"], "plot_vmstat (or an index named time_s, as Result.vmstat() gives)")
    resident = [c for c in ts.columns if str(c).startswith("resident")]
    present = [c for c in counters if c in ts.columns]
    if not resident and not present:
        raise ConfigError("plot_vmstat needs resident* columns or one of " + ", ".join(counters))
    ax = _axes(ax)
    for c in resident:
        ax.plot(ts[time], ts[c], label=str(c).replace("_", " "))
    ax.set_xlabel("virtual time (s)")
    ax.set_ylabel("resident pages")
    right = ax.twinx()
    styles = {"faults": ("C3", "-"), "swap_ins": ("C2", "--"), "swap_outs": ("C4", ":")}
    # A row counts the events of the interval that ends at its time: the step covers it.
    for i, c in enumerate(present):
        color, style = styles.get(c, (f"C{5 + i}", "-"))
        right.step(ts[time], ts[c], style, where="pre", color=color, label=f"{c.replace('_', '-')} / interval")
    right.set_ylabel("events per interval")
    handles, labels = ax.get_legend_handles_labels()
    h2, l2 = right.get_legend_handles_labels()
    ax.legend(handles + h2, labels + l2, fontsize="small", loc="upper left")
    ax.grid(True, alpha=0.3)
    ax.set_title("vmstat")
    ax.right_ax = right
    return ax


def plot_prescient_ratio(df: Any, *, ax: Any = None, reference: Optional[float] = 1.5,
                         label: str = "swap-outs / prescient swap-outs"):
    """How many times more a real policy costs than a prescient one, by memory size.

    Parameters
    ----------
    df
        The table of :func:`pagesim.prescient_ratio` (columns ``policy``, ``frames``,
        ``ratio_to_best``, ``ratio_to_lower_bound``): each policy is drawn as a band from its
        ratio to the best prescient heuristic up to its ratio to the proven lower bound, the
        optimum lying in between. Or any table with the columns ``policy``, ``frames``,
        ``ratio`` (e.g. dirty evictions of the policy divided by those of ``belady`` at the
        same memory size): one line per policy.
    ax
        Axes to draw on.
    reference
        A dashed horizontal line (default 1.5: the ratio a good policy was expected to reach
        in the qsbench discussions); None for none.
    label
        The y-axis label.

    Returns
    -------
    matplotlib.axes.Axes
        Lines (bands) against frames, or grouped bars (with a whisker up to the ratio to the
        lower bound) when the table has a single memory size.
    """
    bracket = "ratio_to_best" in df.columns
    _need(df, ["policy", "frames", "ratio_to_best", "ratio_to_lower_bound"] if bracket
          else ["policy", "frames", "ratio"], "plot_prescient_ratio")
    low = "ratio_to_best" if bracket else "ratio"
    ax = _axes(ax)
    sizes = sorted(df["frames"].unique())
    policies = list(dict.fromkeys(df["policy"]))
    if len(sizes) == 1:
        rows = [df[df["policy"] == p].iloc[0] for p in policies]
        lows = [r[low] for r in rows]
        ax.bar(range(len(policies)), lows, color=[f"C{i % 10}" for i in range(len(policies))])
        if bracket:
            highs = np.array([r["ratio_to_lower_bound"] for r in rows], dtype=float)
            ax.vlines(range(len(policies)), lows, np.where(np.isfinite(highs), highs, np.nan), color="black")
        ax.set_xticks(range(len(policies)), policies)
        ax.set_xlabel(f"policy ({sizes[0]} frames)")
    else:
        for p in policies:
            rows = df[df["policy"] == p].sort_values("frames")
            (line,) = ax.plot(rows["frames"], rows[low], marker="o", ms=3, label=p)
            if bracket:
                high = rows["ratio_to_lower_bound"].to_numpy(dtype=float)
                ax.fill_between(rows["frames"], rows[low].to_numpy(dtype=float),
                                np.where(np.isfinite(high), high, np.nan), alpha=0.2, color=line.get_color())
        ax.set_xlabel("memory (page frames)")
        ax.legend(title="policy")
    ax.axhline(1.0, color="black", lw=0.8)
    if reference is not None:
        ax.axhline(reference, color="grey", ls="--", lw=1)
        ax.annotate(f"{reference:g}x", (1.0, reference), xycoords=("axes fraction", "data"),
                    ha="right", va="bottom", color="grey", fontsize="small")
    ax.set_ylabel(label)
    ax.grid(True, alpha=0.3)
    ax.set_title("Real vs prescient (band: from the best prescient heuristic to the lower bound)"
                 if bracket else "Real vs prescient")
    return ax


def plot_pages(runs: Any, *, column: str = "writes", bins: int = 64, ax: Any = None):
    """Where in the address space a count falls: each run's per-page ``column`` summed over
    ``bins`` equal runs of pages, one step line per run.

    Parameters
    ----------
    runs
        A dict label -> run: a :class:`pagesim.Result` made with ``page_stats=True``, or its
        :meth:`~pagesim.Result.page_stats` table. The runs are of one trace: the x axis is its
        pages in process and virtual-address order (a process's pages side by side).
    column
        A column of ``page_stats()``: ``writes`` (swap-outs and file writes), ``accesses``,
        ``faults``, ``major_faults``, ``readahead`` or ``evictions``.
    bins
        How many runs of pages the address space is cut into (at most one per page).

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ._core import Result

    if not isinstance(runs, dict) or not runs:
        raise ConfigError("plot_pages takes a dict label -> run (a Result or its page_stats() table)")
    tables = {label: r.page_stats() if isinstance(r, Result) else r for label, r in runs.items()}
    for label, t in tables.items():
        _need(t, ["pid", "vpn", column], f"plot_pages ({label})")
    sizes = {len(t) for t in tables.values()}
    if len(sizes) != 1:
        raise ConfigError(f"plot_pages: the runs have different numbers of pages ({sorted(sizes)}): "
                          "they must be runs of one trace")
    n = sizes.pop()
    if n == 0:
        raise ConfigError("plot_pages: the trace has no pages")
    bins = max(1, min(int(bins), n))
    edges = np.arange(bins + 1, dtype=np.int64) * n // bins  # strictly increasing: bins <= n
    ax = _axes(ax)
    for label, t in tables.items():
        ordered = t.sort_values(["pid", "vpn"], kind="stable")[column].to_numpy(dtype=np.int64)
        sums = np.add.reduceat(ordered, edges[:-1])
        ax.step(edges, np.append(sums, sums[-1:]), where="post", label=str(label))
    ax.set_xlabel("pages, in process and virtual-address order")
    ax.set_ylabel(f"{column.replace('_', ' ')} per {n / bins:.3g} pages")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(f"{column.replace('_', ' ')} across the address space")
    return ax


def _percent():
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)
