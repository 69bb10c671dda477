"""The pagesim command line: ``python3 -m pagesim COMMAND ...``.

Bad input prints one line, ``pagesim: error: ...``, and exits with status 2.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import warnings
from typing import Any, Callable, Optional, Sequence

import numpy as np

import pagesim
from pagesim import _args, _core


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


def _params(pairs: Sequence[str], axes: bool = False, option: str = "-P",
            run_params: bool = True) -> dict[str, Any]:
    """-P pairs as a dict; with `axes`, a comma-separated value is a list (a sweep's grid axis).
    A run's parameters (`run_params`) take the memory size from the command's own option."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise pagesim.ConfigError(f"{option} expects KEY=VALUE, got {pair!r}")
        if run_params and key in ("frames", "fractions"):
            raise pagesim.ConfigError(f"{option} {key}: the memory size is given by --frames "
                                      f"(sweep: or --fractions), not by {option}")
        if key in out:
            several = " (sweep: several values comma-separated, -P key=a,b)" if axes else ""
            raise pagesim.ConfigError(f"{option} {key} is given twice: give it once{several}")
        out[key] = [_value(v) for v in value.split(",")] if axes and "," in value else _value(value)
    return out


def _print_pairs(pairs: dict[str, Any]) -> None:
    """One `key  value` line each; a time in ns also in seconds."""
    width = max(len(k) for k in pairs)
    for key, value in pairs.items():
        seconds = f"  ({value / 1e9:.3f} s)" if key.endswith("_ns") else ""
        print(f"{key:<{width}}  {value}{seconds}")


def _load(args: argparse.Namespace, path: str) -> "pagesim.Trace":
    """The trace at `path`, read with the command's read options (_add_read_options)."""
    return _head(args, pagesim.load(path, format=args.format, page_size=args.page_size,
                                    page_numbers=args.page_numbers, instructions=args.instructions,
                                    pid=args.pid))


def _head(args: argparse.Namespace, trace: "pagesim.Trace") -> "pagesim.Trace":
    """--head N: the trace's first N accesses (a trace of their own), else the trace."""
    if args.head is None:
        return trace
    if args.head < 1:
        raise pagesim.ConfigError(f"--head must be >= 1 (a number of accesses), got {args.head}")
    return trace[:args.head]


def cmd_run(args: argparse.Namespace) -> int:
    policy, own = _one_policy(args.policy)  # the arguments' errors before the reading
    params = _params(args.param)
    if args.pages:
        _check_output_dir(args.pages, "--pages")
        params["page_stats"] = True
    traces = [_load(args, path) for path in args.trace]
    trace = traces[0] if len(traces) == 1 else pagesim.together(traces)
    if args.vmstat and params.get("interval_ns") == 0:
        raise pagesim.ConfigError("--vmstat needs -P interval_ns above 0 (default 1000000000, "
                                  "1 s of virtual time): -P interval_ns=0 turns the series off")
    if not args.vmstat:
        params.setdefault("interval_ns", 0)  # no series to print: none to keep
    # The policy's own parameters win over -P, as in sweep.
    _note_exits({" + ".join(args.trace): trace}, {**params, **own})
    result = pagesim.simulate(trace, policy, frames=args.frames, **{**params, **own})
    label = policy + (f"({','.join(f'{k}={v}' for k, v in sorted(own.items()))})" if own else "")
    print(f"# {' + '.join(args.trace)}: {len(trace)} accesses, {trace.num_pages} pages; "
          f"policy {label}, {result.frames} frames, device {result.device}")
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
    if args.pages:
        _write_csv(result.page_stats().reset_index(), args.pages)
        print(f"\nwrote {args.pages}: a row per page ({trace.num_pages}), its accesses, "
              "faults, readahead, evictions and writes")
    return 0


def _list(text: str, cast: Any, option: str, what: str) -> list:
    """A comma-separated option value as a list of `cast` values."""
    out = []
    for item in text.split(","):
        try:
            out.append(cast(item))
        except ValueError:
            raise pagesim.ConfigError(f"{option} expects comma-separated {what}, got {item!r}") from None
    twice = sorted({v for v in out if out.count(v) > 1})
    if twice:
        raise pagesim.ConfigError(f"{option} lists {', '.join(f'{v:g}' for v in twice)} more than once")
    return out


def _policy_list(text: str, option: str = "--policies") -> list:
    """--policies as sweep() and mrc() take them: ``lru,active_inactive(workingset=true)`` is
    ``["lru", ("active_inactive", {"workingset": True})]``; ``all`` is every registered policy."""
    compact = re.sub(r"\s", "", text)
    if compact == "all":
        return sorted(pagesim.policies())
    if not re.fullmatch(f"{_args.POLICY_ENTRY}(,{_args.POLICY_ENTRY})*", compact):
        raise pagesim.ConfigError(f"--policies expects NAME or NAME(KEY=VALUE,...) separated by "
                                  f"commas, or 'all'; got {text!r}")
    return [(name, _params(own.split(","), option=f"{option} {name}(...)")) if own else name
            for name, own in re.findall(f"{_args.POLICY_ENTRY},?", compact)]


def _one_policy(text: str) -> tuple[str, dict[str, Any]]:
    """--policy: one entry of --policies, as (name, its own parameters)."""
    compact = re.sub(r"\s", "", text)
    if compact == "all" or not re.fullmatch(_args.POLICY_ENTRY, compact):
        raise pagesim.ConfigError(f"--policy expects one NAME or NAME(KEY=VALUE,...), got {text!r}; "
                                  f"to compare several (or all) use sweep or mrc --policies")
    spec = _policy_list(compact, "--policy")[0]
    return spec if isinstance(spec, tuple) else (spec, {})


def _sweep_traces(args: argparse.Namespace) -> dict[str, Any]:
    """Path -> what sweep() gets: the path itself when Dask workers can load it as it is
    (default read options), else the trace loaded here."""
    default_read = (args.format == "auto" and args.page_size is None and not args.page_numbers
                    and not args.instructions and args.pid is None and args.head is None)
    return {path: path if args.dask and default_read else _load(args, path) for path in args.trace}


def _note_exits(traces: dict[str, Any], params: dict[str, Any], table: Any = None) -> None:
    """A process whose accesses end before its trace's keeps its memory unless the run frees
    it (free_on_exit, off by default): a note on stderr when a run could be either. A trace
    Dask workers loaded by path is seen through the sweep's `table`: its pids (--per-process),
    else round-robin, the schedule of several processes when none is given."""
    if "free_on_exit" in params:
        return
    for name, t in traces.items():
        if isinstance(t, pagesim.Trace):
            several = f"{t.num_procs} processes" if t.num_procs > 1 else None
        elif table is not None and "pid" in table:  # --per-process: a row per process
            n = table[table.trace == name].pid.nunique()
            several = f"{n} processes" if n > 1 else None
        elif table is not None and "schedule" not in params:
            rows = table[table.trace == name]
            several = "several processes" if (rows.schedule == "round_robin").any() else None
        else:
            continue
        if several:
            print(f"pagesim: note: {name} has {several}; those that finish before the "
                  f"last keep their memory: -P free_on_exit=true frees it as each exits",
                  file=sys.stderr)


def _sweep_columns(args: argparse.Namespace, params: dict[str, Any]) -> list[str]:
    """The columns to print, checked before the sweep runs against those of a sweep's table
    (every run reports the same fields, so a one-access run shows them) and elapsed_s."""
    devices = params.get("device", "none")
    with_device = any(d != "none" for d in (devices if isinstance(devices, list) else [devices]))
    columns = (["faults", "major_faults", "swap_outs"] + (["elapsed_s"] if with_device else [])
               if args.columns is None else args.columns.split(","))
    # The fields of a row: a run's summary, or a process's figures with --per-process.
    summary, procs = pagesim.sweeps.figures(pagesim.simulate(np.zeros(1, np.uint32), "fifo", frames=1),
                                            args.per_process)
    fields = procs[0] if args.per_process else summary
    figures = [k for k, v in fields.items()
               if isinstance(v, (int, float)) and k not in ("frames", "pid")] + ["elapsed_s"]
    known = list(dict.fromkeys(["trace", "policy", "frames", "fraction", *params, *fields,
                                "elapsed_s"]))
    for c in columns:
        if c not in known:
            raise pagesim.ConfigError(f"unknown column {c!r}: choose from {', '.join(known)}")
    if args.pivot and args.pivot not in figures:
        raise pagesim.ConfigError(f"--pivot {args.pivot!r} is not a figure of a run: choose from "
                                  f"{', '.join(figures)}")
    return columns


def _check_output_dir(path: str, option: str) -> None:
    """Refuse an output in a missing directory, or that is a directory, before the work, not
    after it."""
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise pagesim.ConfigError(f"{option} {path!r}: directory {folder!r} does not exist")
    if os.path.isdir(path):
        raise pagesim.ConfigError(f"{option} {path!r} is a directory: expected a file's name")


def _write_csv(df: Any, path: str) -> None:
    """The table written whole or not at all: a temporary file next to `path`, renamed over it.
    Its name ends as `path` does, so that pandas compresses it as the name says (.gz, .xz, ...)."""
    tmp = os.path.join(os.path.dirname(path) or ".", f".pagesim-{os.getpid()}-{os.path.basename(path)}")
    try:
        try:
            df.to_csv(tmp, index=False)
        except ImportError as e:  # .zst without the zstandard module
            raise pagesim.ConfigError(f"-o {path!r}: cannot compress it as its name says ({e}); "
                                      f"name it .csv, .csv.gz, .csv.bz2 or .csv.xz") from None
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _beside(path: str, tag: str) -> str:
    """The name of a second table beside `path`: results.csv.gz -> results.TAG.csv.gz."""
    head, name = os.path.split(path)
    i = name.rfind(".csv")
    return os.path.join(head, f"{name[:i]}.{tag}{name[i:]}" if i > 0 else f"{name}.{tag}.csv")


def cmd_sweep(args: argparse.Namespace) -> int:
    if args.output:
        _check_output_dir(args.output, "-o")
    params = _params(args.param, axes=True)
    policies = _policy_list(args.policies)
    if args.frames is not None:
        sizes = {"frames": _list(args.frames, int, "--frames", "integers")}
    else:
        sizes = {"fractions": _list(args.fractions, float, "--fractions", "numbers")}
    columns = _sweep_columns(args, params)
    client = None
    interrupted = None
    if args.dask:
        import distributed
        client = distributed.Client(args.dask)
    try:
        traces = _sweep_traces(args)
        with warnings.catch_warnings():  # --keep-going: the failures are listed below
            warnings.simplefilter("ignore", RuntimeWarning)
            df = pagesim.sweep(traces, policies=policies, jobs=args.jobs, client=client,
                               per_process=args.per_process,
                               on_error="record" if args.keep_going else "raise", **sizes, **params)
    except pagesim.SweepInterrupted as e:  # Ctrl-C: the runs that finished, printed and written
        if not len(e.table):
            raise
        df, interrupted = e.table, e
    finally:
        if client is not None:
            client.close()
    _note_exits(traces, params, df)
    figures = "elapsed_ns" in df  # not with --keep-going when every run failed
    if figures:
        df["elapsed_s"] = df["elapsed_ns"] / 1e9
    axes = [k for k, v in params.items() if isinstance(v, list)]
    pid = ["pid"] if args.per_process else []
    if not figures:  # the runs and their errors
        print(df[["trace", *axes, "policy", "frames", "fraction", "error"]].to_string(index=False))
    elif args.pivot:
        size = "frames" if args.frames is not None else "fraction"
        table = df.pivot_table(index=["trace", *axes, "policy", *pid], columns=size, values=args.pivot,
                               sort=False)
        print(f"# {args.pivot}, a column per memory size ({size})")
        print(table.to_string())
    else:
        shown = ["trace", *axes, "policy", "frames", "fraction", *pid]
        shown += [c for c in columns if c not in shown]  # a swept key named again: once
        print(df[shown].to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    if args.output:
        _write_csv(df, args.output)
        print(f"wrote {args.output}: {len(df)} rows, {len(df.columns)} columns")
    status = _report_failures(df, axes, args.options)
    if interrupted is not None:
        print(f"pagesim: interrupted: the table holds the {interrupted.finished} of "
              f"{interrupted.total} runs that had finished", file=sys.stderr)
        return 130
    return status


def _report_failures(df: Any, axes: list[str], options: dict[str, str]) -> int:
    """--keep-going: each failed run and its error on stderr; 1 if any failed, else 0."""
    if "error" not in df:
        return 0
    failed = df[df.error.notna()]
    if failed.empty:
        return 0
    print(f"pagesim: {len(failed)} run{'s' if len(failed) > 1 else ''} failed:", file=sys.stderr)
    for _, row in failed.iterrows():
        run = pagesim.sweeps.run_name(row.trace, row.policy, f"{row.frames} frames",
                                      {k: row[k] for k in axes})
        print(f"  {run}: {_in_cli_terms(row.error, options)}", file=sys.stderr)
    return 1


def cmd_mrc(args: argparse.Namespace) -> int:
    from . import mrc
    if args.plot:
        pagesim.plots.check_image_path(args.plot, "--plot")
        _check_output_dir(args.plot, "--plot")
    if args.output:
        _check_output_dir(args.output, "-o")
    params = _params(args.param)
    policies = _policy_list(args.policies)
    # The one-pass curves, and SHARDS which estimates the lru one, are demand paging in trace
    # order (pagesim.TEXTBOOK); mrc() simulates every policy under any other settings.
    textbook = pagesim.textbook(**params) == pagesim.TEXTBOOK
    for option, rate in (("--shards", args.shards), ("--sample", args.sample)):
        if rate is not None and not 0 < rate <= 1:
            raise pagesim.ConfigError(f"{option} expects a sampling rate above 0 and at most 1, got {rate:g}")
    if args.shards is not None:
        if not textbook:
            raise pagesim.ConfigError(f"--shards estimates the lru curve of demand paging in trace "
                                      f"order, not the one with -P {' -P '.join(args.param)}: "
                                      f"drop one of the two")
    trace = _load(args, args.trace)
    if args.frames is not None:
        sizes = _list(args.frames, int, "--frames", "integers")
    else:
        if args.points < 1:
            raise pagesim.ConfigError(f"--points must be >= 1, got {args.points}")
        sizes = sorted({max(1, round(k * trace.num_pages / args.points))
                        for k in range(1, args.points + 1)})
    df = mrc.mrc(trace, policies=policies, frames=sizes, sample=args.sample, **params)
    if args.shards is not None:
        import pandas as pd
        estimate = mrc.shards_mrc(trace, rate=args.shards)
        faults = [float(estimate[min(f, len(estimate) - 1)]) for f in sizes]
        shards = pd.DataFrame({"policy": "lru_shards", "frames": sizes, "faults": faults,
                               "miss_ratio": [x / max(len(trace), 1) for x in faults],
                               "method": f"shards rate {args.shards:g}"})
        df = pd.concat([df, shards], ignore_index=True)
    settings = " ".join(f"{k}={v}" for k, v in pagesim.textbook(**params).items())
    print(f"# {args.trace}: {len(trace)} accesses, {trace.num_pages} pages; miss ratio = faults / "
          f"accesses, " + ("demand paging in trace order" if textbook
                           else f"every policy simulated with {settings}")
          + (f"; estimated by miniature simulations at rate {args.sample:g}" if args.sample else ""))
    print(df.pivot_table(index="frames", columns="policy", values="miss_ratio", sort=False)
          .to_string(float_format=lambda x: f"{x:.4f}"))
    # The variable-space policies asked for: name -> table.
    variable = {}
    if args.working_set:
        variable["working_set"] = ws = mrc.working_set(trace, points=args.points)
        print(f"# working set (time = the trace's accesses): miss ratio against mean size, window in "
              f"accesses; VMIN, prescient, makes the same faults in vmin_mean_size")
        print(ws[["window", "mean_size", "miss_ratio", "vmin_mean_size"]].to_string(
            index=False, float_format=lambda x: f"{x:.4f}"))
    if args.pff:
        variable["pff"] = pff = mrc.pff(trace, points=args.points)
        print(f"# page-fault frequency (time = the trace's accesses): miss ratio against mean size, "
              f"threshold in accesses")
        print(pff[["threshold", "mean_size", "miss_ratio"]].to_string(
            index=False, float_format=lambda x: f"{x:.4f}"))
    if args.output:
        _write_csv(df, args.output)
        print(f"wrote {args.output}: {len(df)} rows")
        for name, table in variable.items():
            path = _beside(args.output, name)
            _write_csv(table, path)
            print(f"wrote {path}: {len(table)} rows")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        ax = mrc.plot_mrc(df)
        for table in variable.values():
            mrc.plot_working_set(table, ax)
        ax.set_title(args.trace)
        ax.figure.savefig(args.plot, dpi=120, bbox_inches="tight")
        print(f"wrote {args.plot}")
    return 0


def _print_parameters(params: dict) -> None:
    width = max(map(len, params), default=0)
    for key, what in params.items():
        print(f"  -P {key:<{width}}  {what}")


def cmd_policies(args: argparse.Namespace) -> int:
    if args.engine:
        print("engine settings, taken with every policy:")
        _print_parameters(pagesim.engine_parameters())
        return 0
    if not args.names:
        for name, description in sorted(pagesim.policies().items()):
            print(f"{name:<16} {description}")
        return 0
    described = pagesim.policies()
    for k, name in enumerate(args.names):
        params = pagesim.policy_parameters(name)  # an unknown name is an error naming the closest
        print(("\n" if k else "") + f"{name}: {described[name]}")
        if not params:
            print("  no parameters of its own")
        _print_parameters(params)
    return 0


_DEMO_PLOT = "_build/demo/prescient_ratio.png"


def cmd_demo(args: argparse.Namespace) -> int:
    from . import demo
    if args.plot is None:  # the default: a directory of pagesim's own, made if missing
        args.plot = _DEMO_PLOT
        os.makedirs(os.path.dirname(_DEMO_PLOT), exist_ok=True)
    elif args.plot:
        _check_output_dir(args.plot, "--plot")
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


# What an output file's extension says (pagesim.format_by_extension); --to/--format name any.
_EXTENSIONS = (".pgt native, .txt or .trace text, .csv, .lackey, .din, .ogb or oracleGeneral in the "
               "name, pinatrace in the name")


def _check_trace_output(path: str, path_option: str, fmt: str, option: str) -> None:
    """Refuse, before the work, an output in a missing directory or that is one
    (_check_output_dir), one whose format neither `option` nor the name's extension gives, an
    unknown or unwritable format, and a compressed name (the writers refuse them too)."""
    _check_output_dir(path, path_option)
    _core.output_format(path, fmt)
    if fmt == "auto" and _core.format_by_extension(path) == "auto":
        raise pagesim.ConfigError(f"{path!r}: cannot tell the format to write from the name: "
                                  f"expected {_EXTENSIONS}; or give {option}")


def _noting_losses(write: Callable[[], None]) -> None:
    """Runs a trace write; what the output format did not keep of the trace (the warning of
    Trace.save and pagesim.convert) is a note on stderr, its read option (page_size=8192) in
    the words of the commands that read (--page-size 8192)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write()
    for w in caught:
        print(f"pagesim: note: {_in_cli_terms(str(w.message), {'page_size': '--page-size', 'pid': '--pid'})}",
              file=sys.stderr)


def cmd_gen(args: argparse.Namespace) -> int:
    from .traces import generate
    options = _params(args.param, run_params=False)
    # -m is the compile's heap (its other sizes have their own keys), the others' memory.
    mib_key = "heap_mib" if args.kind == "compile" else "mib"
    for key, value in ((mib_key, args.mib), ("procs", args.procs), ("seed", args.seed)):
        if value is not None:
            options[key] = value
    if args.output:
        _check_trace_output(args.output, "-o", args.format, "--format")
    trace = generate(args.kind, **options)
    if args.output:
        _noting_losses(lambda: trace.save(args.output, format=args.format))
        print(f"wrote {args.output}: {len(trace)} accesses, {trace.num_pages} pages")
    else:
        _print_info(trace, f"generated {args.kind}")
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from .traces import convert
    _check_trace_output(args.output, "output", args.to, "--to")
    if args.head is not None:  # the first accesses: read, cut, written
        trace = _load(args, args.input)
        _noting_losses(lambda: trace.save(args.output, format=args.to))
        return 0
    _noting_losses(lambda: convert(args.input, args.output, format=args.format, out_format=args.to,
                                   page_size=args.page_size, page_numbers=args.page_numbers,
                                   instructions=args.instructions, pid=args.pid))
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    if args.working_set is not None and args.working_set < 1:
        raise pagesim.ConfigError(f"--working-set must be >= 1 (a number of accesses), got "
                                  f"{args.working_set}")
    # The format read is reported by the read itself: the file is opened once (a pipe).
    trace, fmt = _core.load_detected(args.trace, format=args.format, page_size=args.page_size,
                                     page_numbers=args.page_numbers, instructions=args.instructions,
                                     pid=args.pid)
    trace = _head(args, trace)
    _print_info(trace, f"{args.trace} ({fmt})")
    if args.working_set is not None:
        _print_working_set(trace, args.working_set)
    return 0


def _print_working_set(trace: "pagesim.Trace", window: int) -> None:
    """Denning's working set with window `window`: its mean and peak size, and with several
    processes each one's (in its own time) and all of them at once."""
    from . import mrc
    sizes = mrc.working_set_sizes(trace, window)
    every = sizes.index[1] if len(sizes) > 1 else len(trace)
    mean = mrc.working_set(trace, windows=[window])["mean_size"][0]
    print(f"working set  T = {window} accesses: mean {mean:.1f} pages, peak {sizes['size'].max():.1f} "
          f"(the most of the means of {every} accesses)")
    if trace.num_procs < 2:
        return
    each = mrc.working_set_sizes(trace, window, per_process=True)
    means = mrc.working_set(trace, windows=[window], per_process=True)["mean_size"]
    print(f"  each process in its own time; all at once: peak {each.sum(axis=1).max():.1f} pages")
    print(f"  {'pid':>8} {'mean':>10} {'peak':>10}")
    for pid, column, m in zip(trace.proc_pids, each.columns, means):
        print(f"  {pid:>8} {m:>10.1f} {each[column].max():>10.1f}")


def _add_read_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", default="auto",
                   help="input format: auto, native, text, csv, lackey, oracle, din, pinatrace, "
                        "spc, msr, alibaba (default: from the magic number, name or first line)")
    p.add_argument("--page-size", type=int,
                   help="bytes per page (default: what a text trace written by pagesim records, "
                        "else 4096; not for native traces, which record theirs)")
    p.add_argument("--page-numbers", action="store_true", help="text: addresses are page numbers")
    p.add_argument("--instructions", action="store_true",
                   help="lackey and din: count instruction fetches (as reads)")
    p.add_argument("--pid", type=int,
                   help="the pid of accesses whose file names none: text and CSV without a pid "
                        "column (default 0 and 1), lackey before its first ==PID== line, "
                        "oracleGeneral, din and pinatrace (default 1)")
    p.add_argument("--head", type=int, metavar="N",
                   help="only the trace's first N accesses (a trace of their own: its footprint "
                        "is theirs)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pagesim", description="Trace-driven page-replacement simulator")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="replay a trace against one policy and print the counters")
    run.add_argument("trace", nargs="+",
                     help="trace file, any format pagesim reads (see --format); several run "
                          "together as the processes of one machine (pagesim.together)")
    run.add_argument("--policy", default="lru",
                     help="policy name, optionally with its own parameters, NAME(KEY=VALUE,...) "
                          "(see 'pagesim policies')")
    run.add_argument("--frames", type=int, required=True, help="memory size in page frames")
    run.add_argument("--time", action="store_true",
                     help="print the /usr/bin/time view also without a device and with one process")
    run.add_argument("--vmstat", action="store_true",
                     help="print the vmstat series (interval: -P interval_ns=..., default 1 s)")
    _add_read_options(run)
    run.add_argument("--pages", metavar="CSV",
                     help="write each page's counts to this CSV file: page, pid, vpn, kind, "
                          "accesses, faults, major_faults, readahead, evictions, writes (page_stats)")
    run.add_argument("-P", "--param", action="append", default=[], metavar="KEY=VALUE",
                     help="engine or policy parameter, e.g. -P seed=7 (repeatable)")
    run.set_defaults(func=cmd_run)

    sweep = sub.add_parser("sweep", help="replay traces against policies x memory sizes; print a "
                                         "table, write every column as CSV")
    sweep.add_argument("trace", nargs="+", help="trace files, any format; each is swept on its own")
    sweep.add_argument("--policies", required=True,
                       help="comma-separated policy names, each optionally with its own "
                            "parameters, NAME(KEY=VALUE,...); or 'all' (see 'pagesim policies')")
    size = sweep.add_mutually_exclusive_group(required=True)
    size.add_argument("--frames", help="memory sizes in page frames, comma-separated")
    size.add_argument("--fractions",
                      help="memory sizes as shares of each trace's footprint, e.g. 0.1,0.25,0.5")
    sweep.add_argument("--columns",
                       help="columns to print, comma-separated (default faults,major_faults,"
                            "swap_outs, and elapsed_s with a device)")
    sweep.add_argument("--pivot", metavar="COLUMN",
                       help="print COLUMN alone, a row per policy and a column per memory size")
    sweep.add_argument("-o", "--output", help="write the whole table (every column) to this CSV file")
    sweep.add_argument("--per-process", action="store_true",
                       help="a row per process of each run, with its counters and times (which "
                            "process suffers)")
    sweep.add_argument("--keep-going", action="store_true",
                       help="a run that fails does not stop the others: its row has no figures, "
                            "its error is in the CSV's error column and on stderr, and the exit "
                            "status is 1")
    sweep.add_argument("--jobs", type=int, help="threads (default: one per CPU)")
    sweep.add_argument("--dask", metavar="ADDRESS",
                       help="run on the Dask scheduler at ADDRESS (e.g. tcp://host:8786); workers "
                            "load the traces by path, so they must see the same files (with "
                            "--format, --page-size, ... the traces are loaded here and sent)")
    _add_read_options(sweep)
    sweep.add_argument("-P", "--param", action="append", default=[], metavar="KEY=VALUE[,VALUE...]",
                       help="engine or policy parameter for every run; several values are a grid "
                            "axis, e.g. -P device=hdd-2002,nvme (repeatable)")
    sweep.set_defaults(func=cmd_sweep)

    curve = sub.add_parser("mrc", help="miss-ratio curve: miss ratio against memory size (lru and "
                                       "belady exact in one pass, other policies simulated)")
    curve.add_argument("trace", help="trace file, any format")
    curve.add_argument("--policies", default="lru,belady",
                       help="comma-separated policy names, each optionally with its own "
                            "parameters, NAME(KEY=VALUE,...); or 'all' (default lru,belady)")
    curve.add_argument("--frames", help="memory sizes, comma-separated (default: --points sizes)")
    curve.add_argument("--points", type=int, default=10,
                       help="without --frames: this many sizes evenly spaced up to the footprint")
    curve.add_argument("--shards", type=float, metavar="RATE",
                       help="add the SHARDS estimate of the lru curve, sampling pages at RATE "
                            "(0 < RATE <= 1; demand paging in trace order, so not with -P settings)")
    curve.add_argument("--sample", type=float, metavar="RATE",
                       help="miniature simulations: every policy run on the accesses of a hash-sampled "
                            "share RATE of the pages with RATE x the frames, its faults scaled by "
                            "1/RATE (an estimate, for traces too long to simulate whole)")
    curve.add_argument("--working-set", action="store_true",
                       help="also Denning's working-set policy at --points windows: its miss ratio "
                            "against its mean size, and the mean size of VMIN, the prescient policy "
                            "with the same faults (exact, one pass; time = the trace's accesses)")
    curve.add_argument("--pff", action="store_true",
                       help="also the page-fault-frequency policy at --points thresholds: its miss "
                            "ratio against its mean size (exact; time = the trace's accesses)")
    curve.add_argument("-o", "--output", help="write the curves to this CSV file (with --working-set "
                                              "or --pff, those curves to NAME.working_set.csv and "
                                              "NAME.pff.csv beside it)")
    curve.add_argument("--plot", help="write a plot of the curves to this image file (.png, .svg)")
    _add_read_options(curve)
    curve.add_argument("-P", "--param", action="append", default=[], metavar="KEY=VALUE",
                       help="engine or policy parameter for simulated policies (repeatable)")
    curve.set_defaults(func=cmd_mrc)

    policies = sub.add_parser("policies", help="list the registered policies, or the parameters of some")
    policies.add_argument("names", nargs="*", metavar="NAME",
                          help="list these policies' own parameters: kind, range or choices, default")
    policies.add_argument("--engine", action="store_true",
                          help="list the engine's settings (frames, device, page_cluster, ...), "
                               "which every policy takes")
    policies.set_defaults(func=cmd_policies)

    demo = sub.add_parser("demo", help="qsbench: real policies against the prescient bracket")
    demo.add_argument("-m", "--mib", type=int, default=32, help="array size in MiB (default 32)")
    demo.add_argument("-s", "--seed", type=int, default=1)
    demo.add_argument("--plot", help=f"where to write the plot ('' for none; default {_DEMO_PLOT}, "
                                     f"its directory made if missing)")
    demo.set_defaults(func=cmd_demo)

    gen = sub.add_parser("gen", help="generate a workload trace (qsbench, stream, hog, ...)")
    gen.add_argument("kind", help="qsbench, stream, hog, zipf, loop, phases, kbuild or compile")
    gen.add_argument("-m", "--mib", type=int, help="MiB (qsbench: per process; stream, hog: total; compile: live heap)")
    gen.add_argument("-p", "--procs", type=int, help="qsbench: processes, each sorting its own array")
    gen.add_argument("-s", "--seed", type=int, help="random seed")
    gen.add_argument("-o", "--output", help=f"trace file to write (format by extension: {_EXTENSIONS}); "
                                            "without it, print the trace's summary")
    gen.add_argument("--format", default="auto",
                     help="output format: native, text, csv, lackey, oracle, din, pinatrace (default: "
                          "by extension)")
    gen.add_argument("-P", "--param", action="append", default=[], metavar="KEY=VALUE",
                     help="other generator option, e.g. -P files=1000 (repeatable)")
    gen.set_defaults(func=cmd_gen)

    convert = sub.add_parser("convert", help="convert a trace file to another format")
    convert.add_argument("input", help="trace file (gzip or zstd compressed or not)")
    convert.add_argument("output", help=f"file to write; format by extension: {_EXTENSIONS}")
    convert.add_argument("--to", default="auto",
                         help="output format: native, text, csv, lackey, oracle, din, pinatrace (default: "
                          "by extension)")
    _add_read_options(convert)
    convert.set_defaults(func=cmd_convert)

    info = sub.add_parser("info", help="print a trace's accesses, footprint, write share, processes")
    info.add_argument("trace", help="trace file")
    info.add_argument("--working-set", type=int, metavar="T",
                      help="also Denning's working set with a window of T accesses: its mean and "
                           "peak size, per process too (pagesim.mrc.working_set_sizes)")
    _add_read_options(info)
    info.set_defaults(func=cmd_info)
    for command in sub.choices.values():
        # Each option's long name by its dest, to say a library message in the command's words.
        command.set_defaults(options={a.dest: max(a.option_strings, key=len)
                                      for a in command._actions if a.option_strings})
    return parser


