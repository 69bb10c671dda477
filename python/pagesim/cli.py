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


def cmd_run(args: argparse.Namespace) -> int:
    trace = pagesim.load(args.trace, page_size=args.page_size, page_numbers=args.page_numbers)
    result = pagesim.simulate(trace, args.policy, frames=args.frames, **_params(args.param))
    width = max(len(k) for k in result.counters)
    print(f"# {args.trace}: {len(trace)} accesses, {trace.num_pages} pages; "
          f"policy {result.policy}, {result.frames} frames")
    for key, value in result.counters.items():
        print(f"{key:<{width}}  {value}")
    return 0


def cmd_policies(args: argparse.Namespace) -> int:
    for name, description in sorted(pagesim.policies().items()):
        print(f"{name:<16} {description}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from . import demo
    return demo.main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pagesim", description="Trace-driven page-replacement simulator")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="replay a trace against one policy and print the counters")
    run.add_argument("trace", help="text trace: one '[PID] R|W ADDRESS' per line")
    run.add_argument("--policy", default="lru", help="policy name (see 'pagesim policies')")
    run.add_argument("--frames", type=int, required=True, help="memory size in page frames")
    run.add_argument("--page-size", type=int, default=4096, help="bytes per page (default 4096)")
    run.add_argument("--page-numbers", action="store_true", help="addresses are page numbers")
    run.add_argument("-P", "--param", action="append", default=[], metavar="KEY=VALUE",
                     help="engine or policy parameter, e.g. -P seed=7 (repeatable)")
    run.set_defaults(func=cmd_run)

    policies = sub.add_parser("policies", help="list the registered policies")
    policies.set_defaults(func=cmd_policies)

    demo = sub.add_parser("demo", help="compare the policies on a generated trace")
    demo.add_argument("--accesses", type=int, default=2_000_000)
    demo.add_argument("--pages", type=int, default=50_000)
    demo.set_defaults(func=cmd_demo)
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
