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


def run(client: Any, named, specs, sizes, params: Dict[str, Any], combos,
        progress, per_process: bool) -> List[Dict[str, Any]]:
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

    tasks = []  # (trace name, label, memory size, fraction, combo, future)
    for combo in combos:
        for (name, _), handle in zip(named, handles):
            for label, p, own in sent:
                for f, fraction in sizes:
                    future = client.submit(_figures, handle, p, f, fraction,
                                           _sweep.run_params(params, combo, own), per_process, pure=False)
                    size = f"{f} frames" if f is not None else f"fraction {fraction:g}"
                    tasks.append((name, label, size, fraction, combo, future))
    futures = [t[-1] for t in tasks]
    reporter = _sweep._Reporter(len(tasks), progress)
    task_of = {future.key: task for task, future in zip(tasks, futures)}
    try:
        from distributed import as_completed

        done = 0
        for future in as_completed(futures):
            if future.status == "error":  # the first failure stops the sweep
                name, label, size, _, combo, _ = task_of[future.key]
                error = future.exception()
                client.cancel(futures)
                raise _sweep.in_run(error, name, label, size, combo) from None
            done += 1
            reporter(done)
        outputs = client.gather(futures)
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        reporter.close()
    return [row for (name, label, _, fraction, combo, _), (num_pages, figures) in zip(tasks, outputs)
            for row in _sweep._rows(name, label, fraction, num_pages, figures, combo)]
