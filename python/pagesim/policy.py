"""Policies written in Python.

Subclass :class:`Policy`, implement its callbacks, and pass an instance to
:func:`pagesim.simulate` or register a factory by name with :func:`register_policy`.

The engine calls a Python policy exactly as it calls a built-in one (the call order is
documented in ``libsim/include/pagesim/policy.hpp``), but each callback enters the
interpreter, with the GIL held for the whole run. Expect 0.1 to 0.6 million accesses per
second, 25 to 100 times slower than a native policy (an ``OrderedDict`` LRU: 0.57 M/s without
readahead, 0.17 M/s with the default ``page_cluster=3``, whose readahead pages are calls too;
see ``bench/RESULTS.md``): write a policy in Python to try an idea on traces of a few million
accesses, then port it to one ``policies/*.cpp`` file.
"""
from __future__ import annotations

import inspect
import re
import warnings
from typing import Any, Callable, Dict, Union

from . import _args, _core
from ._core import Access, PageKind, PageTableView, PolicyError, PolicyTraits, ConfigError

__all__ = ["Access", "PageKind", "PageTableView", "Policy", "PolicyTraits", "register_policy",
           "unregister_policy", "NEVER"]

NEVER = _core.NEVER


class Policy(_core.Policy):
    """Base class of page-replacement policies written in Python.

    A policy nominates victims; the engine owns residency, dirty and referenced bits and all
    counters, and checks every nomination (a victim that is not resident raises
    :class:`pagesim.PolicyError`).

    Implement:

    ``reset(num_pages, frames)``
        Called once before the first access. Page ids are ``0 .. num_pages - 1``.
    ``on_fault(access, view)``
        ``access.page`` has just become resident (after any eviction). With readahead
        (``page_cluster`` > 0) a swap-in also brings in pages of the neighbouring swap slots,
        and with file readahead (``read_ahead_kb`` > 0) a file read fault its process's file
        pages at the vpns after it:
        each gets an ``on_fault`` with ``access.readahead`` True (resident, clean, not
        referenced; ``access.kind`` its own kind; ``access.index`` is the faulting access),
        before the faulting page's own.
    ``select_victims(want, view) -> list[int]``
        Return up to ``want`` distinct resident page ids (at least one when memory is full).
        Drop them from your own structures here or in ``on_evict``. ``want`` is above one
        when a fault brings readahead pages (``page_cluster``, default 3, or
        ``read_ahead_kb``) or a fault finds the free frames at the low watermark and reclaim
        goes on to the high one: return fewer and the engine reads ahead only into the frames
        you freed, so the policy is not comparable to one that returns ``want``.
        ``view.incoming`` is the page whose fault asks for room (every reclaim happens at a
        fault; it is None in the other callbacks). ``view.background`` is True when that
        fault had free frames for its page and readahead pages and only the watermarks asked
        for the reclaim (kswapd's rather than the faulting process's).

    Optionally:

    ``on_hit(access, view)``
        Called for every hit, only if ``traits.needs_hits``.
    ``on_evict(page, view)``
        Called for each victim after the engine evicted it.
    ``on_tick(now, view)``
        Called every ``traits.tick_ns`` of virtual time (periodic aging).
    ``on_free(page, view)``
        Needed to run with ``free_on_exit=True``: called for each anonymous page of a process
        that exited, resident or not (``view.resident(page)`` still says which); forget the
        page, it is never accessed again. Without it such a run raises
        :class:`pagesim.PolicyError`.
    ``traits``
        A :class:`PolicyTraits` (class attribute or method), default: no hits, no future,
        no ticks, no writebacks, no write completions.
    ``name``
        Label of the policy in results (default: the class name).

    ``view`` is a :class:`PageTableView`: ``view.resident(p)``, ``view.dirty(p)``,
    ``view.referenced(p)``, ``view.test_and_clear_referenced(p)``, ``view.proc(p)``,
    ``view.kind(p)``, ``view.in_swap(p)``, ``view.frames``, ``view.resident_count``,
    ``view.num_pages``, ``view.incoming``, ``view.background``. It is valid only during the
    run. An exception raised in a callback reaches the caller with a note saying where in the
    run it was.

    ``view.start_writeback(p)``, in ``select_victims`` of a policy with
    ``PolicyTraits(writes_back=True)``, cleans resident dirty page ``p`` without evicting it
    (WSClock's scheduled write, a launder): the engine writes it when ``select_victims``
    returns, to its swap slot or its file (``swap_outs`` or ``file_writes``, and
    ``writebacks``), and ``view.dirty(p)`` is False until a write dirties it again; evicted
    clean, it is not written again. It returns False, doing nothing, for a page that is not
    resident or not dirty. With ``PolicyTraits(writes_back=True, write_completions=True)`` the
    policy also learns when those writes complete, as the kernel's ``end_page_writeback``
    does: ``view.async_writes`` is True on a queued device (``hdd-*``, ``ssd-sata``,
    ``nvme``), where writes take time, and then ``view.written``, in ``select_victims``, lists
    the pages written back whose writes have completed since its last call, in completion
    order (resident pages only). Without a device and on ``zram`` a write is done at once:
    ``view.async_writes`` is False and ``view.written`` empty.

    ``view.count_scanned(p)`` reports reclaim work: the policy examined resident page ``p``
    while choosing victims and kept it (a hand passing over a referenced page, a page moved
    between lists). Victims count by themselves: do not report a page for the look that
    takes it as a victim (one looked at and kept earlier in the same call is reported for that
    look). The result's
    ``pages_scanned`` is the victims plus the pages reported, each under its page's process.

    Examples
    --------
    >>> from collections import OrderedDict
    >>> class LRU(Policy):
    ...     traits = PolicyTraits(needs_hits=True)
    ...     def reset(self, num_pages, frames): self.order = OrderedDict()
    ...     def on_hit(self, access, view): self.order.move_to_end(access.page)
    ...     def on_fault(self, access, view): self.order[access.page] = None
    ...     def select_victims(self, want, view): return [self.order.popitem(last=False)[0]
    ...                                                      for _ in range(want)]
    """

    name: str = ""

    def __init__(self) -> None:
        super().__init__()

    @property
    def policy_name(self) -> str:
        return self.name or type(self).__name__


