"""pagesim: trace-driven page-replacement simulation.

Replay a memory-access trace against a reclaim policy and count what it costs: faults
(minor and major), swap-ins, swap-outs, clean and dirty evictions, the pages the policy
scanned to find its victims, per process.

>>> import pagesim, numpy as np
>>> t = pagesim.Trace.from_arrays(np.array([1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5]))
>>> pagesim.simulate(t, "fifo", frames=3)["faults"]
9
"""
from __future__ import annotations

import inspect
import os
from typing import Any, Optional, Sequence, Union

import numpy as np

from ._core import (
    ConfigError,
    Error,
    PolicyError,
    Trace,
    TraceFormatError,
)
from . import _core
from .policy import (
    NEVER,
    Access,
    PageKind,
    PageTableView,
    Policy,
    PolicyTraits,
    register_policy,
    unregister_policy,
)
from . import policy as _policy
from . import results as _results
from .traces import convert, generate, interleave, summary, together
from . import timing  # adds Result.time_summary() and Result.vmstat()

__all__ = [
    "TEXTBOOK",
    "textbook",
    "convert",
    "summary",
    "generate",
    "interleave",
    "together",
    "Access",
    "NEVER",
    "PageKind",
    "PageTableView",
    "Policy",
    "PolicyTraits",
    "register_policy",
    "sweep",
    "SweepInterrupted",
    "unregister_policy",
    "ConfigError",
    "Error",
    "PolicyError",
    "Result",
    "Trace",
    "TraceFormatError",
    "counter_names",
    "plots",
    "load",
    "policies",
    "policy_parameters",
    "engine_parameters",
    "simulate",
]

Result = _core.Result

TraceLike = Union[Trace, str, "os.PathLike[str]", np.ndarray, Sequence[Any]]


def _result_getitem(self: Result, name: str) -> int:
    try:
        return self.counters[name]
    except KeyError:
        raise KeyError(f"no counter {name!r}; counters are {', '.join(counter_names())}") from None


def _result_repr(self: Result) -> str:
    c = self.counters
    return (f"<pagesim.Result {self.policy} frames={self.frames}: {c['faults']} faults "
            f"({c['major_faults']} major), {c['swap_ins']} swap-ins, {c['swap_outs']} swap-outs>")


Result.__getitem__ = _result_getitem
Result.__repr__ = _result_repr
_results.install()


def counter_names() -> list[str]:
    """Names of the counters of a :class:`Result`, in a stable order."""
    return list(_core.counter_names())


def policies() -> dict[str, str]:
    """Registered policies: name -> one-line description (Python-defined ones included)."""
    out = dict(_core.policies())
    for name, factory in _policy.registered().items():
        out[name] = "Python: " + ((getattr(factory, "__doc__", None) or "").strip().splitlines() or [""])[0]
    return out


def policy_parameters(name: str) -> dict[str, str]:
    """A policy's own parameters, each with what it takes: ``{"seed": "integer from 0 to
    9223372036854775807 (default 1)"}`` for ``random``; for a Python policy, its factory's
    keyword parameters and their defaults. Engine settings (``frames``, ``device``, ...) are
    listed by :func:`engine_parameters`."""
    _policy.check_name(name)
    factory = _policy.registered().get(name)
    if factory is None:
        return dict(_core.policy_parameters(name))
    out = {}
    for p in inspect.signature(factory).parameters.values():
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            out[p.name] = "required" if p.default is p.empty else f"default {p.default!r}"
    return out


def engine_parameters() -> dict[str, str]:
    """The engine's settings, which every policy takes, each with what it takes:
    ``{"page_cluster": "integer from 0 to 10 (default 3)", ...}``. A device figure lists each
    preset's default: ``"number from 0 to 1e+06 (default 4.17 for hdd-2002, 5.5 for
    hdd-laptop)"`` (``device_rotation_ms``). Units are in the key's name (``_ns``, ``_ms``, ``_us``, ``_mb_s``); counts
    are in pages or frames. The README's "Parameters" says what each one does."""
    return dict(_core.engine_parameters())


