"""How many more pages does a real policy swap out than a prescient one?

Minimising swap-outs offline is NP-hard (Beckmann et al., "Writeback-Aware Caching", APOCS
2020), so the prescient side is a bracket: a proven lower bound on the swap-outs of *any*
policy (:func:`swap_out_lower_bound`) and the fewest swap-outs among the prescient heuristics
(``belady``, ``belady_clean_first``, ``belady_segment``, ``belady_weighted``). The true
optimum lies in between, so a real policy's ratio to it lies between its ratio to the best
heuristic and its ratio to the lower bound. For tiny traces :func:`exact_optimum` searches
every schedule.

>>> import pagesim, numpy as np
>>> t = pagesim.Trace.from_arrays(np.array([1, 2, 3, 1, 2]), writes=np.array([1, 1, 0, 0, 0]))
>>> pagesim.prescient.swap_out_lower_bound(t, frames=2)
1
"""
from __future__ import annotations

import math

from typing import Iterable, Optional, Sequence, Union

import numpy as np

from . import _args, _core

PRESCIENT = ("belady", "belady_clean_first", "belady_segment", "belady_weighted")
HEADLINE_POLICIES = ("lru", "active_inactive", "random", "rmap_aging", "clock")
# What "about 1.5x" means in the verdict of headline_table.
ABOUT_LOW, ABOUT_HIGH = 1.25, 1.75

__all__ = [
    "PRESCIENT",
    "exact_optimum",
    "headline_table",
    "plot_prescient_ratio",
    "prescient_bracket",
    "prescient_ratio",
    "swap_out_lower_bound",
]


def _trace(trace):
    from . import as_trace
    return as_trace(trace)


def _frames_list(frames: Union[int, Iterable[int]]) -> list[int]:
    if np.isscalar(frames):
        frames = [frames]
    out = [_args.integer("frames", f, 1, 2**40) for f in frames]
    if not out:
        raise _core.ConfigError("frames is empty: give at least one memory size in frames")
    return out


def _ratio(num: float, den: float) -> float:
    if den == 0:
        return float("nan") if num == 0 else float("inf")
    return num / den


def swap_out_lower_bound(trace, *, frames: int, free_on_exit: bool = False) -> int:
    """A lower bound on the swap-outs of every policy on ``trace`` with ``frames`` frames.

    Sound for any eviction schedule (demand paging, watermark batches, readahead), with
    ``free_slot_on_swapin``, and, when told, with ``free_on_exit`` (a page's last write then
    ends at its process's exit). The proof is in ``libsim/src/prescient.cpp`` and the README
    ("Prescient bracket").
    """
    return int(_core.swap_out_lower_bound(_trace(trace), _args.integer("frames", frames, 1, 2**40),
                                          _args.boolean("free_on_exit", free_on_exit)))


def exact_optimum(trace, *, frames: int, fault_weight: int = 0, swap_out_weight: int = 1,
                  state_limit: int = 1 << 21) -> dict:
    """The exact minimum of ``fault_weight * faults + swap_out_weight * swap_outs``.

    Exhaustive search over (resident set, dirty bits) states for demand paging; for small
    traces only (at most 32 pages; :class:`ConfigError` beyond ``state_limit`` states).

    Returns
    -------
    dict
        ``cost``, and ``faults`` and ``swap_outs`` of an optimal schedule (the fewest
        swap-outs, then faults, among optimal ones), ``max_states``.
    """
    # Weights up to 2^20 keep the cost of any trace that fits in memory below 2^63.
    return dict(_core.exact_optimum(_trace(trace), _args.integer("frames", frames, 1, 2**40),
                                    _args.integer("fault_weight", fault_weight, 0, 2**20),
                                    _args.integer("swap_out_weight", swap_out_weight, 0, 2**20),
                                    _args.integer("state_limit", state_limit, 1, 2**40)))


def _registered(names: Iterable[str]) -> list[str]:
    known = dict(_core.policies())
    return [n for n in names if n in known]


def prescient_bracket(trace, *, frames: int, prescient: Sequence[str] = PRESCIENT,
                      **params) -> dict:
    """The prescient bracket at one memory size.

    Returns
    -------
    dict
        ``lower_bound``; ``best`` (fewest swap-outs among ``prescient``) and
        ``best_policy``; ``min_major_faults`` (Belady's MIN, the fewest major faults any
        policy can have); ``heuristics``: name -> swap-outs.
    """
    from . import simulate, textbook
    params = textbook(**params)
    t = _trace(trace)
    names = [prescient] if isinstance(prescient, str) else list(prescient)
    if not names:
        raise _core.ConfigError("prescient is empty: name at least one prescient policy, e.g. 'belady_segment'")
    known = dict(_core.policies())
    for n in names:
        if n in known and not _core.policy_traits(n).needs_future:
            raise _core.ConfigError(f"{n!r} in prescient is not a prescient policy (it does not see the future): "
                                    f"the bracket's best is one of {', '.join(PRESCIENT)}")
    swaps = {n: int(simulate(t, n, frames=frames, **params)["swap_outs"]) for n in names}
    best_policy = min(swaps, key=lambda n: (swaps[n], names.index(n)))
    return {
        "lower_bound": swap_out_lower_bound(t, frames=frames,
                                            free_on_exit=params.get("free_on_exit", False)),
        "best": swaps[best_policy],
        "best_policy": best_policy,
        "min_major_faults": int(simulate(t, "belady", frames=frames, **params)["major_faults"]),
        "heuristics": swaps,
    }


