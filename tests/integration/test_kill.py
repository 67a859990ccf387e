"""Atomic output under SIGKILL: ``mpigen build SPEC -o DIR`` killed at any moment leaves the old
tree or the new one, never a mix, and never touches a file it did not write.

Two specs name the same job but produce different trees (different environments, so different
overlay folders, and a different image). Each round builds the other spec over the current tree
in a subprocess and SIGKILLs it after a seeded random delay, then checks:

- the tree is exactly the old tree or exactly the new one (every file's bytes and every folder);
- the files of the user's in the tree (a README at the top, a note inside ``base/``, a folder of
  their own) are the same inodes with the same content and timestamps;
- what a recursive reader of the output folder takes for manifests (every ``*.yaml``, ``*.yml``
  and ``*.json`` below it, hidden folders included, as ``kubectl apply -R -f DIR`` reads them) is
  exactly the old tree's or the new tree's: no staging folder inside it holds such a file;
- a complete build then succeeds, the tree is exactly that spec's, and no staging folder remains,
  neither inside the output folder nor beside it.

The specs have many environments so that writing takes long enough to be hit: the delays are
drawn mostly inside the write window measured beforehand (from the staging folder's appearance
to its disappearance), the rest anywhere in the run. How many kills landed before, during and
after the write is printed (``pytest -s``) and recorded as user properties; a run in which no
kill landed mid-write fails, since it would have proved nothing.

The subprocess imports mpigen, prints ``ready`` and waits for its arguments on stdin, so that
the delay is measured from the start of the build itself rather than from interpreter startup
(and the next round's process warms up while this round is checked). Every fifth round forces
the writer's fallback for systems without ``renameat2(RENAME_EXCHANGE)`` (two renames): there a
kill between the renames may leave the tree absent with the old tree parked beside it, which the
next build must put back; that state is accepted, and counted, only for those rounds (the old
tree is parked beside the output folder: a reader of the output folder then finds no manifest).

Rounds: ``MPIGEN_KILL_ROUNDS`` (default 15; ``make fuzz`` runs 100). Seed: ``MPIGEN_KILL_SEED``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml

from mpigen.main import main
from tests.golden.cases import ROOT

ROUNDS = int(os.environ.get("MPIGEN_KILL_ROUNDS") or 15)
SEED = int(os.environ.get("MPIGEN_KILL_SEED") or 20_240_611)
JOB = "killjob"
STAGING = f".{JOB}.mpigen-staging-"
FALLBACK_EVERY = 5

WORKER = r"""
import sys
from mpigen.main import main
import mpigen.spec.schema as schema, mpigen.emit.writer as writer
import mpigen.pipeline, mpigen.render.kustomize, mpigen.load.yaml_loader  # noqa: F401  (warm imports)
schema.fast_validator_for(schema.SPEC_SCHEMA)
if sys.argv[1] == "fallback":
    writer._exchange = lambda a, b: False
print("ready", flush=True)
args = sys.stdin.readline().rstrip("\n").split("\0")
sys.exit(main(args))
"""


def _spec(environments: list[str], image: str, workers: int) -> str:
    base = yaml.safe_load((ROOT / "specs" / "scheduler-plugins-envs.yaml").read_text())
    base["metadata"]["name"] = JOB
    base["spec"]["image"] = image
    base["spec"]["workers"] = workers
    base["spec"]["environments"] = {
        name: {"workers": i + 1, "env": {"STAGE": name}, "resources": {"memory": f"{i + 1}Gi"}}
        for i, name in enumerate(environments)}
    return yaml.safe_dump(base, sort_keys=False)


def snapshot(tree: Path) -> dict[str, object]:
    """Every folder and file under ``tree``: relative path -> "dir" or the file's bytes."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(tree):
        rel = Path(dirpath).relative_to(tree)
        for name in dirnames:
            out[(rel / name).as_posix() + "/"] = "dir"
        for name in filenames:
            out[(rel / name).as_posix()] = (Path(dirpath) / name).read_bytes()
    return out


