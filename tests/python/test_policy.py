"""Python-defined policies: a pure-Python LRU faults exactly like the native one; bad
policies give clear errors, never a crash."""
from collections import OrderedDict

import numpy as np
import pytest

import pagesim
from conftest import OrderedDictLRU, random_trace


class Fifo(pagesim.Policy):
    """FIFO with the parameter of a registered factory, for the by-name tests."""

    def __init__(self, *, batch=1):
        super().__init__()
        self.batch = batch

    def reset(self, num_pages, frames):
        self.queue = OrderedDict()

    def on_fault(self, access, view):
        self.queue[access.page] = None

    def select_victims(self, want, view):
        return [self.queue.popitem(last=False)[0] for _ in range(min(want, self.batch))]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("frames", [1, 7, 40, 120])
def test_ordereddict_lru_faults_exactly_like_native_lru(seed, frames):
    t = random_trace(seed)
    mine = pagesim.simulate(t, OrderedDictLRU(), frames=frames)
    native = pagesim.simulate(t, "lru", frames=frames)
    assert mine.counters == native.counters
    assert mine.per_process == native.per_process
    assert mine.policy == "OrderedDictLRU"


def test_watermark_batches_reach_the_python_policy():
    t = random_trace(5)
    kw = dict(frames=50, low_watermark=5, high_watermark=12)
    assert pagesim.simulate(t, OrderedDictLRU(), **kw).counters == pagesim.simulate(t, "lru", **kw).counters


def test_registered_by_name_in_simulate_sweep_and_policies():
    pagesim.register_policy("py_fifo", Fifo)
    try:
        t = random_trace(6)
        assert "py_fifo" in pagesim.policies()
        # Demand paging: Fifo(batch=1) gives one victim even when readahead wants more frames.
        r = pagesim.simulate(t, "py_fifo", frames=30, **pagesim.TEXTBOOK)
        assert r.policy == "py_fifo"
        assert r.counters == pagesim.simulate(t, "fifo", frames=30, **pagesim.TEXTBOOK).counters
        df = pagesim.sweep(t, policies=["fifo", "py_fifo"], frames=[10, 30], progress=False,
                           **pagesim.TEXTBOOK)
        a = df[df.policy == "fifo"].drop(columns="policy").reset_index(drop=True)
        b = df[df.policy == "py_fifo"].drop(columns="policy").reset_index(drop=True)
        assert a.equals(b)
        # The factory's keyword parameters are the policy's parameters.
        assert pagesim.simulate(t, "py_fifo", frames=30, batch=1, **pagesim.TEXTBOOK).counters == r.counters
        with pytest.raises(pagesim.ConfigError, match="unknown parameter 'bach' for policy 'py_fifo': did you mean 'batch'"):
            pagesim.simulate(t, "py_fifo", frames=30, bach=2)
        with pytest.raises(pagesim.ConfigError, match="already registered"):
            pagesim.register_policy("py_fifo", Fifo)
        with pytest.raises(pagesim.ConfigError, match="built-in"):
            pagesim.register_policy("lru", Fifo)
    finally:
        pagesim.unregister_policy("py_fifo")
    assert "py_fifo" not in pagesim.policies()


def test_clock_like_policy_sees_and_clears_referenced_bits():
    class SecondChance(pagesim.Policy):
        def reset(self, num_pages, frames):
            self.ring = []
            self.hand = 0

        def on_fault(self, access, view):
            assert view.resident(access.page) and view.referenced(access.page)
            assert view.dirty(access.page) == access.write
            self.ring.insert(self.hand, access.page)
            self.hand = (self.hand + 1) % len(self.ring)

        def select_victims(self, want, view):
            while view.test_and_clear_referenced(self.ring[self.hand]):
                self.hand = (self.hand + 1) % len(self.ring)
            return [self.ring.pop(self.hand)]

        def on_evict(self, page, view):
            assert not view.resident(page)
            if self.ring:
                self.hand %= len(self.ring)

    t = random_trace(7, length=1500)
    r = pagesim.simulate(t, SecondChance(), frames=20)
    assert r["accesses"] == 1500 and r["hits"] + r["faults"] == 1500


