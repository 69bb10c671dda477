"""Testing kit for a new reclaim heuristic, pytest-friendly.

Every run is textbook demand paging in trace order (:data:`pagesim.TEXTBOOK`) unless the
parameters say otherwise. The same checks the built-in policies pass, runnable on a policy of your own (a registered
name, a :class:`pagesim.Policy` subclass or a factory), known-answer traces with hand-derived
counts, and claims that fail with a readable table::

    from pagesim import testing

    def test_my_policy_conforms():
        testing.assert_conforms(MyPolicy)

    def test_my_policy_beats_lru_on_a_scan():
        t = testing.known_answers()["hot-set-plus-scan"]["trace"]
        testing.assert_at_most(t, 4, MyPolicy, "lru", "faults")
"""
from __future__ import annotations

import dataclasses
import numbers
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import pandas as pd

import pagesim
from . import _args, _core

PolicyLike = Union[str, Callable[[], "pagesim.Policy"]]

# Each law: the counters on the left sum to those on the right.
_SUMS = [
    (("hits", "faults"), ("accesses",)),
    (("minor_faults", "major_faults"), ("faults",)),
    (("swap_ins", "file_reads", "zero_refills"), ("major_faults",)),
    (("evictions_clean", "evictions_dirty"), ("evictions",)),
    (("swap_outs", "file_writes"), ("evictions_dirty", "writebacks")),
]


@dataclasses.dataclass
class Report:
    """Outcome of a set of checks: ``ok`` and a readable ``text()``."""

    subject: str
    checks: int = 0
    failures: List[str] = dataclasses.field(default_factory=list)

    MAX_FAILURES = 10

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, what: str) -> None:
        if len(self.failures) < self.MAX_FAILURES:
            self.failures.append(what)

    def text(self) -> str:
        if self.ok:
            return f"{self.subject}: {self.checks} checks, all passed"
        lines = "".join(f"\n  - {f}" for f in self.failures)
        return f"{self.subject}: {self.checks} checks, {len(self.failures)} failed:{lines}"

    def check(self) -> "Report":
        """Raise AssertionError with the text if any check failed; return self otherwise."""
        if not self.ok:
            raise AssertionError(self.text())
        return self


def _label(policy: PolicyLike) -> str:
    return policy if isinstance(policy, str) else getattr(policy, "__name__", type(policy).__name__)


def _runner(policy: PolicyLike) -> Callable[..., "pagesim.Result"]:
    """A function running a fresh instance of `policy` on a trace. Parameters the engine does
    not know go to a class or factory, as :func:`pagesim.register_policy` passes them."""
    if isinstance(policy, _core.Policy):
        raise pagesim.ConfigError(
            "pass the policy's class or a factory, not an instance: the checks need fresh instances")
    if isinstance(policy, str):
        pagesim.policy.check_name(policy)
        return lambda trace, runs=1, /, **kw: pagesim.simulate(trace, policy, **pagesim.textbook(**kw))
    if not callable(policy):
        raise pagesim.ConfigError(f"policy must be a name, a Policy subclass or a factory, got {policy!r}")

    def run(trace, runs=1, /, **kw):
        """The last of `runs` runs of one instance (by name: of fresh instances)."""
        engine, own = pagesim.policy.split_params(_label(policy), policy, kw)
        instance = policy(**own)
        for _ in range(runs):
            result = pagesim.simulate(trace, instance, **pagesim.textbook(**engine))
        return result
    return run


def _replay(call: str, **settings: Any) -> str:
    """How to replay a failure: the trace `call` builds, run with `settings` (frames first),
    as the C++ suite says it."""
    given = ", ".join(f"{k}={v}" for k, v in settings.items())
    return f" (replay: pagesim.testing.{call} with {given}, textbook settings and the check's params)"


def _differences(got: Dict[str, int], want: Dict[str, int]) -> str:
    """"faults 41 instead of 40, evictions 39 instead of 38": the counters that differ."""
    return ", ".join(f"{k} {got[k]} instead of {want[k]}" for k in want if got[k] != want[k])


def _failure(e: Exception) -> str:
    """An exception as a failure's text: a pagesim error's message, or the type, message and
    notes (where in the run) of one the policy's own code raised."""
    if isinstance(e, pagesim.Error):
        return str(e)
    return " ".join([f"the policy raised {type(e).__name__}: {e}", *getattr(e, "__notes__", [])])