def load(path: Union[str, "os.PathLike[str]"], *, page_size: Optional[int] = None,
         page_numbers: bool = False, format: str = "auto", instructions: bool = False,
         pid: Optional[int] = None) -> Trace:
    """Load a trace file.

    Parameters
    ----------
    path
        A trace: native ``.pgt``, text (one ``[PID] R|W ADDRESS`` per line), CSV with a
        header, valgrind lackey output, libCacheSim oracleGeneral, Dinero ``din`` or Intel Pin
        ``pinatrace`` output, or a block I/O trace (SPC, as the UMass repository's ``.spc``
        files, MSR Cambridge's or Alibaba's ``.csv``: each request's pages, file-backed, a
        disk a process); gzip or zstd compressed or not. The format comes from the magic number, the
        name (extension, ``pinatrace`` in it) or the first line.
    page_size
        Bytes per page, a power of two; addresses are divided by it. Default: what a text
        trace written by pagesim records in its first line, else 4096. A native trace records
        its own: ``page_size`` or ``pid`` given for one raises ConfigError, as does any option
        the file's format does not read.
    page_numbers
        Text traces: the numbers are page numbers, not byte addresses.
    format
        ``auto``, ``native``, ``text``, ``csv``, ``lackey``, ``oracle``, ``din``,
        ``pinatrace``, ``spc``, ``msr`` or ``alibaba``.
    instructions
        Lackey and din: also count instruction fetches (as reads).
    pid
        The pid of accesses whose file names none: text and CSV without a pid column (default
        0 and 1), lackey before the first ``==PID==`` line, oracleGeneral, din and pinatrace
        (default 1).
    """
    return Trace.load(os.fspath(path), format=format, page_size=page_size,
                      page_numbers=page_numbers, instructions=instructions, pid=pid)


def as_trace(trace: TraceLike) -> Trace:
    """A :class:`Trace` from a Trace, a path to a trace file, an array of page numbers, or a
    list of those (:func:`together`)."""
    if isinstance(trace, Trace):
        return trace
    if isinstance(trace, (str, os.PathLike)):
        return load(trace)
    if isinstance(trace, np.ndarray):
        return Trace.from_arrays(trace)
    if isinstance(trace, (list, tuple)):
        return together(trace)
    raise ConfigError("trace must be a pagesim.Trace, a path, a numpy array or a list of them, "
                      f"got {type(trace).__name__}")


#: Engine settings of textbook demand paging in trace order: no swap readahead and the
#: trace's own interleaving of processes. Hand-derived counts, Belady's MIN, the prescient
#: bracket and one-pass miss-ratio curves assume them; the engine's defaults (readahead of 8
#: slots, round-robin scheduling of several processes) model a kernel instead.
TEXTBOOK = {"page_cluster": 0, "schedule": "static"}


def textbook(**params: Any) -> dict:
    """``params`` completed with :data:`TEXTBOOK` where they say nothing else."""
    return {**TEXTBOOK, **params}


def simulate(trace: TraceLike, policy: Union[str, Policy] = "lru", *, frames: int,
             **params: Any) -> Result:
    """Replay ``trace`` against ``policy`` with ``frames`` page frames of memory.

    Parameters
    ----------
    trace
        A :class:`Trace`, a path to a text trace, or a numpy array of page numbers (reads).
    policy
        A registered policy name, see :func:`policies` (built-in, or Python-defined and
        registered with :func:`register_policy`), or a :class:`Policy` instance.
    frames
        Memory size in pages.
    **params
        Engine settings (``free_slot_on_swapin``, ``low_watermark``, ``high_watermark``,
        ``cpu_ns``, ``swap_slots``, ``page_cluster``, ``swap_readahead``, ``read_ahead_kb``,
        ``device`` and ``device_*``, ``io_scheduler``, ``io_max_request_pages``, ``io_queue_depth``,
        ``io_read_expire_ms``, ``io_write_expire_ms``, ``io_fifo_batch``, ``io_writes_starved``,
        ``schedule``, ``quantum_ns``, ``interval_ns``, ``free_on_exit``, ``page_stats``)
        and the policy's own parameters (``seed`` for ``random``); :func:`engine_parameters`
        and :func:`policy_parameters` say what each takes. An unknown key raises
        :class:`ConfigError` naming the closest known one.

    Returns
    -------
    Result
        ``result.counters`` is a dict of counters, ``result["faults"]`` reads one,
        ``result.per_process`` lists them per process; with ``page_stats=True``,
        ``result.page_stats()`` has them per page.
    """
    params["frames"] = frames
    if _policy.is_python_policy(policy):
        return _policy.simulate_python(as_trace(trace), policy, params)
    if isinstance(policy, type) and issubclass(policy, _core.Policy):
        raise ConfigError(f"policy must be a pagesim.Policy instance, got the class "
                          f"{policy.__name__}: pass {policy.__name__}(...)")
    if not isinstance(policy, str):
        raise ConfigError("policy must be a registered policy's name or a pagesim.Policy instance, "
                          f"got {type(policy).__name__}")
    _policy.check_name(policy)
    return _core.simulate(as_trace(trace), policy, params)


from .sweeps import SweepInterrupted, sweep  # noqa: E402  (needs simulate's helpers above)
from . import plots  # noqa: E402  (matplotlib is imported when a plot is drawn)
# Prescient bounds and miss-ratio curves (python/pagesim/prescient.py, mrc.py).
from . import mrc, prescient  # noqa: E402
from .prescient import prescient_ratio  # noqa: E402
from . import testing  # noqa: E402  (the testing kit: pagesim.testing after import pagesim)

__all__ += ["mrc", "prescient", "prescient_ratio", "testing"]