def test_ticks_and_traits_as_method():
    class Ticking(OrderedDictLRU):
        ticks = 0

        def traits(self):
            return pagesim.PolicyTraits(needs_hits=True, tick_ns=1000)

        def on_tick(self, now, view):
            self.ticks += 1

    p = Ticking()
    pagesim.simulate(random_trace(1, length=1000), p, frames=20, cpu_ns=100)
    assert p.ticks == 100


def test_policy_exception_reaches_the_caller_with_its_traceback():
    class Broken(OrderedDictLRU):
        def select_victims(self, want, view):
            raise RuntimeError("out of ideas")

    with pytest.raises(RuntimeError, match="out of ideas") as info:
        pagesim.simulate(random_trace(1), Broken(), frames=5)
    assert any(entry.name == "select_victims" for entry in info.traceback)


@pytest.mark.parametrize("victims,message", [
    (lambda self, view: [next(p for p in range(view.num_pages) if not view.resident(p))],
     r"policy nominated page \d+ \(pid \d+ vpn 0x[0-9a-f]+\), which is not resident: (it is the page being faulted in \(the view's incoming page\)|it has not been accessed yet) \(policy 'Bad', at access #\d+\)"),
    (lambda self, view: [], r"returned no victim while no frame is free \(frames=5\)"),
    (lambda self, view: [10**9], r"page id 1000000000, which does not exist"),
    (lambda self, view: [-1], r"select_victims returned page id -1, which does not exist"),
    (lambda self, view: [2**64], r"select_victims returned page id 18446744073709551616, which does not exist"),
    (lambda self, view: ["a"], r"select_victims must return page ids \(ints\), got str 'a'"),
    (lambda self, view: 3, r"select_victims must return an iterable of page ids \(ints\), got int"),
    # A boolean mask returned by mistake: numpy's bool_ has __index__ too.
    (lambda self, view: np.array([True]), r"select_victims must return page ids \(ints\), got bool_ True"),
    (lambda self, view: [True], r"select_victims must return page ids \(ints\), got bool True"),
    (lambda self, view: [self.order.popitem(last=False)[0]] * 2, r"victims when asked for 1"),
])
def test_bad_victims_raise_policy_error(victims, message):
    class Bad(OrderedDictLRU):
        def select_victims(self, want, view):
            return victims(self, view)

    with pytest.raises(pagesim.PolicyError, match=message):
        pagesim.simulate(random_trace(1), Bad(), frames=5)
    # The interpreter and the engine are fine afterwards.
    assert pagesim.simulate(random_trace(1), OrderedDictLRU(), frames=5)["accesses"] == 3000


def test_an_error_raised_while_iterating_the_victims_is_the_policys_own():
    # A generator's own TypeError keeps its type and traceback (it is not "must return an
    # iterable").
    def helper(x):
        return int(x)

    class Gen(OrderedDictLRU):
        def select_victims(self, want, view):
            return (helper(None) for _ in range(want))

    with pytest.raises(TypeError, match="int\\(\\) argument must be") as info:
        pagesim.simulate(random_trace(1), Gen(), frames=5)
    assert any(entry.name == "helper" for entry in info.traceback)


def test_missing_callbacks_and_bad_traits_are_config_errors():
    class Empty(pagesim.Policy):
        pass

    with pytest.raises(pagesim.ConfigError, match="Empty must implement reset, on_fault, select_victims"):
        pagesim.simulate(random_trace(1), Empty(), frames=5)

    class BadTraits(OrderedDictLRU):
        traits = {"needs_hits": True}

    with pytest.raises(pagesim.ConfigError, match="BadTraits.traits must be a pagesim.PolicyTraits or a method that "
                                                  "returns one, got dict"):
        pagesim.simulate(random_trace(1), BadTraits(), frames=5)
    # The engine's own reading of the traits says the same, for a call that skips that check.
    with pytest.raises(pagesim.ConfigError, match="BadTraits.traits must be a pagesim.PolicyTraits or a method that "
                                                  "returns one, got dict"):
        pagesim._core.simulate_policy(random_trace(1), BadTraits(), {"frames": 5}, "BadTraits")

    with pytest.raises(pagesim.ConfigError, match="unknown parameter 'sede' for policy 'OrderedDictLRU'"):
        pagesim.simulate(random_trace(1), OrderedDictLRU(), frames=5, sede=1)