def conformance_case(seed: int) -> tuple:
    """(trace, frames) of the conformance suite's random case `seed`, as its failures name it.

    A Python-defined policy's failure says "(replay: pagesim.testing.conformance_case(4) with
    frames=5, textbook settings and the check's params)", perhaps with more settings after
    frames (low_watermark=1, high_watermark=3): its runs are textbook demand paging, so replay
    it with ``pagesim.simulate(trace, policy, **pagesim.textbook(frames=frames, **settings,
    **params))``, `params` those given to :func:`check_conformance`. A built-in policy's (the
    C++ suite's) says "(replay: testing::conformance_case(4) with frames=5 and the check's
    params)": its runs keep the engine's defaults (swap readahead on, several processes
    scheduled round-robin), so replay it with ``pagesim.simulate(trace, policy,
    frames=frames, **settings, **params)``, without TEXTBOOK."""
    return _core.testing.conformance_case(_args.integer("seed", seed, 1))


random_trace = _core.testing.random_trace
# The exit checks' traces (pagesim/testing.hpp), which their failures name.
exit_then_fill = _core.testing.exit_then_fill
staggered_trace = _core.testing.staggered_trace


def _check_sums(report: Report, counters: Dict[str, int], where: str) -> None:
    for parts, totals in _SUMS:
        report.checks += 1
        if sum(counters[p] for p in parts) != sum(counters[t] for t in totals):
            report.fail(f"counters do not add up: {' + '.join(parts)} != "
                        f"{' + '.join(totals)}{where}")
    report.checks += 1
    if counters["pages_scanned"] < counters["evictions"]:
        report.fail(f"counters do not add up: pages_scanned < evictions (every victim is "
                    f"scanned){where}")
    report.checks += 1
    if counters["readahead_used"] > counters["hits"]:
        report.fail(f"counters do not add up: readahead_used > hits (a readahead page is used "
                    f"by a hit){where}")


# Said of a failure in the second run of one instance, whose first run went well.
_LATER_RUN = " (in the second run of one instance: reset() must forget the first run)"


def check_conformance(policy: PolicyLike, *, traces: int = 100, **params: Any) -> Report:
    """Run the conformance suite on `policy`.

    On `traces` random traces (each with its own memory size) the run completes (the engine
    rejects a victim that is not resident, repeated, or more than asked for), counters add up,
    per-process counters sum to the total, memory never holds more than ``frames`` pages, a
    fresh instance gives the same counts and so does one instance run a second time (its
    ``reset`` forgets the first run), Belady's MIN faults no more, batch reclaim between
    watermarks works, and processes that exit (``free_on_exit``) leave their frames and swap
    slots free and are forgotten (the policy's ``on_free``), also with swap readahead and,
    on traces with file pages, file readahead (``read_ahead_kb=32``). A built-in policy runs the C++
    suite (which also compares its inlined and virtual replays). ``params`` go to every run:
    given watermarks, each case runs in more frames than the high one (the exit checks, which
    count evictions one at a time, set them to 0).
    """
    traces = _args.integer("traces", traces, 1, 2**32)
    if "frames" in params:
        raise pagesim.ConfigError("check_conformance chooses the memory size of each run: remove frames=")
    if isinstance(policy, str) and policy in dict(_core.policies()):
        r = _core.testing.check_conformance(policy, traces, params)
        return Report(r.subject, r.checks, list(r.failures))
    run = _runner(policy)
    if not isinstance(policy, str):  # an unknown key is one error, not a failure of every case
        pagesim.policy.split_params(_label(policy), policy, params)
    report = Report(f"policy '{_label(policy)}'")
    least = _least_frames(params)
    for seed in range(1, traces + 1):
        if len(report.failures) >= Report.MAX_FAILURES:
            break
        t, frames = conformance_case(seed)
        frames = max(frames, least)
        where = _replay(f"conformance_case({seed})", frames=frames)
        report.checks += 1
        try:
            result = run(t, frames=frames, **params)
            again = run(t, frames=frames, **params)
        except Exception as e:  # noqa: BLE001 (a policy's own bug is a failure to report)
            report.fail(f"{_failure(e)}{where}")
            continue
        c = result.counters
        _check_sums(report, c, where)
        for p in result.per_process:
            _check_sums(report, p, f" (process {p['pid']}){where}")
        report.checks += 2
        totals = {k: sum(p[k] for p in result.per_process) for k in c}
        if totals != c:
            report.fail(f"per-process counters do not sum to the total{where}")
        # Exits free pages without an eviction: the exit checks below count them.
        if not params.get("free_on_exit", False) and c["faults"] - c["evictions"] > frames:
            report.fail(f"more pages resident than frames: {c['faults']} faults but only "
                        f"{c['evictions']} evictions{where}")
        report.checks += 1
        if again.counters != c:
            report.fail(f"not deterministic: a fresh instance with the same parameters gave "
                        f"{_differences(again.counters, c)}{where}")
        # By name every run has a fresh instance; a policy that is not deterministic differs
        # in a second run anyway.
        elif not isinstance(policy, str):
            report.checks += 1
            try:
                second = run(t, 2, frames=frames, **params)
            except Exception as e:  # noqa: BLE001
                report.fail(f"{_failure(e)}{_LATER_RUN}{where}")
            else:
                if second.counters != c:
                    report.fail(f"reset() keeps state of the previous run: the second run of one "
                                f"instance gave {_differences(second.counters, c)} of a fresh "
                                f"instance{where}")
        report.checks += 1
        opt = pagesim.simulate(t, "belady", frames=frames, **pagesim.TEXTBOOK)["faults"]
        if opt > c["faults"]:
            report.fail(f"fewer faults ({c['faults']}) than Belady's MIN ({opt}), impossible "
                        f"for demand paging{where}")
        if frames >= 4:
            batch_where = _replay(f"conformance_case({seed})", frames=frames, low_watermark=1,
                                  high_watermark=3)
            try:
                batch = run(t, **{**params, "frames": frames, "low_watermark": 1, "high_watermark": 3})
                _check_sums(report, batch.counters, batch_where)
            except Exception as e:  # noqa: BLE001
                report.fail(f"{_failure(e)}{batch_where}")
    _check_exits(report, run, _needs_future(policy, params), params)
    return report


