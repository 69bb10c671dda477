"""Miss-ratio curves: faults for every memory size.

``lru`` and ``belady`` are stack algorithms, so one pass gives every size exactly
(:func:`lru_mrc`, :func:`opt_mrc`); SHARDS sampling estimates the LRU curve of huge traces
in bounded memory (:func:`shards_mrc`); any other policy is simulated at each size
(:func:`mrc` with ``policies=[...]``).

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

__all__ = ["lru_mrc", "mrc", "opt_mrc", "plot_mrc", "shards_mrc"]


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


def mrc(trace, *, policies: Sequence = ("lru",), frames: Optional[Iterable[int]] = None,
        **params):
    """Faults and miss ratio against memory size, as a DataFrame.

    ``policies`` are as :func:`pagesim.sweep` takes them: names, :class:`pagesim.Policy`
    instances or ``(name, {own parameters})``. ``lru`` and ``belady`` use the exact one-pass
    curves (every size when ``frames`` is None) under demand paging in trace order
    (:data:`pagesim.TEXTBOOK`, no other ``params``); other policies, and these two under any
    other settings, are simulated at each size of ``frames`` (required for them), with
    ``params`` passed to :func:`pagesim.simulate`.

    Returns
    -------
    pandas.DataFrame
        Columns ``policy``, ``frames``, ``faults``, ``miss_ratio``, ``method``
        (``one-pass`` or ``simulation``).
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
    return pd.DataFrame(rows, columns=["policy", "frames", "faults", "miss_ratio", "method"])


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
