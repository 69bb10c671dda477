"""The pagesim command line: ``python3 -m pagesim COMMAND ...``.

Bad input prints one line, ``pagesim: error: ...``, and exits with status 2.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Optional, Sequence

import pagesim


def _value(text: str) -> Any:
    """A -P value: true/false, an integer, a float, else the string itself."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for cast in (int, float):
        try:
            return cast(text, 0) if cast is int else cast(text)
        except ValueError:
            pass
    return text


def _params(pairs: Sequence[str]) -> dict[str, Any]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise pagesim.ConfigError(f"-P expects KEY=VALUE, got {pair!r}")
        out[key] = _value(value)
    return out


def _print_pairs(pairs: dict[str, Any]) -> None:
    width = max(len(k) for k in pairs)
    for key, value in pairs.items():
        print(f"{key:<{width}}  {value}")


def cmd_run(args: argparse.Namespace) -> int:
    traces = [pagesim.load(path, format=args.format, page_size=args.page_size,
                           page_numbers=args.page_numbers, instructions=args.instructions)
              for path in args.trace]
    trace = traces[0] if len(traces) == 1 else pagesim.together(traces)
    params = _params(args.param)
    if not args.vmstat:
        params.setdefault("interval_ns", 0)  # no series to print: none to keep
    result = pagesim.simulate(trace, args.policy, frames=args.frames, **params)
    print(f"# {' + '.join(args.trace)}: {len(trace)} accesses, {trace.num_pages} pages; "
          f"policy {result.policy}, {result.frames} frames, device {result.device}")
    _print_pairs(result.counters)
    # Virtual time and the device say something once IO costs time or processes share the CPU.
    if args.time or result.device != "none" or trace.num_procs > 1:
        print("\n# time (virtual, seconds), as /usr/bin/time per process")
        print(result.time_summary().to_string(float_format=lambda x: f"{x:.6f}"))
    if result.device != "none":
        print(f"\n# device {result.device}")
        _print_pairs(result.device_stats)
    if args.vmstat and result.vmstat_arrays is not None:
        print(f"\n# vmstat, every {result.vmstat_arrays['interval_ns'] / 1e9:g} s of virtual time")
        print(result.vmstat().to_string(float_format=lambda x: f"{x:.6f}"))
    return 0


