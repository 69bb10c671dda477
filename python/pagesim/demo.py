"""The headline demo: how many more dirty pages does a real policy swap out than a prescient one?

The question from the qsbench threads: "a prescient mm would page back in each of those
swapped out pages exactly once later in the sort ... a good page replacement algorithm will
evict about 50% more dirty pages than the prescient algorithm." qsbench sorts an array 1.5x
the size of memory; the real policies are compared with the prescient bracket
[lower bound on swap-outs for any policy, fewest swap-outs of the prescient heuristics].
"""
from __future__ import annotations

import argparse

import pagesim
from . import plots, prescient



def run(mib: int = 32, seed: int = 1) -> tuple:
    """The trace, its memory size (array / 1.5), the table and the verdict."""
    trace = pagesim.generate("qsbench", mib=mib, procs=1, seed=seed)
    frames = int(trace.num_pages / 1.5)
    df, verdict = prescient.headline_table(trace, frames)
    return trace, frames, df, verdict


def format_table(df) -> str:
    lines = [f"{'policy':<16}{'swap-outs':>10}{'major faults':>14}{'x optimum':>11}"
             f"{'x lower bound':>15}{'x MIN majors':>14}"]
    for r in df.itertuples():
        lines.append(f"{r.policy:<16}{r.swap_outs:>10}{r.major_faults:>14}{r.ratio_to_best:>11.2f}"
                     f"{r.ratio_to_lower_bound:>15.2f}{r.major_fault_ratio:>14.2f}")
    r = df.iloc[0]
    lines.append(f"prescient bracket: lower bound {r.lower_bound}, best prescient "
                 f"{r.best_prescient} ({r.best_prescient_policy}); Belady's MIN "
                 f"{r.min_major_faults} major faults")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    if args.plot:
        plots.check_image_path(args.plot, "--plot")
    trace, frames, df, verdict = run(args.mib, args.seed)
    print(f"qsbench -m {args.mib} -p 1 -s {args.seed}: {len(trace)} page accesses, "
          f"{trace.num_pages} pages; memory {frames} frames = array / 1.5; demand paging\n")
    print(format_table(df))
    print("\n" + verdict)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        sizes = [int(trace.num_pages / d) for d in (2.0, 1.75, 1.5, 1.25)]
        curve = prescient.prescient_ratio(trace, policies=list(df.policy), frames=sizes)
        ax = prescient.plot_prescient_ratio(curve)
        ax.set_title(f"qsbench -m {args.mib}: swap-outs / prescient optimum")
        ax.figure.savefig(args.plot, dpi=100, bbox_inches="tight")
        print(f"\nplot: {args.plot} (ratio at memory = array/2 ... array/1.25)")
    return 0