_REQUIRED = ("reset", "on_fault", "select_victims")
_OPTIONAL = ("on_hit", "on_evict", "on_tick", "on_free")
PolicyFactory = Callable[..., Policy]
_registry: Dict[str, PolicyFactory] = {}


def register_policy(name: str, factory: PolicyFactory, *, replace: bool = False) -> None:
    """Make a Python policy usable by name in :func:`pagesim.simulate` and :func:`pagesim.sweep`.

    Parameters
    ----------
    name
        The policy's name: letters, digits, ``_``, ``.`` and ``-``, not a built-in policy's
        name.
    factory
        Called as ``factory(**policy_params)`` for each run, returning a fresh :class:`Policy`
        (usually the class itself). Its keyword parameters are the policy's parameters:
        ``simulate(trace, name, frames=100, alpha=0.5)`` calls ``factory(alpha=0.5)``.
    replace
        Allow replacing an earlier registration of the same name.
    """
    if not isinstance(name, str) or not re.fullmatch(r"[\w.-]+", name):
        raise ConfigError(f"a policy name is letters, digits, '_', '.' and '-' (as the command "
                          f"line's --policies reads it), got {name!r}")
    if name in dict(_core.policies()):
        raise ConfigError(f"policy '{name}' is a built-in policy; choose another name")
    if name in _registry and not replace:
        raise ConfigError(f"policy '{name}' is already registered; pass replace=True to replace it")
    if not callable(factory):
        raise ConfigError(f"the factory of policy '{name}' must be callable, got {type(factory).__name__}")
    _registry[name] = factory


def unregister_policy(name: str) -> None:
    """Forget a policy registered with :func:`register_policy`."""
    if _registry.pop(name, None) is None:
        raise ConfigError(f"policy '{name}' is not a registered Python policy")


def registered() -> Dict[str, PolicyFactory]:
    """Python policies registered by name."""
    return dict(_registry)