def cmd_policies(args: argparse.Namespace) -> int:
    for name, description in sorted(pagesim.policies().items()):
        print(f"{name:<16} {description}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from . import demo
    return demo.main(args)


def _print_info(trace: "pagesim.Trace", title: str) -> None:
    from .traces import summary
    s = summary(trace)
    mib = s["pages"] * s["page_size"] / 2**20
    share = s["writes"] / s["accesses"] if s["accesses"] else 0.0
    print(f"# {title}")
    print(f"accesses   {s['accesses']}")
    print(f"footprint  {s['pages']} pages, {mib:.1f} MiB ({s['page_size']}-byte pages"
          f"{', %d file-backed' % s['file_pages'] if s['file_pages'] else ''})")
    print(f"writes     {s['writes']} ({100 * share:.1f}%)")
    print(f"processes  {len(s['processes'])}")
    print(f"  {'pid':>8} {'accesses':>12} {'writes':>12} {'pages':>10} {'MiB':>9}")
    for p in s["processes"]:
        print(f"  {p['pid']:>8} {p['accesses']:>12} {p['writes']:>12} {p['pages']:>10} "
              f"{p['pages'] * s['page_size'] / 2**20:>9.1f}")


def cmd_gen(args: argparse.Namespace) -> int:
    from .traces import generate
    options = _params(args.param)
    for key, value in (("mib", args.mib), ("procs", args.procs), ("seed", args.seed)):
        if value is not None:
            options[key] = value
    trace = generate(args.kind, **options)
    if args.output:
        trace.save(args.output, format=args.format)
        print(f"wrote {args.output}: {len(trace)} accesses, {trace.num_pages} pages")
    else:
        _print_info(trace, f"generated {args.kind}")
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from .traces import convert
    convert(args.input, args.output, format=args.format, out_format=args.to,
            page_size=args.page_size, page_numbers=args.page_numbers,
            instructions=args.instructions)
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from .traces import detect_format
    fmt = args.format if args.format != "auto" else detect_format(args.trace)
    trace = pagesim.load(args.trace, format=fmt, page_size=args.page_size,
                         page_numbers=args.page_numbers, instructions=args.instructions)
    _print_info(trace, f"{args.trace} ({fmt})")
    return 0


def _add_read_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", default="auto",
                   help="input format: auto, native, text, csv, lackey, oracle (default: from the "
                        "magic number, extension or first line)")
    p.add_argument("--page-size", type=int, default=4096, help="bytes per page (default 4096)")
    p.add_argument("--page-numbers", action="store_true", help="text: addresses are page numbers")
    p.add_argument("--instructions", action="store_true", help="lackey: count instruction fetches")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pagesim", description="Trace-driven page-replacement simulator")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="replay a trace against one policy and print the counters")
    run.add_argument("trace", nargs="+",
                     help="trace file, any format pagesim reads (see --format); several run "
                          "together as the processes of one machine (pagesim.together)")
    run.add_argument("--policy", default="lru", help="policy name (see 'pagesim policies')")
    run.add_argument("--frames", type=int, required=True, help="memory size in page frames")
    run.add_argument("--time", action="store_true",
                     help="print the /usr/bin/time view also without a device and with one process")
    run.add_argument("--vmstat", action="store_true",
                     help="print the vmstat series (interval: -P interval_ns=..., default 1 s)")
    _add_read_options(run)
    run.add_argument("-P", "--param", action="append", default=[], metavar="KEY=VALUE",
                     help="engine or policy parameter, e.g. -P seed=7 (repeatable)")
    run.set_defaults(func=cmd_run)

    policies = sub.add_parser("policies", help="list the registered policies")
    policies.set_defaults(func=cmd_policies)

    demo = sub.add_parser("demo", help="qsbench: real policies against the prescient bracket")
    demo.add_argument("-m", "--mib", type=int, default=32, help="array size in MiB (default 32)")
    demo.add_argument("-s", "--seed", type=int, default=1)
    demo.add_argument("--plot", default="_build/demo/prescient_ratio.png",
                      help="where to write the plot ('' for none)")
    demo.set_defaults(func=cmd_demo)

    gen = sub.add_parser("gen", help="generate a workload trace (qsbench, stream, hog, ...)")
    gen.add_argument("kind", help="qsbench, stream, hog, zipf, loop, phases or kbuild")
    gen.add_argument("-m", "--mib", type=int, help="MiB (qsbench: per process; stream, hog: total)")
    gen.add_argument("-p", "--procs", type=int, help="qsbench: processes, each sorting its own array")
    gen.add_argument("-s", "--seed", type=int, help="random seed")
    gen.add_argument("-o", "--output", help="trace file to write (format by extension; .pgt native); "
                                            "without it, print the trace's summary")
    gen.add_argument("--format", default="auto", help="output format (default: by extension)")
    gen.add_argument("-P", "--param", action="append", default=[], metavar="KEY=VALUE",
                     help="other generator option, e.g. -P files=1000 (repeatable)")
    gen.set_defaults(func=cmd_gen)

    convert = sub.add_parser("convert", help="convert a trace file to another format")
    convert.add_argument("input", help="trace file (gzip or zstd compressed or not)")
    convert.add_argument("output", help="file to write; format by extension (.pgt native, .txt, .csv, "
                                        ".lackey, .oracleGeneral.bin)")
    convert.add_argument("--to", default="auto", help="output format (default: by extension)")
    _add_read_options(convert)
    convert.set_defaults(func=cmd_convert)

    info = sub.add_parser("info", help="print a trace's accesses, footprint, write share, processes")
    info.add_argument("trace", help="trace file")
    _add_read_options(info)
    info.set_defaults(func=cmd_info)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except pagesim.Error as e:
        print(f"pagesim: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"pagesim: error: {e}", file=sys.stderr)
        return 2