def _least_frames(params: Dict[str, Any]) -> int:
    """The least memory `params` allow: more frames than the highest watermark given (up to
    65,535; larger ones are left to the runs to refuse, naming the key), as in the C++ suite."""
    least = 1
    for key in ("low_watermark", "high_watermark"):
        watermark = params.get(key)
        if isinstance(watermark, numbers.Integral) and not isinstance(watermark, bool) \
                and watermark < 65_536:
            least = max(least, int(watermark) + 1)
    return least


def _needs_future(policy: PolicyLike, params: Dict[str, Any]) -> bool:
    factory = pagesim.policy.registered().get(policy) if isinstance(policy, str) else policy
    if factory is None:
        return False
    try:
        _, own = pagesim.policy.split_params(_label(policy), factory, params)
        traits = factory(**own).traits
        return bool((traits() if callable(traits) else traits).needs_future)
    except Exception:  # noqa: BLE001 (the runs report it, with their case)
        return False


def _check_exits(report: Report, run: Callable[..., "pagesim.Result"], prescient: bool,
                 params: Dict[str, Any]) -> None:
    """The C++ suite's exit checks (pagesim/testing.hpp), in both schedules."""
    schedules = ["static"] if prescient else ["static", "round_robin"]
    # exit_then_fill: every policy evicts 5 of process 1's pages, each dirty (5 swap-outs; a
    # policy that writes back pages may write more of them, each once), and then none: process
    # 1's exit frees all its frames and slots. One page at a time: watermarks given are set to 0.
    one_at_a_time = {key: 0 for key in ("low_watermark", "high_watermark") if key in params}
    for frames in (1, 3, 8):
        n = frames + 5
        t = exit_then_fill(frames)
        for schedule in schedules:
            own = dict(frames=frames, free_on_exit=True, schedule=schedule, **one_at_a_time)
            where = _replay(f"exit_then_fill({frames})", **own)
            report.checks += 1
            try:
                # The check's own settings over any given: as the C++ suite does.
                r = run(t, **{**params, **own})
            except Exception as e:  # noqa: BLE001
                report.fail(f"{_failure(e)}{where}")
                continue
            c = r.counters
            writes_ok = (c["swap_outs"] == 5 if c["writebacks"] == 0
                         else 5 <= c["swap_outs"] <= n)
            if (c["evictions"], r.swap_slots_used, c["faults"]) != (5, 0, n + frames) or not writes_ok:
                report.fail(f"the exit did not free process 1's memory: {c['evictions']} evictions, "
                            f"{c['swap_outs']} swap-outs, {r.swap_slots_used} swap slots in use at "
                            f"the end; expected 5, 5 (5 to frames + 5 with writebacks), 0{where}")
    # Processes that come and go, with and without swap readahead, and with file readahead
    # when they have file pages (windows of up to 8 pages, as in the C++ suite).
    for seed in range(1, 6):
        files = seed % 2 == 0
        args = (seed, 60 + seed * 7, 3 + seed % 12, 2 + seed % 3, files)
        t = staggered_trace(*args)
        frames = max(2 + seed % 7, _least_frames(params))
        readaheads = [dict(page_cluster=0), dict(page_cluster=3)]
        if files:
            readaheads.append(dict(page_cluster=0, read_ahead_kb=32))
        for schedule in schedules:
            for readahead in readaheads:
                where = _replay(f"staggered_trace{args}", frames=frames, free_on_exit=True,
                                schedule=schedule, **readahead)
                report.checks += 1
                try:
                    r = run(t, **{**params, "frames": frames, "free_on_exit": True, "schedule": schedule,
                                  **readahead})
                except Exception as e:  # noqa: BLE001
                    report.fail(f"{_failure(e)}{where}")
                    continue
                _check_sums(report, r.counters, where)


