"""Trace files and the built-in workload generators.

>>> import pagesim
>>> t = pagesim.generate("qsbench", mib=4, seed=1)
>>> t.save("q.pgt"); pagesim.load("q.pgt").num_accesses == t.num_accesses
True

Zero-copy: a loaded native (``.pgt``) trace uses the mapped file in place, and
:meth:`Trace.from_columns` uses numpy arrays of dense page ids in place (uint32 ``pages``,
uint8 or bool ``writes``, ...; ``np.load(path, mmap_mode="r")`` arrays too), keeping them
alive and marking them read-only; other inputs are converted once.
:meth:`Trace.from_arrays` densifies arbitrary page numbers and always copies.

>>> import numpy as np
>>> pages = np.array([0, 1, 0, 2], dtype=np.uint32)
>>> t = Trace.from_columns(pages, np.array([0, 1, 0, 0], dtype=np.uint8))
>>> np.shares_memory(t.pages, pages), pages.flags.writeable
(True, False)
"""
from __future__ import annotations

import os
from typing import Any, Sequence, Union

from . import _core
from ._core import ConfigError, Trace

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["convert", "detect_format", "generate", "generators", "interleave", "summary"]

#: Generator name -> the workload it imitates (traces/include/pagesim/generators.hpp has the details).
GENERATORS = {
    "qsbench": "qsbench: quicksort of a random int array per process, which exits when done: "
               "free_on_exit=True (mib, procs, seed, window, quantum, elements, page_size)",
    "stream": "streaming file reads, each page once: ls -lR, updatedb, dd (mib, files, passes, seed, pid)",
    "hog": "memory hog: allocate and write mib MiB, then sleep (mib, passes, pid)",
    "zipf": "independent references with zipf popularity (accesses, pages, alpha, write_fraction, seed)",
    "loop": "cyclic sweep over pages, LRU's worst case (accesses, pages, write_fraction, seed)",
    "phases": "working sets that shift from phase to phase (accesses, phases, pages, shift, write_fraction, seed)",
    "kbuild": "make -j: short compiler processes, shared read-only set, private heaps that die "
              "with their job: replay with free_on_exit=True "
              "(jobs, parallel, shared_mib, heap_mib, job_accesses, shared_fraction, quantum, seed)",
}


def generators() -> dict[str, str]:
    """Generator names and the workload each imitates."""
    return dict(GENERATORS)


def generate(kind: str, **options: Any) -> Trace:
    """Generate a synthetic trace, deterministic for a seed.

    Parameters
    ----------
    kind
        One of :func:`generators`: ``qsbench``, ``stream``, ``hog``, ``zipf``, ``loop``,
        ``phases``, ``kbuild``.
    **options
        The generator's options, e.g. ``generate("qsbench", mib=350, procs=2, seed=1)``. An
        unknown option raises :class:`pagesim.ConfigError` naming the closest known one.
    """
    return _core.generate(kind, options)


def interleave(traces: Sequence[Trace], *, quantum: int = 10000, renumber: bool = False) -> Trace:
    """Combine traces round robin, ``quantum`` accesses from each in turn.

    The same pid in two inputs is one process unless ``renumber``, which gives every input
    process its own pid 1, 2, ...
    """
    return _core.interleave(list(traces), quantum, renumber)


def together(traces: Sequence[Any]) -> Trace:
    """Several traces as the processes of one machine, to run together.

    ``traces``: Traces, paths or arrays (anything :func:`pagesim.simulate` takes). Each input's
    processes stay apart from the other inputs': they keep their pids when no pid is in two
    inputs, else every process is renumbered 1, 2, ... in input order. The accesses are
    interleaved 10000 at a time (the order ``schedule="static"`` replays); several processes
    run round-robin by default, each in its own order. ``simulate([a, b], ...)`` calls it.
    """
    from . import as_trace
    if len(traces) == 0:
        raise ConfigError("together() needs at least one trace")
    loaded = [as_trace(t) for t in traces]
    pids = [set(t.proc_pids.tolist()) for t in loaded]
    shared = sum(len(p) for p in pids) != len(set().union(*pids))
    return interleave(loaded, renumber=shared)


def convert(input: PathLike, output: PathLike, *, format: str = "auto", out_format: str = "auto",
            page_size: int = 4096, page_numbers: bool = False, instructions: bool = False,
            pid: int = 1) -> None:
    """Convert a trace file; formats from the magic number / extension unless given.

    Converting a streaming format (text, lackey, CSV, oracleGeneral; gzip or zstd compressed
    or not) to native uses memory proportional to the distinct pages, not to the accesses.
    """
    _core.convert(os.fspath(input), os.fspath(output), format, out_format, page_size, page_numbers,
                  instructions, pid)


def detect_format(path: PathLike) -> str:
    """The format of a trace file: native, text, csv, lackey or oracle."""
    return _core.detect_format(os.fspath(path))


def summary(trace: Trace) -> dict[str, Any]:
    """Accesses, pages, writes and per-process counts of a trace (what ``pagesim info`` prints)."""
    return _core.trace_summary(trace)
