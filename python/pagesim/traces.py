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
from typing import Any, Optional, Sequence, Union

from . import _args, _core
from ._core import ConfigError, Trace

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["compile_with_collections", "convert", "detect_format", "generate", "generators", "interleave",
           "summary"]

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
    "compile": "one big compile in a small machine: a compiler whose garbage-collected heap (gcc's "
               "ggc-page) outgrows RAM; each collection reads the whole live heap "
               "(heap_mib, header_mib, source_mib, ram_mib, ggc_min_expand, ggc_min_heapsize, "
               "live_fraction, work, old_reads, seed)",
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
        ``phases``, ``kbuild``, ``compile``.
    **options
        The generator's options, e.g. ``generate("qsbench", mib=350, procs=2, seed=1)``. An
        unknown option raises :class:`pagesim.ConfigError` naming the closest known one.
    """
    return _core.generate(kind, options)


def compile_with_collections(**options: Any) -> tuple[Trace, list[dict[str, int]]]:
    """The ``compile`` trace and the garbage collections in it.

    One compiler process (pid 1) reads its headers, then its source, a page at a time; each
    page is a unit of work that allocates its share of the heap and ends with gcc's
    ``ggc_collect``, which collects only when the heap has grown by ``ggc_min_expand`` percent
    since the last collection and is at least ``ggc_min_heapsize`` KiB. A collection writes
    the page entries (clear_marks), reads every live heap page once in address order (the
    mark) and writes the page entries again (the sweep); pages left without a live object
    are reused by later allocations. The model, its sources in gcc and what it simplifies:
    ``traces/include/pagesim/generators.hpp`` (``CompileOptions``).

    Parameters
    ----------
    **options
        ``heap_mib`` (96): the live heap at the end; ``header_mib`` (8), ``source_mib`` (2):
        file pages read, headers first; ``ram_mib`` (64): the RAM gcc's heuristics see
        (``ggc_min_expand`` = 30 + 70 * min(1, RAM / 1 GiB) percent, ``ggc_min_heapsize`` =
        RAM / 8 within 4 to 128 MiB), not the replay's frames; ``ggc_min_expand`` (percent) and
        ``ggc_min_heapsize`` (KiB), -1 (the default) for the heuristic; ``live_fraction`` (0.25):
        share of allocated pages that stay live; ``work`` (8): accesses per allocated page;
        ``old_reads`` (0.1): share of them that read long-lived pages; ``seed`` (1).

    Returns
    -------
    The trace, as ``generate("compile", **options)`` makes it, and one dict per collection:
    ``start``, ``mark``, ``sweep``, ``end`` (access indices: its first access, the first of
    the mark phase, the first of the sweep, one past its last) and ``heap_pages`` (in use
    when it began, garbage included), ``live_pages`` (in use after it).
    """
    return _core.generate_compile(options)


def interleave(traces: Sequence[Trace], *, quantum: int = 10000, renumber: bool = False) -> Trace:
    """Combine traces round robin, ``quantum`` accesses from each in turn.

    The same pid in two inputs is one process unless ``renumber``, which gives every input
    process its own pid 1, 2, ...
    """
    return _core.interleave(list(traces), _args.integer("quantum", quantum, 1), _args.boolean("renumber", renumber))


def together(traces: Sequence[Any]) -> Trace:
    """Several traces as the processes of one machine, to run together.

    ``traces``: Traces, paths or arrays (anything :func:`pagesim.simulate` takes). Each input's
    processes stay apart from the other inputs': they keep their pids when no pid is in two
    inputs, else every process is renumbered 1, 2, ... in input order. The accesses are
    interleaved 10000 at a time (the order ``schedule="static"`` replays); several processes
    run round-robin by default, each in its own order (a process that starts in the trace after
    another ended waits for it to end). ``simulate([a, b], ...)`` calls it.
    """
    from . import as_trace
    if len(traces) == 0:
        raise ConfigError("together() needs at least one trace")
    loaded = [as_trace(t) for t in traces]
    pids = [set(t.proc_pids.tolist()) for t in loaded]
    shared = sum(len(p) for p in pids) != len(set().union(*pids))
    return interleave(loaded, renumber=shared)


def convert(input: PathLike, output: PathLike, *, format: str = "auto", out_format: str = "auto",
            page_size: Optional[int] = None, page_numbers: bool = False, instructions: bool = False,
            pid: Optional[int] = None) -> None:
    """Convert a trace file; formats from the magic number / name unless given.

    The read options are :func:`pagesim.load`'s. Converting a streaming format (text, lackey,
    CSV, oracleGeneral, din, pinatrace, SPC, MSR, Alibaba; gzip or zstd compressed or not) to
    native uses memory proportional to the distinct pages, not to the accesses. An output name ending in ``.gz``,
    ``.zst`` or ``.zstd`` is refused (pagesim writes no compressed files). When the output format cannot
    keep all of the trace (its writes, pids, page kinds or page size: traces/FORMAT.md has
    the table), a ``UserWarning`` names the file and what was lost, as ``Trace.save`` does.
    """
    _core.convert(os.fspath(input), os.fspath(output), format, out_format, page_size, page_numbers,
                  instructions, pid)


def detect_format(path: PathLike) -> str:
    """The format of a trace file: native, text, csv, lackey, oracle, din, pinatrace, spc, msr or
    alibaba."""
    return _core.detect_format(os.fspath(path))


def summary(trace: Trace) -> dict[str, Any]:
    """Accesses, pages, writes and per-process counts of a trace (what ``pagesim info`` prints)."""
    return _core.trace_summary(trace)