def test_a_kept_view_is_invalid_after_the_run():
    class Keeper(OrderedDictLRU):
        def on_fault(self, access, view):
            super().on_fault(access, view)
            self.view = view

    p = Keeper()
    pagesim.simulate(random_trace(1), p, frames=5)
    assert not p.view.valid
    with pytest.raises(pagesim.PolicyError, match="only valid inside a policy callback"):
        p.view.resident(0)


def test_access_fields():
    seen = []

    class Recorder(OrderedDictLRU):
        def on_fault(self, access, view):
            super().on_fault(access, view)
            seen.append((access.index, access.page, access.write, access.kind, access.next_use))

    t = pagesim.Trace.from_arrays(np.array([5, 6, 5]), writes=np.array([0, 1, 0]))
    pagesim.simulate(t, Recorder(), frames=1)
    anon, never = pagesim.PageKind.ANON, pagesim.NEVER
    assert seen == [(0, 0, False, anon, never), (1, 1, True, anon, never), (2, 0, False, anon, never)]


def staggered(seed, length=4000, pages=120):
    """Three processes that come and go: 1 in the first half, 2 in the middle, 3 at the end."""
    rng = np.random.default_rng(seed)
    third = length // 3
    pids = np.concatenate([np.ones(third), rng.choice([1, 2], third), rng.choice([2, 3], third),
                           np.full(third, 3)]).astype(int)
    vpn = np.minimum(rng.geometric(4.0 / pages, len(pids)), pages) - 1
    return pagesim.Trace.from_arrays(vpn, writes=rng.random(len(pids)) < 0.3, pids=pids)


@pytest.mark.parametrize("schedule", ["static", "round_robin"])
def test_free_on_exit_reaches_on_free_of_a_python_policy(schedule):
    t = staggered(1)
    for frames in (10, 60):
        kw = dict(frames=frames, free_on_exit=True, schedule=schedule, device="nvme")
        mine = pagesim.simulate(t, OrderedDictLRU(), **kw)
        native = pagesim.simulate(t, "lru", **kw)
        assert mine.summary() | {"policy": "lru"} == native.summary()
        assert mine.per_process == native.per_process
        # Freed frames are taken by the others instead of their own pages: fewer evictions.
        kept = pagesim.simulate(t, "lru", **dict(kw, free_on_exit=False))
        assert native.counters["evictions"] < kept.counters["evictions"]
        # The first process to end holds nothing from its exit on; without exits it keeps
        # pages at first. (Round-robin runs all three from the start: not process 1.)
        for free in (True, False):
            r = pagesim.simulate(t, "lru", **dict(kw, interval_ns=50_000, free_on_exit=free))
            ends = r.time_summary()["elapsed_s"].drop("all")
            vm = r.vmstat()
            after = vm[vm.index >= ends.min()][f"resident_{ends.idxmin()}"]
            assert len(after) > 1 and ((after == 0).all() if free else after.iloc[0] > 0)
    with pytest.raises(pagesim.PolicyError, match="on_free\\(page, view\\) is not implemented"):
        pagesim.simulate(t, Fifo(), frames=10, free_on_exit=True, schedule=schedule)


def test_view_background_tells_the_watermarks_reclaim_from_the_faults():
    # 3 frames, pages 0..5 read once each, no readahead. Memory full: each fault from page 3 on
    # needs a frame, a direct reclaim. Watermarks low 1, high 2: each fault from page 2 on
    # finds 1 free frame, and only the watermarks ask for a victim: kswapd's.
    class Recording(OrderedDictLRU):
        def select_victims(self, want, view):
            seen.append((view.incoming, view.background))
            return super().select_victims(want, view)

    t = pagesim.Trace.from_arrays(np.arange(6))
    seen = []
    pagesim.simulate(t, Recording(), frames=3, **pagesim.textbook())
    assert seen == [(3, False), (4, False), (5, False)]
    seen = []
    pagesim.simulate(t, Recording(), frames=3, low_watermark=1, high_watermark=2,
                     **pagesim.textbook())
    assert seen == [(2, True), (3, True), (4, True), (5, True)]


