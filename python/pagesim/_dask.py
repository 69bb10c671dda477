"""The Dask back end of :func:`pagesim.sweep`: one task per run, traces by path or pickled."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from . import _core, policy as _policy
from ._core import ConfigError, Trace


def _worker_run(trace: Any, policy: Any, frames: Optional[int], fraction: Optional[float],
                params: Dict[str, Any]) -> Tuple[int, _core.Result]:
    """Runs on a worker: (num_pages, result). ``trace`` is a path or a Trace."""
    from . import sweeps as _sweep

    if not isinstance(trace, Trace):
        trace = _sweep._load_cached(str(trace))
    if isinstance(policy, tuple):  # a registered Python policy: (name, factory)
        name, factory = policy
        if _policy.registered().get(name) is not factory:
            _policy.register_policy(name, factory, replace=True)
        policy = name
    nframes = frames if frames is not None else _sweep.frames_for(fraction, trace.num_pages)
    return trace.num_pages, _sweep._run_job(trace, policy, nframes, params)


def _figures(trace: Any, policy: Any, frames: Optional[int], fraction: Optional[float],
             params: Dict[str, Any], per_process: bool) -> Tuple[int, Any]:
    """(num_pages, what the rows take from the run: sweeps.figures)."""
    from . import sweeps as _sweep

    num_pages, result = _worker_run(trace, policy, frames, fraction, params)
    return num_pages, _sweep.figures(result, per_process)


def _num_pages(client: Any, handle: Any) -> Optional[int]:
    """The pages of a trace a worker holds or loads, for a failed run's row; None if it cannot
    be loaded (then that is what failed)."""
    def pages(trace: Any) -> int:
        from . import sweeps as _sweep
        return (trace if isinstance(trace, Trace) else _sweep._load_cached(str(trace))).num_pages

    try:
        return client.submit(pages, handle, pure=False).result()
    except Exception:
        return None


def run(client: Any, named, specs, sizes, params: Dict[str, Any], combos,
        progress, per_process: bool, record: bool) -> List[Dict[str, Any]]:
    """The sweep's rows; with ``record`` a failed run's row holds its error (sweeps.table)."""
    import os

    from . import sweeps as _sweep

    handles = []
    for name, t in named:
        if isinstance(t, (str, os.PathLike)):
            handles.append(os.path.abspath(os.fspath(t)))
        else:
            from . import as_trace
            handles.append(client.scatter(as_trace(t), broadcast=True, hash=False))
    sent = []
    for label, p, own in specs:
        if isinstance(p, _core.Policy):
            raise ConfigError(f"a Policy instance ({label}) cannot be sent to Dask workers; register "
                              "its class with pagesim.register_policy and pass the name")
        if _policy.is_python_policy(p):
            factory = _policy.registered()[p]
            if isinstance(factory, type) and factory.__module__ == "__main__":
                # Pickled by value, a subclass of the binding's Policy cannot be rebuilt.
                raise ConfigError(f"policy {label}: class {factory.__qualname__} is defined in __main__ "
                                  "(a script or notebook), which Dask workers cannot rebuild: define it "
                                  "in a module they can import and register it from there")
            p = (p, factory)
        sent.append((label, p, own))

    tasks = []  # (trace name, label, frames, fraction, combo, future)
    for combo in combos:
        for (name, _), handle in zip(named, handles):
            for label, p, own in sent:
                for f, fraction in sizes:
                    future = client.submit(_figures, handle, p, f, fraction,
                                           _sweep.run_params(params, combo, own), per_process, pure=False)
                    tasks.append((name, label, f, fraction, combo, future))
    futures = [t[-1] for t in tasks]
    reporter = _sweep._Reporter(len(tasks), progress)
    task_of = {future.key: task for task, future in zip(tasks, futures)}
    errors: Dict[str, str] = {}  # future key -> the error of a run that failed (record)
    outputs: Dict[str, Any] = {}  # future key -> (num_pages, figures) of a run that finished
    try:
        from distributed import as_completed

        done = 0
        for future in as_completed(futures):
            if future.status == "error":
                name, label, f, fraction, combo, _ = task_of[future.key]
                error = future.exception()
                if record:
                    errors[future.key] = _sweep.error_text(error)
                else:  # the first failure stops the sweep
                    client.cancel(futures)
                    size = f"{f} frames" if f is not None else f"fraction {fraction:g}"
                    raise _sweep.in_run(error, name, label, size, combo) from None
            done += 1
            reporter(done)
        outputs = dict(zip((f.key for f in futures if f.key not in errors),
                           client.gather([f for f in futures if f.key not in errors])))
    except KeyboardInterrupt:
        # Keep the runs that finished: their outputs (and recorded errors) are on the workers.
        finished = [f for f in futures if f.status == "finished"]
        client.cancel([f for f in futures if f.status != "finished"])
        outputs = dict(zip((f.key for f in finished), client.gather(finished)))
        if record:
            errors.update((f.key, _sweep.error_text(f.exception())) for f in futures
                          if f.status == "error" and f.key not in errors)
        rows = _rows(client, named, handles, tasks, outputs, errors)
        raise _sweep.SweepInterrupted(_sweep.table(rows, record), len(outputs) + len(errors),
                                      len(tasks)) from None
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        reporter.close()
    return _rows(client, named, handles, tasks, outputs, errors)


def _rows(client: Any, named, handles, tasks, outputs: Dict[str, Any],
          errors: Dict[str, str]) -> List[Dict[str, Any]]:
    """The rows of the tasks that finished (`outputs`) or failed (`errors`), in task order."""
    from . import sweeps as _sweep

    handle_of = {name: handle for (name, _), handle in zip(named, handles)}
    pages_of: Dict[str, Optional[int]] = {}
    rows = []
    for name, label, f, fraction, combo, future in tasks:
        if future.key in errors:
            if name not in pages_of:
                pages_of[name] = _num_pages(client, handle_of[name])
            rows += _sweep.failed_rows(name, label, fraction, f, pages_of[name], combo,
                                       errors[future.key])
        elif future.key in outputs:
            num_pages, figures = outputs[future.key]
            rows += _sweep._rows(name, label, fraction, num_pages, figures, combo)
    return rows
