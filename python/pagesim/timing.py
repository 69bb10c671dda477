"""Virtual-time views of a :class:`pagesim.Result`: ``/usr/bin/time`` and ``vmstat``.

Run with a swap device to give IO a cost, e.g.::

    r = pagesim.simulate(trace, "lru", frames=1000, device="hdd-2002")
    r.time_summary()    # one row per process and one for the whole run
    r.vmstat()          # one row per interval_ns of virtual time
"""
from __future__ import annotations

import pandas as pd

from . import _core

__all__ = ["device_presets", "time_summary", "vmstat"]

_NS = 1e-9


def device_presets() -> list[str]:
    """Names accepted by ``device=`` (each figure overridable by ``device_*`` keys)."""
    return list(_core.device_presets())


def time_summary(result: "_core.Result") -> pd.DataFrame:
    """``/usr/bin/time`` per process and for the whole run.

    Returns
    -------
    pandas.DataFrame
        Indexed by pid, plus a last row ``"all"``: ``start_s`` (when the process started:
        the clock when its first access began), ``elapsed_s`` (from the start of the run to
        its last access, so a process ran for ``elapsed_s - start_s``), ``user_s``, ``sys_s``,
        ``iowait_s`` (seconds of virtual time), ``major_faults``, ``minor_faults``,
        ``swap_ins``, ``swap_outs``. For ``"all"`` start is 0, elapsed the last process's end
        and the other times are sums over processes.
    """
    rows = list(result.per_process_time)
    total = dict(result.time)
    total["pid"] = "all"
    rows.append(total)
    df = pd.DataFrame(rows).set_index("pid")
    for name in ("start", "elapsed", "user", "sys", "iowait"):
        df[f"{name}_s"] = df.pop(f"{name}_ns") * _NS
    return df[["start_s", "elapsed_s", "user_s", "sys_s", "iowait_s", "major_faults", "minor_faults",
               "swap_ins", "swap_outs"]]


def vmstat(result: "_core.Result") -> pd.DataFrame:
    """The vmstat-like series, one row per interval (``interval_ns``, default one second).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``time_s`` (end of the interval; the last row may be a partial interval
        ending with the run). Empty when the run had ``interval_ns=0``. A run whose clock
        never moved (``cpu_ns=0`` and no IO time) has one row, at 0, whose fractions are NaN
        (an interval of no length). Columns:

        - state at the end of the interval: ``resident_<pid>`` (pages of each process),
          ``free_frames``, ``swap_used`` (swap slots in use, vmstat's ``swpd``);
        - events in the interval: ``faults``, ``major_faults``, ``swap_ins`` (major faults
          that read a page from swap), ``swap_outs`` (pages written to swap, vmstat's ``so``),
          ``file_reads`` (major faults that read a file page), ``file_writes`` (file pages
          written back: ``bo`` of the file pages), ``readahead_pages`` (pages read ahead, swap
          and file: vmstat's ``si`` + ``bi`` is ``swap_ins + file_reads + readahead_pages``),
          ``pages_scanned`` (reclaim work: pages the policy examined, victims included,
          /proc/vmstat's ``pgscan`` + ``pgrefill``);
        - fractions of the interval: ``device_busy`` (the swap device serving requests) and
          its parts ``device_read_busy`` and ``device_write_busy`` (zram: decompressing and
          compressing on the CPU); ``cpu_user``, ``cpu_system``, ``cpu_iowait`` (vmstat's
          ``us``, ``sy``, ``wa``: the CPU running accesses, running zram, idle while a process
          waits for IO; they sum to 1, as the CPU idles only when the processes under way
          wait for IO, every one under round robin, one in trace order); ``iowait_<pid>`` (the process waiting for its reads or for room
          in the queue).

        The row of time T covers (T - interval, T]: an access that ends at T counts in it. A
        fault counts when the CPU's work for it is done: after its victims' writes are queued
        (or wait for room in the queue) and zram's (de)compression, as its read is issued; the
        waits for room and for that read come after it (in ``iowait_<pid>``), as Linux counts
        ``pgmajfault`` before the wait. A swap-out counts when its page is evicted, as its
        write is issued or starts waiting for room. Requests still
        queued when the last process ends (writes, and reads of readahead pages no one waits
        for) are served after the last row: in ``device_stats`` but in no row.

        Under ``schedule="static"`` (trace order) a process's wait holds up every process:
        ``cpu_iowait`` is then the time any process waits, also while others that have started
        could run.
    """
    arrays = result.vmstat_arrays
    if arrays is None:
        return pd.DataFrame()
    pids = [p["pid"] for p in result.per_process]
    data = {f"resident_{pid}": arrays["resident"][:, k] for k, pid in enumerate(pids)}
    # Every other series, in the engine's order (Vmstat::for_each_series).
    for name, series in arrays.items():
        if name not in ("interval_ns", "time_ns", "resident", "iowait"):
            data[name] = series
    data.update({f"iowait_{pid}": arrays["iowait"][:, k] for k, pid in enumerate(pids)})
    return pd.DataFrame(data, index=pd.Index(arrays["time_ns"] * _NS, name="time_s"))


_core.Result.time_summary = time_summary
_core.Result.vmstat = vmstat
