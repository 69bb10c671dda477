"""Miss-ratio curves: faults for every memory size.

``lru`` and ``belady`` are stack algorithms, so one pass gives every size exactly
(:func:`lru_mrc`, :func:`opt_mrc`); SHARDS sampling estimates the LRU curve of huge traces
in bounded memory (:func:`shards_mrc`); any other policy is simulated at each size
(:func:`mrc` with ``policies=[...]``). Denning's working-set policy, whose memory varies, is
measured for many windows in one pass (:func:`working_set`): its faults against its mean size,
and its prescient counterpart VMIN's; so is the page-fault-frequency policy (:func:`pff`).
:func:`working_set_sizes` follows the working set's size through the trace (its phases).

>>> import pagesim, numpy as np
>>> t = pagesim.Trace.from_arrays(np.array([1, 2, 3, 1, 2, 4, 1]))
>>> pagesim.mrc.lru_mrc(t).tolist()
[7, 7, 7, 4, 4]
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Iterable, Optional, Sequence

import numpy as np

from . import _args, _core

__all__ = ["lru_mrc", "mrc", "opt_mrc", "pff", "plot_mrc", "plot_working_set",
           "plot_working_set_sizes", "sample", "shards_mrc", "working_set", "working_set_sizes"]


def _trace(trace):
    from . import as_trace
    return as_trace(trace)


def lru_mrc(trace) -> np.ndarray:
    """Exact LRU faults for every memory size: ``out[F]`` = faults with F frames.

    ``F`` runs from 0 (every access faults) to the trace's page count, ``num_pages`` (its
    footprint, unless ``Trace.from_columns`` left page ids unused). One pass, O(N log N), with
    stack distances counted by a Fenwick tree over access times.
    """
    return _core.lru_mrc(_trace(trace))


def opt_mrc(trace, *, max_frames: int = 0) -> np.ndarray:
    """Exact Belady MIN faults for every memory size up to ``max_frames`` (0: the footprint).

    One pass of Mattson's OPT stack (Sugumar and Abraham 1993); O(N * max_frames) time.
    """
    return _core.opt_mrc(_trace(trace), _args.integer("max_frames", max_frames, 0, 2**40))


def shards_mrc(trace, *, rate: Optional[float] = None, max_pages: Optional[int] = None,
               seed: int = 0) -> np.ndarray:
    """SHARDS estimate of :func:`lru_mrc` (Waldspurger et al., FAST 2015).

    Give either ``rate`` (fixed-rate sampling of pages by hash, with the SHARDS_adj
    correction) or ``max_pages`` (fixed-size sample: the rate drops as pages arrive). Returns
    estimated faults for F = 0..footprint as floats, clamped to [0, accesses] (the correction
    can overshoot). The README states the measured error on 10 million accesses; with few
    sampled pages (a small trace, a low rate) the estimate is coarse and can be all 0 or all
    accesses: 40 accesses over 5 pages at rate 0.5 give [40, 0, 0, 0, 0, 0] for seed 1.
    """
    t = _trace(trace)
    if (rate is None) == (max_pages is None):
        raise _core.ConfigError("shards_mrc needs exactly one of rate (0 < rate <= 1) or max_pages (>= 1)")
    seed = _args.integer("seed", seed, 0)
    if rate is not None:
        return _core.shards_mrc(t, _args.positive("rate", rate), seed)
    return _core.shards_fixed_size_mrc(t, _args.integer("max_pages", max_pages, 1, 2**32 - 2), seed)


def sample(trace, rate: float, *, seed: int = 0):
    """The accesses of a hash-sampled share of the pages, for a miniature simulation.

    Waldspurger et al., "Cache Modeling and Optimization using Miniature Simulations" (USENIX
    ATC 2017): a policy run on the pages that :func:`shards_mrc` samples at ``rate`` (the same
    hash and ``seed``, so the same pages), with ``rate`` times the frames, estimates its miss
    ratio on the whole trace. Returns ``(trace, rate)``: the sampled accesses as a trace of
    their own (pid, virtual page number, kind and page size kept) and the rate the hash
    threshold gives (within 2^-25 of the one asked for). :func:`mrc` does it with
    ``sample=rate``.
    """
    return _core.sample_trace(_trace(trace), _args.positive("rate", rate), _args.integer("seed", seed, 0))


_sample = sample  # for mrc, whose parameter `sample` hides it


def working_set(trace, *, windows: Optional[Iterable[int]] = None, points: int = 40,
                per_process: bool = False):
    """Denning's working-set policy at each window T: its faults and its mean memory; and VMIN's.

    The working set W(t, T) is the set of pages referenced by the last T accesses (Denning,
    CACM 1968). Time is the trace's access count: with several processes, their accesses in
    trace order (a system-wide working set); with ``per_process=True``, each process's own
    working set in its own virtual time (its accesses), as on the trace of that process alone.
    The working-set policy keeps exactly W(t, T) resident, so an access faults iff it is its
    page's first reference or the page was last referenced more than T accesses before. Its
    memory varies with time: ``mean_size`` is |W(t, T)| averaged over the accesses, the figure
    to set against a fixed-size policy's frames (:func:`plot_working_set` draws the curve on
    :func:`plot_mrc`'s axes). Exact, for every window in one pass (Denning and Schwartz, CACM
    1972): O(N log K) for K windows.

    ``vmin_mean_size`` is the same for VMIN (Prieve and Fabry, CACM 1976), the prescient
    variable-space policy: it keeps a page after a reference only if the page's next reference
    is at most T accesses away. It makes the same faults as the working set with window T, and
    no demand-paging policy that faults no more holds fewer pages on average: how much of the
    working set's memory is there only because it cannot see ahead.

    Parameters
    ----------
    windows
        Windows T in accesses, each >= 1. Default: ``points`` of them spaced geometrically
        from 1 to the trace's length.

    Returns
    -------
    pandas.DataFrame
        A row per distinct window, in increasing order: ``window``, ``mean_size`` (pages),
        ``faults``, ``miss_ratio`` (faults / accesses), ``vmin_mean_size`` (pages; NaN, as
        ``mean_size``, without accesses). With ``per_process``, a row per process and window,
        the process's ``pid`` first, its ``accesses`` last.
    """
    return _variable_space(trace, "windows", windows, points, per_process,
                           _core.working_set_curve, "window", vmin_size_sum="vmin_mean_size")


def working_set_sizes(trace, window: int, *, every: Optional[int] = None,
                      per_process: bool = False):
    """The working set's size over the trace, |W(t, T)| with T = ``window``: how much memory the
    program needs, and when (its phases), as :func:`working_set` averages it.

    A row per block of ``every`` accesses (default: the trace's length / 1000, at least 1),
    indexed by the block's first access (``access``); the block's mean size in the column
    ``size``. With ``per_process``, a column ``size_<pid>`` per process instead, in the order
    of :attr:`Trace.proc_pids`: at each point of the trace, the pages among that process's own
    last T accesses (its virtual time: the set stays as it is while the others run), none
    before its first access or after its last (it has exited). Their sum, against the frames,
    says when the processes together need more memory than there is, and which one does.
    Exact, O(N + rows x processes).
    """
    import pandas as pd
    t = _trace(trace)
    window = _args.integer("window", window, 1)
    every = max(len(t) // 1000, 1) if every is None else _args.integer("every", every, 1)
    per_process = _args.boolean("per_process", per_process)
    sizes = _core.working_set_sizes(t, window, every, per_process)
    index = pd.Index(np.arange(sizes.shape[1], dtype=np.int64) * every, name="access")
    names = [f"size_{pid}" for pid in t.proc_pids] if per_process else ["size"]
    return pd.DataFrame(sizes.T, index=index, columns=names)


def plot_working_set_sizes(df, ax=None, frames: Optional[int] = None):
    """Plot :func:`working_set_sizes`' table against the trace's accesses, on ``ax`` if given:
    the size, or each process's stacked; with ``frames``, the memory as a dashed line. Returns
    the Axes."""
    import matplotlib.pyplot as plt
    if ax is None:
        _, ax = plt.subplots()
    if list(df.columns) == ["size"]:
        ax.plot(df.index, df["size"], label="working set")
    else:
        ax.stackplot(df.index, df.to_numpy().T, labels=list(df.columns))
    if frames is not None:
        ax.axhline(_args.integer("frames", frames, 1), color="black", linestyle="--", label="frames")
    ax.set_xlabel("access")
    ax.set_ylabel("working set (pages)")
    ax.legend()
    return ax


def pff(trace, *, thresholds: Optional[Iterable[int]] = None, points: int = 40,
        per_process: bool = False):
    """Chu and Opderbeck's page-fault-frequency policy at each threshold T: faults, mean memory.

    The working set's variable-space rival (AFIPS 1972), as Denning states it ("Working sets
    past and present", 1980): memory grows at each fault, and when a fault comes more than T
    accesses after the previous one (the fault rate is below 1/T), the pages not referenced
    since that previous fault (its own access counted) leave first. It needs no window of
    reference times, only a use bit per page cleared at each fault. Time as in
    :func:`working_set` (``per_process`` likewise). Exact: one simulation per threshold, O(N).

    Parameters
    ----------
    thresholds
        Thresholds T in accesses, each >= 1. Default: ``points`` of them spaced geometrically
        from 1 to the trace's length.

    Returns
    -------
    pandas.DataFrame
        :func:`working_set`'s columns with ``threshold`` for ``window`` and without VMIN's:
        ``threshold``, ``mean_size``, ``faults``, ``miss_ratio``; with ``per_process``, ``pid``
        first and ``accesses`` last. :func:`plot_working_set` draws it.
    """
    return _variable_space(trace, "thresholds", thresholds, points, per_process, _core.pff_curve,
                           "threshold")


def _variable_space(trace, key: str, times, points: int, per_process: bool, curve_of, name: str,
                    **sums: str):
    """The table of a variable-space policy's curve, `curve_of(trace, times, per_process)`, at
    `times` (given as `key`; default `points` of them from 1 to the trace's length), a row per
    time called `name`: mean_size, faults, miss_ratio, then each of `sums` (a size sum of the
    curve, as the mean it is renamed to); with `per_process`, pid first and accesses last."""
    import pandas as pd
    t = _trace(trace)
    if times is None:
        points = _args.integer("points", points, 1, 10**6)
        times = np.unique(np.round(np.geomspace(1, max(len(t), 1), points))).astype(np.int64).tolist()
    elif np.isscalar(times):
        times = [times]
    times = [_args.integer(key, w, 1) for w in times]
    per_process = _args.boolean("per_process", per_process)
    curve = curve_of(t, times, per_process)
    faults = curve["faults"].astype(np.int64)
    accesses = curve["accesses"].astype(np.float64)
    accesses[accesses == 0] = np.nan
    df = pd.DataFrame({name: curve[name].astype(np.int64), "mean_size": curve["size_sum"] / accesses,
                       "faults": faults, "miss_ratio": faults / accesses,
                       **{mean: curve[total] / accesses for total, mean in sums.items()}})
    if not per_process:
        return df
    df.insert(0, "pid", np.asarray(t.proc_pids, dtype=np.int64)[curve["proc"].astype(np.int64)])
    df["accesses"] = curve["accesses"].astype(np.int64)
    return df


def mrc(trace, *, policies: Sequence = ("lru",), frames: Optional[Iterable[int]] = None,
        sample: Optional[float] = None, seed: int = 0, **params):
    """Faults and miss ratio against memory size, as a DataFrame.

    ``policies`` are as :func:`pagesim.sweep` takes them: names, :class:`pagesim.Policy`
    instances or ``(name, {own parameters})``. ``lru`` and ``belady`` use the exact one-pass
    curves (every size when ``frames`` is None) under demand paging in trace order
    (:data:`pagesim.TEXTBOOK`, no other ``params``); other policies, and these two under any
    other settings, are simulated at each size of ``frames`` (required for them), with
    ``params`` passed to :func:`pagesim.simulate`. With ``sample=rate`` (0 < rate <= 1) every
    policy is a miniature simulation instead (:func:`sample`, with ``seed``): run on the
    sampled pages' accesses with ``max(1, round(frames * rate))`` frames, its faults scaled by
    1 / rate (at most the trace's accesses; the sample's faults over the accesses it should have
    had, as SHARDS_adj counts the ones it is short of as hits); ``frames`` required. An estimate, for traces too long to simulate whole: bench/RESULTS.md and the
    README give its error.

    Returns
    -------
    pandas.DataFrame
        Columns ``policy``, ``frames``, ``faults``, ``miss_ratio``, ``method``
        (``one-pass``, ``simulation`` or ``miniature, rate R``).
    """
    import pandas as pd
    from . import TEXTBOOK, simulate, textbook
    from .sweeps import _policy_specs
    t = _trace(trace)
    n = len(t)
    if isinstance(policies, tuple) and not any(isinstance(p, Mapping) for p in policies):
        policies = list(policies)  # a tuple of names, not one (name, {own parameters})
    if frames is not None and np.isscalar(frames):
        frames = [frames]
    sizes = None if frames is None else [_args.integer("frames", f, 1, 2**40) for f in frames]
    if sizes == []:
        raise _core.ConfigError("mrc needs frames >= 1 (memory sizes in page frames), got []")
    columns = ["policy", "frames", "faults", "miss_ratio", "method"]
    if sample is not None:
        if sizes is None:
            raise _core.ConfigError("mrc with sample= simulates every policy at the sizes of frames=[...]: "
                                    "give them")
        return pd.DataFrame(_miniature(t, policies, sizes, sample, seed, params), columns=columns)
    rows = []
    for label, policy, own in _policy_specs(policies, "mrc"):
        settings = {**params, **own}
        if isinstance(policy, str) and policy in ("lru", "belady") and textbook(**settings) == TEXTBOOK:
            curve = lru_mrc(t) if policy == "lru" else opt_mrc(t)
            wanted = range(1, len(curve)) if sizes is None else sizes
            for f in wanted:
                faults = int(curve[min(f, len(curve) - 1)])
                rows.append((label, f, faults, faults / n if n else 0.0, "one-pass"))
            continue
        if sizes is None:
            raise _core.ConfigError(f"policy {label!r} is simulated (a one-pass curve is for lru or belady "
                                    f"under demand paging in trace order): give frames=[...]")
        for f in sizes:
            faults = int(simulate(t, policy, frames=f, **textbook(**settings))["faults"])
            rows.append((label, f, faults, faults / n if n else 0.0, "simulation"))
    return pd.DataFrame(rows, columns=columns)


def _miniature(t, policies, sizes, rate_asked: float, seed: int, params) -> list:
    """mrc's rows of miniature simulations: every policy on the sampled pages' accesses."""
    from . import simulate, textbook
    from .sweeps import _policy_specs
    small, rate = _sample(t, rate_asked, seed=seed)
    if len(small) == 0:
        raise _core.ConfigError(f"sampling at rate {rate_asked:g} (seed {seed}) kept no access of this "
                                f"trace's {t.num_pages} pages: raise the rate")
    rows = []
    for label, policy, own in _policy_specs(policies, "mrc"):
        for f in sizes:
            run = simulate(small, policy, frames=max(1, round(f * rate)), **textbook(**params, **own))
            # Scaled by 1 / rate: the sample's faults among the accesses it should have had,
            # n * rate (SHARDS_adj: a sample short of its share of accesses missed hot pages,
            # whose accesses would have been hits), at most every access.
            faults = min(run["faults"] / rate, len(t))
            rows.append((label, f, round(faults), faults / len(t), f"miniature, rate {rate:g}"))
    return rows


def plot_mrc(df, ax=None):
    """Plot miss ratio against memory size, one line per policy. Returns the Axes."""
    import matplotlib.pyplot as plt
    if ax is None:
        _, ax = plt.subplots()
    for policy, g in df.groupby("policy", sort=False):
        g = g.sort_values("frames")
        ax.plot(g["frames"], g["miss_ratio"], label=policy)
    ax.set_xlabel("memory (frames)")
    ax.set_ylabel("miss ratio")
    ax.legend()
    return ax


def plot_working_set(df, ax=None, label: Optional[str] = None, vmin: bool = True):
    """Plot the miss ratio of :func:`working_set` (or :func:`pff`) against its mean size
    (pages), on ``ax`` if given (e.g. the Axes of :func:`plot_mrc`, whose memory is in frames),
    and with ``vmin`` VMIN's when the table has it (the same miss ratios against VMIN's mean
    size; dotted); a line per process for a ``per_process`` table. ``label``: "working set" or
    "PFF" by the table. Returns the Axes."""
    import matplotlib.pyplot as plt
    if ax is None:
        _, ax = plt.subplots()
        ax.set_xlabel("memory (frames; variable-space policies: mean size)")
        ax.set_ylabel("miss ratio")
    vmin = _args.boolean("vmin", vmin) and "vmin_mean_size" in df
    if label is None:
        label = "working set" if "window" in df else "PFF"
    curves = df.groupby("pid", sort=False) if "pid" in df else [(None, df)]
    for pid, g in curves:
        of = "" if pid is None else f", pid {pid}"
        ax.plot(g["mean_size"], g["miss_ratio"], marker=".", linestyle="--", label=label + of)
        if vmin:
            ax.plot(g["vmin_mean_size"], g["miss_ratio"], marker=".", linestyle=":",
                    label="VMIN" + of)
    ax.legend()
    return ax
