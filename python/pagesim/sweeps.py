"""Sweeps: every trace x policy x memory size, as one tidy pandas DataFrame."""
from __future__ import annotations

import functools
import itertools
import os
import time
import warnings
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args, _core, policy as _policy, results
from ._core import ConfigError, Trace

__all__ = ["SweepInterrupted", "sweep"]

# Seconds a sweep runs before an automatic progress bar appears, and between polls of the
# native threads (the GIL is re-acquired that often, so Ctrl-C is handled within it).
_BAR_AFTER = 1.0
_POLL = 0.1

PolicySpec = Union[str, _core.Policy, Tuple[str, Mapping[str, Any]]]
Progress = Union[None, bool, Callable[[int, int], Any]]


def _load_cached(path: str) -> Trace:
    """A worker's copy of the trace at ``path``, loaded again when the file changed (a save
    replaces it: a new inode and modification time)."""
    try:
        st = os.stat(path)
    except OSError:  # load's own error names the file, as without Dask
        from . import load
        return load(path)
    return _load_version(path, (st.st_ino, st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=4)
def _load_version(path: str, version: Tuple[int, int, int]) -> Trace:
    from . import load
    return load(path)


def _trace_name(trace: Any, index: int) -> str:
    if isinstance(trace, (str, os.PathLike)):
        return os.fspath(trace)
    if isinstance(trace, Trace) and trace.source:
        return trace.source
    return f"trace{index}"


def _named_traces(traces: Any) -> List[Tuple[str, Any]]:
    if isinstance(traces, Mapping):
        items = [(str(k), v) for k, v in traces.items()]
    elif isinstance(traces, (Trace, str, os.PathLike, np.ndarray)):
        items = [(_trace_name(traces, 0), traces)]
    elif isinstance(traces, (list, tuple)):
        items = [(_trace_name(t, i), t) for i, t in enumerate(traces)]
    else:
        raise ConfigError("sweep's traces must be a Trace, a path, an array, or a list or dict of them, "
                          f"got {type(traces).__name__}")
    if not items:
        raise ConfigError("sweep needs at least one trace")
    seen: Dict[str, int] = {}
    for name, _ in items:
        seen[name] = seen.get(name, 0) + 1
    return [(f"{name}#{i}" if seen[name] > 1 else name, t) for i, (name, t) in enumerate(items)]


def _policy_specs(policies: Any, caller: str = "sweep") -> List[Tuple[str, Union[str, _core.Policy], Dict[str, Any]]]:
    """(label, policy, own params) for each entry of ``policies`` (of sweep or mrc: ``caller``)."""
    if isinstance(policies, (str, _core.Policy, tuple)):
        policies = [policies]
    specs = []
    for p in policies:
        own: Dict[str, Any] = {}
        if isinstance(p, tuple):
            if len(p) != 2 or not isinstance(p[0], str) or not isinstance(p[1], Mapping):
                raise ConfigError(f"a policy with its own parameters is (name, dict), got {p!r}")
            p, own = p[0], dict(p[1])
        if not isinstance(p, (str, _core.Policy)):
            raise ConfigError(f"a policy is a name, a pagesim.Policy or (name, params), got {type(p).__name__}")
        if isinstance(p, str):
            _policy.check_name(p)
        specs.append((_policy.label(p), p, own))
    if not specs:
        raise ConfigError(f"{caller} needs at least one policy")
    # A policy's own parameters are part of its label: a table row never names the policy
    # without the parameters it ran with.
    out = []
    for label, p, own in specs:
        if own:
            label = f"{label}(" + ",".join(f"{k}={v}" for k, v in sorted(own.items())) + ")"
        out.append((label, p, own))
    if len({s[0] for s in out}) != len(out):
        raise ConfigError(f"{caller} policies must be distinct: " + ", ".join(s[0] for s in out))
    return out


def _memory_sizes(frames: Optional[Sequence[int]], fractions: Optional[Sequence[float]]):
    """[(frames or None, fraction or None)]: exactly one of the two is given per entry."""
    if (frames is None) == (fractions is None):
        raise ConfigError("sweep needs exactly one of frames=[...] (page frames) or "
                          "fractions=[...] (shares of each trace's footprint)")
    if frames is not None:
        values = [frames] if np.isscalar(frames) else list(frames)
        return [(_args.integer("frames", f, 1), None) for f in values] or _empty("frames")
    values = [fractions] if np.isscalar(fractions) else list(fractions)
    return [(None, _args.positive("fractions", f)) for f in values] or _empty("fractions")


def _empty(what: str):
    raise ConfigError(f"sweep needs at least one value in {what}")


def frames_for(fraction: float, num_pages: int) -> int:
    """Frames for a share of a trace's footprint: rounded, at least 1."""
    return max(1, int(round(fraction * num_pages)))


def fraction_of(frames: int, num_pages: int) -> float:
    """Memory as a share of a trace's footprint; NaN for a trace without pages."""
    return frames / num_pages if num_pages else float("nan")


def _is_axis(value: Any) -> bool:
    return isinstance(value, (list, tuple, range)) or (isinstance(value, np.ndarray) and value.ndim == 1)


def _axis(value: Any) -> List[Any]:
    """The values of a grid axis (a list, tuple, range or 1-D numpy array) as a list."""
    return value.tolist() if isinstance(value, np.ndarray) else list(value)


def _param_combos(params: Dict[str, Any], specs) -> List[Dict[str, Any]]:
    """The values of the parameters given as lists (grid axes: a list, tuple, range or 1-D
    numpy array), one dict per combination."""
    axes = {k: _axis(v) for k, v in params.items() if _is_axis(v)}
    for key, values in axes.items():
        if not values:
            _empty(key)
        for label, _, own in specs:
            if key in own:
                raise ConfigError(f"parameter {key!r} is swept and also set for policy {label}")
    return [dict(zip(axes, values)) for values in itertools.product(*axes.values())]


def figures(result: _core.Result, per_process: bool) -> Tuple[Dict[str, Any], Optional[List[Dict[str, Any]]]]:
    """What a sweep's rows take from a run: its summary, and with ``per_process`` each
    process's counters and times (``None`` without)."""
    return result.summary(), results.process_rows(result) if per_process else None


def _head(trace_name: str, label: str, frames: Optional[int], fraction: Optional[float],
          num_pages: Optional[int], combo: Dict[str, Any]) -> Dict[str, Any]:
    """The columns that say which run a row is of. Given one of ``frames`` and ``fraction``,
    the other comes from the trace's pages (left None without them: a trace that could not
    be loaded)."""
    if num_pages is not None:
        if frames is None:
            frames = frames_for(fraction, num_pages)
        elif fraction is None:
            fraction = fraction_of(frames, num_pages)
    return {"trace": trace_name, "policy": label, "frames": frames, "fraction": fraction, **combo}


def _rows(trace_name: str, label: str, fraction: Optional[float], num_pages: int,
          run: Tuple[Dict[str, Any], Optional[List[Dict[str, Any]]]],
          combo: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The table's rows of one run (:func:`figures`): one, or one per process."""
    summary, procs = run
    s = dict(summary)
    s.pop("policy")
    head = _head(trace_name, label, s.pop("frames"), fraction, num_pages, combo)
    if procs is None:
        return [{**head, **s}]
    return [{**head, **p} for p in procs]


def _run_job(trace: Trace, policy: Union[str, _core.Policy], frames: int,
             params: Dict[str, Any]) -> _core.Result:
    p = dict(params, frames=frames)
    if _policy.is_python_policy(policy):
        return _policy.simulate_python(trace, policy, p)
    return _core.simulate(trace, policy, p)


@functools.lru_cache(maxsize=1)
def _figure_devices() -> Dict[str, List[str]]:
    return dict(_core.device_figures())


def _check_figures(params: Dict[str, Any]) -> None:
    """Over swept devices, each device figure must apply to one of them (before any run)."""
    if not _is_axis(params.get("device")):
        return  # one device: the engine refuses a figure of another kind, at every run alike
    swept = _axis(params["device"])
    for key, devices in _figure_devices().items():
        if key in params and not any(d in devices for d in swept):
            raise ConfigError(f"parameter '{key}' applies to none of the swept devices "
                              f"({', '.join(map(str, swept))}): it is for device {', '.join(devices)}")


def run_params(params: Dict[str, Any], combo: Dict[str, Any], own: Dict[str, Any]) -> Dict[str, Any]:
    """The parameters of one run. A row uses the result's summary, not its vmstat series:
    none is kept unless asked for (it grows with virtual time, and a sweep holds every run's
    result until the end). Over swept devices, a device figure (``device_seek_ms``) goes to
    the runs on the devices it applies to (_check_figures: at least one)."""
    p = {"interval_ns": 0, **params, **combo, **own}
    if "device" in combo:
        swept = _axis(params["device"])
        for key, devices in _figure_devices().items():
            if key in p and p["device"] not in devices and any(d in devices for d in swept):
                del p[key]
    return p


def error_text(error: BaseException) -> str:
    """A failed run's entry in the table's ``error`` column: "ConfigError: swap is full: ..."."""
    return f"{type(error).__name__}: {error}"


def failed_rows(trace_name: str, label: str, fraction: Optional[float], frames: Optional[int],
                num_pages: Optional[int], combo: Dict[str, Any], error: str) -> List[Dict[str, Any]]:
    """The table's row of a run that failed (``on_error="record"``): what it was (_head), and
    why."""
    return [{**_head(trace_name, label, frames, fraction, num_pages, combo), "error": error}]


def table(rows: List[Dict[str, Any]], record: bool):
    """The sweep's DataFrame. Recorded (``on_error="record"``), every row has ``error``: None,
    or the failure of a run whose figures are then missing; a column of integers stays one
    (pandas' nullable Int64) with <NA> in the rows of failed runs (failed_rows; the others
    may leave ``error`` out)."""
    import pandas as pd

    if not record:
        return pd.DataFrame(rows)
    rows = [r if "error" in r else {**r, "error": None} for r in rows]
    ok = [r for r in rows if r["error"] is None]
    # The columns in a complete row's order (the error last), whichever run comes first.
    columns = list(dict.fromkeys(k for r in ok[:1] + rows for k in r))
    df = pd.DataFrame(rows, columns=columns)
    for c in columns:
        if df[c].isna().any() and ok and all(
                isinstance(r.get(c), (int, np.integer)) and not isinstance(r.get(c), bool) for r in ok):
            df[c] = df[c].astype("Int64")
    failed = len(rows) - len(ok)  # runs, as a failed run has one row
    if failed:
        first = next(r for r in rows if r["error"] is not None)
        warnings.warn(f"pagesim.sweep: {failed} run(s) failed; their rows hold the error and no "
                      f"figures (column 'error'). The first: {first['error']} (run of {first['policy']} "
                      f"on {first['trace']} at {first['frames']} frames)", RuntimeWarning, stacklevel=3)
    return df


def run_name(trace: str, label: str, size: str, combo: Dict[str, Any]) -> str:
    """One run of a sweep in words (``size``: "500 frames"): "lru on q.pgt at 500 frames,
    device=nvme"."""
    return f"{label} on {trace} at {size}" + "".join(f", {k}={v}" for k, v in combo.items())


def in_run(error: BaseException, trace: str, label: str, size: str,
           combo: Dict[str, Any]) -> BaseException:
    """``error`` of one run, saying which (run_name): a pagesim error's message gets the run,
    any other exception (a Python policy's own) a note."""
    where = f"the sweep's run of {run_name(trace, label, size, combo)}"
    if isinstance(error, _core.Error):
        return type(error)(f"{error} (in {where})")
    error.add_note(f"in {where}")
    return error


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a :func:`sweep`: ``table`` holds the runs that had finished, as the
    sweep returns them (``finished`` of ``total`` runs). A KeyboardInterrupt still, so it stops
    a script as before; in a notebook the last one is ``sys.last_value``."""

    def __init__(self, table: Any, finished: int, total: int):
        super().__init__(f"the sweep was interrupted after {finished} of {total} runs; their rows "
                         f"are this exception's .table")
        self.table = table
        self.finished = finished
        self.total = total


class _Reporter:
    """Progress for a sweep: a callback, a tqdm bar, or a bar that appears after a moment."""

    def __init__(self, total: int, progress: Progress):
        self.total, self.progress, self.bar = total, progress, None
        self.start = time.monotonic()
        if progress is True:
            self._open()

    def _open(self, done: int = 0) -> None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from tqdm.auto import tqdm
        except ImportError:  # pragma: no cover - tqdm is a dependency
            self.progress = False
            return
        # A delay, however short, keeps tqdm from printing inside its constructor: a Ctrl-C
        # there, as the bar appears, would leave a half-made bar whose __del__ fails at exit.
        self.bar = tqdm(total=self.total, initial=done, desc="sweep", unit="run", leave=True,
                        delay=1e-9)
        self.bar.start_t -= time.monotonic() - self.start  # its clock from the sweep's start

    def __call__(self, done: int) -> None:
        if callable(self.progress) and self.progress is not True:
            self.progress(done, self.total)
            return
        if self.bar is None and self.progress is None and time.monotonic() - self.start > _BAR_AFTER:
            self._open(done)
        if self.bar is not None and done != self.bar.n:
            self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def sweep(traces: Any, *, policies: Union[PolicySpec, Sequence[PolicySpec]],
          frames: Optional[Sequence[int]] = None, fractions: Optional[Sequence[float]] = None,
          jobs: Optional[int] = None, client: Any = None, progress: Progress = None,
          per_process: bool = False, on_error: str = "raise", **params: Any):
    """Run every trace x policy x memory size and return one tidy table.

    Parameters
    ----------
    traces
        A trace (:class:`Trace`, path, numpy array of page numbers), a list of them, or a dict
        name -> trace. The ``trace`` column holds the dict key, the path, the trace's source,
        or ``trace<i>``.
    policies
        Policy names (built-in or registered with :func:`pagesim.register_policy`),
        :class:`pagesim.Policy` instances, or ``(name, {param: value})`` pairs for parameters
        of one policy only, e.g. ``("random", {"seed": 7})``, labelled ``random(seed=7)`` in
        the table.
    frames, fractions
        Exactly one: memory sizes in page frames, or as shares of each trace's footprint
        (``frames = max(1, round(fraction * num_pages))``).
    jobs
        Native threads (default: one per CPU). Python-defined policies run in the calling
        thread meanwhile, one at a time (they need the GIL).
    client
        A ``dask.distributed.Client``: run the grid on its cluster instead. Traces given by
        path are loaded by the workers; :class:`Trace` objects are pickled and scattered.
        The table is identical to the local one.
    progress
        ``None``: a tqdm bar when the sweep takes more than a second; ``True``/``False``:
        always/never; a callable: called as ``progress(done, total)`` about ten times a
        second instead of a bar.
    per_process
        One row per process of each run (see Returns).
    on_error
        ``"raise"``: the first run that fails stops the sweep with its error (see Raises).
        ``"record"``: every other run still runs, and a failed run gets one row holding its
        error in the column ``error`` ("ConfigError: swap is full: ...") and no figures
        (``<NA>``); the other rows have ``error`` None, and a RuntimeWarning says how many
        failed. For long sweeps where one setting may be out of range (a swap area too small
        for the smallest memory, a policy that raises on some trace).
    **params
        Engine and policy parameters given to every run (see :func:`pagesim.simulate`). A
        list, tuple, range or 1-D numpy array is a grid axis: every value is run, e.g.
        ``device=["hdd-2002", "nvme"], io_scheduler=["fifo", "read_priority"]`` runs each of
        the 4 combinations.

    Returns
    -------
    pandas.DataFrame
        One row per combination of the listed parameters x trace x policy x memory size, in
        that order. Columns: ``trace``, ``policy``, ``frames``, ``fraction``, the listed
        parameters, every counter, then the other scalars of the result
        (``swap_slots_used``, times when the engine reports them), and with
        ``on_error="record"`` the column ``error``. With ``per_process=True``,
        one row per process of each run instead: after the listed parameters ``pid``, the
        process's counters and its ``start_ns``, ``elapsed_ns``, ``user_ns``, ``sys_ns``, ``iowait_ns``
        (which process suffers).

    Raises
    ------
    ConfigError, TraceFormatError, PolicyError
        From the first failing run, its message ending with the run: "(in the sweep's run of
        lru on q.pgt at 500 frames, device=nvme)"; the rest of the sweep is cancelled (on Dask
        too). An exception of a Python policy's own code comes as it is, with that note. With
        ``on_error="record"`` only for sweep's own arguments (no policy, an unknown policy
        name, a grid axis without values); a run's error, a misspelt parameter key included,
        is its row's (it fails at once, before any replay).
    SweepInterrupted
        Ctrl-C stops the sweep within about a tenth of a second plus the runs in progress;
        the interpreter remains usable, and the runs that had finished are not lost: the
        exception (a KeyboardInterrupt) holds their table, ``.table`` (on Dask too: the runs
        the workers had finished; the others are cancelled).
    """
    named = _named_traces(traces)
    specs = _policy_specs(policies)
    sizes = _memory_sizes(frames, fractions)
    combos = _param_combos(params, specs)
    _check_figures(params)
    if jobs is not None:
        _args.integer("jobs", jobs, 1)
    per_process = _args.boolean("per_process", per_process)
    record = _args.choice("on_error", on_error, ("raise", "record")) == "record"
    if client is not None:
        from . import _dask
        return table(_dask.run(client, named, specs, sizes, params, combos, progress, per_process,
                               record), record)

    from . import as_trace
    loaded = [(name, as_trace(t)) for name, t in named]
    grid = []  # (trace index, label, policy, frames, fraction, params, combo)
    for combo in combos:
        for ti, (_, trace) in enumerate(loaded):
            for label, p, own in specs:
                for f, fraction in sizes:
                    nframes = f if f is not None else frames_for(fraction, trace.num_pages)
                    grid.append((ti, label, p, nframes, fraction, run_params(params, combo, own), combo))

    native = [k for k, g in enumerate(grid) if not _policy.is_python_policy(g[2])]
    python = [k for k, g in enumerate(grid) if _policy.is_python_policy(g[2])]
    results: List[Optional[_core.Result]] = [None] * len(grid)
    errors: Dict[int, str] = {}  # grid index -> the error of a run that failed (record)
    reporter = _Reporter(len(grid), progress)
    runner = _core.SweepRunner([t for _, t in loaded],
                               [(grid[k][0], grid[k][2], dict(grid[k][5], frames=grid[k][3]))
                                for k in native],
                               threads=jobs or os.cpu_count() or 1, keep_going=record)
    failed = None  # the grid index of a run that raised
    try:
        finished_python = 0
        for k in python:
            ti, _, p, nframes, _, job_params, _ = grid[k]
            failed = k
            try:
                results[k] = _run_job(loaded[ti][1], p, nframes, job_params)
            except Exception as e:
                if not record:
                    raise
                errors[k] = error_text(e)
            failed = None
            finished_python += 1
            reporter(runner.done + finished_python)
        while not runner.wait(_POLL):
            reporter(runner.done + finished_python)
        if record:
            _collect(runner, native, results, errors)
        else:
            if runner.failed_job < len(native):
                failed = native[runner.failed_job]
            for k, r in zip(native, runner.results()):
                results[k] = r
        reporter(len(grid))
    except BaseException as e:
        # Ctrl-C or a failing run: no new run starts; wait (GIL released) for those in flight.
        runner.cancel()
        while not runner.wait(_POLL):
            pass
        if isinstance(e, KeyboardInterrupt):  # keep what finished
            _collect(runner, native, results, errors if record else {})
            finished = [k for k in range(len(grid)) if results[k] is not None or k in errors]
            raise SweepInterrupted(table(_grid_rows(grid, loaded, finished, results, errors, per_process),
                                         record), len(finished), len(grid)) from None
        if failed is None or not isinstance(e, Exception):
            raise
        ti, label, _, nframes, _, _, combo = grid[failed]
        raise in_run(e, loaded[ti][0], label, f"{nframes} frames", combo) from None
    finally:
        reporter.close()
    return table(_grid_rows(grid, loaded, range(len(grid)), results, errors, per_process), record)


def _collect(runner: _core.SweepRunner, native: List[int], results: List[Optional[_core.Result]],
             errors: Dict[int, str]) -> None:
    """The results of the native jobs that ran (grid index native[j] for job j), and into
    `errors` the errors of those that failed."""
    for j, k in enumerate(native):
        if runner.ran(j):
            try:
                results[k] = runner.result(j)
            except Exception as e:
                errors[k] = error_text(e)


def _grid_rows(grid, loaded, runs: Iterable[int], results, errors: Dict[int, str],
               per_process: bool) -> List[Dict[str, Any]]:
    """The local sweep's rows of the grid's runs `runs`, in grid order."""
    rows = []
    for k in runs:
        ti, label, _, nframes, fraction, _, combo = grid[k]
        name, trace = loaded[ti]
        if k in errors:
            rows += failed_rows(name, label, fraction, nframes, trace.num_pages, combo, errors[k])
        else:
            rows += _rows(name, label, fraction, trace.num_pages, figures(results[k], per_process), combo)
    return rows
