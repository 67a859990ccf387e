"""Processes the cluster starts, known by PID and start time, and bounded waits on them.

A process is recorded with its PID and the start time the kernel gives it (field 22 of
/proc/PID/stat), so that stopping the cluster signals exactly the processes it started: never a
later process that happens to reuse a PID. Every wait has a deadline and, when it fails, says why
with the tail of the component's log.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable


class ClusterError(Exception):
    """Something of the cluster did not come up (or down); the message says what and shows logs."""


@dataclass(frozen=True)
class Proc:
    name: str
    pid: int
    start_time: str
    log: str
    argv: tuple[str, ...]

    def alive(self) -> bool:
        return _start_time(self.pid) == self.start_time

    def tail(self, lines: int = 25) -> str:
        try:
            text = Path(self.log).read_text(errors="replace").splitlines()[-lines:]
        except OSError:
            return f"({self.log}: no log)"
        return "\n".join(f"  | {line}" for line in text)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Proc:
        return cls(data["name"], data["pid"], data["start_time"], data["log"], tuple(data["argv"]))


def _start_time(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "
    if fields[0] == "Z":
        return None  # a zombie has exited
    return fields[19]  # field 22 overall: starttime


def start(name: str, argv: list[str], logs: Path, env: dict[str, str] | None = None) -> Proc:
    """Start ARGV in its own session, its output in LOGS/NAME.log, and record it."""
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"{name}.log"
    with open(log, "ab") as out:
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True, env=env, close_fds=True)
    started = _start_time(child.pid)
    if started is None:
        raise ClusterError(f"{name} exited at once:\n{Proc(name, child.pid, '', str(log), tuple(argv)).tail()}")
    return Proc(name, child.pid, started, str(log), tuple(argv))


def stop(procs: list[Proc], timeout: float = 15.0) -> list[str]:
    """SIGTERM each process that is still the one recorded, then SIGKILL what remains after TIMEOUT.
    Returns the names of the processes it signalled."""
    signalled = []
    for proc in reversed(procs):
        if proc.alive():
            try:
                os.kill(proc.pid, signal.SIGTERM)
                signalled.append(proc.name)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + timeout
    while any(p.alive() for p in procs) and time.monotonic() < deadline:
        time.sleep(0.1)
    for proc in procs:
        if proc.alive():
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 5
    while any(p.alive() for p in procs) and time.monotonic() < deadline:
        time.sleep(0.05)
    return signalled


def wait_for(what: str, check: Callable[[], bool], timeout: float, watch: list[Proc],
             interval: float = 0.25) -> None:
    """Poll CHECK until it is true; fail after TIMEOUT seconds, or at once when a watched process
    has exited, with the log tail of the watched processes."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - a check that cannot connect yet is simply not ready
            pass
        dead = [p for p in watch if not p.alive()]
        if dead or time.monotonic() >= deadline:
            why = f"{', '.join(p.name for p in dead)} exited" if dead else f"not ready after {timeout:.0f} s"
            tails = "\n".join(f"{p.name} ({p.log}):\n{p.tail()}" for p in (dead or watch))
            raise ClusterError(f"{what}: {why}\n{tails}")
        time.sleep(interval)


def free_ports(count: int) -> list[int]:
    """COUNT distinct TCP ports on 127.0.0.1 that are free now (held open together while chosen)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def listening_addresses(pid: int) -> set[tuple[str, int]]:
    """The (address, port) pairs PID listens on over TCP, from /proc (IPv4 and IPv6)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = set()
    for table, width in (("tcp", 8), ("tcp6", 32)):
        try:
            rows = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if cols[3] != "0A" or cols[9] not in inodes:  # 0A: LISTEN
                continue
            address, port = cols[1].split(":")
            found.add((_address(address, width), int(port, 16)))
    return found


def _address(hex_address: str, width: int) -> str:
    raw = bytes.fromhex(hex_address)
    if width == 8:
        return socket.inet_ntop(socket.AF_INET, raw[::-1])
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
    return socket.inet_ntop(socket.AF_INET6, words)