def staging_folders(out: Path) -> list[str]:
    """The job's staging folders inside ``out`` (by name) and beside it (``../name``)."""
    inside = [p.name for p in out.iterdir() if p.name.startswith(STAGING)] if out.is_dir() else []
    beside = [f"../{p.name}" for p in out.parent.iterdir() if p.name.startswith(f".{out.name}{STAGING}")]
    return sorted(inside + beside)


MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def reader_view(folder: Path) -> dict[str, bytes]:
    """What ``kubectl apply -R -f folder`` reads: every file below it with a manifest suffix,
    hidden folders included (relative path -> bytes)."""
    out = {}
    for dirpath, _dirnames, filenames in os.walk(folder):
        for name in filenames:
            if name.endswith(MANIFEST_SUFFIXES):
                path = Path(dirpath) / name
                out[path.relative_to(folder).as_posix()] = path.read_bytes()
    return out


FOREIGN = {"README.md": b"# my notes\nkeep me\n", "base/NOTES.txt": b"hand written\x00\xff\n",
           "mine/deep/keep.yaml": b"kind: Whatever\n"}


def _foreign_state(tree: Path) -> dict[str, tuple[int, bytes, int]]:
    state = {}
    for rel in FOREIGN:
        st = (tree / rel).stat()
        state[rel] = (st.st_ino, (tree / rel).read_bytes(), st.st_mtime_ns)
    return state


class Warm:
    """A subprocess with mpigen imported, waiting for the arguments of its build."""

    def __init__(self, fallback: bool):
        self.fallback = fallback
        env = dict(os.environ)
        env.pop("MPIGEN_DEBUG", None)
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, "fallback" if fallback else "exchange"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=ROOT, env=env)
        self.ready = False

    def start(self, args: list[str]) -> float:
        if not self.ready:
            line = self.proc.stdout.readline()
            assert line == b"ready\n", line + self.proc.stderr.read()
            self.ready = True
        self.proc.stdin.write(("\0".join(args) + "\n").encode())
        self.proc.stdin.flush()
        return time.monotonic()

    def kill(self) -> int:
        try:
            self.proc.send_signal(signal.SIGKILL)  # a no-op once the process has ended
        except ProcessLookupError:  # pragma: no cover - already gone
            pass
        code = self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:  # a broken pipe to a killed process
                pass
        return code

    def wait(self) -> tuple[int, bytes]:
        _, err = self.proc.communicate()
        return self.proc.returncode, err


def _timeline(spec: Path, out: Path, rounds: int = 2) -> tuple[float, float, float]:
    """From the start of a build over an existing tree: when staging appears, when it is gone,
    when the process exits (the longest of a few runs, in seconds)."""
    appear = gone = end = 0.0
    for _ in range(rounds):
        worker = Warm(fallback=False)
        start = worker.start(["build", str(spec), "-o", str(out)])
        seen_at = gone_at = None
        while worker.proc.poll() is None:
            now = time.monotonic() - start
            present = bool(staging_folders(out))
            if present and seen_at is None:
                seen_at = now
            if not present and seen_at is not None and gone_at is None:
                gone_at = now
            time.sleep(0.0005)
        exit_at = time.monotonic() - start
        code, err = worker.wait()
        assert code == 0, err.decode()
        appear = max(appear, seen_at if seen_at is not None else exit_at * 0.5)
        gone = max(gone, gone_at if gone_at is not None else exit_at)
        end = max(end, exit_at)
    return appear, gone, end