def test_a_process_without_accesses_does_not_stop_the_exits_of_the_others():
    # from_columns allows a process that owns a page and never runs (process 1, page 1).
    # Pages 0 (process 0), 2 and 3 (process 3), 4 and 5 (process 2); accesses 0 2 3 4 5, 3
    # frames, trace order, exits: 0 exits after #0 (page 0 freed), 3 after #2 (pages 2, 3
    # freed), so 4 and 5 find free frames: no eviction. Without process 1 the same.
    def evictions(page_procs):
        t = pagesim.Trace.from_columns(np.array([0, 2, 3, 4, 5], np.uint32), np.zeros(5, np.uint8),
                                       page_procs=np.array(page_procs, np.uint32))
        r = pagesim.simulate(t, "lru", frames=3, free_on_exit=True, **pagesim.textbook())
        return r.counters["evictions"]

    assert evictions([0, 1, 3, 3, 2, 2]) == evictions([0, 2, 1, 1, 2, 2]) == 0


def test_readahead_pages_and_the_incoming_page_reach_a_python_policy():
    # Each on_fault is a demand fault or a readahead page (Access.readahead) brought in by the
    # fault of access #index; select_victims sees the page whose fault asks for room.
    events = []

    class Recorder(OrderedDictLRU):
        def on_fault(self, access, view):
            super().on_fault(access, view)
            events.append(("fault", access.index, access.page, access.readahead))

        def select_victims(self, want, view):
            events.append(("select", view.incoming))
            return super().select_victims(want, view)

    t = random_trace(2, length=3000)
    r = pagesim.simulate(t, Recorder(), frames=40, page_cluster=3)
    faults = [e for e in events if e[0] == "fault"]
    assert r["readahead_pages"] > 0
    assert sum(e[3] for e in faults) == r["readahead_pages"]
    assert sum(not e[3] for e in faults) == r["faults"]
    pages = t.pages
    assert all(e[2] == pages[e[1]] for e in faults if not e[3])
    assert all(e[2] != pages[e[1]] for e in faults if e[3])
    # After a select, the next demand fault is of the incoming page; readahead comes between.
    for k, e in enumerate(events):
        if e[0] == "select":
            demand = next(f for f in events[k + 1:] if f[0] == "fault" and not f[3])
            assert demand[2] == e[1]


def test_an_exception_of_the_policy_says_where_in_the_run():
    class Broken(OrderedDictLRU):
        def on_evict(self, page, view):
            raise KeyError("lost track")

    with pytest.raises(KeyError, match="lost track") as info:
        pagesim.simulate(pagesim.Trace.from_arrays(np.array([0, 1, 2])), Broken(), frames=2)
    # Page 0 is the first victim, at the fault of page 2 (access #2).
    assert info.value.__notes__ == ["raised (policy 'Broken', in on_evict of page 0)"]

    class BrokenReset(OrderedDictLRU):
        def reset(self, num_pages, frames):
            raise OSError("no state")

    with pytest.raises(OSError, match="no state") as info:
        pagesim.simulate(pagesim.Trace.from_arrays(np.array([0, 1, 2])), BrokenReset(), frames=2)
    assert info.value.__notes__ == ["raised (policy 'BrokenReset', in reset)"]

    class BadVictim(OrderedDictLRU):
        def select_victims(self, want, view):
            return [-1]

    with pytest.raises(pagesim.PolicyError, match=r"page id -1, which does not exist "
                       r"\(policy 'BadVictim', in select_victims for the fault of page 2\)"):
        pagesim.simulate(pagesim.Trace.from_arrays(np.array([0, 1, 2])), BadVictim(), frames=2)