def prescient_ratio(trace, *, policies: Sequence[str] = ("lru", "clock", "random"),
                    frames: Union[int, Iterable[int]], prescient: Sequence[str] = PRESCIENT,
                    **params):
    """Swap-outs and major faults of real policies against the prescient bracket.

    Parameters
    ----------
    trace
        A :class:`pagesim.Trace`, a path, or an array of page numbers.
    policies
        Registered policy names to compare.
    frames
        One memory size or several, in frames.
    prescient
        Prescient policies whose best (fewest swap-outs) is the bracket's upper end.
    **params
        Engine settings for every run, completed with :data:`pagesim.TEXTBOOK` (demand
        paging in trace order), the setting in which the bracket is proven.

    Returns
    -------
    pandas.DataFrame
        One row per (policy, frames): ``swap_outs``, ``major_faults``, ``lower_bound``,
        ``best_prescient`` and ``best_prescient_policy``, ``ratio_to_best`` (swap-outs /
        best prescient: the ratio to the optimum is at least this) and
        ``ratio_to_lower_bound`` (at most this), ``min_major_faults`` (Belady's MIN) and
        ``major_fault_ratio``. Ratios are inf when only the denominator is 0, NaN when both.
    """
    import pandas as pd
    from . import simulate, textbook
    params = textbook(**params)
    t = _trace(trace)
    policies = [policies] if isinstance(policies, str) else list(policies)
    rows = []
    for f in _frames_list(frames):
        b = prescient_bracket(t, frames=f, prescient=prescient, **params)
        for policy in policies:
            c = simulate(t, policy, frames=f, **params).counters
            rows.append({
                "policy": policy,
                "frames": f,
                "swap_outs": int(c["swap_outs"]),
                "major_faults": int(c["major_faults"]),
                "lower_bound": b["lower_bound"],
                "best_prescient": b["best"],
                "best_prescient_policy": b["best_policy"],
                "ratio_to_best": _ratio(c["swap_outs"], b["best"]),
                "ratio_to_lower_bound": _ratio(c["swap_outs"], b["lower_bound"]),
                "min_major_faults": b["min_major_faults"],
                "major_fault_ratio": _ratio(c["major_faults"], b["min_major_faults"]),
            })
    return pd.DataFrame(rows)


def plot_prescient_ratio(df, ax=None):
    """:func:`pagesim.plots.plot_prescient_ratio` of a :func:`prescient_ratio` table: each
    policy as a band from its ratio to the best prescient heuristic up to its ratio to the
    lower bound. Returns the matplotlib Axes."""
    from . import plots
    return plots.plot_prescient_ratio(df, ax=ax)


def _span(lo: float, hi: float) -> str:
    if math.isnan(lo):  # 0 / 0: no swap-outs on either side
        return "no ratio"
    return f"{lo:.2f}x" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}x-{hi:.2f}x"


def _verdict(df) -> str:
    parts = []
    for f, g in df.groupby("frames", sort=True):
        first = g.iloc[0]
        lb, best = int(first["lower_bound"]), int(first["best_prescient"])
        if lb == best:
            head = (f"At {f} frames the fewest swap-outs any policy can make is exactly {best}: "
                    f"{first['best_prescient_policy']} attains the proven lower bound.")
        else:
            head = (f"At {f} frames a prescient policy needs between {lb} (proven lower bound) and "
                    f"{best} ({first['best_prescient_policy']}) swap-outs.")
        cells = [f"{r.policy} {r.swap_outs} ({_span(r.ratio_to_best, r.ratio_to_lower_bound)})"
                 for r in g.itertuples()]
        good = g.loc[g["swap_outs"].idxmin()]
        lo, hi = float(good["ratio_to_best"]), float(good["ratio_to_lower_bound"])
        if good["swap_outs"] == 0:
            parts.append(f"{head} Swap-outs: {', '.join(cells)}. The best real policy here, "
                         f"{good['policy']}, swaps out no page: no dirty page has to leave memory "
                         f"at this size, and the claim does not apply.")
            continue
        if hi < ABOUT_LOW:
            claim = "fewer than 'about 1.5x': the claim overstates the gap"
        elif lo > ABOUT_HIGH:
            claim = "more than 'about 1.5x': the claim understates the gap"
        elif lo >= ABOUT_LOW and hi <= ABOUT_HIGH:
            claim = "the 'about 1.5x' claim holds"
        else:
            claim = ("consistent with 'about 1.5x' but not settled by the bracket (its ratio range "
                     f"crosses the {ABOUT_LOW}-{ABOUT_HIGH} band)")
        parts.append(f"{head} Swap-outs and their ratio to the prescient optimum: {', '.join(cells)}. "
                     f"The best real policy here, {good['policy']}, swaps out {_span(lo, hi)} as "
                     f"many dirty pages as the prescient optimum: {claim}.")
    return " ".join(parts)


def headline_table(trace, frames: Union[int, Iterable[int]], *,
                   policies: Sequence[str] = HEADLINE_POLICIES,
                   prescient: Sequence[str] = PRESCIENT, **params):
    """The headline comparison: real policies against the prescient bracket, with a verdict.

    Policies that are not registered in this build are skipped (their names are listed in the
    verdict). "About 1.5x" is taken to mean a ratio between 1.25 and 1.75.

    Returns
    -------
    (pandas.DataFrame, str)
        The :func:`prescient_ratio` table and a one-paragraph verdict on whether "a good
        policy evicts about 1.5x the dirty pages a prescient one would" holds on this trace.
    """
    present = _registered(policies)
    missing = [p for p in policies if p not in present]
    if not present:
        raise _core.ConfigError(f"none of the policies {list(policies)} is registered; known: "
                                f"{', '.join(sorted(dict(_core.policies())))}")
    df = prescient_ratio(trace, policies=present, frames=frames, prescient=_registered(prescient),
                         **params)
    verdict = _verdict(df)
    if missing:
        verdict += f" (Not registered in this build, skipped: {', '.join(missing)}.)"
    return df, verdict
