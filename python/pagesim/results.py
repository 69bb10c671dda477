"""Result conveniences: scalar summaries and per-process tables.

Both are written against whatever the native ``Result`` exposes, so that fields added later
(times, ...) appear without changes here: every public scalar attribute becomes a summary
entry, and every public dict of scalars (``counters``, ``times``, ...) is flattened into it.
"""
from __future__ import annotations

import numbers
from typing import Any, Dict, List

import numpy as np

from . import _core

_SCALARS = (numbers.Number, str, bool)
# Attributes that are not scalars of the run or are flattened by name elsewhere.
_SKIP = {"per_process"}


def _public_values(result: _core.Result):
    for name in dir(type(result)):
        if name.startswith("_") or name in _SKIP:
            continue
        if callable(getattr(type(result), name, None)):
            continue
        try:
            yield name, getattr(result, name)
        except Exception:  # a property that does not apply to this run
            continue


def summary(self: _core.Result) -> Dict[str, Any]:
    """The run as one dict of scalars.

    ``policy`` and ``frames`` first, then every counter (see :func:`pagesim.counter_names`),
    then the other scalar fields of the result (``swap_slots_used``, times when the engine
    reports them) in name order. Dict-valued fields other than ``counters`` are flattened as
    ``field_key`` unless the key is unambiguous on its own.

    Returns
    -------
    dict
        One row of a :func:`pagesim.sweep` table.
    """
    out: Dict[str, Any] = {"policy": self.policy, "frames": self.frames}
    out.update(self.counters)
    extra: Dict[str, Any] = {}
    for name, value in _public_values(self):
        if name in ("policy", "frames", "counters"):
            continue
        if isinstance(value, _SCALARS):
            extra[name] = value
        elif isinstance(value, dict) and value and all(isinstance(v, _SCALARS) for v in value.values()):
            for key, v in value.items():
                extra[key if key not in out and key not in extra else f"{name}_{key}"] = v
    out.update(sorted(extra.items()))
    return out


# A process's own times, as Result.per_process_time gives them (its counters come from
# Result.per_process).
_PROCESS_TIMES = ("start_ns", "elapsed_ns", "user_ns", "sys_ns", "iowait_ns")


def process_rows(result: _core.Result) -> List[Dict[str, Any]]:
    """Each process's counters and times (``pid`` first): the rows of :meth:`to_frame` and of
    ``sweep(per_process=True)``."""
    return [{**counters, **{k: times[k] for k in _PROCESS_TIMES}}
            for counters, times in zip(result.per_process, result.per_process_time)]


def to_frame(self: _core.Result):
    """Per-process counters and times as a :class:`pandas.DataFrame`, one row per process.

    Columns: ``policy``, ``frames``, ``pid``, then every per-process counter, then the
    process's times in ns (``start_ns``, ``elapsed_ns``, ``user_ns``, ``sys_ns``,
    ``iowait_ns``; :meth:`time_summary` has them in seconds). The total row is not included:
    use :meth:`summary`.
    """
    import pandas as pd

    rows = process_rows(self)
    columns = list(rows[0]) if rows else ["pid", *_core.counter_names(), *_PROCESS_TIMES]
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(0, "policy", self.policy)
    frame.insert(1, "frames", self.frames)
    return frame


def page_stats(self: _core.Result):
    """Each page's counts as a :class:`pandas.DataFrame`, one row per page of the trace
    (index ``page``: the trace's page id), for a run with ``page_stats=True``.

    Columns: ``pid``, ``vpn`` (virtual page number), ``kind`` (``anon`` or ``file``), then
    ``accesses`` (its hits are ``accesses - faults``), ``faults``, ``major_faults``,
    ``readahead`` (the times readahead brought it in, which are not faults), ``evictions`` and
    ``writes`` (the times it was written, swap-outs of an anonymous page, writes back to its
    file of a file page: its dirty evictions, and the writebacks of a policy that cleans
    pages without evicting them, such as ``wsclock``). Which pages a policy faults on and
    writes again, where the counters say how many: summed over the pages they are the run's
    ``accesses``, ``faults``, ``major_faults``, ``readahead_pages``, ``evictions`` and
    ``swap_outs + file_writes``; for each page ``faults + readahead - evictions`` is 1 if it
    is resident at the end, else 0 (or it was freed at its process's exit).
    ``df.groupby("pid").sum()`` gives the processes' own; ``a.page_stats().writes -
    b.page_stats().writes`` compares two policies page by page.

    Raises
    ------
    ConfigError
        The run was made without ``page_stats=True``.
    """
    import pandas as pd

    arrays = self.page_stats_arrays
    if arrays is None:
        raise _core.ConfigError("this run has no page stats: run it with page_stats=True")
    frame = pd.DataFrame({k: np.asarray(v) for k, v in arrays.items()})
    frame["kind"] = pd.Categorical.from_codes(frame["kind"], ["anon", "file"])
    frame.index.name = "page"
    return frame


def install() -> None:
    _core.Result.summary = summary
    _core.Result.to_frame = to_frame
    _core.Result.page_stats = page_stats
