"""The two tables `make bench` prints: mpigen beside its peers, and mpigen's growth with its input.

A row holds what was measured and its goal; it says itself whether the goal is met. A row that
could not be measured (a peer not installed) is NOT MET, with the reason; a row with no goal (the
floor) says `-`.
"""

from __future__ import annotations

from dataclasses import dataclass

PEER_HEADER = ["| benchmark | mpigen | peer | ratio | CPU mpigen / peer | goal | |",
               "|---|---|---|---|---|---|---|"]
GROWTH_HEADER = ["| growth | input | 10x input | time ratio | peak RSS | goal | |",
                 "|---|---|---|---|---|---|---|"]


@dataclass
class Row:
    """mpigen (``ours``, median wall seconds) beside a peer (``peer_name``), or alone.

    Beside a peer the goal is ``ours <= limit * peer`` (and, with ``cpu_limit``, the same for the
    median CPU seconds in ``cpu``); alone, ``ours < limit`` seconds. ``limit`` None: a row with no
    goal (the floor). A time of None: not measured, ``note`` says why, and the goal is not met."""

    name: str
    ours: float | None
    peer: float | None = None
    peer_name: str = ""
    limit: float | None = None
    cpu: tuple[float, float] | None = None  # median CPU seconds of mpigen and of the peer
    cpu_limit: float | None = None
    extra_goal: str = ""  # a further goal, said in words ...
    extra_met: bool = True  # ... and whether it holds
    note: str = ""

    @property
    def met(self) -> bool | None:
        """True or False against the goal; None for a row without one."""
        if self.ours is None:
            return False
        if self.limit is None:
            return None
        if not self.peer_name:
            return self.ours < self.limit and self.extra_met
        if self.peer is None:
            return False
        wall_ok = self.ours <= self.limit * self.peer
        cpu_ok = self.cpu_limit is None or (self.cpu is not None and self.cpu[0] <= self.cpu_limit * self.cpu[1])
        return wall_ok and cpu_ok and self.extra_met

    def goal(self) -> str:
        if self.limit is None:
            return "- (floor)" if self.peer_name else "-"
        if not self.peer_name:
            text = f"< {self.limit:g} s"
        elif self.cpu_limit is None:
            text = f"<= {self.limit:.2f}x wall"
        elif self.cpu_limit == self.limit:
            text = f"<= {self.limit:.2f}x wall and CPU"
        else:
            text = f"<= {self.limit:.2f}x wall, CPU <= {self.cpu_limit:.2f}x"
        return text + (f", {self.extra_goal}" if self.extra_goal else "")

    def line(self) -> str:
        ours = "-" if self.ours is None else f"{self.ours:.3f} s"
        peer = f"{self.peer:.3f} s" if self.peer is not None else "-"
        ratio = (f"{self.ours / self.peer:.2f}x {self.peer_name}"
                 if self.ours is not None and self.peer else "-")
        cpu = (f"{self.cpu[0]:.3f} s / {self.cpu[1]:.3f} s = {self.cpu[0] / self.cpu[1]:.2f}x"
               if self.cpu and self.cpu[1] else "-")
        return f"| {self.name} | {ours} | {peer} | {ratio} | {cpu} | {self.goal()} | {verdict(self.met, self.note)} |"


@dataclass
class GrowthRow:
    """mpigen on an input and on one ten times larger: the time ratio (goal ``<= limit``) and,
    with ``rss_limit``, the ratio of the peak RSS (MiB) in ``rss``. A time of None: not
    measured, ``note`` says why, and the goal is not met; unless ``elsewhere``: the row's figures
    come from another group that did not run (no verdict)."""

    name: str
    small: str
    large: str
    small_s: float | None
    large_s: float | None
    limit: float = 11.0
    rss: tuple[int, int] | None = None
    rss_limit: float | None = None
    note: str = ""
    elsewhere: bool = False

    @property
    def met(self) -> bool | None:
        if self.small_s is None or self.large_s is None:
            return None if self.elsewhere else False
        rss_ok = self.rss_limit is None or (self.rss is not None and self.rss[1] <= self.rss_limit * self.rss[0])
        return self.large_s <= self.limit * self.small_s and rss_ok

    def line(self) -> str:
        small = f"{self.small}: {self.small_s:.3f} s" if self.small_s is not None else self.small
        large = f"{self.large}: {self.large_s:.3f} s" if self.large_s is not None else self.large
        ratio = f"{self.large_s / self.small_s:.2f}x" if self.small_s and self.large_s is not None else "-"
        rss = f"{self.rss[0]} / {self.rss[1]} MiB = {self.rss[1] / self.rss[0]:.2f}x" if self.rss else "-"
        goal = f"<= {self.limit:g}x time" + (f", peak <= {self.rss_limit:g}x" if self.rss_limit else "")
        return f"| {self.name} | {small} | {large} | {ratio} | {rss} | {goal} | {verdict(self.met, self.note)} |"


def verdict(met: bool | None, note: str = "") -> str:
    word = "-" if met is None else "met" if met else "NOT MET"
    return f"{word} {note}".rstrip()


def report(rows: list[Row], growth: list[GrowthRow]) -> tuple[list[str], bool]:
    """The tables' lines, and whether every goal was met (a row with no goal counts neither way)."""
    lines: list[str] = []
    if rows:
        lines += PEER_HEADER + [row.line() for row in rows]
    if growth:
        lines += ([""] if lines else []) + GROWTH_HEADER + [row.line() for row in growth]
    return lines, all(row.met is not False for row in [*rows, *growth])