def test_an_unknown_name_is_matched_against_python_policies_too():
    pagesim.register_policy("anon_first", Fifo)
    try:
        with pytest.raises(pagesim.ConfigError,
                           match=r"unknown policy 'anon_frist': did you mean 'anon_first'\? \(known: .*anon_first"):
            pagesim.simulate(random_trace(1), "anon_frist", frames=5)
    finally:
        pagesim.unregister_policy("anon_first")


def test_on_hit_without_needs_hits_warns():
    class Forgot(OrderedDictLRU):
        traits = pagesim.PolicyTraits()

    with pytest.warns(UserWarning, match="Forgot.on_hit is never called: its traits do not set needs_hits=True"):
        pagesim.simulate(random_trace(1), Forgot(), frames=5)


def test_policy_parameters_say_what_each_key_takes():
    assert pagesim.policy_parameters("lru") == {}
    assert pagesim.policy_parameters("random") == {"seed": "integer from 0 to 9223372036854775807 (default 1)"}
    ai = pagesim.policy_parameters("active_inactive")
    # swap_token_timeout is read only when swap_token is on (a type of its own).
    assert ai["swap_token"] == "true or false (default false)"
    assert ai["swap_token_timeout"] == "integer from 1 to 1000000 (default 300)"
    assert ai["anon_insert"] == "one of active, inactive (default active)"
    assert pagesim.policy_parameters("two_q")["kin"] == "number from 0 to 1 (default 0.25)"
    # Each listed key is accepted with its default written out.
    for name in pagesim.policies():
        for key, what in pagesim.policy_parameters(name).items():
            default = what.split("(default ")[1].rstrip(")")
            value = {"true": True, "false": False}.get(default, default)
            if what.startswith("integer"):
                value = int(default)
            elif what.startswith("number"):
                value = float(default)
            pagesim.simulate(random_trace(1, length=200), name, frames=5, schedule="static", **{key: value})
    pagesim.register_policy("fifo_batched", Fifo)
    try:
        assert pagesim.policy_parameters("fifo_batched") == {"batch": "default 1"}
    finally:
        pagesim.unregister_policy("fifo_batched")


def test_engine_parameters_list_every_key_with_its_true_default():
    params = pagesim.engine_parameters()
    assert params["page_cluster"] == "integer from 0 to 10 (default 3)"
    assert params["device_rotation_ms"] == "number from 0 to 1e+06 (default 4.17 for hdd-2002, 5.5 for hdd-laptop)"
    assert params["frames"] == "integer from 1 to 1099511627776 (required)"
    assert params["free_slot_on_swapin"] == (
        "one of swap_full, never, always, write, write_fault; true for always, false for never "
        "(default swap_full; always for zram with swap_readahead auto)")
    # Ranges that from_params narrows after reading the key.
    assert params["device_transfer_mb_s"].startswith("number above 0, up to 1e+09 (default 30 for hdd-2002")
    assert params["device_seek_ms"].startswith("number from device_track_seek_ms to 1e+06 (default 8.5")
    for bad in ({"device_transfer_mb_s": 0}, {"device_seek_ms": 0.5}):
        with pytest.raises(pagesim.ConfigError):
            pagesim.simulate(random_trace(1, length=10), "lru", frames=5, device="hdd-2002", **bad)
    # A trace of two processes on a disk, where every setting can change a count or a time.
    trace = random_trace(1, length=600)

    def run(**kw):
        r = pagesim.simulate(trace, "lru", frames=20, **kw)
        return r.counters, r.time_summary().to_dict(), r.device_stats

    # Each default said to hold is the one a run takes: writing it out changes nothing.
    for key, what in params.items():
        if key in ("frames", "low_watermark", "high_watermark", "schedule", "swap_slots",
                   "free_slot_on_swapin"):
            continue  # defaults that depend on the trace, on frames or on the swap area's use
        default = what.split("(default ")[1].rstrip(")")
        for entry in default.split(", "):
            value, _, device = entry.partition(" for ")
            value = {"true": True, "false": False}.get(value, value)
            if what.startswith("integer"):
                value = int(value)
            elif what.startswith("number"):
                value = float(value)
            on = {"device": device} if device else {"device": "hdd-2002"} if key != "device" else {}
            assert run(**on, **{key: value}) == run(**on), key
    assert pagesim.engine_parameters().keys() >= {"cpu_ns", "device", "io_scheduler", "interval_ns", "quantum_ns",
                                                  "free_on_exit", "free_slot_on_swapin"}
    with pytest.raises(pagesim.ConfigError, match="unknown policy 'lur': did you mean 'lru'"):
        pagesim.policy_parameters("lur")


