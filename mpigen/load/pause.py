"""Stage 1, load: the garbage collector paused while a text is read.

Reading builds millions of objects (PyYAML's nodes and marks, the data) and frees none, so the
collections their allocations trigger find nothing, yet each traverses what was built so far:
for a cluster's ``kubectl get -o yaml`` of 21 MB, three quarters of the reading time. What is read
holds no reference cycle. A large text's objects are then frozen (``gc.freeze``): kept for the
rest of the run, they would otherwise be traversed again by every full collection after it.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

FREEZE_FROM = 1 << 20
"""Characters of a text from which what is alive once it is read is frozen."""


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """No collection inside; with ``freeze``, what is alive at the end is frozen. As it was after
    (a collector that was off stays off)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            if freeze:
                gc.freeze()
            gc.enable()
