"""How much work a call does, counted rather than timed: a test's verdict never depends on how
busy the machine is. :func:`lines_run` counts the lines of Python a call executes (every line of
every function, comprehensions included, as ``sys.settrace`` reports them); a loop over N items
of Python runs at least N lines more. What C does (big-number arithmetic, ``str.join``) is not
counted, which is what the tests that use it want to tell apart from a loop of Python."""

from __future__ import annotations

import sys
from typing import Any, Callable


def lines_run(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, int]:
    """``function(*args, **kwargs)`` and the number of lines of Python it executed."""
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def start(frame: Any, event: str, arg: Any) -> Any:
        return local

    previous = sys.gettrace()
    sys.settrace(start)
    try:
        result = function(*args, **kwargs)
    finally:
        sys.settrace(previous)
    return result, count
