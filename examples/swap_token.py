"""qsbench -p 4 and the swap token: Linux 2.6.9's token-based thrashing control.

Four qsbench processes (`qsbench -m 32 -p 4`: each fills and sorts its own 32 MiB array, and
exits when done) on machines of 40 to 115 MiB, a 2002 IDE disk, round-robin scheduling (a
process blocked on a swap-in lets the others run). Each access costs 2 us of CPU: a 2004 CPU
sorts one 32 MiB array in about 1.2 s, and a process makes 590 thousand page accesses.

Policy: the 2.6 active/inactive lists (`active_inactive`), without and with the swap token
(`swap_token=True`, from Rik van Riel's patch after Song Jiang's token-ordered LRU, in 2.6.9):
a process that has to read a page back from swap takes the token, at most once per 2 s, and
while it holds it, reclaim on behalf of the other processes treats its pages as referenced.
It keeps the token while it goes on paging in, for at most 300 s. Rik's figures when he
posted it (August 2004): `make -j 60` took 1h20m at 26% CPU without the token and 42 min at 52%
with it; Andrew Morton saw no gain in the moderate swapping range.

Columns: memory, then without and with the token: elapsed time (when the last process
finished), when the first one finished, CPU use (the processes' CPU time over the elapsed time,
one CPU) and major faults.

Run: PYTHONPATH=_build/python /usr/bin/python3 examples/swap_token.py
"""
import pagesim

PROCS = 4
ARRAY_MIB = 32
MEMORY_MIB = (40, 52, 64, 76, 96, 115)
CPU_NS = 2000


def qsbench() -> pagesim.Trace:
    return pagesim.generate("qsbench", mib=ARRAY_MIB, procs=PROCS, seed=1)


def run(trace: pagesim.Trace, memory_mib: int, token: bool) -> pagesim.Result:
    return pagesim.simulate(trace, "active_inactive", frames=memory_mib * 256, device="hdd-2002",
                            swap_token=token, free_on_exit=True, cpu_ns=CPU_NS, interval_ns=0)


def cpu_use(r: pagesim.Result) -> float:
    return r.time["user_ns"] / r.time["elapsed_ns"]


def first_done_s(r: pagesim.Result) -> float:
    return min(p["elapsed_ns"] for p in r.per_process_time) / 1e9


def columns(r: pagesim.Result) -> str:
    return (f"{r.time['elapsed_ns'] / 1e9:>9.1f} {first_done_s(r):>6.1f} {cpu_use(r):>4.0%} "
            f"{r.counters['major_faults']:>6}")


def rows(trace: pagesim.Trace):
    """memory_mib -> (run without the token, run with it)."""
    return {mib: (run(trace, mib, False), run(trace, mib, True)) for mib in MEMORY_MIB}


def main() -> None:
    print(f"{'memory':>6}  {'no token':<28}  swap token")
    header = f"{'elapsed_s':>9} {'first':>6} {'cpu':>4} {'major':>6}"
    print(f"{'MiB':>6}  {header}  {header}")
    for mib, (off, on) in rows(qsbench()).items():
        print(f"{mib:>6}  {columns(off)}  {columns(on)}")


if __name__ == "__main__":
    main()