def test_kill_at_random_points_leaves_old_or_new_tree(tmp_path: Path, capsys, record_property) -> None:
    specs = {"a": tmp_path / "a.yaml", "b": tmp_path / "b.yaml"}
    specs["a"].write_text(_spec([f"env-{i:03d}" for i in range(80)], "registry.example.com/a:1", 2))
    specs["b"].write_text(_spec([f"stage-{i:03d}" for i in range(60)], "registry.example.com/b:2", 3))

    # The exact trees each spec produces, built in clean folders.
    expected = {}
    for key, spec in specs.items():
        assert main(["build", str(spec), "-o", str(tmp_path / f"clean-{key}")]) == 0, capsys.readouterr().err
        expected[key] = snapshot(tmp_path / f"clean-{key}" / JOB)
    assert expected["a"] != expected["b"]

    out = tmp_path / "out"
    tree = out / JOB
    assert main(["build", str(specs["a"]), "-o", str(out)]) == 0, capsys.readouterr().err
    for rel, content in FOREIGN.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_bytes(content)
    foreign = _foreign_state(tree)
    foreign_dirs = {"mine/": "dir", "mine/deep/": "dir"}

    def with_foreign(key: str) -> dict[str, object]:
        return {**expected[key], **{rel: content for rel, content in FOREIGN.items()}, **foreign_dirs}

    def seen_by_readers(key: str) -> dict[str, object]:
        return {f"{JOB}/{rel}": content for rel, content in with_foreign(key).items()
                if rel.endswith(MANIFEST_SUFFIXES)}

    assert snapshot(tree) == with_foreign("a")
    windows = {}
    for key, other in (("b", "a"), ("a", "b")):  # each spec built over the other's tree
        windows[key] = _timeline(specs[key], out)
        assert main(["build", str(specs[other]), "-o", str(out)]) == 0  # back to the other
    assert main(["build", str(specs["a"]), "-o", str(out)]) == 0
    assert snapshot(tree) == with_foreign("a")

    def fallback_round(n: int) -> bool:
        return n % FALLBACK_EVERY == FALLBACK_EVERY - 1

    rng = random.Random(SEED)
    outcomes: Counter[str] = Counter()
    current = "a"
    warms: list[Warm] = []

    def new_warm(n: int) -> Warm:
        warms.append(Warm(fallback=fallback_round(n)))
        return warms[-1]

    warm = new_warm(0)
    try:
        for round_ in range(ROUNDS):
            target = "b" if current == "a" else "a"
            fallback = warm.fallback
            appear, gone, end = windows[target]
            if rng.random() < 0.8:  # mostly inside the write window
                delay = rng.uniform(appear * 0.9, gone)
            else:
                delay = rng.uniform(0, end * 1.1)
            start = warm.start(["build", str(specs[target]), "-o", str(out)])
            time.sleep(max(0.0, start + delay - time.monotonic()))
            code = warm.kill()
            warm = new_warm(round_ + 1)  # warms up while this round is checked

            staged = staging_folders(out)
            state = snapshot(tree) if tree.exists() else None
            view = reader_view(out)
            if state == with_foreign(current):
                landed = "mid-write" if staged else "before the write"
            elif state == with_foreign(target):
                landed = "after the swap, cleaning up" if staged else ("completed" if code == 0 else "after the write")
            elif state is None and fallback:
                parked = [name for name in staged if f"{STAGING}old-" in name]
                assert parked and snapshot(out / parked[0] / JOB) == with_foreign(current), \
                    f"round {round_}: tree absent and the old tree is not parked intact: {staged}"
                assert view == {}, f"round {round_}: a reader of the output folder sees manifests of no tree"
                landed = "between the fallback's renames"
            else:
                diff = sorted(set(state or {}) ^ set(with_foreign(current))) if state else "absent"
                pytest.fail(f"round {round_} (delay {delay:.4f}s, exit {code}, fallback {fallback}): the tree is "
                            f"neither the old nor the new one; staging {staged}; differs from the old in {diff}")
            if state is not None:
                assert view in (seen_by_readers(current), seen_by_readers(target)), (
                    f"round {round_} ({landed}): a reader of the output folder sees manifests of neither tree, "
                    f"e.g. {sorted(set(view) ^ set(seen_by_readers(current)))[:3]}")
            outcomes[landed] += 1
            if state is not None:
                assert _foreign_state(tree) == foreign, f"round {round_}: a file of the user's was touched"

            # The next complete build puts things right: exactly the new tree, nothing stale.
            assert main(["build", str(specs[target]), "-o", str(out)]) == 0, capsys.readouterr().err
            assert snapshot(tree) == with_foreign(target), f"round {round_}: wrong tree after a complete build"
            assert staging_folders(out) == [], f"round {round_}: stale staging folders remain"
            assert reader_view(out) == seen_by_readers(target)
            assert sorted(p.name for p in out.iterdir()) == [JOB]
            assert _foreign_state(tree) == foreign, f"round {round_}: a file of the user's was touched"
            current = target
    finally:  # no process is left waiting for its arguments
        for process in warms:
            process.kill()

    summary = ", ".join(f"{n} {what}" for what, n in outcomes.most_common())
    windows_text = ", ".join(f"{k}: write {a * 1000:.0f}-{g * 1000:.0f} ms of {e * 1000:.0f} ms"
                             for k, (a, g, e) in sorted(windows.items()))
    with capsys.disabled():
        print(f"\nkill test: {ROUNDS} rounds (seed {SEED}; {windows_text}): {summary}")
    record_property("kill_outcomes", dict(outcomes))
    assert outcomes["mid-write"] >= 1, f"no kill landed while the tree was being written: {summary}"


