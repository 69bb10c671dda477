"""Checks of plain Python arguments in the engine's words: a bad value is a ConfigError that
names the key and what is allowed, not a TypeError from the binding, nor a value that int()
or bool() silently changed (2.7 frames, free_on_exit="false")."""
import difflib
import math
import numbers
from typing import Sequence

import numpy as np

from . import _core

INT64_MAX = 2**63 - 1

# A policy with its own parameters as the command line and sweep()'s labels write it: a name,
# optionally followed by KEY=VALUE,... in parentheses ("random(seed=7)").
POLICY_ENTRY = r"([\w.-]+)(?:\(([^()]*)\))?"


def integer(key: str, value, lo: int, hi: int = INT64_MAX) -> int:
    """``value`` as an int from ``lo`` to ``hi``: an int or numpy integer, not a bool or float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise _core.ConfigError(f"parameter '{key}' must be an integer, got {type(value).__name__} {value!r}")
    v = int(value)
    if not lo <= v <= hi:
        raise _core.ConfigError(f"parameter '{key}' = {v} is out of range: allowed {lo} to {hi}")
    return v


def boolean(key: str, value) -> bool:
    """``value`` as a bool: True or False (or a numpy bool), not a string or a number."""
    if not isinstance(value, (bool, np.bool_)):
        raise _core.ConfigError(f"parameter '{key}' must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def choice(key: str, value, allowed: Sequence[str]) -> str:
    """``value`` as one of the strings ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        raise _core.ConfigError(f"parameter '{key}' = {value!r} is not allowed: choose one of "
                                f"{', '.join(allowed)}")
    return value


def positive(key: str, value) -> float:
    """``value`` as a finite float above 0."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)) \
            or not 0 < value < math.inf:
        raise _core.ConfigError(f"parameter '{key}' must be a finite number above 0, got {value!r}")
    return float(value)


def unknown(what: str, name: str, known: Sequence[str], listed: str = "known",
            context: str = "") -> _core.ConfigError:
    """The error for a name not among ``known``, with the closest one and all of them:
    ``unknown policy 'lur': did you mean 'lru'? (known: ...)``; ``context`` follows the name."""
    msg = f"unknown {what} {name!r}{context}"
    near = difflib.get_close_matches(name, known, n=1)
    if near:
        msg += f": did you mean {near[0]!r}?"
    return _core.ConfigError(f"{msg} ({listed}: {', '.join(known)})")