# key='value', key=True or key=3 as a Python call writes it; not inside a policy label
# (random(seed=3), lru_k(k=2,correlated_period=5)), nor after -P.
_KWARG = re.compile(r"(?<![\w,='\"-])(?<!\w\()(?<!-P )([a-z_]\w*)=('[^']*'|(?:True|False|-?\d+)\b)")
# A quoted echo of input ('4 frames=3'), which stays as it is, or a key's quoted value (='oracle').
_QUOTED = re.compile(r"=?'[^']*'")


def _in_cli_terms(message: str, options: dict[str, str]) -> str:
    """A library message in the command's words: ``parameter 'frames'`` is the option that
    sets it (``--frames``), ``format='oracle'`` is ``--format oracle``, and any other
    ``key=value`` is ``-P key=value``."""
    def kwarg(m: "re.Match[str]") -> str:
        key, value = m.group(1), m.group(2).strip("'")
        if key not in options:
            return f"-P {key}={value.lower() if value in ('True', 'False') else value}"
        return options[key] if value == "True" else f"{options[key]} {value}"

    message = re.sub(r"parameter '(\w+)'",
                     lambda m: options.get(m.group(1), m.group(0)), message)
    out, done = [], 0
    for echo in _QUOTED.finditer(message):
        if echo.group(0).startswith("="):
            continue
        out += [_KWARG.sub(kwarg, message[done:echo.start()]), echo.group(0)]
        done = echo.end()
    return "".join(out) + _KWARG.sub(kwarg, message[done:])


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        status = args.func(args)
        sys.stdout.flush()  # a reader that has gone shows here, not at exit
        return status
    except BrokenPipeError:
        # The reader went away (| head): stop quietly with the status a shell reports for
        # `seq 1000000 | head -1`, whose seq is killed by SIGPIPE: 128 + 13. Python ignores
        # SIGPIPE, and its default action would also kill a sweep whose Dask connection drops;
        # so catch the error, and send what is still buffered (flushed at exit) nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except KeyboardInterrupt:
        print("pagesim: interrupted", file=sys.stderr)
        return 130
    except (pagesim.Error, OSError) as e:
        print(f"pagesim: error: {_in_cli_terms(str(e), args.options)}", file=sys.stderr)
        return 2
    except MemoryError:
        print("pagesim: error: out of memory: the trace or the run needs more memory than this "
              "process may have", file=sys.stderr)
        return 2