@pytest.mark.parametrize("mode", ["first", "exchange", "fallback"])
def test_the_swap_is_flushed_to_disk_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    """Power loss rather than SIGKILL: every file and folder of the new tree is fsynced before the
    swap (or the disk could hold the swap and not the content), and the folder holding the trees
    after it (or the swap itself could be lost once the build has reported success)."""
    from mpigen.emit import writer

    events: list[tuple[str, str]] = []
    real_fsync, real_rename, real_exchange = os.fsync, os.rename, writer._exchange

    def fsync(fd: int) -> None:
        events.append(("fsync", os.path.realpath(os.readlink(f"/proc/self/fd/{fd}"))))
        real_fsync(fd)

    def rename(a, b) -> None:
        events.append(("rename", os.path.realpath(b)))
        real_rename(a, b)

    def exchange(a: Path, b: Path) -> bool:
        if mode == "fallback":
            return False
        events.append(("exchange", os.path.realpath(b)))
        return real_exchange(a, b)

    out = tmp_path / "out"
    files = {"kustomization.yaml": "a\n", "base/mpijob.yaml": "b\n", "overlays/prod/patch.yaml": "c\n"}
    if mode != "first":
        writer.write_tree(out, JOB, {"kustomization.yaml": "old\n", "base/x.yaml": "x\n"})
        (out / JOB / "README.md").write_text("mine\n")  # carried over as a hard link
    monkeypatch.setattr(writer.os, "fsync", fsync)
    monkeypatch.setattr(writer.os, "rename", rename)
    monkeypatch.setattr(writer, "_exchange", exchange)
    writer.write_tree(out, JOB, files)

    target = os.path.realpath(out / JOB)
    swap = max(i for i, (kind, path) in enumerate(events) if kind != "fsync" and path == target)
    before = {path for kind, path in events[:swap] if kind == "fsync"}
    staged = {path for kind, path in events[:swap] if kind == "fsync" and STAGING in path}
    tree = {str(p.relative_to(out / JOB)) for p in (out / JOB).rglob("*")} | {"."}
    flushed = {os.path.relpath(p, os.path.commonpath(sorted(staged, key=len)[:1] * 2)).removesuffix(writer.STAGED)
               for p in staged}  # a file is flushed as it is written, under its staged name
    assert tree - {"README.md"} <= flushed, (tree, flushed)  # the user's file is an old inode, already on disk
    assert ("fsync", os.path.realpath(out)) in events[swap + 1:], events[swap:]
    assert before  # nothing flushed before the swap would pass the check above vacuously
