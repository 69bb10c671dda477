"""make -j on a small machine: what happens when the compiler jobs' memory dies with them.

`kbuild` is 64 short compiler jobs, 4 at a time, each reading a shared 32 MiB set of file
pages (the compiler and the headers, in the page cache) and writing its own heap of 4-8 MiB.
A real job's heap is freed when it exits. Replayed without exits (the engine's default: a
process whose accesses end sleeps) the dead heaps stay in memory, dirty, until the policy
evicts them, each a swap-out; with free_on_exit=True each job's heap and swap slots are freed
at its last access and the policy forgets them. 4000 frames (16 MiB), a 2002 IDE disk.
Round robin (the default): a job starts once the jobs that the trace ends before it have
ended. The shared pages are pid 0's, a process of its own that the jobs do not wait for:
`jobs_s` is when the last job ended, `elapsed_s` when pid 0 read its last page.

The second table is lru without exits under two IO schedulers: C-LOOK (`elevator`, the
default) and Linux 2.6's `deadline`, with pid 0's file reads in the first 14 s and the next 14
(vmstat rows of 2 s), when the last job ended and when pid 0 did.

Run: PYTHONPATH=_build/python /usr/bin/python3 examples/kbuild_exits.py
"""
import pagesim

FRAMES = 4000
POLICIES = ("lru", "clock", "active_inactive", "mglru", "arc")


def exits_table(trace: pagesim.Trace):
    """One row per policy and setting: faults, swap traffic, the jobs' end and elapsed time."""
    rows = []
    for policy in POLICIES:
        for free in (False, True):
            r = pagesim.simulate(trace, policy, frames=FRAMES, device="hdd-2002",
                                 free_on_exit=free, interval_ns=0)
            c = r.counters
            jobs_end = max(p["elapsed_ns"] for p in r.per_process_time if p["pid"] != 0)
            rows.append((policy, "exit" if free else "sleep", c["major_faults"], c["file_reads"],
                         c["swap_ins"], c["swap_outs"], jobs_end / 1e9, r.time["elapsed_ns"] / 1e9))
    return rows


def scheduler_table(trace: pagesim.Trace):
    """lru without exits per IO scheduler: pid 0's file reads in (0, 14] s and (14, 28] s, the
    disk's seeks, the jobs' end and elapsed time."""
    rows = []
    for scheduler in ("elevator", "deadline"):
        r = pagesim.simulate(trace, "lru", frames=FRAMES, device="hdd-2002",
                             io_scheduler=scheduler, interval_ns=2_000_000_000)
        vm = r.vmstat()
        first, then = vm.index <= 14, (vm.index > 14) & (vm.index <= 28)
        jobs_end = max(p["elapsed_ns"] for p in r.per_process_time if p["pid"] != 0)
        rows.append((scheduler, int(vm.file_reads[first].sum()), int(vm.file_reads[then].sum()),
                     r.device_stats["seeks"], jobs_end / 1e9, r.time["elapsed_ns"] / 1e9))
    return rows


def main() -> None:
    trace = pagesim.generate("kbuild", seed=1)
    print(f"{'policy':<16} {'jobs':<5} {'major':>7} {'file_rd':>7} {'swap_in':>7} "
          f"{'swap_out':>8} {'jobs_s':>7} {'elapsed_s':>9}")
    for policy, jobs, major, file_reads, swap_ins, swap_outs, jobs_end, elapsed in exits_table(trace):
        print(f"{policy:<16} {jobs:<5} {major:>7} {file_reads:>7} {swap_ins:>7} {swap_outs:>8} "
              f"{jobs_end:>7.3f} {elapsed:>9.1f}")
    print(f"\n{'lru, sleep':<16} {'rd_0-14s':>8} {'rd_14-28s':>9} {'seeks':>7} {'jobs_s':>7} "
          f"{'elapsed_s':>9}")
    for scheduler, first, then, seeks, jobs_end, elapsed in scheduler_table(trace):
        print(f"{scheduler:<16} {first:>8} {then:>9} {seeks:>7} {jobs_end:>7.3f} {elapsed:>9.1f}")


if __name__ == "__main__":
    main()