def test_a_callback_that_is_not_a_method_is_a_config_error():
    # on_free = None gave pybind's "Object of type 'NoneType' is not an instance of 'function'".
    class NoFree(OrderedDictLRU):
        on_free = None

    with pytest.raises(pagesim.ConfigError, match="NoFree.on_free must be a method, got NoneType"):
        pagesim.simulate(random_trace(1), NoFree(), frames=5)
    # Required ones too (an int gave pybind's TypeError, without the policy's name), and traits
    # (None gave "simulate_policy(): incompatible function arguments").
    class NumberVictims(OrderedDictLRU):
        select_victims = 5

    class NoTraits(OrderedDictLRU):
        traits = None

    with pytest.raises(pagesim.ConfigError, match="NumberVictims.select_victims must be a method, got int: define it$"):
        pagesim.simulate(random_trace(1), NumberVictims(), frames=5)
    with pytest.raises(pagesim.ConfigError, match="NoTraits.traits must be a pagesim.PolicyTraits or a method that "
                                                  "returns one, got NoneType"):
        pagesim.simulate(random_trace(1), NoTraits(), frames=5)


class ReportingSecondChance(pagesim.Policy):
    """Second chance over a FIFO queue, reporting the referenced pages it passes over: the
    same victims as the built-in clock (the hand stops after a victim, and the page that
    takes its frame is the last one the hand reaches, the queue's tail)."""

    def reset(self, num_pages, frames):
        self.queue = OrderedDict()

    def on_fault(self, access, view):
        self.queue[access.page] = None

    def select_victims(self, want, view):
        while True:
            page, _ = self.queue.popitem(last=False)
            if not view.test_and_clear_referenced(page):
                return [page]
            view.count_scanned(page)
            self.queue[page] = None


def test_python_policy_reports_pages_scanned():
    # 3 frames: 1* 2* 3* [1' 2' 3']; 4*: passes 1' 2' 3', evicts 1 [2 3 4']; 2 hit;
    # 5*: passes 2', evicts 3 [4' 2 5']; 2 hit -> 2 evictions + 4 passed = 6 scanned.
    t = pagesim.Trace.from_arrays(np.array([1, 2, 3, 4, 2, 5, 2]))
    r = pagesim.simulate(t, ReportingSecondChance(), frames=3)
    assert (r["evictions"], r["pages_scanned"]) == (2, 6)
    # An independent implementation of the built-in clock: the same counts on a longer trace
    # (textbook demand paging: readahead pages would take free frames, not a victim's).
    t = random_trace(5, length=3000)
    assert (pagesim.simulate(t, ReportingSecondChance(), frames=30, **pagesim.TEXTBOOK).counters
            == pagesim.simulate(t, "clock", frames=30, **pagesim.TEXTBOOK).counters)


def test_count_scanned_refuses_a_page_not_resident():
    class ScansAGhost(Fifo):
        def on_evict(self, page, view):
            view.count_scanned(page)

    with pytest.raises(pagesim.PolicyError, match=r"count_scanned\(0\): the page is not resident"):
        pagesim.simulate(pagesim.Trace.from_arrays(np.array([1, 2])), ScansAGhost(), frames=1)


class LaunderingFifo(pagesim.Policy):
    """FIFO that launders, as page_launder does: a dirty page at the head is written
    (start_writeback) and goes to the tail, the first clean page is the victim."""

    traits = pagesim.PolicyTraits(writes_back=True)

    def reset(self, num_pages, frames):
        self.queue = OrderedDict()

    def on_fault(self, access, view):
        self.queue[access.page] = None

    def on_free(self, page, view):
        self.queue.pop(page, None)

    def select_victims(self, want, view):
        victims = []
        while len(victims) < want:
            page, _ = self.queue.popitem(last=False)
            if view.start_writeback(page):
                view.count_scanned(page)
                self.queue[page] = None
            else:
                victims.append(page)
        return victims