def check_name(name: str) -> None:
    """A ConfigError for a name that is neither a built-in nor a registered Python policy,
    with the closest of both kinds and all of them, or, for a known policy with parameters in
    parentheses (a sweep's label), how Python takes them."""
    known = sorted({*dict(_core.policies()), *_registry})
    if name in known:
        return
    spec = re.fullmatch(_args.POLICY_ENTRY, name)
    if spec and spec.group(2) is not None and spec.group(1) in known:
        base, own = spec.groups()
        raise ConfigError(f"unknown policy {name!r}: in Python a policy's own parameters are not "
                          f"part of its name; pass them as keywords, simulate(trace, {base!r}, "
                          f"{own.replace(',', ', ')}), or as ({base!r}, {{...}}) in "
                          f"pagesim.sweep() and pagesim.mrc.mrc()")
    raise _args.unknown("policy", name, known)


def is_python_policy(policy: Any) -> bool:
    return isinstance(policy, _core.Policy) or (isinstance(policy, str) and policy in _registry)


def check_policy(policy: _core.Policy) -> None:
    missing = [m for m in _REQUIRED if getattr(type(policy), m, None) is None
               or getattr(type(policy), m) is getattr(_core.Policy, m, None)]
    if missing:
        raise ConfigError(f"policy class {type(policy).__name__} must implement {', '.join(missing)}")
    for name in _REQUIRED + _OPTIONAL:
        if name in dir(type(policy)) and not callable(getattr(policy, name)):
            raise ConfigError(f"{type(policy).__name__}.{name} must be a method, got "
                              f"{type(getattr(policy, name)).__name__}: define it"
                              + (" or leave it out" if name in _OPTIONAL else ""))
    traits = policy.traits() if callable(policy.traits) else policy.traits
    if not isinstance(traits, PolicyTraits):
        raise ConfigError(f"{type(policy).__name__}.traits must be a pagesim.PolicyTraits or a method "
                          f"that returns one, got {type(traits).__name__}")
    if getattr(type(policy), "on_hit", None) is not None:
        if not traits.needs_hits:
            warnings.warn(f"{type(policy).__name__}.on_hit is never called: its traits do not set "
                          "needs_hits=True (hits then only set the referenced bit)", stacklevel=4)


def label(policy: Union[str, _core.Policy]) -> str:
    if isinstance(policy, str):
        return policy
    return getattr(policy, "policy_name", None) or type(policy).__name__


def split_params(name: str, factory: PolicyFactory, params: Dict[str, Any]):
    """(engine params, policy params) for a registered Python policy; unknown keys raise."""
    engine_keys = set(_core.engine_parameter_names())
    engine = {k: v for k, v in params.items() if k in engine_keys}
    own = {k: v for k, v in params.items() if k not in engine_keys}
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return engine, own
    try:
        signature.bind(**own)
    except TypeError:
        known = sorted(engine_keys | {p.name for p in signature.parameters.values()
                                      if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)})
        bad = next((k for k in own if k not in signature.parameters), None)
        if bad is not None:
            raise _args.unknown("parameter", bad, known, context=f" for policy '{name}'") from None
        missing = [p.name for p in signature.parameters.values()
                   if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                   and p.name not in own]
        what = (f"missing parameter{'s' if len(missing) > 1 else ''} "
                f"{', '.join(repr(m) for m in missing)}" if missing
                else f"bad parameters {sorted(own)}")
        raise ConfigError(f"policy '{name}': {what}; the factory's signature is {signature}") from None
    return engine, own


def make(policy: Union[str, _core.Policy], params: Dict[str, Any]):
    """(policy instance, engine params) for a Python policy given by instance or name."""
    if isinstance(policy, str):
        factory = _registry[policy]
        engine, own = split_params(policy, factory, params)
        instance = factory(**own)
        if not isinstance(instance, _core.Policy):
            raise ConfigError(f"the factory of policy '{policy}' returned {type(instance).__name__}, "
                              "not a pagesim.Policy")
        if not getattr(instance, "name", ""):
            try:
                instance.name = policy
            except AttributeError:
                pass
        return instance, engine
    return policy, dict(params)


def simulate_python(trace: _core.Trace, policy: Union[str, _core.Policy], params: Dict[str, Any]):
    instance, engine = make(policy, params)
    check_policy(instance)
    return _core.simulate_policy(trace, instance, engine, label(policy if isinstance(policy, str) else instance))