def assert_conforms(policy: PolicyLike, *, traces: int = 100, **params: Any) -> None:
    """:func:`check_conformance`, raising AssertionError with the failures."""
    check_conformance(policy, traces=traces, **params).check()


def known_answers() -> Dict[str, Dict[str, Any]]:
    """Traces with hand-derived counts: name -> {why, trace, frames, params, expected}.

    ``expected`` maps a built-in policy to {counter: value}. ``params`` holds the settings
    under which the counts hold (e.g. ``page_cluster=0`` and ``schedule="static"``, demand
    paging in trace order): ``pagesim.simulate(k["trace"], policy, frames=k["frames"],
    **k["params"]).counters`` gives ``k["expected"][policy]``.
    """
    return {k["name"]: {key: k[key] for key in ("why", "trace", "frames", "params", "expected")}
            for k in _core.testing.known_answers()}


def check_known_answers(policy: str = "") -> Report:
    """Check the known answers that name ``policy`` (all when empty), each run with its ``params``.

    Raises :class:`pagesim.ConfigError` when ``policy`` is unknown or no known answer names it
    (they name only built-in policies): for a policy of your own, state a claim with
    :func:`assert_at_most` or a hand-traced test.
    """
    if not isinstance(policy, str):
        raise pagesim.ConfigError(f"check_known_answers takes a policy name ('' for all), got {policy!r}")
    covered = sorted({p for k in _core.testing.known_answers() for p in k["expected"]})
    if policy and policy not in covered:
        pagesim.policy.check_name(policy)  # an unknown name: "did you mean"
        raise pagesim.ConfigError(f"no known answers name policy '{policy}': they cover {', '.join(covered)} "
                                  "(write your own with assert_at_most or a hand-traced test)")
    r = _core.testing.check_known_answers(policy)
    return Report(r.subject, r.checks, list(r.failures))


def compare(trace: Any, frames: int, policies: Sequence[PolicyLike],
            metrics: Optional[Sequence[str]] = None, **params: Any) -> pd.DataFrame:
    """Counters of each policy on one trace and memory size: a DataFrame indexed by policy."""
    for m in metrics or []:
        _check_counter(m)
    rows = {}
    for p in policies:
        rows[_label(p)] = _runner(p)(trace, frames=frames, **params).counters
    df = pd.DataFrame.from_dict(rows, orient="index")
    df.index.name = "policy"
    return df[list(metrics)] if metrics else df


def assert_at_most(trace: Any, frames: int, policy: PolicyLike, baseline: PolicyLike,
                   metric: str, max_ratio: float = 1.0, **params: Any) -> pd.DataFrame:
    """Assert ``policy.metric <= max_ratio * baseline.metric``; the table (with Belady's MIN
    for scale) is returned, and is the AssertionError's message when the claim fails."""
    _check_counter(metric)
    rows: List[PolicyLike] = [policy, baseline]
    if "belady" not in (policy, baseline):
        rows.append("belady")
    table = compare(trace, frames, rows, ["faults", "major_faults", "swap_ins", "swap_outs", metric]
                    if metric not in ("faults", "major_faults", "swap_ins", "swap_outs")
                    else ["faults", "major_faults", "swap_ins", "swap_outs"], **params)
    mine, base = table.loc[_label(policy), metric], table.loc[_label(baseline), metric]
    if mine > max_ratio * base:
        raise AssertionError(f"{_label(policy)}.{metric} = {mine} > {max_ratio} x "
                             f"{_label(baseline)}.{metric} = {base} at {frames} frames:\n"
                             f"{table.to_string()}")
    return table


def _check_counter(name: str) -> None:
    known = pagesim.counter_names()
    if name not in known:
        raise _args.unknown("counter", name, known, "counters")