def test_a_python_policy_cleans_pages_with_start_writeback():
    # W1 W2 R3 R1 W3 R2 W3 W4 R1 R5 at 2 frames, 4 a file page: the hand trace of
    # tests/cpp/test_writeback.cpp. Each dirty page at the head is written and kept: 1 and 2 at
    # #2, 3 at #5 and again at #7 (written to at #6), 4 to its file at #9; every eviction is
    # clean (3, evicted at #8, is not written a third time).
    pages = np.array([1, 2, 3, 1, 3, 2, 3, 4, 1, 5])
    writes = np.array([1, 1, 0, 0, 1, 0, 1, 1, 0, 0], dtype=bool)
    t = pagesim.Trace.from_arrays(pages, writes, kinds=(pages == 4).astype(np.uint8))  # 1: file
    r = pagesim.simulate(t, LaunderingFifo(), frames=2, page_stats=True, **pagesim.TEXTBOOK)
    assert (r["swap_outs"], r["file_writes"], r["writebacks"]) == (4, 1, 5)
    assert (r["evictions"], r["evictions_dirty"], r["swap_ins"], r["pages_scanned"]) == (6, 0, 3, 11)
    assert list(r.page_stats().writes) == [1, 1, 2, 1, 0]
    report = pagesim.testing.check_conformance(LaunderingFifo, traces=40)
    assert report.ok, report.text()


def test_a_python_policy_learns_when_its_writes_complete():
    # The same trace on nvme (a read 3000 ns, a write 1000 ns a page, 100 ns an access), the
    # timeline of tests/cpp/test_writeback.cpp: pages 0 and 1 written at #2 (300-2300), page 2
    # at #5 (5500-6500) and #7 (9700-10700). At the reclaims of #2, #3, #5, #7, #8, #9 the
    # completed writes of resident pages: none, none, none (pages 0 and 1 were evicted while
    # theirs was in service, at #2 and #3), page 2 twice, none.
    class NotingFifo(LaunderingFifo):
        traits = pagesim.PolicyTraits(writes_back=True, write_completions=True)

        def reset(self, num_pages, frames):
            super().reset(num_pages, frames)
            self.calls = []

        def select_victims(self, want, view):
            self.calls.append((view.incoming, list(view.written), view.async_writes))
            return super().select_victims(want, view)

    pages = np.array([1, 2, 3, 1, 3, 2, 3, 4, 1, 5])
    writes = np.array([1, 1, 0, 0, 1, 0, 1, 1, 0, 0], dtype=bool)
    t = pagesim.Trace.from_arrays(pages, writes, kinds=(pages == 4).astype(np.uint8))
    policy = NotingFifo()
    pagesim.simulate(t, policy, frames=2, device="nvme", device_read_us=2.0, device_write_us=0.0,
                     device_transfer_mb_s=4096.0, io_scheduler="fifo", page_cluster=0, cpu_ns=100)
    assert policy.calls == [(2, [], True), (0, [], True), (1, [], True), (3, [2], True),
                            (0, [2], True), (4, [], True)]
    policy = NotingFifo()
    pagesim.simulate(t, policy, frames=2, page_cluster=0)
    assert [c[1:] for c in policy.calls] == [([], False)] * 6
    assert repr(NotingFifo.traits) == ("PolicyTraits(needs_hits=False, needs_future=False, "
                                       "tick_ns=0, writes_back=True, write_completions=True)")


def test_start_writeback_outside_select_victims_is_a_policy_error():
    class Undeclared(LaunderingFifo):
        traits = pagesim.PolicyTraits()

    t = pagesim.Trace.from_arrays(np.array([1, 2, 3]), np.array([1, 1, 0], dtype=bool))
    with pytest.raises(pagesim.PolicyError, match=r"start_writeback\(0\): only select_victims of a "
                                                  r"policy whose traits say writes_back"):
        pagesim.simulate(t, Undeclared(), frames=2)
